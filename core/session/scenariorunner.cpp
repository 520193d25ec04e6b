#include "scenariorunner.h"

#include "loadkind.h"
#include "loadlimits.h"
#include "realclock.h"

#include <chrono>
#include <thread>

namespace latprobe {

ScenarioRunner::ScenarioRunner(Scenario scenario, Probe &probe, LoadManager &loads)
    : m_scenario(std::move(scenario)), m_probe(probe), m_loads(loads)
{}

void ScenarioRunner::captureWanted(const std::string &phase)
{
    Collector &collector = m_probe.collector();
    std::vector<Collector::CaptureRequest> requests = collector.takeCaptureRequests();
    if (!m_autoCapture)
        requests.clear();
    if (m_captureWanted.exchange(false))
        requests.push_back(
            {static_cast<double>(RealClock::monotonicNow() - collector.runStart()) / 1e9, phase,
             ""});
    for (const Collector::CaptureRequest &r : requests) {
        StateCapture s =
            captureSystemState(r.consumer.empty() ? "on demand" : "first miss of " + r.consumer);
        s.timeS = r.timeS;
        s.phase = r.phase;
        m_states.push_back(std::move(s));
    }
}

void ScenarioRunner::stopLoads()
{
    const int64_t now = RealClock::monotonicNow();
    for (const GroupStatus &g : m_loads.status())
        m_loadResults.push_back(toLoadResult(g, m_probe.collector().runStart(), now));
    m_loads.stopAll();
}

ScenarioRunner::End
ScenarioRunner::run(const std::function<bool()> &keepGoing,
                    const std::function<void(const ScenarioProgress &)> &progress)
{
    Collector &collector = m_probe.collector();
    const int steps = static_cast<int>(m_scenario.steps.size());
    double left = m_scenario.totalS();
    End end = End::Completed;
    // The first step starts with the measurement (see Probe::kSettleNs).
    if (const int64_t wait = collector.runStart() - RealClock::monotonicNow(); wait > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
    for (int i = 0; i < steps && end == End::Completed; ++i) {
        const ScenarioStep &step = m_scenario.steps[i];
        stopLoads();
        std::vector<std::string> labels;
        for (const LoadSpec &spec : step.loads) {
            if (m_loads.start(spec, m_error) < 0) {
                end = End::LoadFailed;
                break;
            }
            labels.push_back(spec.label());
        }
        if (end != End::Completed)
            break;
        const int64_t stepStart = RealClock::monotonicNow();
        collector.beginPhase(step.name, labels,
                             i == 0 && m_firstStepJoinsRun ? collector.runStart() : stepStart);
        const int64_t stepEnd = stepStart + static_cast<int64_t>(step.durationS * 1e9);
        for (int64_t now = stepStart; now < stepEnd; now = RealClock::monotonicNow()) {
            if (!keepGoing()) {
                end = End::Interrupted;
                break;
            }
            captureWanted(step.name);
            const double elapsed = static_cast<double>(now - stepStart) / 1e9;
            progress({i, steps, step.name, elapsed, step.durationS, left - elapsed});
            std::this_thread::sleep_for(
                std::chrono::nanoseconds(std::min<int64_t>(kPollNs, stepEnd - now)));
        }
        left -= step.durationS;
        if (end == End::Completed && m_scenario.stopWhen) {
            const auto phases = collector.phases(RealClock::monotonicNow());
            if (latprobe::thresholdStep(*m_scenario.stopWhen, {phases.back()}) == 0) {
                m_thresholdStep = i;
                end = End::Threshold;
            }
        }
    }
    stopLoads();
    return end;
}

const char *toString(ScenarioRunner::End end)
{
    switch (end) {
    case ScenarioRunner::End::Completed:
        return "completed";
    case ScenarioRunner::End::Threshold:
        return "stopped at threshold";
    case ScenarioRunner::End::Interrupted:
        return "interrupted";
    case ScenarioRunner::End::LoadFailed:
        return "load failed";
    }
    return "?";
}

std::string checkScenario(const Scenario &scenario, const LoadLimits &limits)
{
    for (const ScenarioStep &step : scenario.steps) {
        std::vector<LoadSpec> running; // a step's groups run together: caps count them all
        for (const LoadSpec &spec : step.loads) {
            if (const LoadKind *kind = findLoadKind(spec.kind); kind && kind->precheck)
                if (std::string error = kind->precheck(spec); !error.empty())
                    return error;
            if (std::string error = checkLoadLimits(spec, limits, running); !error.empty())
                return error;
            running.push_back(spec);
        }
    }
    return {};
}

} // namespace latprobe
