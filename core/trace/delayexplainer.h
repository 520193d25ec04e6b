#pragma once

#include "collector.h"
#include "cpubudget.h"
#include "kerneltracebuffer.h"
#include "missexplanation.h"
#include "schedevent.h"
#include "taskthread.h"
#include "tracewindowsaver.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace latprobe {

// The flight recorder's explaining half, "who delayed me" (docs/DESIGN.md):
// it owns the kernel's buffer (KernelTraceBuffer) and a thread of its own
// (lp-explain) that reads the buffer back when the collector has misses to
// explain, replays each (missreplay.h) and names the tasks it finds: their
// policy, and the load group they belong to. The measuring threads only
// ever push their samples, as they always did.
class DelayExplainer
{
public:
    // What the explanations need to know of the session at the time.
    struct Context
    {
        std::vector<int> tids;                // by consumer: its measuring thread now
        std::vector<std::string> consumers;   // names, by consumer
        std::vector<int64_t> periods;         // ns, by consumer; 0: never explained
        std::map<int, std::string> loadOfPid; // latprobe's load workers and leaders
        std::string preemption;               // the kernel's model
        int64_t runStart = 0;
        // Collector::takeExplainRequests(): where the misses still to come begin.
        int64_t explainableFrom = INT64_MAX;
    };

    // Opens the recorder on `cpus` (empty: all); off, with summary().message
    // saying why, when it cannot.
    explicit DelayExplainer(const std::vector<int> &cpus);
    ~DelayExplainer(); // finishes what runs, then removes the instance

    bool on() const { return m_recorder != nullptr; }
    int markerFd() const { return m_recorder ? m_recorder->markerFd() : -1; }
    // The consumers' measuring threads, by name: see KernelTraceBuffer::followOnly().
    void follow(const std::vector<std::string> &threadNames);
    // Posts the requests to lp-explain.
    void explain(std::vector<Collector::ExplainRequest> requests, Context context);
    // A scenario step without the recorder (ScenarioStep::trace): stops or
    // starts the kernel's recording before it returns.
    void setRecording(bool on);
    // Saves each explained miss's window as trace.dat in `dir` (which
    // exists), at most `maxBytes` in all (TraceWindowSaver); before the
    // first explain(). False when the recorder is off.
    bool saveTraces(const std::string &dir, uint64_t maxBytes);
    // Writes the trace files still under way; returns once they are.
    void finishTraces();
    // Returns once what was posted is explained. The run is over by then:
    // lp-explain leaves SCHED_IDLE first, where it can (CAP_SYS_NICE), so
    // that work saturating the machine does not hold the run's end for as
    // long as it runs.
    void waitIdle();
    std::vector<MissExplanation> explanations() const;
    size_t explainedCount() const; // grows only: what explanations() holds
    TraceSummary summary() const;

    // Events kept past a read: a window that began before it and ends after
    // (a video period, a long stall) finds its start here, since a read
    // consumes the kernel's buffer.
    static constexpr int64_t kKeepNs = 300'000'000;
    // How far before its period start a miss's replay begins: a period of
    // its consumer, which holds the consumer's own last switch, within
    // bounds. What ran at the window's start is the first switch's prev;
    // the lookback is for a quiet machine's trace to begin before the
    // window. A fixed 100 ms was four fifths of what lp-explain parsed
    // under hackbench, where a median window is 21 ms.
    static constexpr int64_t kMinLookbackNs = 10'000'000;
    static constexpr int64_t kMaxLookbackNs = kKeepNs / 3;
    static int64_t lookbackNs(int64_t periodNs)
    {
        return std::clamp(periodNs, kMinLookbackNs, kMaxLookbackNs);
    }
    // How far past its work done the replay goes (to see that the trace went on).
    static constexpr int64_t kPastDoneNs = 1'000'000;
    static constexpr size_t kKeepEvents = 200'000;
    // Room kept from one read to the next while misses may still be asked
    // about: fresh memory costs a page fault per 4 KiB, tens of us each on
    // these VMs, and re-faulting 37,000 kept events at a read was 40 ms of
    // lp-explain's CPU under hackbench x4. It holds what the largest read
    // needed (5 to 9 MB there), and all goes back once none will be asked.
    static constexpr size_t kReuseEvents = kKeepEvents;
    // lp-explain's share of a CPU (CpuBudget): misses asked about while it
    // is spent are left unexplained, and counted (TraceSummary::overBudget).
    static constexpr double kCpuShare = 0.008;
    static constexpr double kCpuBurstS = 0.05;

private:
    void run(const std::vector<Collector::ExplainRequest> &requests, const Context &context);
    // Reads the requests' windows (and what later misses will need) into
    // m_kept.
    struct Read
    {
        size_t events = 0;
        int64_t spanNs = 0;
        int64_t neededFrom = INT64_MAX; // kept for the misses still to come
    };
    Read readWindows(const std::vector<Collector::ExplainRequest> &requests,
                     const Context &context);
    MissExplanation explainRequest(const Collector::ExplainRequest &request,
                                   const Context &context) const;

    void noteTraceTotals(std::vector<MissExplanation> &fresh); // lp-explain, under no lock

    std::unique_ptr<KernelTraceBuffer> m_recorder;
    std::unique_ptr<TraceWindowSaver> m_saver; // lp-explain only, once made
    std::vector<RawPagePtr> m_walked;          // the last read's pages, for m_saver
    std::vector<SchedEvent> m_kept;            // lp-explain only
    CpuBudget m_budget{kCpuShare, kCpuBurstS}; // lp-explain only
    // The budget fills with recorded time only: paused steps (trace_overhead.py
    // alternates them) would otherwise save a full bucket for each recorded one.
    std::atomic<int64_t> m_pausedNs{0};  // paused so far, ended pauses
    std::atomic<int64_t> m_pausedAt{-1}; // when the pause under way began; -1 none
    std::atomic<pid_t> m_tid{0};         // lp-explain's, once it is SCHED_IDLE
    double recordedS() const;            // CLOCK_MONOTONIC less the pauses
    mutable std::mutex m_mutex;
    std::vector<MissExplanation> m_explanations;
    TraceSummary m_summary;
    TaskThread m_thread{"lp-explain"};
};

// "SCHED_FIFO 10", "SCHED_OTHER nice 0": from the kernel's policy when the
// task still lives, else from the prio the trace saw.
std::string describePolicy(int pid, int prio);

} // namespace latprobe
