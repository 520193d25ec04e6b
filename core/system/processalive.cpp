#include "processalive.h"

#include <cerrno>
#include <signal.h>

namespace latprobe {

namespace {

// kill(0) and kill(-1) would ask about the caller's group and every
// process: callers mean neither.
bool signalTargetAlive(pid_t target)
{
    return kill(target, 0) == 0 || errno != ESRCH;
}

} // namespace

bool processAlive(pid_t pid)
{
    return pid > 0 && signalTargetAlive(pid);
}

bool processGroupAlive(pid_t pgid)
{
    return pgid > 0 && signalTargetAlive(-pgid);
}

} // namespace latprobe
