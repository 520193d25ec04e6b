#include "periodicloop.h"

#include <utility>

#include <unistd.h>

namespace latprobe {

PeriodicLoop::PeriodicLoop(ConsumerConfig config, Clock &clock, SpscRing<Sample> &ring,
                           Waker *waker)
    : m_config(std::move(config)), m_clock(clock), m_ring(ring), m_timer(clock),
      m_waker(waker ? *waker : m_timer)
{}

uint64_t PeriodicLoop::run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles)
{
    // X is interbench's own consumer: its deadlines are interbench's whatever
    // wakes it.
    if (m_config.wake == WakeMethod::Timekeeper || m_config.rampStepNs > 0)
        return runInterbench(start, stop, maxCycles);
    return runLatprobe(start, stop, maxCycles);
}

uint64_t PeriodicLoop::runLatprobe(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles)
{
    const auto tid = static_cast<int32_t>(gettid()); // a syscall: once per stretch
    const int64_t period = m_config.periodNs;
    const int64_t work = m_config.workNs;

    int64_t next = start + period;
    uint64_t cycles = 0;
    while (cycles < maxCycles && !stop.load(std::memory_order_relaxed)) {
        const int64_t woke = m_waker.wakeAt(next).woke;
        if (stop.load(std::memory_order_relaxed))
            break;
        Sample s;
        s.tid = tid;
        s.periodStart = next;
        s.woke = woke;
        if (work > 0) {
            s.workDone = m_clock.work(work);
            s.done = m_clock.now();
        } else {
            s.done = s.woke;
        }
        s.missedDeadline = m_config.hasDeadline() && s.done > next + m_config.slackNs;

        next += period;
        s.periodsSkipped = m_config.skipLostPeriods(next, s.done);
        m_ring.push(s);
        if (s.missedDeadline && m_marker)
            m_marker->mark(s);
        ++cycles;
    }
    return cycles;
}

// interbench's periodic_schedule(), cycle after cycle, in its own terms: a
// cycle works `run`, is due `interval` after `deadline` and sleeps to that;
// emulate_x() then moves `deadline` on by the run (`after`), so X wakes that
// much before the `deadline` its next latency is measured from.
uint64_t PeriodicLoop::runInterbench(int64_t start, const std::atomic<bool> &stop,
                                     uint64_t maxCycles)
{
    const auto tid = static_cast<int32_t>(gettid()); // a syscall: once per stretch
    const bool ibLatency = m_config.wake == WakeMethod::Timekeeper;
    const int64_t step = m_config.rampStepNs;
    const int64_t rampCycles = step > 0 ? m_config.periodNs / step + 1 : 1;

    int64_t deadline = start + m_config.periodNs; // interbench's `deadline`
    int64_t target = deadline;                    // what the wake sleeps to
    bool sleeps = true;
    uint64_t cycles = 0;
    while (cycles < maxCycles && !stop.load(std::memory_order_relaxed)) {
        // X: 0, 1, ... 100 ms of work in 100 ms windows, over and over.
        const int64_t run =
            step > 0 ? static_cast<int64_t>(cycles % rampCycles) * step : m_config.workNs;
        const int64_t interval = step > 0 ? m_config.periodNs - run : m_config.periodNs;
        const int64_t after = step > 0 ? run : 0;

        // After a cycle without a deadline interbench goes on at once.
        const Wake wake = sleeps ? m_waker.wakeAt(target) : Wake{m_clock.now(), 0};
        if (stop.load(std::memory_order_relaxed))
            break;
        Sample s;
        s.tid = tid;
        s.periodStart = target;
        s.woke = wake.woke;
        if (ibLatency)
            s.excusedNs = wake.oversleepNs + (deadline - target);
        int64_t intervals = 0;
        if (interval > 0 && s.woke > deadline + interval) {
            // Past its deadline before it began: no work, every period lost.
            deadline += interval;
            intervals = (s.woke - deadline) / interval + 1;
            deadline += intervals * interval;
            s.done = s.woke;
        } else {
            if (run > 0) {
                s.workDone = m_clock.work(run);
                s.done = m_clock.now();
            } else {
                s.done = s.woke;
            }
            deadline += interval;
            if (deadline < s.done) {
                if (interval > 0) {
                    intervals = (s.done - deadline) / interval + 1;
                    deadline += intervals * interval;
                } else {
                    s.noDeadline = 1;
                    deadline = s.done;
                }
            }
        }
        sleeps = !s.noDeadline;
        if (intervals > 0) {
            s.missedDeadline = 1;
            s.periodsSkipped = static_cast<uint32_t>(intervals - 1);
        }
        if (ibLatency)
            s.lostNs = intervals * interval;
        target = deadline;
        deadline += after;
        m_ring.push(s);
        if (s.missedDeadline && m_marker)
            m_marker->mark(s);
        ++cycles;
    }
    return cycles;
}

} // namespace latprobe
