#include "comparemetric.h"

#include "enumnames.h"

#include <fmt/format.h>

#include <cmath>

namespace latprobe {

namespace {

bool everyConsumer(const ConsumerStats &)
{
    return true;
}

bool withDeadline(const ConsumerStats &c)
{
    return c.hasDeadline;
}

// Gaming: no deadline, only the CPU it asks for.
bool withCpuTargetOnly(const ConsumerStats &c)
{
    return !c.hasDeadline && c.hasCpuTarget;
}

// A percentile of fewer samples than it needs is the maximum, not the
// percentile: such a block or round is no sample of it.
std::optional<double> p99Of(const BlockStats &b)
{
    if (b.samples < kMinSamplesForP99)
        return std::nullopt;
    return static_cast<double>(b.p99Us);
}

std::optional<double> p999Of(const BlockStats &b)
{
    if (b.samples < kMinSamplesForP999)
        return std::nullopt;
    return static_cast<double>(b.p999Us);
}

// The median latency moves when every wakeup is slower, which a tail
// that is the host's noise hides.
std::optional<double> p50Of(const BlockStats &b)
{
    return static_cast<double>(b.p50Us);
}

std::optional<double> missesPerMinOf(const BlockStats &b)
{
    return b.durationS > 0 ? 60.0 * static_cast<double>(b.misses) / b.durationS : 0;
}

std::optional<double> metPctOf(const BlockStats &b)
{
    return b.metPct;
}

std::optional<double> cpuPctOf(const BlockStats &b)
{
    return b.cpuPct;
}

constexpr CompareMetricRow kMetrics[] = {
    {.value = CompareMetric::P99,
     .name = "p99",
     .unit = "ms",
     .measures = everyConsumer,
     .sample = p99Of,
     .statistic = ChangeStatistic::LogShift,
     .minRatio = kMinLatencyRatio,
     .minBlockRatio = kMinBlockLatencyRatio,
     .scale = 1000,
     .decimals = 3},
    {.value = CompareMetric::P999,
     .name = "p99.9",
     .unit = "ms",
     .measures = everyConsumer,
     .sample = p999Of,
     .statistic = ChangeStatistic::LogShift,
     .minRatio = kMinLatencyRatio,
     .minBlockRatio = kMinBlockLatencyRatio,
     .scale = 1000,
     .decimals = 3},
    {.value = CompareMetric::MissesPerMin,
     .name = "misses/min",
     .unit = "",
     .measures = withDeadline,
     .sample = missesPerMinOf,
     .statistic = ChangeStatistic::RatioOfMedians,
     .minRatio = kMinMissRatio,
     .minBlockRatio = kMinMissRatio,
     .minChange = kMinMissRateChange,
     .ratioText = RatioText::Times,
     .changeUnit = "/min"},
    {.value = CompareMetric::MetPct,
     .name = "met%",
     .unit = "",
     .measures = withDeadline,
     .sample = metPctOf,
     .statistic = ChangeStatistic::Shift,
     .minChange = kMinMetChange,
     .higherIsBetter = true,
     .changeUnit = " pt"},
    {.value = CompareMetric::CpuPct,
     .name = "cpu%",
     .unit = "",
     .measures = withCpuTargetOnly,
     .sample = cpuPctOf,
     .statistic = ChangeStatistic::Shift,
     .minChange = kMinMetChange,
     .higherIsBetter = true,
     .changeUnit = " pt"},
    {.value = CompareMetric::P50,
     .name = "p50",
     .unit = "ms",
     .measures = everyConsumer,
     .sample = p50Of,
     .statistic = ChangeStatistic::LogShift,
     .minRatio = kMinLatencyRatio,
     .minBlockRatio = kMinBlockLatencyRatio,
     .scale = 1000,
     .decimals = 3},
};

} // namespace

std::span<const CompareMetricRow> compareMetrics()
{
    return kMetrics;
}

const CompareMetricRow &metricRow(CompareMetric metric)
{
    const CompareMetricRow *row = findRow<&CompareMetricRow::value>(kMetrics, metric);
    return row ? *row : kMetrics[0];
}

const char *toString(CompareMetric metric)
{
    return enumName(kMetrics, metric);
}

std::string metricTitle(CompareMetric metric)
{
    const CompareMetricRow &row = metricRow(metric);
    return *row.unit ? fmt::format("{} {}", row.name, row.unit) : std::string(row.name);
}

std::string formatValue(CompareMetric metric, double value)
{
    if (!std::isfinite(value))
        return "-";
    const CompareMetricRow &row = metricRow(metric);
    return fmt::format("{:.{}f}", value / row.scale, row.decimals);
}

BlockStats roundAsBlock(const ConsumerStats &c, double durationS)
{
    return {.durationS = durationS,
            .samples = c.samples,
            .misses = c.misses,
            .p50Us = c.p50Us,
            .p99Us = c.p99Us,
            .p999Us = c.p999Us,
            .metPct = c.deadlinesMetPct,
            .cpuPct = c.desiredCpuPct};
}

} // namespace latprobe
