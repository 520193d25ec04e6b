#pragma once

#include "consumerconfig.h"
#include "knobenvironment.h"
#include "loadlimits.h"
#include "threadparams.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

// What a session measures and how: `latprobe run`'s options and the
// window's, resolved (runoptions.h).
struct SessionOptions
{
    // Given to the probe as the session is made: RunView::configs() has them.
    std::vector<ConsumerConfig> consumers;
    ThreadParams params;
    LoadLimits limits;
    std::string preset = "default";
    std::vector<std::string> commandLine;
    // What a run of the whole session is called in its file when no scenario
    // spans it: "gui" for the window.
    std::string runName = "gui";
    int64_t alignNs = -1;              // Probe::alignToSecond; -1: start when ready
    int64_t drainIntervalNs = 0;       // 0: Probe::kDrainIntervalNs
    double noiseCheckS = 0;            // before the probe starts; 0: none
    bool autoCapture = true;           // capture the state at each phase's first miss
    std::function<bool()> interrupted; // polled at each tick: ends a scenario as interrupted
    std::string workerBinary;          // "" : latprobeBinary()
    bool allowCommands = false;        // a variant's cmd=, undo= may run (--allow-commands)
    // Where variants find the machine; unset: KnobEnvironment::real(). The
    // tests give a fake one (a sysfs in a temp dir, a PATH of fake programs).
    std::optional<KnobEnvironment> knobs;
    // The flight recorder: misses explained from the kernel's trace when
    // tracefs allows; off, a one-line warning says what to grant.
    bool trace = true;
    size_t explainPerPhase = 8; // misses explained per phase and consumer
    // `--save-trace`: each explained miss's window kept as trace.dat, in
    // `traceDir` ("" : beside the run file in the library), at most
    // `traceMaxBytes` a run. `outPath` is the run file the front end
    // writes ("" none): the traces' name when the library keeps no copy.
    bool saveTraces = false;
    std::string traceDir;
    uint64_t traceMaxBytes = kDefaultTraceMaxBytes;
    std::string outPath;
    static constexpr uint64_t kDefaultTraceMaxBytes = 64ull << 20;
};

} // namespace latprobe
