#include "gameloop.h"

#include <utility>

#include <unistd.h>

namespace latprobe {

GameLoop::GameLoop(ConsumerConfig config, Clock &clock, SpscRing<Sample> &ring)
    : m_config(std::move(config)), m_clock(clock), m_ring(ring)
{}

uint64_t GameLoop::run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles)
{
    const auto tid = static_cast<int32_t>(gettid()); // a syscall: once per stretch
    m_clock.sleepUntil(start);
    uint64_t cycles = 0;
    while (cycles < maxCycles && !stop.load(std::memory_order_relaxed)) {
        Sample s;
        s.tid = tid;
        s.periodStart = m_clock.now() + m_config.workNs;
        s.workDone = m_clock.work(m_config.workNs);
        s.woke = s.done = m_clock.now();
        // Acquire: stop() sets the run's end before it halts.
        if (stop.load(std::memory_order_acquire) &&
            !(m_runEnds && m_runEnds->load(std::memory_order_relaxed)))
            break; // paused meanwhile (setRunEndFlag)
        m_ring.push(s);
        ++cycles;
    }
    return cycles;
}

} // namespace latprobe
