#pragma once

#include <cstdint>
#include <sys/types.h>

namespace latprobe {

// utime + stime of a process from /proc/<pid>/stat, in ns; -1 when gone.
int64_t processCpuNs(pid_t pid);

} // namespace latprobe
