#pragma once

#include <string>

namespace latprobe {

// The machine and kernel a run was measured on: what a report's header and
// a comparison between kernels need. Unknown fields read "unknown".
struct SystemInfo
{
    std::string kernelRelease; // uname -r
    std::string kernelVersion; // uname -v
    std::string machine;       // uname -m
    std::string cpuModel;
    int cpuCount = 0; // online CPUs
    std::string governor;
    std::string hz;           // CONFIG_HZ
    std::string preemption;   // none / voluntary / full / lazy / rt / dynamic
    std::string scheduler;    // "eevdf", "cfs" or "sched_ext:<ops>"
    std::string autogroup;    // "on" / "off"
    std::string rtThrottling; // "950000/1000000 us" or "off"
    std::string cmdline;
    std::string virtualization; // "none" or the hypervisor's name
};

SystemInfo readSystemInfo();

// First line of a file, trimmed; `fallback` when unreadable.
std::string readFirstLine(const std::string &path, const std::string &fallback = "unknown");

} // namespace latprobe
