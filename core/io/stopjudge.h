#pragma once

#include "phase.h"
#include "scenario.h"

#include <string>
#include <vector>

namespace latprobe {

// Decides, one ended step at a time, where a scenario's stop condition
// holds, and says why.
//
// With "misses_over" a step stops the scenario when its misses pass the
// count. With "above_baseline" the first step is the baseline, and a later
// step fails only when its miss rate per 5 s block is significantly above
// the baseline's (Mann-Whitney, as `latprobe compare` decides "worse"),
// twice in a row: a failing step is played again, and the threshold holds
// only if the repeat fails too. One unlucky block on a noisy VM (or a few
// idle misses of the host's) does not end a ramp.
class StopJudge
{
public:
    enum class Decision { Continue, Repeat, Stop };

    explicit StopJudge(StopCondition stop);

    // `step` is the ended step's index within its round; `phase` what it
    // measured. Called once for every phase the scenario plays, in order.
    Decision stepEnded(int step, const PhaseResult &phase);

    // The phase (counted from the scenario's first) where the threshold was
    // reached, or -1.
    int thresholdPhase() const { return m_thresholdPhase; }

    // The answer first ("usable up to massive_intr x20", "no threshold
    // reached up to massive_intr x60"), then the evidence, a line a step.
    // Empty before any step ended.
    std::vector<std::string> verdict() const;

private:
    Decision byCount(const PhaseResult &phase);
    Decision byBaseline(int step, const PhaseResult &phase);

    StopCondition m_stop;
    PhaseResult m_baseline;
    bool m_haveBaseline = false;
    bool m_repeating = false;
    int m_phases = 0;
    int m_thresholdPhase = -1;
    int m_candidatePhase = -1;
    std::string m_candidateName;
    std::string m_lastPassed; // the last step that did not fail
    std::string m_lastPlayed;
    std::string m_failed; // the step that reached the threshold
    std::vector<std::string> m_evidence;
};

} // namespace latprobe
