#pragma once

#include "collector.h"
#include "runnumbers.h"

// A collector fed by hand, read as the window reads a session's numbers
// (RunNumbers): for suites that drive LiveData without a probe.
namespace latprobe {

class CollectorNumbers : public RunNumbers
{
public:
    explicit CollectorNumbers(const Collector &collector) : m_collector(collector) {}
    const std::vector<ConsumerConfig> &configs() const override { return m_collector.configs(); }
    int64_t runStart() const override { return m_collector.runStart(); }
    std::vector<FineBucket> fineSeries(size_t consumer, int64_t fromIndex) const override
    {
        return m_collector.fineSeries(consumer, fromIndex);
    }
    int64_t fineBoundary(int64_t t) const override { return m_collector.fineBoundary(t); }
    std::vector<PhaseResult> phases(int64_t now, size_t histogramsFrom) const override
    {
        return m_collector.phases(now, histogramsFrom, Collector::Blocks::Leave);
    }
    PhaseResult openPhase(int64_t now) const override { return m_collector.openPhase(now); }

private:
    const Collector &m_collector;
};

} // namespace latprobe
