#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>

namespace latprobe {

// A thread's EEVDF slice, slice_us=: sched_runtime of a SCHED_OTHER, BATCH
// or IDLE thread (Linux 6.12+), set with sched_setattr and read back with
// sched_getattr. The kernel clamps it to 0.1-100 ms without a word, so
// latprobe checks that range itself (kMinSliceUs, kMaxSliceUs); a later
// sched_setscheduler() on the thread resets it to the default.
inline constexpr uint64_t kMinSliceUs = 100;
inline constexpr uint64_t kMaxSliceUs = 100'000;

// Sets thread `tid`'s slice to `ns` (0: the kernel's default) keeping its
// policy and nice, and reads it back. False with a one-line error: a
// real-time thread (FIFO, RR, DEADLINE) has no slice; a kernel that reads
// back something else ignores per-task slices.
bool setTaskSlice(pid_t tid, uint64_t ns, std::string &error);
// The slice thread `tid` runs with, as sched_getattr says (6.12+: the
// default one, base_slice_ns, where none was set).
bool readTaskSlice(pid_t tid, uint64_t &ns, std::string &error);
// "" when this kernel honours per-task slices: one set on a thread made for
// the purpose reads back; else why not, saying what to install.
std::string probeTaskSlice();

} // namespace latprobe
