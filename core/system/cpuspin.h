#pragma once

#include <cstdint>

namespace latprobe {

// Spins until `ns` of the calling thread's CPU time have passed: time spent
// preempted is not counted, so a preempted spinner finishes later. The
// consumers' work (RealClock::work) and massive_intr's and ocbench's busy
// part (cpuwork.h) are this one loop. `cpuNow` returns the thread's CPU
// time in ns; tests hand in a fake one. Returns the CPU time spent, which
// overshoots `ns` by at most one clock read.
template <class CpuNow> int64_t busyForCpu(int64_t ns, CpuNow &&cpuNow)
{
    const int64_t start = cpuNow();
    int64_t done = 0;
    while ((done = cpuNow() - start) < ns) {
    }
    return done;
}

} // namespace latprobe
