#include "procstat.h"

#include <cstdio>
#include <cstring>
#include <ctime>
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

} // namespace

int64_t processCpuNs(pid_t pid)
{
    int64_t own = 0, children = 0;
    return readStatCpu(pid, own, children) ? own : -1;
}

int64_t reapedChildrenCpuNs(pid_t pid)
{
    int64_t own = 0, children = 0;
    return readStatCpu(pid, own, children) ? children : -1;
}

int64_t processClockNs(pid_t pid)
{
    // The clock id glibc's clock_getcpuclockid() makes (the kernel's
    // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)), without the clock_getres
    // call with which it checks the process exists: the read says so.
    const clockid_t clock = static_cast<clockid_t>((~static_cast<unsigned>(pid)) << 3) | 2;
    timespec ts{};
    if (pid <= 0 || clock_gettime(clock, &ts) != 0)
        return -1;
    return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

} // namespace latprobe
