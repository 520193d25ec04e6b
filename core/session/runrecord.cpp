#include "runrecord.h"

#include <algorithm>

namespace latprobe {

void RunRecord::addEndedLoads(const std::vector<GroupStatus> &groups, int64_t runStart, int64_t now)
{
    std::lock_guard lock(m_mutex);
    for (const GroupStatus &g : groups)
        m_endedLoads.push_back(toLoadResult(g, runStart, now));
}

void RunRecord::addState(StateCapture state)
{
    std::lock_guard lock(m_mutex);
    m_states.push_back(std::move(state));
}

size_t RunRecord::stateCount() const
{
    std::lock_guard lock(m_mutex);
    return m_states.size();
}

void RunRecord::addReset(int64_t at)
{
    std::lock_guard lock(m_mutex);
    m_resets.push_back(at);
}

void RunRecord::addVariantSwitch(int64_t at, std::string variant)
{
    std::lock_guard lock(m_mutex);
    m_variantSwitches.emplace_back(at, std::move(variant));
}

bool RunRecord::hasResets() const
{
    std::lock_guard lock(m_mutex);
    return !m_resets.empty();
}

void RunRecord::setPhase(PhaseMark phase, std::string asked)
{
    std::lock_guard lock(m_mutex);
    m_phase = std::move(phase);
    m_phaseAsked = std::move(asked);
}

PhaseMark RunRecord::phase() const
{
    std::lock_guard lock(m_mutex);
    return m_phase;
}

std::string RunRecord::phaseAsked() const
{
    std::lock_guard lock(m_mutex);
    return m_phaseAsked;
}

void RunRecord::setPhaseAsked(std::string asked)
{
    std::lock_guard lock(m_mutex);
    m_phaseAsked = std::move(asked);
}

void RunRecord::setSpanningScenario(const ScenarioOutcome &outcome)
{
    std::lock_guard lock(m_mutex);
    m_runName = outcome.name;
    m_thresholdStep = outcome.thresholdStep;
    m_stopVerdict = outcome.stopVerdict;
    m_untilDecided = outcome.untilDecided;
}

void RunRecord::setVariants(std::vector<VariantRecord> variants)
{
    std::lock_guard lock(m_mutex);
    m_variants = std::move(variants);
}

void RunRecord::leaveOut(double fromS, double toS, std::string why)
{
    std::lock_guard lock(m_mutex);
    m_leftOut.push_back({fromS, toS, std::move(why)});
}

std::vector<RunMarker> RunRecord::markers(const std::vector<LoadEvent> &timeline,
                                          int64_t runStart) const
{
    const auto since = [runStart](int64_t at) { return static_cast<double>(at - runStart) / 1e9; };
    std::vector<RunMarker> out;
    for (const LoadEvent &e : timeline)
        out.push_back(
            {since(e.at), e.started ? RunMarker::LoadStarted : RunMarker::LoadStopped, e.label});
    {
        std::lock_guard lock(m_mutex);
        for (int64_t at : m_resets)
            out.push_back({since(at), RunMarker::Reset, "reset"});
        for (const auto &[at, variant] : m_variantSwitches)
            out.push_back({since(at), RunMarker::VariantSwitched, variant});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RunMarker &a, const RunMarker &b) { return a.timeS < b.timeS; });
    return out;
}

void RunRecord::fill(Run &run) const
{
    {
        std::lock_guard lock(m_mutex);
        run.scenario = m_runName;
        run.thresholdStep = m_thresholdStep;
        run.stopVerdict = m_stopVerdict;
        run.untilDecided = m_untilDecided;
        run.loads.insert(run.loads.end(), m_endedLoads.begin(), m_endedLoads.end());
        run.states = m_states;
        run.variants = m_variants;
        for (const LeftOut &out : m_leftOut)
            for (PhaseResult &phase : run.phases)
                if (phase.startS >= out.fromS && phase.startS < out.toS)
                    phase.leftOut = out.why;
    }
    std::stable_sort(
        run.loads.begin(), run.loads.end(),
        [](const LoadGroupResult &a, const LoadGroupResult &b) { return a.startS < b.startS; });
    std::stable_sort(
        run.states.begin(), run.states.end(),
        [](const StateCapture &a, const StateCapture &b) { return a.timeS < b.timeS; });
}

Run cutRun(Run run, double fromS, double toS, double loadsFromS)
{
    auto within = [&](double t) { return t >= fromS && t <= toS; };
    // A phase begun at the end (the idle one after a scenario) is not its.
    std::erase_if(run.phases,
                  [&](const PhaseResult &ph) { return !within(ph.startS) || ph.startS >= toS; });
    std::erase_if(run.misses, [&](const MissEvent &m) { return !within(m.timeS); });
    std::erase_if(run.states, [&](const StateCapture &s) { return !within(s.timeS); });
    std::erase_if(run.loads, [&](const LoadGroupResult &l) { return l.startS < loadsFromS; });
    return run;
}

} // namespace latprobe
