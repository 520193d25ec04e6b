#pragma once

#include <sys/types.h>

namespace latprobe {

// Whether a process, or a process group, exists: the one rule for every
// caller, root or not. kill(pid, 0) failing with EPERM means it lives (as
// another user); only ESRCH means it is gone. A zombie still exists until it
// is reaped. A pid (pgid) <= 0 names no process: false.
bool processAlive(pid_t pid);
bool processGroupAlive(pid_t pgid);

} // namespace latprobe
