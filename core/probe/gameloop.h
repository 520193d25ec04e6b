#pragma once

#include "clock.h"
#include "consumerconfig.h"
#include "sample.h"
#include "spscring.h"

#include <atomic>
#include <cstdint>

namespace latprobe {

// interbench's Gaming (emulate_game() in interbench.c): burns its work back to
// back and never sleeps, as a game with an unlocked frame rate does. No
// deadline: a burn that ends later than its work would take with the whole
// CPU is late by that much, and the CPU it got is its work over its work plus
// that lateness. A sample's period start is when the burn would have ended,
// its wake when it did.
class GameLoop
{
public:
    GameLoop(ConsumerConfig config, Clock &clock, SpscRing<Sample> &ring);

    // The first burn begins at `start`.
    uint64_t run(int64_t start, const std::atomic<bool> &stop, uint64_t maxCycles = UINT64_MAX);
    // Set once the whole run ends: a burn `stop` cut short then is the
    // run's last and kept; one cut by a pause (a scenario's next step) is
    // dropped, as its end would fall in a phase that did not ask for it.
    void setRunEndFlag(const std::atomic<bool> *runEnds) { m_runEnds = runEnds; }

private:
    const ConsumerConfig m_config;
    Clock &m_clock;
    SpscRing<Sample> &m_ring;
    const std::atomic<bool> *m_runEnds = nullptr;
};

} // namespace latprobe
