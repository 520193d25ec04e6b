#pragma once

#include "consumertable.h"
#include "phase.h"

#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

// A consumer's one figure over some phases (ConsumerTraits::summary): what
// the window's phase table, the run library and `latprobe runs` show in its
// column. A consumer becomes a column by its row in the consumer table.
struct ConsumerSummary
{
    const ConsumerTraits *traits = nullptr;
    bool measured = false; // some phase measured it
    uint64_t misses = 0;   // summed over the phases
    int64_t p99Us = -1;    // the worst phase's; -1: no sample
    // "12", "0.421" (ms for a p99), "–" when not measured.
    std::string text() const;
    // For sorting: misses, or the p99 in µs; -1 when not measured.
    double value() const;
};

// One summary per consumer of the table that has a summary figure, in the
// table's order, over `phases` (imported names such as "wakeup#2" count as
// their role's).
std::vector<ConsumerSummary> summarizeConsumers(const std::vector<PhaseResult> &phases);
std::vector<ConsumerSummary> summarizeConsumers(const PhaseResult &phase);

} // namespace latprobe
