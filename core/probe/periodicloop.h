#pragma once

#include "clock.h"
#include "consumerconfig.h"
#include "sample.h"
#include "spscring.h"

#include <atomic>
#include <cstdint>

namespace latprobe {

// The measuring loop of a periodic consumer (docs/DESIGN.md, "Consumers").
// Boring on purpose: no allocation, no lock, no logging; what it learns goes
// into its ring.
class PeriodicLoop
{
public:
    PeriodicLoop(ConsumerConfig config, Clock &clock, SpscRing<Sample> &ring);

    // First period starts at `start`+period. Runs until `stop` is set or
    // `maxCycles` cycles are done; returns the cycles run.
    uint64_t run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles = UINT64_MAX);

private:
    const ConsumerConfig m_config;
    Clock &m_clock;
    SpscRing<Sample> &m_ring;
};

} // namespace latprobe
