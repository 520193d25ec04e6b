#include "procstat.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace latprobe {

namespace {

// utime + stime and cutime + cstime of /proc/<pid>/stat, in ns; false when
// the process is gone.
bool readStatCpu(pid_t pid, int64_t &own, int64_t &reapedChildren)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[1024];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    // comm may hold spaces and parentheses: fields resume after the last ')'.
    const char *p = std::strrchr(buf, ')');
    if (!p)
        return false;
    unsigned long long utime = 0, stime = 0;
    long long cutime = 0, cstime = 0;
    // state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime
    if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                    &utime, &stime, &cutime, &cstime) != 4)
        return false;
    static const long ticks = sysconf(_SC_CLK_TCK);
    own = static_cast<int64_t>((utime + stime) *
                               static_cast<unsigned long long>(1000000000LL / ticks));
    reapedChildren = (cutime + cstime) * (1000000000LL / ticks);
    return true;
}

// The first field of a task's schedstat; -1 when it is gone.
int64_t taskScheduledNs(const char *path)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[128];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    unsigned long long ns = 0;
    if (std::sscanf(buf, "%llu", &ns) != 1)
        return -1;
    return static_cast<int64_t>(ns);
}

} // namespace

int64_t processCpuNs(pid_t pid, bool withReapedChildren)
{
    int64_t own = 0, children = 0;
    if (!readStatCpu(pid, own, children))
        return -1;
    return withReapedChildren ? own + children : own;
}

int64_t scheduledCpuNs(pid_t pid, bool withReapedChildren)
{
    // /proc/<pid>/schedstat is the group leader's alone: a burn worker of
    // two threads showed the CPU time of one.
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *tasks = ::opendir(path);
    if (!tasks)
        return -1;
    int64_t sum = 0;
    bool any = false;
    while (const dirent *task = ::readdir(tasks)) {
        if (task->d_name[0] == '.')
            continue;
        char statPath[320];
        std::snprintf(statPath, sizeof statPath, "/proc/%d/task/%s/schedstat", pid, task->d_name);
        const int64_t ns = taskScheduledNs(statPath);
        if (ns >= 0) {
            sum += ns;
            any = true;
        }
    }
    ::closedir(tasks);
    if (!any)
        return -1;
    int64_t own = 0, children = 0;
    if (!readStatCpu(pid, own, children))
        return withReapedChildren ? -1 : sum;
    return std::max(sum, own) + (withReapedChildren ? children : 0);
}

} // namespace latprobe
