#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace latprobe {

// How a consumer's "work" is done.
enum class WorkMode {
    CpuTime, // spin until the thread has run the time: preemption shows as lateness
    Loops,   // interbench's loop-calibrated burn: drifts with the VM's speed
};

// "cpu-time", "loops": as run files keep it.
const char *toString(WorkMode mode);
std::optional<WorkMode> workModeFromName(std::string_view name);
// "loops (calibrated)": for a person, beside another run's.
const char *describe(WorkMode mode);
// "cpu", "loops": as --work-mode takes it.
std::optional<WorkMode> workModeFromOption(std::string_view option);
std::vector<std::string> workModeOptions();

// Time as the measuring loop sees it. The real clock sleeps and spins; a fake
// one lets tests force late wakeups and long work without a busy machine.
class Clock
{
public:
    virtual ~Clock() = default;
    // CLOCK_MONOTONIC in nanoseconds.
    virtual int64_t now() = 0;
    // Sleep until an absolute CLOCK_MONOTONIC time (TIMER_ABSTIME semantics);
    // returns when it woke, read first thing after the sleep, as cyclictest
    // does: nothing of the caller's (cold after the sleep) is timed with it.
    virtual int64_t sleepUntil(int64_t deadline) = 0;
    // Do `ns` of simulated work; returns the work actually done, in ns.
    virtual int64_t work(int64_t ns) = 0;
};

} // namespace latprobe
