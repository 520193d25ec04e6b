#pragma once

#include "../workerslot.h"

#include <cstdint>
#include <ctime>

namespace latprobe {

inline int64_t workerNow()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Busy for `ns` of wall time, as massive_intr and ocbench measure their work.
inline void busyFor(int64_t ns)
{
    const int64_t end = workerNow() + ns;
    while (workerNow() < end) {
    }
}

inline void sleepFor(int64_t ns)
{
    timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
    }
}

inline void addProgress(WorkerSlot &slot, uint64_t n)
{
    slot.progress.store(slot.progress.load(std::memory_order_relaxed) + n,
                        std::memory_order_relaxed);
}

} // namespace latprobe
