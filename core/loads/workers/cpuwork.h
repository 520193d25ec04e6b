#pragma once

#include "cpuspin.h"
#include "realclock.h"

#include <cstdint>

namespace latprobe {

// massive_intr's "work 8 ms" and ocbench's busy run, as CPU the worker got:
// on the wall clock a preempted worker counted the time it waited as work,
// and its loop count followed how often it was scheduled instead.
inline int64_t busyFor(int64_t ns)
{
    return busyForCpu(ns, &RealClock::threadCpuNow);
}

} // namespace latprobe
