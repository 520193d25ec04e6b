#pragma once

#include <cstdint>
#include <sys/types.h>

namespace latprobe {

// utime + stime of a process from /proc/<pid>/stat, in ns (ticks); -1 when
// gone.
int64_t processCpuNs(pid_t pid);

// The CPU time of a process as the scheduler counts it, in ns: every
// thread's, the exited ones' included, read from the kernel's CPU clock of
// the process (clock_gettime on its clock id: one system call, no file to
// open or parse). A running thread's share is the one at its last tick or
// switch. -1 when the process is gone.
int64_t processClockNs(pid_t pid);

// cutime + cstime of /proc/<pid>/stat, in ns: the CPU of the children the
// process has waited for (a compile worker's compilers). -1 when gone.
int64_t reapedChildrenCpuNs(pid_t pid);

} // namespace latprobe
