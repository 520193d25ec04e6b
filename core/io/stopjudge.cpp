#include "stopjudge.h"

#include "compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace latprobe {

namespace {

// Misses per minute, a value per 5 s block: the samples a step and its
// baseline are compared by. A phase too short for blocks is one sample.
std::vector<double> blockMissRates(const ConsumerStats &c, double phaseS)
{
    std::vector<double> rates;
    for (const BlockStats &b : c.blocks)
        if (b.samples > 0 && b.durationS > 0)
            rates.push_back(60.0 * static_cast<double>(b.misses) / b.durationS);
    if (rates.empty() && c.samples > 0 && phaseS > 0)
        rates.push_back(60.0 * static_cast<double>(c.misses) / phaseS);
    return rates;
}

double missesPerMin(const ConsumerStats &c, double phaseS)
{
    return phaseS > 0 ? 60.0 * static_cast<double>(c.misses) / phaseS : 0;
}

} // namespace

StopJudge::StopJudge(StopCondition stop) : m_stop(std::move(stop)) {}

StopJudge::Decision StopJudge::stepEnded(int step, const PhaseResult &phase)
{
    m_lastPlayed = m_repeating ? m_candidateName : phase.name;
    const Decision d = m_stop.aboveBaseline ? byBaseline(step, phase) : byCount(phase);
    ++m_phases;
    return d;
}

StopJudge::Decision StopJudge::byCount(const PhaseResult &phase)
{
    uint64_t misses = 0;
    for (const std::string &name : m_stop.consumers)
        if (const ConsumerStats *c = phase.consumer(name))
            misses += c->misses;
    m_evidence.push_back(fmt::format("{}: {} miss{}", phase.name, misses, misses == 1 ? "" : "es"));
    if (misses > m_stop.missesOver) {
        m_thresholdPhase = m_phases;
        m_failed = phase.name;
        return Decision::Stop;
    }
    m_lastPassed = phase.name;
    return Decision::Continue;
}

StopJudge::Decision StopJudge::byBaseline(int step, const PhaseResult &phase)
{
    if (step == 0) {
        // Each round's first step is its baseline: drift moves both alike.
        m_baseline = phase;
        m_haveBaseline = true;
        std::vector<std::string> rates;
        size_t blocks = 0;
        for (const std::string &name : m_stop.consumers)
            if (const ConsumerStats *c = phase.consumer(name)) {
                rates.push_back(
                    fmt::format("{} {:.1f}/min", name, missesPerMin(*c, phase.durationS)));
                blocks = std::max(blocks, c->blocks.size());
            }
        m_evidence.push_back(fmt::format("baseline {}: {} ({} blocks of 5 s)", phase.name,
                                         rates.empty() ? "no consumer measured"
                                                       : fmt::format("{}", fmt::join(rates, ", ")),
                                         blocks));
        return Decision::Continue;
    }
    bool worse = false;
    std::vector<std::string> rates;
    for (const std::string &name : m_stop.consumers) {
        const ConsumerStats *base = m_haveBaseline ? m_baseline.consumer(name) : nullptr;
        const ConsumerStats *now = phase.consumer(name);
        if (!base || !now)
            continue;
        const MetricComparison m =
            compareSamples(CompareMetric::MissesPerMin, blockMissRates(*base, m_baseline.durationS),
                           blockMissRates(*now, phase.durationS));
        const bool consumerWorse = m.verdict == Verdict::Worse;
        worse = worse || consumerWorse;
        const std::string how = consumerWorse ? "worse " + formatChange(m)
                                : m.verdict == Verdict::TooFewSamples
                                    ? std::string("too few blocks")
                                    : std::string("~");
        rates.push_back(
            fmt::format("{} {:.1f}/min {}", name, missesPerMin(*now, phase.durationS), how));
    }
    const std::string parts = rates.empty() ? "none of the stop condition's consumers measured"
                                            : fmt::format("{}", fmt::join(rates, ", "));
    // A repeat may be named apart ("burn x4 (again)"); it speaks for its step.
    const std::string &stepName = m_repeating ? m_candidateName : phase.name;
    if (!worse) {
        m_evidence.push_back(
            m_repeating ? fmt::format("{} again: {} (the first try was noise)", stepName, parts)
                        : fmt::format("{}: {}", stepName, parts));
        m_repeating = false;
        m_lastPassed = stepName;
        return Decision::Continue;
    }
    if (!m_repeating) {
        m_evidence.push_back(fmt::format("{}: {}; playing it again to confirm", stepName, parts));
        m_repeating = true;
        m_candidatePhase = m_phases;
        m_candidateName = phase.name;
        return Decision::Repeat;
    }
    m_evidence.push_back(fmt::format("{} again: {}; confirmed", stepName, parts));
    m_thresholdPhase = m_candidatePhase;
    m_failed = stepName;
    return Decision::Stop;
}

std::vector<std::string> StopJudge::verdict() const
{
    if (m_phases == 0)
        return {};
    std::vector<std::string> lines;
    const std::string how =
        m_stop.aboveBaseline
            ? fmt::format("{} misses more than {}, twice", m_failed, m_baseline.name)
            : fmt::format("{} has more than {} miss{}", m_failed, m_stop.missesOver,
                          m_stop.missesOver == 1 ? "" : "es");
    if (m_thresholdPhase < 0)
        lines.push_back(fmt::format("no threshold reached up to {}", m_lastPlayed));
    else if (m_lastPassed.empty() || (m_stop.aboveBaseline && m_lastPassed == m_baseline.name))
        lines.push_back(fmt::format("usable up to: none of the steps ({})", how));
    else
        lines.push_back(fmt::format("usable up to {} ({})", m_lastPassed, how));
    lines.insert(lines.end(), m_evidence.begin(), m_evidence.end());
    return lines;
}

} // namespace latprobe
