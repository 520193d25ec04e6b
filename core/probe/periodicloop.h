#pragma once

#include "clock.h"
#include "consumerconfig.h"
#include "missmarker.h"
#include "sample.h"
#include "spscring.h"
#include "waker.h"

#include <atomic>
#include <cstdint>

namespace latprobe {

// The measuring loop of a periodic consumer (docs/DESIGN.md, "Consumers").
// Boring on purpose: no allocation, no lock, no logging; what it learns goes
// into its ring.
class PeriodicLoop
{
public:
    // Woken by its own timer on `clock`, or by `waker` (a Timekeeper).
    PeriodicLoop(ConsumerConfig config, Clock &clock, SpscRing<Sample> &ring,
                 Waker *waker = nullptr);

    // First period starts at `start`+period. Runs until `stop` is set or
    // `maxCycles` cycles are done; returns the cycles run.
    uint64_t run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles = UINT64_MAX);

    // Each miss written into the flight recorder's trace after its work
    // (MissMarker); none when null.
    void markMisses(const MissMarker *marker) { m_marker = marker; }

private:
    uint64_t runLatprobe(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles);
    uint64_t runInterbench(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles);

    const ConsumerConfig m_config;
    Clock &m_clock;
    SpscRing<Sample> &m_ring;
    TimerWaker m_timer;
    Waker &m_waker;
    const MissMarker *m_marker = nullptr;
};

} // namespace latprobe
