#include "startloop.h"

#include <utility>

#include <unistd.h>

namespace latprobe {

StartLoop::StartLoop(ConsumerConfig config, Clock &clock, ProcessStarter &starter,
                     SpscRing<Sample> &ring)
    : m_config(std::move(config)), m_clock(clock), m_starter(starter), m_ring(ring)
{}

uint64_t StartLoop::run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles)
{
    const auto tid = static_cast<int32_t>(gettid()); // a syscall: once per stretch
    const int64_t period = m_config.periodNs;
    int64_t next = start + period;
    uint64_t cycles = 0;
    while (cycles < maxCycles && !stop.load(std::memory_order_relaxed)) {
        const int64_t woke = m_clock.sleepUntil(next);
        if (stop.load(std::memory_order_relaxed))
            break;
        Sample s;
        s.tid = tid;
        s.periodStart = woke;
        if (!m_starter.start(s.woke, s.done)) {
            // A start that failed outright is as bad as a slow one.
            s.woke = s.done = m_clock.now();
            s.missedDeadline = 1;
            s.failed = 1;
        } else {
            s.missedDeadline = s.done > s.periodStart + m_config.slackNs;
        }
        next += period;
        while (next < s.done)
            next += period;
        m_ring.push(s);
        if (s.missedDeadline && m_marker)
            m_marker->mark(s);
        ++cycles;
    }
    return cycles;
}

} // namespace latprobe
