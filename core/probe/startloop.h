#pragma once

#include "clock.h"
#include "consumerconfig.h"
#include "missmarker.h"
#include "processstarter.h"
#include "sample.h"
#include "spscring.h"

#include <atomic>

namespace latprobe {

// The `start` consumer: every period, start a tiny process and time its
// first instruction (the sample's latency) and its exit (against the
// deadline: a miss is a slow start, the "killall took 10 seconds" of the
// seeds). Periods a slow start swallowed are skipped, not counted as misses.
class StartLoop
{
public:
    StartLoop(ConsumerConfig config, Clock &clock, ProcessStarter &starter, SpscRing<Sample> &ring);

    uint64_t run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles = UINT64_MAX);

    // Each miss written into the flight recorder's trace after its work
    // (MissMarker); none when null.
    void markMisses(const MissMarker *marker) { m_marker = marker; }

private:
    const ConsumerConfig m_config;
    Clock &m_clock;
    ProcessStarter &m_starter;
    SpscRing<Sample> &m_ring;
    const MissMarker *m_marker = nullptr;
};

} // namespace latprobe
