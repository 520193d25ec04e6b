#pragma once

#include "consumerconfig.h"
#include "loadlimits.h"
#include "loadspec.h"
#include "scenario.h"
#include "threadparams.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace latprobe {

struct RunOptions
{
    double durationS = 30;
    std::string consumers = "audio,video,wakeup,start";
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
    std::string scenario;       // a built-in name or a file
    bool allowCommands = false; // a scenario's custom loads may run
    bool noNoiseCheck = false;
    bool noAutoCapture = false;
};

// Registers `latprobe run` and its options on `app`.
CLI::App *addRunCommand(CLI::App &app, RunOptions &options);

// Turns the options into consumer configs and thread parameters; on a bad
// combination returns false with a one-line `error`.
bool resolveRunOptions(const RunOptions &options, std::vector<ConsumerConfig> &consumers,
                       ThreadParams &params, std::string &error);

// What the run plays: --scenario, a --preset naming a built-in scenario, or
// the idle lead-in and --load groups as a two-step scenario. Every step's
// loads are checked against the caps, so an absurd request is refused
// before anything starts.
bool resolveScenario(const RunOptions &options, Scenario &scenario, LoadLimits &limits,
                     std::string &error);

int executeRun(const RunOptions &options, const std::vector<std::string> &commandLine);

} // namespace latprobe
