#pragma once

#include "consumersetup.h"
#include "loadresult.h"
#include "noisecheck.h"
#include "phase.h"
#include "statecapture.h"
#include "sysinfo.h"
#include "threadparams.h"

#include <string>
#include <vector>

namespace latprobe {

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
    std::vector<StateCapture> states;
};

} // namespace latprobe
