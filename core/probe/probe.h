#pragma once

#include "collector.h"
#include "consumerconfig.h"
#include "consumersetup.h"
#include "threadparams.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace latprobe {

// The measuring side of a run: per consumer, a thread that sets it up and
// starts a fresh measuring thread for each stretch between pauses; one
// collector thread draining their rings. Shared by the CLI and the GUI.
class Probe
{
public:
    Probe(std::vector<ConsumerConfig> consumers, ThreadParams params);
    ~Probe();
    Probe(const Probe &) = delete;
    Probe &operator=(const Probe &) = delete;

    // Returns once every consumer thread runs with its parameters applied.
    // The measurement itself begins kSettleNs later (collector().runStart()):
    // latprobe's own start-up (loading, reading the system's description,
    // filling the rings) is a burst of CPU in the probe's scheduling group,
    // and under load the scheduler made the group pay it back at its first
    // wakeups: 10-25 ms of latency that was latprobe's, not the machine's
    // (cyclictest_compare under stress-ng --cpu 2, Linux 6.18, EEVDF).
    void start();
    static constexpr int64_t kSettleNs = 250'000'000;
    // How often the collector thread empties the rings. Every wakeup of a
    // thread of latprobe's is CPU taken from the machine it measures (20-60
    // us each on a VM); ten a second keep the GUI's 10 Hz views current. A
    // headless run, which shows nothing in between, drains less often.
    static constexpr int64_t kDrainIntervalNs = 100'000'000;
    void setDrainInterval(int64_t ns) { m_drainIntervalNs = ns; }
    // Makes the next start() begin the periods at a whole second of
    // CLOCK_MONOTONIC plus `offsetNs` (0 <= offsetNs < 1 s), as cyclictest's
    // --secaligned does: two probes given the same offset wake at the same
    // instants, so a side-by-side comparison does not also compare where each
    // happened to fall against the host's timers. -1: start when ready.
    void alignToSecond(int64_t offsetNs) { m_secondOffsetNs = offsetNs; }
    // The first time at or after `earliest` that is a whole second plus
    // `offsetNs`.
    static int64_t nextSecondPlus(int64_t earliest, int64_t offsetNs);
    // Stops the threads, drains the last samples and closes the last phase.
    void stop();
    // Pauses every consumer thread but those named (empty: none paused), as
    // interbench benchmarks one consumer at a time: a paused one finishes its
    // period and then sleeps, using no CPU, until it is measured again; it
    // then starts its periods afresh from that moment. External consumers
    // have no thread here: the collector leaves them out of such a phase.
    void measureOnly(const std::vector<std::string> &consumers);
    // Pauses every consumer thread until measureOnly() names it: however soon
    // that comes, each then starts its periods afresh, on a new thread, as
    // interbench's benchmark does in the new process it forks for each load.
    void pauseAll();
    // How many times a consumer's periods began: once at the start, once
    // more at each resume.
    uint64_t periodStarts(size_t consumer) const { return m_consumers[consumer].periodStarts; }
    bool running() const { return m_running; }
    // The EEVDF slice each measuring thread takes from its next stretch
    // on (a variant's slice_us=), set on the new thread of each; 0: the
    // kernel's default. A thread that cannot take it keeps measuring.
    void setSlice(uint64_t ns) { m_sliceNs = ns; }
    // The flight recorder's trace_marker: each miss is written there by
    // its measuring thread (MissMarker); -1, none. The caller keeps the file
    // open while the probe runs, or sets -1 first.
    void setTraceMarker(int fd) { m_traceMarker = fd; }

    Collector &collector() { return *m_collector; }
    // The ring an External consumer's owner writes to (single writer).
    SpscRing<Sample> &externalRing(size_t consumer) { return m_collector->ring(consumer); }
    // The consumers as configured: the one copy the collector shares.
    const std::vector<ConsumerConfig> &configs() const { return *m_configs; }
    // What each was granted, once started.
    std::vector<ConsumerSetup> setups() const;
    // The thread measuring a consumer now (its samples carry it too), 0
    // between stretches and for External consumers.
    int measuringTid(size_t consumer) const { return m_consumers[consumer].measuringTid; }
    // What a consumer's measuring thread is called: what `ps -L` and the
    // flight recorder's filter see.
    static std::string threadName(const ConsumerConfig &config);
    const ThreadParams &requested() const { return m_params; }

private:
    void consumerMain(size_t index);
    // Runs `stretch` on a new thread named for the consumer and waits for
    // it; on the calling thread if no thread can be made (a spawn storm
    // at the process limit), which measures the same.
    void measureOnFreshThread(size_t index, const std::function<void()> &stretch);
    // After a consumer's loop returned: false once the probe stops.
    bool awaitMeasured(size_t index);
    void pause(size_t index);

    // What one consumer's threads and the probe's callers share.
    struct Consumer
    {
        ConsumerSetup setup; // written by its thread before the go, and at stop()
        // Its loop is to return (paused, or m_stop).
        std::atomic<bool> halt{false};
        // Whether a phase measures it, and how many times it was paused: its
        // thread resumes only once measured with no pause since it looked, so
        // that a pause lifted at once still restarts its periods.
        std::atomic<bool> measured{true};
        std::atomic<uint32_t> pauses{0};
        std::atomic<uint64_t> periodStarts{0};
        std::atomic<int> measuringTid{0};
        LoopCalibration workLoopSpeed, endLoopSpeed; // its thread's, read at stop()
    };

    std::shared_ptr<const std::vector<ConsumerConfig>> m_configs;
    ThreadParams m_params;
    std::deque<Consumer> m_consumers; // a deque: atomics neither move nor copy
    std::unique_ptr<Collector> m_collector;
    std::vector<std::thread> m_threads;
    std::thread m_drainThread;
    std::mutex m_drainMutex; // with m_drainWake: stop() wakes the drain thread
    std::condition_variable m_drainWake;
    std::atomic<bool> m_stop{false};
    std::atomic<uint64_t> m_sliceNs{0};
    std::atomic<int> m_traceMarker{-1};
    std::atomic<int> m_ready{0};
    std::atomic<bool> m_go{false};
    bool m_running = false;
    int64_t m_secondOffsetNs = -1;
    int64_t m_drainIntervalNs = kDrainIntervalNs;
    std::string m_helperBinary; // what the start consumer runs
};

} // namespace latprobe
