#pragma once

#include "clock.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace latprobe {

// Which consumer this is, where code acts on it: names are for files and
// people, roles for code. consumertable.h has each role's row.
enum class ConsumerRole { Audio, Video, X, Gaming, Wakeup, Gui, Start, Unknown };

// The role a name read from outside (a run file, an option) stands for; a
// cyclictest thread imported as "wakeup#2" is a wakeup. Unknown names are
// Unknown. Code that holds a ConsumerConfig asks its `role` instead.
ConsumerRole consumerRole(std::string_view name);

enum class ConsumerKind {
    Periodic,     // audio, video, wakeup: sleep, work, meet a deadline
    ProcessStart, // start: time a short-lived process from fork to exit
    External,     // gui: fed by a loop latprobe does not own (the Qt event loop)
    Continuous,   // gaming: burns back to back, never sleeps; what counts is the CPU it got
};

// What wakes a periodic consumer at each period's start, and so which latency
// it is charged with (docs/DESIGN.md, "Wake methods").
enum class WakeMethod {
    // latprobe's: the consumer sleeps on an absolute timer itself; its
    // latency is woke - period start, as cyclictest measures it.
    Timer,
    // interbench's: a timekeeper thread (SCHED_FIFO 96 when permitted) sleeps
    // to the period and wakes the consumer; the timekeeper's own oversleep is
    // not charged to the consumer, each period lost is (interbench's latency).
    Timekeeper,
};

const char *toString(WakeMethod method); // "timer", "timekeeper"
bool parseWakeMethod(const std::string &text, WakeMethod &method);
std::vector<std::string> wakeMethodNames(); // for --wake's check
// The latency definition a wake method comes with, as runs and reports name
// it: "wake" (woke - period start) or "interbench".
const char *latencyDefinition(WakeMethod method);

struct ConsumerConfig
{
    ConsumerKind kind = ConsumerKind::Periodic;
    ConsumerRole role = ConsumerRole::Unknown;
    std::string name; // "audio", "video", "wakeup": the role's name, or "wakeup#2"
    int64_t periodNs = 0;
    int64_t workNs = 0;   // CPU work per period
    int64_t slackNs = 0;  // deadline = period start + slack; 0: no deadline
    std::string missName; // the table's word for a miss ("skips"), kept in run files
    WorkMode workMode = WorkMode::CpuTime;
    WakeMethod wake = WakeMethod::Timer;
    // interbench's X: cycle k works (k mod (period / rampStep + 1)) x rampStep
    // and is due within the rest of its period-long window. 0: no ramp.
    int64_t rampStepNs = 0;

    bool hasDeadline() const { return slackNs > 0; }
    // Moves `next`, the start of the period after the one just served, past
    // the periods that a cycle done at `done` swallowed, and returns how
    // many. A period is lost once it can no longer be served in time: for
    // the wakeup consumer as soon as it has started (cyclictest's resync),
    // for audio and video once its deadline has passed (the buffer can
    // still catch up until then). Cheap: the measuring loops call it.
    uint32_t skipLostPeriods(int64_t &next, int64_t done) const
    {
        const int64_t lostAfter = hasDeadline() ? slackNs : 0;
        uint32_t lost = 0;
        while (next + lostAfter < done) {
            next += periodNs;
            ++lost;
        }
        return lost;
    }
};

} // namespace latprobe
