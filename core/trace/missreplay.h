#pragma once

#include "missexplanation.h"
#include "schedevent.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace latprobe {

// A missed period as the measuring thread saw it: the times of its sample
// (sample.h) and the thread that ran it.
struct MissWindow
{
    int tid = 0;
    int64_t periodStart = 0;
    int64_t woke = 0;
    int64_t done = 0;
};

// Replays the trace around one miss and splits its window, from the period's
// start to the work done, by what the consumer's CPU did: the timer's
// lateness until the consumer was woken, then interrupts and softirqs, the
// tasks that ran while it was runnable (each by pid), and its own running.
// `events` are sorted by time and begin before the window, so that who ran
// on each CPU is known when it opens. `preemption` is the kernel's model
// (sysinfo.h), named when a wait ended at the tick. A pure function: the
// tests feed it synthetic traces.
MissExplanation explainMiss(std::span<const SchedEvent> events, const MissWindow &miss,
                            const std::string &preemption);

} // namespace latprobe
