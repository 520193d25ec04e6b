#pragma once

#include "run.h"

#include <string>
#include <vector>

namespace latprobe {

// One consumer of one run in one phase, beside the same in the first run.
struct CompareRow
{
    std::string phase;
    std::string consumer;
    size_t run = 0;
    bool present = false; // the run has this phase and consumer
    uint64_t misses = 0;
    bool hasDeadline = false;
    int64_t p99Us = 0, maxUs = 0;
    double metPct = 100;
    double ratio = 0; // p99 ÷ the first run's p99 (0 when undefined)
};

struct Comparison
{
    std::vector<std::string> runLabels;       // "6.18.44 eevdf", unique per run
    std::vector<std::string> phases;          // in the first run's order, then new ones
    std::vector<std::vector<int>> phaseIndex; // [phase][run]: into run.phases, -1 if absent
    std::vector<CompareRow> rows;
    std::vector<std::string> warnings; // different scenarios, missing phases
};

// Lines runs up by phase name (by position when names differ) and consumer.
Comparison compareRuns(const std::vector<Run> &runs, const std::vector<std::string> &fileNames);

// The 72-column table for an email.
std::string formatComparison(const Comparison &comparison);

} // namespace latprobe
