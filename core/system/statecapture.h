#pragma once

#include <string>
#include <vector>

namespace latprobe {

struct TopProcess
{
    int pid = 0;
    std::string comm;
    double cpuPct = 0; // of one CPU, over the sampling window
};

// The system's state while something happens: what a scheduler developer
// asks for ("send me /proc/sched_debug while massive_intr 20 runs").
struct StateCapture
{
    double timeS = 0; // since the run started
    std::string phase;
    std::string reason;     // "first miss of audio", "on demand", ...
    std::string schedDebug; // debugfs sched/debug or /proc/sched_debug, if readable
    std::string schedDebugSource;
    std::string schedstat;
    std::string loadavg;
    std::vector<TopProcess> top; // busiest first
};

inline constexpr size_t kStateTextLimit = 256 * 1024;

// Reads the files and samples /proc for `windowMs` to rank CPU consumers.
StateCapture captureSystemState(const std::string &reason, int windowMs = 200, size_t topN = 10);

std::string formatStateCapture(const StateCapture &state);

} // namespace latprobe
