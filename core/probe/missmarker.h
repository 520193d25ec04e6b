#pragma once

#include "sample.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace latprobe {

// A miss written into the flight recorder's own trace_marker by the thread
// that missed, after its period's work (never inside the timed part): the
// miss then sits on the kernel's timeline next to the switches that caused
// it, in `trace-cmd report` and KernelShark alike. The line carries the
// miss's own times, CLOCK_MONOTONIC as the recorder's "mono" trace clock
// stamps its events, so it can be matched however late the kernel stamped
// the write. No allocation, no lock: one write(2) on a miss, none otherwise,
// and none while the recorder is off (no marker file).
class MissMarker
{
public:
    // `fd` is the recorder's trace_marker, shared by every consumer's
    // marker and set (or reset to -1) while they run.
    MissMarker(const std::atomic<int> &fd, std::string_view consumer);

    void mark(const Sample &s) const;

    // "latprobe: audio miss 15.373 ms, period start -15.373 ms, woke -3.270 ms
    // [start 1234.567890123 woke ... done ...]": the period start and the wake
    // relative to the work done, then the three in seconds. Into `out` (no
    // terminating zero); returns its length.
    static size_t format(char *out, size_t size, std::string_view consumer, const Sample &s);
    static constexpr size_t kMaxLine = 192;

private:
    const std::atomic<int> &m_fd;
    char m_consumer[32] = {};
    size_t m_consumerLength = 0;
};

} // namespace latprobe
