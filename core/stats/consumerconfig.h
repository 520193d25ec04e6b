#pragma once

#include "clock.h"

#include <cstdint>
#include <string>

namespace latprobe {

enum class ConsumerKind {
    Periodic,     // audio, video, wakeup: sleep, work, meet a deadline
    ProcessStart, // start: time a short-lived process from fork to exit
    External,     // gui: fed by a loop latprobe does not own (the Qt event loop)
};

struct ConsumerConfig
{
    ConsumerKind kind = ConsumerKind::Periodic;
    std::string name; // "audio", "video", "wakeup"
    int64_t periodNs = 0;
    int64_t workNs = 0;   // CPU work per period
    int64_t slackNs = 0;  // deadline = period start + slack; 0: no deadline
    std::string missName; // the table's word for a miss ("skips"), kept in run files
    WorkMode workMode = WorkMode::CpuTime;

    bool hasDeadline() const { return slackNs > 0; }
};

} // namespace latprobe
