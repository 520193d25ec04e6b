#include "procstat.h"

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace latprobe {

int64_t processCpuNs(pid_t pid, bool withReapedChildren)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[1024];
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    // comm may hold spaces and parentheses: fields resume after the last ')'.
    const char *p = std::strrchr(buf, ')');
    if (!p)
        return -1;
    unsigned long long utime = 0, stime = 0;
    long long cutime = 0, cstime = 0;
    // state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime
    if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                    &utime, &stime, &cutime, &cstime) != 4)
        return -1;
    static const long ticks = sysconf(_SC_CLK_TCK);
    unsigned long long total = utime + stime;
    if (withReapedChildren)
        total += static_cast<unsigned long long>(cutime + cstime);
    return static_cast<int64_t>(total * (1000000000LL / ticks));
}

} // namespace latprobe
