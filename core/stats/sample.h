#pragma once

#include <cstdint>

namespace latprobe {

// One cycle of a periodic consumer, as the measuring thread saw it. Plain
// data: the collector derives every statistic from these four times.
struct Sample
{
    int64_t periodStart = 0;     // the `next` the thread slept until
    int64_t woke = 0;            // when it ran again
    int64_t done = 0;            // when its work was finished
    int64_t workDone = 0;        // CPU work actually done (ns)
    uint32_t periodsSkipped = 0; // later periods whose start had passed: never served
    uint16_t missedDeadline = 0; // 1 when done > periodStart + slack
    uint16_t failed = 0;         // 1 when the period's action failed outright (a start)
};

} // namespace latprobe
