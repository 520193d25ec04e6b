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
    Completed,     // every step played, or the duration is over
    Threshold,     // a ramp's stop condition passed
    Interrupted,   // Ctrl-C, a signal, Cancel in the window
    LoadFailed,    // a step's load could not start
    SettingFailed, // a variant's setting could not be put in force
};
const char *toString(RunEnd end);
// A run that ended early holds less than was asked: its file says so.
inline bool isPartial(RunEnd end)
{
    return end == RunEnd::Interrupted || end == RunEnd::LoadFailed || end == RunEnd::SettingFailed;
}

// One setting a variant changed on the machine, as it went: its value
// before the run, as applied, and as put back.
struct SettingRecord
{
    std::string setting; // as the variant gives it: "autogroup=0"
    std::string target;  // what it changed: "/proc/sys/kernel/sched_autogroup_enabled"
    std::string before, applied, restored;
    std::string error;     // why applying or putting back failed; "" when neither did
    std::string restoreBy; // the command that puts it back by hand, when it was not
    int exitStatus = -1;   // a program's (cmd=, undo=, scx=); -1: none ran
};

// A variant of the system that the run played in turns with others.
struct VariantRecord
{
    std::string name;                  // "off"
    std::vector<std::string> settings; // "autogroup=0"; none: the system as it is
    std::vector<SettingRecord> changes;
    // "off (autogroup=0)", "base (as the system is)".
    std::string describe() const;
};

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
    std::string scenario;   // its name; kPlainRunScenario for a plain --load run
    int thresholdStep = -1; // the phase that passed the scenario's stop condition
    // Its stop condition's answer ("usable up to massive_intr x20") and the
    // evidence, a line a step (stopjudge.h); empty without one.
    std::vector<std::string> stopVerdict;
    std::vector<StateCapture> states;
    // Who delayed the first misses of each phase (missexplanation.h), and
    // what the recorder was.
    TraceSummary trace;
    std::vector<MissExplanation> explanations;
    // The variants it played in turns, the first the reference (empty: a
    // run of the system as it is); each phase names its own.
    std::vector<VariantRecord> variants;
    // --rounds auto: played until the variants' comparison decided every
    // row it judges, at most `maxRounds` (0: a number of rounds fixed ahead).
    struct UntilDecided
    {
        int maxRounds = 0;
        int played = 0;
        bool decided = false;
    } untilDecided;
    // Not saved: the folder the run file was read from (or is written to),
    // where its explanations' trace files are named from. "" unknown.
    std::string folder;
};

// An explanation's trace file as a path: named from the run's folder, or
// as it is when it is a path already; "" when it has none.
std::string traceFilePath(const Run &run, const MissExplanation &x);

} // namespace latprobe
