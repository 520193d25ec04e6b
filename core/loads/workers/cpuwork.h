#pragma once

#include "realclock.h"

#include <cstdint>

namespace latprobe {

// massive_intr's "work 8 ms" and ocbench's busy run, as CPU the worker got:
// spinning on its own CPU clock, a worker preempted mid-work finishes later,
// so its loop count follows the CPU it was given. On the wall clock a
// preempted worker counted the time it waited as work, and its loop count
// followed how often it was scheduled instead. `cpuNow` returns the calling
// thread's CPU time in ns; tests hand in a fake one. Returns the CPU time
// spent, which overshoots `ns` by at most one clock read.
template <class CpuNow> int64_t busyForCpu(int64_t ns, CpuNow &&cpuNow)
{
    const int64_t start = cpuNow();
    int64_t done = 0;
    while ((done = cpuNow() - start) < ns) {
    }
    return done;
}

inline int64_t busyFor(int64_t ns)
{
    return busyForCpu(ns, &RealClock::threadCpuNow);
}

} // namespace latprobe
