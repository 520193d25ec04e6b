#pragma once

#include "comparemetric.h"
#include "run.h"
#include "significance.h"
#include "topdelayers.h"

#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

// benchstat's answer: better, worse, or "~" (no difference beyond the
// noise); "small" when the interval excludes no change but the change is
// under the metric's minimum effect, and "undecided" when it excludes no
// change past that effect but the test does not find the sides different
// at its level (a bootstrap interval, ties, or a look of rounds until
// decided), so "~" never stands beside such an interval.
enum class Verdict { Better, Worse, NoChange, TooFewSamples, Small, Undecided };
// "better", "worse", "~", "too few", "small", "undecided"
const char *toString(Verdict verdict);

inline constexpr double kSignificance = 0.05;
// Rounds are the samples when both runs have at least this many of a
// phase; otherwise its 5 s blocks are.
inline constexpr size_t kMinRoundsAsSamples = 5;
// The top delayers of each run shown side by side under a phase.
inline constexpr size_t kCompareDelayers = 3;

// What a comparison's sides are: runs ("run 2") or one run's variants, each
// named by its label.
enum class Compared { Runs, Variants };

// The fewest samples a side whose smallest possible Mann-Whitney p is under
// kSignificance: below it a metric is "too few" whatever its values.
size_t samplesNeeded();

enum class Sampling { Rounds, Blocks }; // what one sample is

struct MetricComparison
{
    CompareMetric metric = CompareMetric::P99;
    double base = 0, value = 0; // the median of each run's samples
    size_t baseSamples = 0, samples = 0;
    bool asRatio = true; // change is value ÷ base; else value − base
    Interval change;     // its estimate and 95 % interval
    double p = 1;        // Mann-Whitney U, two-sided
    Verdict verdict = Verdict::NoChange;
    Sampling sampling = Sampling::Rounds;
    // The estimate reaches the metric's minimum effect: a change worth naming
    // once significant, and shown as undecided while too few.
    bool large = false;
    // The test has its answer: the sides differ (at the level asked), or
    // the interval rules out any change as large as the minimum effect.
    // Otherwise more rounds could still tell (--rounds auto plays them).
    bool decided = false;
};

struct ConsumerComparison
{
    std::string consumer;
    bool hasDeadline = false;
    bool present = false; // both runs measured it in this phase
    std::string refusal;  // why its rows are not compared (different settings)
    std::vector<MetricComparison> metrics;
};

// One run's side of a matched phase.
struct PhaseSide
{
    bool present = false;
    std::vector<size_t> phases; // into run.phases: its rounds
    double durationS = 0;       // all of them
    std::string sampling;       // "5 rounds", "11 blocks of 5 s", "1 phase"
};

struct PhaseComparison
{
    std::string key;              // what ran and its occurrence (phasematch.h)
    std::string name;             // "idle", "idle 2", "burn x2"
    std::vector<PhaseSide> sides; // one per run
    // [run][consumer], against run 1; runs[0] holds run 1's own values
    // (base == value) for the table.
    std::vector<std::vector<ConsumerComparison>> runs;
    std::vector<std::string> summaries; // per run: its verdict in one line ("" for run 1)
    // Per run: who delayed its explained misses in this phase (kCompareDelayers).
    std::vector<std::vector<Delayer>> delayers;
    bool inEveryRun() const;
};

struct Comparison
{
    std::vector<std::string> runLabels;  // "6.19.0-rc1-bore (eevdf)", unique per run
    std::vector<std::string> notes;      // each run's noise check; what else differs
    std::vector<std::string> warnings;   // noisy machines, different scenarios, refusals
    std::vector<PhaseComparison> phases; // every phase of every run, matched by what ran
    Compared compared = Compared::Runs;
    // "run 2", or a variant's label.
    std::string who(size_t run) const;
};

// "not enough rounds to tell (2 of the 4 needed)": why metrics with
// `have` samples a side (the most any had) could not be judged.
std::string notEnoughToTell(size_t have, Sampling sampling);

// Lines runs up by what ran in each phase (never by position or name) and
// compares each run with the first: the medians of each side's samples
// (rounds, or 5 s blocks), the change with its interval, and a verdict.
Comparison compareRuns(const std::vector<Run> &runs, const std::vector<std::string> &fileNames,
                       Compared compared = Compared::Runs);

// One metric of one consumer: `base` and `value` are each side's samples
// (a value per round or block). The verdict is "worse" or "better" only when
// the Mann-Whitney U test finds the sides different at `level` (p at most
// it), the interval excludes no change, and the change reaches the minimum
// effect; "small" when the interval excludes no change and the change is
// under it. `level` is kSignificance, or a sequential design's at this look.
MetricComparison compareSamples(CompareMetric metric, const std::vector<double> &base,
                                const std::vector<double> &value,
                                Sampling sampling = Sampling::Rounds, double level = kSignificance);

// "+18 % [+9, +27]", "x3.1 [2.2, 4.5]", "-0.07 pt [-0.12, -0.02]".
std::string formatChange(const MetricComparison &m);

// "p99 x2 with 5 s blocks", "misses/min x1.5 and 0.5/min with rounds": the
// least change of `metric` worth naming with these samples.
std::string minimumEffect(CompareMetric metric, Sampling sampling);

// What "small" means for the minimum effects of `comparison`'s small rows,
// and what "undecided" means when a row is; "" when none is either.
std::vector<std::string> verdictLegend(const Comparison &comparison);

// The 72-column table for an email; the same in the Compare window's Copy.
std::string formatComparison(const Comparison &comparison);
std::string formatComparisonMarkdown(const Comparison &comparison);
std::string formatComparisonCsv(const Comparison &comparison);
std::string formatComparisonJson(const Comparison &comparison);

} // namespace latprobe
