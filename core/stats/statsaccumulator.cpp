#include "statsaccumulator.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace latprobe {

StatsAccumulator::StatsAccumulator(ConsumerConfig config) : m_config(std::move(config)) {}

void StatsAccumulator::add(const Sample &s)
{
    const int64_t us = latencyUs(s);
    m_firstPeriod = std::min(m_firstPeriod.value_or(s.periodStart), s.periodStart);
    m_compactPercentiles.reset(); // a straggler: the histogram grows again
    const uint64_t n = m_histogram.count() + 1;
    if (n == 1) {
        m_min = m_max = us;
    } else {
        m_min = std::min(m_min, us);
        m_max = std::max(m_max, us);
    }
    m_histogram.add(us);
    const double delta = static_cast<double>(us) - m_mean;
    m_mean += delta / static_cast<double>(n);
    m_m2 += delta * (static_cast<double>(us) - m_mean);
    m_over1ms += us > 1000;
    m_over5ms += us > 5000;
    m_failures += s.failed;

    if (m_config.kind == ConsumerKind::Continuous) {
        // interbench's Gaming: the CPU it got of the time it ran, its burn
        // against the burn plus how late it ended (emulate_game()).
        m_workAsked +=
            static_cast<double>(m_config.workNs + std::max<int64_t>(0, s.woke - s.periodStart));
        m_workDone += static_cast<double>(std::min(s.workDone, m_config.workNs));
        // Its latency is how much later than its work a burn ended.
        addInterbenchLatency(us);
    }
    if (!m_config.hasDeadline())
        return;
    const uint64_t lost = s.missedDeadline + s.periodsSkipped;
    m_misses += lost;
    m_met += s.missedDeadline || s.noDeadline ? 0 : 1;
    m_currentMissRun = lost ? m_currentMissRun + lost : 0;
    m_longestMissRun = std::max(m_longestMissRun, m_currentMissRun);
    if (m_config.rampStepNs > 0 || m_config.wake == WakeMethod::Timekeeper) {
        // interbench's own count (periodic_schedule()), for X, whose burns
        // differ in length, and wherever its method was asked for: burns, not
        // time. A burn skipped because its window had passed misses every
        // window lost; a burn done late is done, and when it ran past more
        // than one window each of them is missed besides.
        const bool burned = !(s.missedDeadline && s.done == s.woke);
        const uint64_t windowsLost = s.missedDeadline ? 1 + s.periodsSkipped : 0;
        m_workDone += burned ? 1 : 0;
        m_workAsked += burned ? 1 + (windowsLost > 1 ? windowsLost : 0) : windowsLost;
    } else {
        m_workAsked += static_cast<double>(m_config.workNs) * (1 + s.periodsSkipped);
        // Spinning overshoots by a clock read; interbench never reports over 100 %.
        m_workDone += static_cast<double>(std::min(s.workDone, m_config.workNs));
    }
    // interbench's own definition already charges the periods lost.
    const int64_t ib =
        m_config.wake == WakeMethod::Timekeeper
            ? us
            : us + static_cast<int64_t>(s.periodsSkipped) * (m_config.periodNs / 1000);
    addInterbenchLatency(ib);
}

StatsAccumulator::Percentiles StatsAccumulator::percentiles() const
{
    return {m_histogram.percentile(0.50), m_histogram.percentile(0.90),
            m_histogram.percentile(0.99), m_histogram.percentile(0.999)};
}

void StatsAccumulator::compact(const std::shared_ptr<ColdStore> &store)
{
    if (m_histogram.isCompact())
        return;
    m_compactPercentiles = percentiles();
    m_histogram.compact(store);
}

void StatsAccumulator::addInterbenchLatency(int64_t us)
{
    ++m_ibSamples;
    m_ibSum += static_cast<double>(us);
    m_ibSumSq += static_cast<double>(us) * static_cast<double>(us);
    m_ibMax = std::max(m_ibMax, us);
}

ConsumerStats StatsAccumulator::result(int64_t phaseStart, int64_t phaseEnd, int64_t origin,
                                       bool withHistogram) const
{
    ConsumerStats r;
    r.name = m_config.name;
    r.hasDeadline = m_config.hasDeadline();
    r.hasCpuTarget = r.hasDeadline || m_config.kind == ConsumerKind::Continuous;
    r.samples = m_histogram.count();
    if (m_config.periodNs > 0 && phaseEnd > phaseStart) {
        // The periods due start in the phase on the consumer's own schedule,
        // from its first period: one started afresh (a variant's turn) is
        // off the origin's grid, and was due nothing before it ran.
        const int64_t p = m_config.periodNs;
        const int64_t anchor = m_firstPeriod.value_or(origin);
        const int64_t from = std::max(phaseStart, m_firstPeriod.value_or(phaseStart));
        auto floorDiv = [](int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0 ? 1 : 0); };
        const int64_t first = -floorDiv(anchor - from, p); // ceil((from - anchor) / p)
        const int64_t last = floorDiv(phaseEnd - 1 - anchor, p);
        r.expected = static_cast<uint64_t>(std::max<int64_t>(0, last - first + 1));
    }
    r.sampledPct = r.expected ? 100.0 * static_cast<double>(r.samples) / r.expected : 0;
    r.minUs = m_min;
    r.maxUs = m_max;
    r.meanUs = m_mean;
    r.stddevUs = r.samples ? std::sqrt(m_m2 / static_cast<double>(r.samples)) : 0;
    const Percentiles p = m_compactPercentiles ? *m_compactPercentiles : percentiles();
    r.p50Us = p.p50;
    r.p90Us = p.p90;
    r.p99Us = p.p99;
    r.p999Us = p.p999;
    r.over1ms = m_over1ms;
    r.over5ms = m_over5ms;
    r.failures = m_failures;
    r.histogramOverflow = m_histogram.overflow();
    r.histogramLimitUs = m_histogram.limitUs();
    if (withHistogram)
        r.histogram = m_histogram.sparse();

    r.misses = m_misses;
    r.deadlinesMet = m_met;
    if (m_met + m_misses)
        r.deadlinesMetPct =
            100.0 * static_cast<double>(m_met) / static_cast<double>(m_met + m_misses);
    if (m_workAsked > 0)
        r.desiredCpuPct = 100.0 * m_workDone / m_workAsked;
    r.longestMissRun = m_longestMissRun;
    if (m_ibSamples) {
        r.ibLatencyMeanUs = m_ibSum / static_cast<double>(m_ibSamples);
        r.ibLatencyRmsUs = std::sqrt(m_ibSumSq / static_cast<double>(m_ibSamples));
        r.ibLatencyMaxUs = m_ibMax;
    }
    return r;
}

} // namespace latprobe
