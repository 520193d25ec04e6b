#include "periodicloop.h"

#include <utility>

namespace latprobe {

PeriodicLoop::PeriodicLoop(ConsumerConfig config, Clock &clock, SpscRing<Sample> &ring)
    : m_config(std::move(config)), m_clock(clock), m_ring(ring)
{}

uint64_t PeriodicLoop::run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles)
{
    const int64_t period = m_config.periodNs;
    const int64_t work = m_config.workNs;
    // A period is lost once it can no longer be served in time: for the
    // wakeup consumer as soon as it has started (cyclictest's resync), for
    // audio and video once its deadline has passed (the buffer can still
    // catch up until then).
    const int64_t lostAfter = m_config.hasDeadline() ? m_config.slackNs : 0;

    int64_t next = start + period;
    uint64_t cycles = 0;
    while (cycles < maxCycles && !stop.load(std::memory_order_relaxed)) {
        const int64_t woke = m_clock.sleepUntil(next);
        if (stop.load(std::memory_order_relaxed))
            break;
        Sample s;
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
        while (next + lostAfter < s.done) {
            next += period;
            ++s.periodsSkipped;
        }
        m_ring.push(s);
        ++cycles;
    }
    return cycles;
}

} // namespace latprobe
