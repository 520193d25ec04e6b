#pragma once

#include <cstdint>
#include <sys/types.h>

namespace latprobe {

// utime + stime of a process from /proc/<pid>/stat, in ns; -1 when gone.
// With `withReapedChildren`, also cutime + cstime: the CPU of the children
// it has waited for (a compile worker's compilers, a spawn storm's).
int64_t processCpuNs(pid_t pid, bool withReapedChildren = false);

} // namespace latprobe
