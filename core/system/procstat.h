#pragma once

#include <cstdint>
#include <sys/types.h>

namespace latprobe {

// utime + stime of a process from /proc/<pid>/stat, in ns; -1 when gone.
// With `withReapedChildren`, also cutime + cstime: the CPU of the children
// it has waited for (a compile worker's compilers, a spawn storm's).
int64_t processCpuNs(pid_t pid, bool withReapedChildren = false);

// The time the scheduler has had a process's threads on a CPU, in ns: the
// first field of each /proc/<pid>/task/<tid>/schedstat, exact where
// /proc/<pid>/stat counts ticks, or that count where it is larger (threads
// that have exited are in no task's schedstat). With `withReapedChildren`,
// also cutime + cstime, as processCpuNs. -1 when the process is gone or the
// kernel keeps no schedstat.
int64_t scheduledCpuNs(pid_t pid, bool withReapedChildren = false);

} // namespace latprobe
