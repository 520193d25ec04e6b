#pragma once

#include <cstdint>
#include <string>

namespace latprobe {

struct LoadSpec;

// Safety caps, checked before anything starts. Each refusal says the limit
// and how to raise it.
struct LoadLimits
{
    int maxProcesses = 2048;          // all load processes at once (--max-workers)
    double memShare = 0.5;            // memload: of MemAvailable
    uint64_t ioMaxBytes = 1ull << 30; // io: per group
    double ioFreeShare = 0.25;        // io: of the temp dir's free space
    double spawnRateMax = 2000;       // spawn: processes per second, per group
};

// Processes a spec will run (hackbench forks senders and receivers).
int processesFor(const LoadSpec &spec);

// "" when `spec` fits beside `running` processes, else a one-line refusal.
std::string checkLoadLimits(const LoadSpec &spec, const LoadLimits &limits, int running);

// MemAvailable from /proc/meminfo, in bytes (0 if unknown).
uint64_t memAvailableBytes();

} // namespace latprobe
