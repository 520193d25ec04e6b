#pragma once

#include "compare.h"
#include "run.h"

#include <string>
#include <vector>

namespace latprobe {

// A run that played two or more variants of the system in turns
// (docs/scenarios.md, "Variants").
bool hasVariants(const Run &run);

// Each variant's share of the run as a run of its own: its phases (its
// rounds) but those left out (PhaseResult::leftOut), and the misses,
// captures and explanations within them.
std::vector<Run> splitByVariant(const Run &run);

// Every variant against the first, as `latprobe compare` compares runs:
// phases matched by their loads, rounds as the samples, labelled by the
// variants' names.
Comparison compareVariants(const Run &run);

// One round's value of a metric under one variant.
struct RoundValue
{
    int round = 0;      // 1-based
    size_t variant = 0; // into the run's variants
    double value = 0;
};

// Each round's value of `metric` of `consumer` in `phase` (of the comparison
// of `variants`, splitByVariant()'s parts), every variant's: a round read as
// one block, as the verdict reads it once rounds are its samples. A and B of
// one round side by side show whether the turns cancelled the drift.
std::vector<RoundValue> roundValues(const std::vector<Run> &variants, const PhaseComparison &phase,
                                    const std::string &consumer, CompareMetric metric);

// One line per variant after the first, for a mail: "off (autogroup=0)
// worse than on: audio misses/min x4.1 [2.8, 6.0], video p99 +62 % [+31,
// +90]; wakeup ~". A consumer with a change past the noise names each
// metric that changed; changes under their minimum effect are named after
// "small"; a consumer without either says "~". Rounds played until decided
// add their outcome: "decided after 6 of at most 12 rounds".
std::vector<std::string> variantHeadlines(const Run &run, const Comparison &comparison);

} // namespace latprobe
