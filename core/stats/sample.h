#pragma once

#include <cstdint>

namespace latprobe {

// One cycle of a periodic consumer, as the measuring thread saw it. Plain
// data: the collector derives every statistic from these times.
struct Sample
{
    int64_t periodStart = 0; // the `next` the thread slept until
    int64_t woke = 0;        // when it ran again
    int64_t done = 0;        // when its work was finished
    int64_t workDone = 0;    // CPU work actually done (ns)
    // interbench's latency (WakeMethod::Timekeeper), written by the loop so
    // that every view derives the same latency from the sample alone: the
    // lateness it is not charged with (the timekeeper's own oversleep, and
    // for X the head start its schedule gives), and the periods' worth of
    // time it is charged for the periods it lost. 0 for a timer wake.
    int64_t excusedNs = 0;
    int64_t lostNs = 0;
    uint32_t periodsSkipped = 0; // later periods whose start had passed: never served
    int32_t tid = 0;             // the thread that measured it: what its miss's explanation follows
    uint16_t missedDeadline = 0; // 1 when done > periodStart + slack
    uint8_t failed = 0;          // 1 when the period's action failed outright (a start)
    uint8_t noDeadline =
        0; // 1: this cycle had none to meet (X's 100 % burn), neither met nor missed
};

} // namespace latprobe
