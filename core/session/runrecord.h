#pragma once

#include "loadmanager.h"
#include "loadresult.h"
#include "run.h"
#include "sessionobserver.h"
#include "statecapture.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace latprobe {

// What a run keeps beside the collector's numbers, from whichever thread
// learns it: the load groups that ended, the state captures, the resets,
// the phase open now and the scenario that spans the run. Thread-safe.
class RunRecord
{
public:
    explicit RunRecord(std::string runName) : m_runName(std::move(runName)) {}

    void addEndedLoads(const std::vector<GroupStatus> &groups, int64_t runStart, int64_t now);
    void addState(StateCapture state);
    size_t stateCount() const;
    void addReset(int64_t at);
    bool hasResets() const;
    // A variant took its turn at `at`: the plots mark the switch with its name.
    void addVariantSwitch(int64_t at, std::string variant);

    // The phase open now, and the name it was asked for before the
    // collector numbered it ("idle" for "idle 2").
    void setPhase(PhaseMark phase, std::string asked);
    PhaseMark phase() const;
    std::string phaseAsked() const;
    void setPhaseAsked(std::string asked);

    // A scenario that ended the run names it, and its verdict is the run's.
    void setSpanningScenario(const ScenarioOutcome &outcome);
    // The variants a scenario played, as they ended.
    void setVariants(std::vector<VariantRecord> variants);
    // The phases begun from `fromS` to `toS` (since the run started) are
    // left out of the variants' comparison, saying `why`.
    void leaveOut(double fromS, double toS, std::string why);

    // The markers the plots draw: loads from `timeline`, resets and
    // variant switches from here.
    std::vector<RunMarker> markers(const std::vector<LoadEvent> &timeline, int64_t runStart) const;
    // Fills the run's name, verdict, ended loads and states, in time order,
    // and marks the phases left out.
    void fill(Run &run) const;

private:
    mutable std::mutex m_mutex;
    std::vector<LoadGroupResult> m_endedLoads;
    std::vector<StateCapture> m_states;
    std::vector<int64_t> m_resets;
    std::vector<std::pair<int64_t, std::string>> m_variantSwitches;
    PhaseMark m_phase;
    std::string m_phaseAsked = "idle";
    std::string m_runName; // the scenario that spans the run, or SessionOptions::runName
    int m_thresholdStep = -1;
    std::vector<std::string> m_stopVerdict;
    Run::UntilDecided m_untilDecided;
    std::vector<VariantRecord> m_variants;
    struct LeftOut
    {
        double fromS, toS;
        std::string why;
    };
    std::vector<LeftOut> m_leftOut;
};

// A scenario's own run cut from the whole: its phases, misses and captures
// from `fromS` to `toS` (since the run started), and the load groups started
// from `loadsFromS` on.
Run cutRun(Run whole, double fromS, double toS, double loadsFromS);

} // namespace latprobe
