#pragma once

#include "consumersetup.h"
#include "loadresult.h"
#include "missexplanation.h"
#include "noisecheck.h"
#include "phase.h"
#include "statecapture.h"
#include "sysinfo.h"
#include "threadparams.h"

#include <string>
#include <vector>

namespace latprobe {

// How a run (or a scenario within one) ended, where code acts on it; the
// run file keeps toString()'s words in "end_reason".
enum class RunEnd {
    Completed,   // every step played, or the duration is over
    Threshold,   // a ramp's stop condition passed
    Interrupted, // Ctrl-C, a signal, Cancel in the window
    LoadFailed,  // a step's load could not start
};
const char *toString(RunEnd end);
// A run that ended early holds less than was asked: its file says so.
inline bool isPartial(RunEnd end)
{
    return end == RunEnd::Interrupted || end == RunEnd::LoadFailed;
}

// A finished (or interrupted) measurement, as saved in a run file and read
// back by report and compare.
struct Run
{
    std::string version; // latprobe's
    std::vector<std::string> commandLine;
    std::string startTime, endTime; // ISO 8601, UTC
    bool partial = false;           // ended early (Ctrl-C, error)
    std::string endReason;          // "completed", "interrupted", ...
    SystemInfo system;
    ThreadParams requested;
    std::vector<ConsumerSetup> consumers; // config and what was granted
    std::vector<PhaseResult> phases;
    std::vector<std::vector<SecondBucket>> series; // [consumer][second]
    std::vector<MissEvent> misses;
    uint64_t missLogDropped = 0;
    std::vector<LoadGroupResult> loads;
    NoiseCheck noise;
    std::string scenario;   // its name; "run" for a plain --load run
    int thresholdStep = -1; // the phase that passed the scenario's stop condition
    // Its stop condition's answer ("usable up to massive_intr x20") and the
    // evidence, a line a step (stopjudge.h); empty without one.
    std::vector<std::string> stopVerdict;
    std::vector<StateCapture> states;
    // Who delayed the first misses of each phase (missexplanation.h), and
    // what the recorder was.
    TraceSummary trace;
    std::vector<MissExplanation> explanations;
};

} // namespace latprobe
