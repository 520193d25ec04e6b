#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

struct LoadSpec;

// Safety caps, checked before anything starts. Each refusal says the limit
// and how to raise it. A cap holds for everything running at once, not per
// group: two memload groups share the memory cap.
struct LoadLimits
{
    int maxProcesses = 2048;          // all load processes at once (--max-workers)
    double memShare = 0.5;            // memload: of MemAvailable
    uint64_t ioMaxBytes = 2ull << 30; // io: all io groups' files (*)
    double ioFreeShare = 0.25;        // io: of the temp dir's free space
    double spawnRateMax = 2000;       // spawn: processes per second, all groups
    // (*) 2 GiB so that interbench's Compile fits: its Write and Read files
    // are each the size of RAM, at most 1,000,000 kB.
    // A start is given up when its leader has neither run nor waited to run
    // for this long (stopped, or stuck in the kernel). One that waits its
    // turn on a saturated machine is waited for, however long.
    int64_t leaderStallNs = 60'000'000'000;
};

// Processes a spec will run (hackbench forks senders and receivers).
int processesFor(const LoadSpec &spec);

// "" when `spec` fits beside the groups already `running`, else a one-line
// refusal.
std::string checkLoadLimits(const LoadSpec &spec, const LoadLimits &limits,
                            const std::vector<LoadSpec> &running);

// "" when the open-file limit leaves room for the probe, its start probes
// and a leader per load group; else a one-line refusal that says how to
// raise it. With fewer, they would fail one by one mid-run.
std::string checkDescriptorLimit();

// MemAvailable from /proc/meminfo, in bytes (0 if unknown).
uint64_t memAvailableBytes();

} // namespace latprobe
