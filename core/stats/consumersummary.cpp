#include "consumersummary.h"

#include <fmt/format.h>

#include <algorithm>

namespace latprobe {

std::string ConsumerSummary::text() const
{
    if (!measured)
        return "–";
    if (traits->summary == SummaryFigure::P99)
        return p99Us < 0 ? "–" : fmt::format("{:.3f}", static_cast<double>(p99Us) / 1000.0);
    return std::to_string(misses);
}

double ConsumerSummary::value() const
{
    if (!measured)
        return -1;
    return traits->summary == SummaryFigure::P99 ? static_cast<double>(p99Us)
                                                 : static_cast<double>(misses);
}

namespace {

void add(std::vector<ConsumerSummary> &out, const PhaseResult &phase)
{
    for (const ConsumerStats &c : phase.consumers) {
        const ConsumerRole role = consumerRole(c.name);
        for (ConsumerSummary &s : out) {
            if (s.traits->role != role)
                continue;
            s.measured = true;
            s.misses += c.misses;
            if (c.samples > 0)
                s.p99Us = std::max(s.p99Us, c.p99Us);
        }
    }
}

std::vector<ConsumerSummary> emptySummaries()
{
    std::vector<ConsumerSummary> out;
    size_t count = 0;
    const ConsumerTraits *table = consumerTable(count);
    for (size_t i = 0; i < count; ++i)
        if (table[i].summary != SummaryFigure::None)
            out.push_back({.traits = &table[i]});
    return out;
}

} // namespace

std::vector<ConsumerSummary> summarizeConsumers(const std::vector<PhaseResult> &phases)
{
    std::vector<ConsumerSummary> out = emptySummaries();
    for (const PhaseResult &p : phases)
        add(out, p);
    return out;
}

std::vector<ConsumerSummary> summarizeConsumers(const PhaseResult &phase)
{
    std::vector<ConsumerSummary> out = emptySummaries();
    add(out, phase);
    return out;
}

} // namespace latprobe
