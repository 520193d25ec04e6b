#pragma once

#include "consumerconfig.h"
#include "consumersetup.h"
#include "knobcheck.h"
#include "loadlimits.h"
#include "loadstatus.h"
#include "missexplanation.h"
#include "run.h"
#include "runnumbers.h"
#include "sessionobserver.h"
#include "sysinfo.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

// One run as its front ends read it while it is measured: the window and
// `latprobe run` see the session through this alone (its numbers through
// RunNumbers), and change it through Session's commands. Nothing here
// changes the run, and nothing hands out the parts it is measured with.
class RunView : public RunNumbers
{
public:
    virtual bool running() const = 0;
    virtual bool finished() const = 0;

    // The machine and the consumers; once started, what each was granted.
    virtual const SystemInfo &system() const = 0;
    virtual std::vector<ConsumerSetup> setups() const = 0;
    int consumerIndex(ConsumerRole role) const; // -1: not measured
    virtual const std::string &preset() const = 0;
    virtual const std::string &workerBinary() const = 0;
    // What this run's variants may do (commands, an EEVDF slice).
    virtual KnobRun knobRun() const = 0;

    virtual PhaseMark currentPhase() const = 0;
    virtual std::vector<RunMarker> markers() const = 0;

    // The load sampler's last figures: reads no /proc.
    virtual std::vector<GroupStatus> loadStatus() const = 0;
    virtual std::vector<std::string> activeLabels() const = 0;
    virtual int runningProcesses() const = 0;
    virtual LoadLimits limits() const = 0;

    virtual bool scenarioRunning() const = 0;
    // The scenario playing, else the last one played ("" before any).
    virtual std::string scenarioName() const = 0;
    virtual ScenarioProgress scenarioProgress() const = 0;
    virtual std::optional<ScenarioOutcome> lastScenario() const = 0;

    // State captures, and who delayed the misses: what the flight recorder
    // explained so far (its trace files where they are now), how many (it
    // only grows), and its state.
    virtual size_t captureCount() const = 0;
    virtual std::vector<MissExplanation> explanations() const = 0;
    virtual size_t explainedCount() const = 0;
    virtual TraceSummary traceSummary() const = 0;

    // The run so far, loads included: what Copy report and Save run see.
    virtual Run snapshot(const std::string &endReason) const = 0;
    virtual bool keepsInLibrary() const = 0;
    virtual std::string keptPath() const = 0; // "" before the first save

protected:
    ~RunView() = default;
};

} // namespace latprobe
