#pragma once

#include "loadspec.h"
#include "run.h"

#include <cstdint>
#include <optional>
#include <string>

namespace latprobe {

// The phase being measured: its name and where it began (CLOCK_MONOTONIC ns).
struct PhaseMark
{
    std::string name = "idle";
    int64_t start = 0;
};

// A labelled moment on the time plots: a load started or stopped, a reset.
struct RunMarker
{
    enum Kind { LoadStarted, LoadStopped, Reset, VariantSwitched };
    double timeS = 0; // since the run started
    Kind kind = LoadStarted;
    std::string label;
};

struct ScenarioProgress
{
    int step = 0; // 0-based, within the round
    int steps = 0;
    int round = 1; // 1-based
    int rounds = 1;
    std::string stepName;
    double stepElapsedS = 0, stepS = 0;
    double leftS = 0; // until the whole scenario ends
    // With variants: the one in force ("off (autogroup=0)"), and whether
    // the machine is settling after the switch (stepName is then the
    // step to come).
    std::string variant = {};
    bool settling = false;
    // Rounds until decided (rounds is then the most): "6 of 9 rows
    // decided, next look after round 6".
    bool untilDecided = false;
    std::string decision = {};
};

struct ScenarioOutcome
{
    std::string name;
    RunEnd end = RunEnd::Completed;
    int step = 0, steps = 0; // where it ended
    int round = 1, rounds = 1;
    std::string error;                    // why a load or a variant's setting failed
    int thresholdStep = -1;               // the phase of its run that passed the stop condition
    std::vector<std::string> stopVerdict; // its answer and evidence (stopjudge.h)
    Run::UntilDecided untilDecided;       // --rounds auto: rounds played, decided or not
    // The scenario's own run, as `latprobe run --scenario` writes it; only
    // when the measurement goes on after it (the window).
    std::optional<Run> run;
};

// What a Session tells its front end, from the session's own threads (never
// from a measuring thread): a GUI queues these to its event loop, the CLI
// prints progress. Every method has an empty default.
class SessionObserver
{
public:
    virtual ~SessionObserver() = default;
    virtual void loadStarted(int /*id*/, const LoadSpec & /*spec*/) {}
    virtual void loadRefused(const LoadSpec & /*spec*/, const std::string & /*error*/) {}
    virtual void loadStopped(int /*id*/) {}
    // Groups came or went, and the phase follows them.
    virtual void loadsChanged() {}
    virtual void phaseBegun(const PhaseMark & /*phase*/, bool /*byReset*/) {}
    virtual void stateCaptured(const std::string & /*reason*/) {}
    virtual void scenarioStarted(const std::string & /*name*/) {}
    // At each tick of the session while a scenario plays.
    virtual void scenarioProgressed(const ScenarioProgress & /*progress*/) {}
    virtual void scenarioFinished(const ScenarioOutcome & /*outcome*/) {}
};

} // namespace latprobe
