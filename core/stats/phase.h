#pragma once

#include "consumerstats.h"

#include <string>
#include <vector>

namespace latprobe {

// Where a scenario played a phase: its step (0-based) and round (1-based).
struct PhasePlace
{
    int step = -1; // -1: begun by hand
    int round = 0;
    // The consumers the step measures (interbench's one at a time); empty:
    // every consumer. The others are paused and left out of the phase.
    std::vector<std::string> consumers = {};
    // Whether the flight recorder records it (ScenarioStep::trace): the
    // misses of a phase it does not record are never asked about, whatever
    // the thread that drains them, or when.
    bool traced = true;
    // The variant of the system it was played under (docs/scenarios.md,
    // "Variants"); "" in a run without variants.
    std::string variant = {};
};

// A stretch of a run with one set of loads: "idle", "massive_intr x8", ...
struct PhaseResult
{
    std::string name;
    double startS = 0; // since the run started
    double durationS = 0;
    std::vector<std::string> loads; // what was running: each group's KIND:N:key=value
    // Where a scenario played it: its step (0-based) and round (1-based);
    // -1 and 0 for a phase begun by hand.
    int step = -1;
    int round = 0;
    bool traced = true; // false: a step that paused the flight recorder
    // The variant of the system it was played under; "" without variants.
    // Not part of what ran: the same loads under two variants are a pair.
    std::string variant;
    // Why the variants' comparison leaves it out ("round 2: scx_lavd exited
    // mid-round (state: disabled); round left out"); "" when it counts.
    std::string leftOut;
    std::vector<ConsumerStats> consumers;

    // The consumer named so, or nullptr when this phase did not measure it.
    const ConsumerStats *consumer(const std::string &consumerName) const
    {
        for (const ConsumerStats &c : consumers)
            if (c.name == consumerName)
                return &c;
        return nullptr;
    }

    // Every consumer's periods lost, those with a deadline.
    uint64_t misses() const
    {
        uint64_t total = 0;
        for (const ConsumerStats &c : consumers)
            total += c.hasDeadline ? c.misses : 0;
        return total;
    }
};

// One second of one consumer, for the time plots and "last 10 s".
struct SecondBucket
{
    int64_t maxUs = -1; // -1: no sample in that second
    uint32_t samples = 0;
    uint32_t misses = 0;
};

// A tenth of a second of one consumer: the live plots' resolution.
struct FineBucket
{
    static constexpr int64_t kNs = 100'000'000;
    int64_t index = 0;  // (woke - run start) / 100 ms
    int64_t maxUs = -1; // -1: no sample
    uint32_t misses = 0;
};

struct MissEvent
{
    double timeS = 0; // since the run started
    std::string consumer;
    int64_t latenessUs = 0; // past the deadline
    uint32_t periodsLost = 0;
    std::string phase;
};

} // namespace latprobe
