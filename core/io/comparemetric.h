#pragma once

#include "consumerstats.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace latprobe {

// What a comparison looks at, per phase and consumer.
// CpuPct: the CPU a consumer without a deadline asked for and got (gaming).
enum class CompareMetric { P99, P999, MissesPerMin, MetPct, CpuPct, P50 };

// Below these a change is "~" however significant: a tenth on a
// percentile, half again on a miss rate (and half a miss a minute), half a
// point of deadlines met.
inline constexpr double kMinLatencyRatio = 1.10;
// With 5 s blocks of one run a side as the samples, a percentile must
// double (or halve): the blocks of a run share its host's state, which moves
// a VM's idle p99 up to x3 from one run to the next (tests/bench/
// compare_power.py measures the false alarms). Rounds, interleaved, see
// that drift and take kMinLatencyRatio.
inline constexpr double kMinBlockLatencyRatio = 2.0;
// A block or round is a sample of a percentile only with this many
// latencies: with fewer, its p99 (p99.9) is its maximum.
inline constexpr uint64_t kMinSamplesForP99 = 100;
inline constexpr uint64_t kMinSamplesForP999 = 1000;
inline constexpr double kMinMissRatio = 1.5;
inline constexpr double kMinMissRateChange = 0.5;
inline constexpr double kMinMetChange = 0.5;

// How a change of a metric is estimated, with its 95 % interval.
enum class ChangeStatistic {
    LogShift,       // Hodges-Lehmann shift of the logs: a ratio (latencies)
    RatioOfMedians, // bootstrap ratio of the medians; their shift over a median of 0
    Shift,          // Hodges-Lehmann shift: a difference
};

// How a ratio is printed: "+18 %" or "x3.10".
enum class RatioText { Percent, Times };

// One row per metric, written with designated initialisers: compare,
// its formats, the variants' headlines and the Compare window ask the row,
// so a metric is added here and in its own sampling function, nowhere else.
struct CompareMetricRow
{
    CompareMetric value;
    const char *name; // "p99", "misses/min": csv, json, summaries
    const char *unit; // after the name in a table's title ("p99 ms"), or ""
    // Which consumers have it.
    bool (*measures)(const ConsumerStats &consumer);
    // One sample: a 5 s block, or a round read as one block of its phase
    // (roundAsBlock); nothing when it is no sample of the metric.
    std::optional<double> (*sample)(const BlockStats &block);
    ChangeStatistic statistic;
    // The minimum effect: a ratio at least `minRatio` (`minBlockRatio` with
    // blocks as samples) or at most its inverse, and the medians apart by
    // `minChange`; a difference at least `minChange`.
    double minRatio = 1, minBlockRatio = 1, minChange = 0;
    bool higherIsBetter = false;
    // A value printed: ÷ `scale`, with `decimals`; a change as a ratio, or
    // as a difference followed by `changeUnit` ("+0.50/min", "-1.20 pt").
    double scale = 1;
    int decimals = 2;
    RatioText ratioText = RatioText::Percent;
    const char *changeUnit = "";
};

// In the order a consumer's rows are printed.
std::span<const CompareMetricRow> compareMetrics();
const CompareMetricRow &metricRow(CompareMetric metric);

const char *toString(CompareMetric metric);    // "p99", "misses/min", ...
std::string metricTitle(CompareMetric metric); // "p99 ms", "misses/min", ...

// A metric's value as the table prints it: "1.234" (ms), "12.00", "-"
// when there is none.
std::string formatValue(CompareMetric metric, double value);

// A consumer's round, the whole phase `durationS` long, as one block.
BlockStats roundAsBlock(const ConsumerStats &consumer, double durationS);

} // namespace latprobe
