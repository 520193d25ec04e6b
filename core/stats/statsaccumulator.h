#pragma once

#include "consumerconfig.h"
#include "consumerstats.h"
#include "histogram.h"
#include "sample.h"

#include <memory>
#include <optional>

namespace latprobe {

// Folds the Samples of one consumer in one phase into ConsumerStats.
class StatsAccumulator
{
public:
    explicit StatsAccumulator(ConsumerConfig config);

    void add(const Sample &sample);
    // Statistics over [phaseStart, phaseEnd) (ns, CLOCK_MONOTONIC); periods
    // start on the consumer's own schedule, from its first measured period
    // (else origin + k * period): those that start in the phase were due.
    // `withHistogram` false leaves ConsumerStats::histogram empty: a live
    // view that already folded a finished phase's histogram needs it no more.
    ConsumerStats result(int64_t phaseStart, int64_t phaseEnd, int64_t origin,
                         bool withHistogram = true) const;

    uint64_t samples() const { return m_histogram.count(); }
    // For a finished phase: see Histogram::compact(). Its percentiles are
    // kept, so that the window's poll of every phase each second reads
    // nothing back from `store`.
    void compact(const std::shared_ptr<ColdStore> &store = nullptr);
    const Histogram &histogram() const { return m_histogram; }

private:
    struct Percentiles
    {
        int64_t p50 = 0, p90 = 0, p99 = 0, p999 = 0;
    };
    Percentiles percentiles() const;
    void addInterbenchLatency(int64_t us);

    ConsumerConfig m_config;
    Histogram m_histogram;
    std::optional<Percentiles> m_compactPercentiles; // while m_histogram is compact
    std::optional<int64_t> m_firstPeriod;            // the earliest measured period's start
    double m_mean = 0, m_m2 = 0;                     // Welford
    int64_t m_min = 0, m_max = 0;
    uint64_t m_over1ms = 0, m_over5ms = 0;
    uint64_t m_failures = 0;
    uint64_t m_misses = 0, m_met = 0, m_currentMissRun = 0, m_longestMissRun = 0;
    double m_workAsked = 0, m_workDone = 0;
    uint64_t m_ibSamples = 0;
    double m_ibSum = 0, m_ibSumSq = 0;
    int64_t m_ibMax = 0;
};

// Latency of a cycle in whole µs, truncated as cyclictest's calcdiff(); with
// interbench's definition, less what it is excused and plus the time of the
// periods it lost (periodic_schedule() in interbench.c).
inline int64_t latencyUs(const Sample &s)
{
    const int64_t ns = s.woke - s.periodStart - s.excusedNs;
    return (ns > 0 ? ns / 1000 : 0) + s.lostNs / 1000;
}

} // namespace latprobe
