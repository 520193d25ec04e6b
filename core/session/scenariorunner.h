#pragma once

#include "loadmanager.h"
#include "loadresult.h"
#include "probe.h"
#include "scenario.h"
#include "statecapture.h"

#include <atomic>

#include <functional>
#include <string>
#include <vector>

namespace latprobe {

struct ScenarioProgress
{
    int step = 0; // 0-based
    int steps = 0;
    std::string stepName;
    double stepElapsedS = 0, stepS = 0;
    double leftS = 0; // until the whole scenario ends
};

// Plays a scenario's steps against a running probe: each step stops the
// previous loads, starts its own and begins a phase named after it. Shared
// by `latprobe run` and the GUI's scenario menu.
class ScenarioRunner
{
public:
    enum class End { Completed, Threshold, Interrupted, LoadFailed };

    ScenarioRunner(Scenario scenario, Probe &probe, LoadManager &loads);

    // Blocks until the scenario ends; `keepGoing`, `progress` and capture
    // requests are polled every kPollNs: that long a Ctrl-C or a capture may
    // wait, and each poll is a wakeup latprobe takes from the machine.
    static constexpr int64_t kPollNs = 250'000'000;
    End run(const std::function<bool()> &keepGoing,
            const std::function<void(const ScenarioProgress &)> &progress);

    const Scenario &scenario() const { return m_scenario; }
    // The step that passed the stop condition, or -1.
    int thresholdStep() const { return m_thresholdStep; }
    const std::vector<LoadGroupResult> &loadResults() const { return m_loadResults; }
    const std::string &error() const { return m_error; }
    const std::vector<StateCapture> &states() const { return m_states; }

    // Asks for a capture of the system's state at the next poll (any thread).
    void requestCapture() { m_captureWanted = true; }
    // Off: no capture at the first miss of each phase.
    void setAutoCapture(bool on) { m_autoCapture = on; }
    // On (`latprobe run`): the first step names the phase the run began
    // with. Off (the GUI, already measuring): the first step begins a phase
    // of its own, so what came before stays out of it.
    void setFirstStepJoinsRun(bool on) { m_firstStepJoinsRun = on; }

private:
    void stopLoads();
    void captureWanted(const std::string &phase);

    Scenario m_scenario;
    Probe &m_probe;
    LoadManager &m_loads;
    int m_thresholdStep = -1;
    std::vector<LoadGroupResult> m_loadResults;
    std::string m_error;
    std::vector<StateCapture> m_states;
    std::atomic<bool> m_captureWanted{false};
    bool m_autoCapture = true;
    bool m_firstStepJoinsRun = true;
};

const char *toString(ScenarioRunner::End end);

// Checks every step's loads before anything starts (the kinds' prechecks,
// e.g. a compiler exists, and the safety caps): "" or a one-line refusal.
std::string checkScenario(const Scenario &scenario, const LoadLimits &limits);

} // namespace latprobe
