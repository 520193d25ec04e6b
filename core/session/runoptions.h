#pragma once

#include "consumerconfig.h"
#include "loadlimits.h"
#include "scenario.h"
#include "session.h"
#include "threadparams.h"

#include <optional>
#include <string>
#include <vector>

namespace latprobe {

// Every option of a run, as `latprobe run` and latprobe-gui take them: one
// parser (app/runoptionscli.h) and one resolver serve both, so every option
// and check exists once.
struct RunOptions
{
    double durationS = 30;
    static constexpr const char *kDefaultConsumers = "audio,video,wakeup,start";
    // Left at the default, a scenario whose steps name their consumers (the
    // interbench one) measures those.
    std::string consumers = kDefaultConsumers;
    std::string preset = "default";
    int audioFrames = 0; // 0: from the preset
    int audioRate = 48000;
    double audioPeriodMs = 0; // 0: from frames and rate, or the preset
    int audioBuffer = 2;
    double audioCpu = -1; // -1: from the preset
    double videoFps = 0;
    double videoCpu = -1;
    int64_t wakeupIntervalUs = 0;
    std::string workMode = "cpu";
    std::string wake; // timer, timekeeper; empty: the preset's
    std::string policy = "other";
    int priority = 0;
    int nice = 0;
    std::string cpus;
    int64_t timerSlackNs = -1;
    int64_t alignUs = -1; // -1: periods start when the probe is ready
    std::string out;
    bool noProgress = false;
    std::vector<std::string> loads; // KIND:N[:key=value...]
    double idleS = 5;               // lead-in before the loads start
    int maxWorkers = 2048;
    std::string scenario;              // a built-in name or a file
    std::optional<Rounds> rounds;      // none: the scenario's own (1 for --load runs)
    bool allowCommands = false;        // a scenario's custom loads, a variant's cmd= may run
    std::vector<std::string> variants; // NAME:SETTING[,SETTING...], two or more
    double settleS = -1;               // after each switch of variant; -1: the scenario's
    bool noNoiseCheck = false;
    bool noAutoCapture = false;
    bool noTrace = false;
    int explainMisses = 8;
    // --save-trace[=DIR]: the explained misses' windows kept as trace.dat
    // (in DIR, else beside the run file), at most traceMaxMiB a run.
    bool saveTrace = false;
    std::string traceDir;
    int traceMaxMiB = 64;
    bool noLibrary = false; // keep no copy in the run library (runlibrary.h)
};

// Which front end takes the options. The window has no progress line and no
// noise check (it measures at once), and names its unattended length
// --run-for, which its own parser adds.
enum class RunFrontEnd { Headless, Window };

// What a run is, resolved from its options.
struct RunPlan
{
    std::string preset;                    // the consumers' preset
    std::vector<ConsumerConfig> consumers; // audio, video, wakeup, start, as asked
    ThreadParams params;                   // how the probe's threads run
    LoadLimits limits;
    // --scenario, or the idle lead-in
    // and the --load groups as a two-step scenario.
    Scenario scenario;
    bool scenarioChosen = false; // the first of those
};

// On a bad combination returns false with a one-line `error` saying what and
// how to fix it. Every step's loads are checked against the caps, so an
// absurd request is refused before anything starts. The window asks before
// a scenario runs commands or measures with other consumers than its
// --preset (MainWindow::runScenario); `latprobe run` wants --allow-commands
// and takes the scenario's preset.
bool resolveRunPlan(const RunOptions &options, RunFrontEnd frontEnd, RunPlan &plan,
                    std::string &error);

// What would fail only after the measurement, refused before it: too few
// file descriptors, an --out directory that is not writable. "" or one line.
std::string checkRunEnvironment(const RunOptions &options);

// The session that plays the plan.
SessionOptions sessionOptions(const RunPlan &plan, const RunOptions &options, RunFrontEnd frontEnd,
                              std::vector<std::string> commandLine);
// The session every default option gives (the tests' window, for one).
SessionOptions defaultSessionOptions(RunFrontEnd frontEnd);

} // namespace latprobe
