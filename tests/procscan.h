#pragma once

// What the load tests see of the machine: every process in /proc with its
// parent, process group, session, state and comm; and which of them carry
// an environment variable a test set (so a test finds every process its
// latprobe started, however deep, and none of a test running beside it).

#include <QDir>
#include <QStringList>

#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

struct ProcInfo
{
    pid_t pid = 0, ppid = 0, pgrp = 0, sid = 0;
    char state = '?';
    std::string comm;
    bool alive() const { return state != 'Z' && state != 'X'; }
};

inline bool readProc(pid_t pid, ProcInfo &p)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = std::fopen(path, "r");
    if (!f)
        return false;
    char buf[1024];
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // pid (comm) state ppid pgrp session: comm may hold spaces and ')'.
    const char *open = std::strchr(buf, '('), *close = std::strrchr(buf, ')');
    if (!open || !close || close < open)
        return false;
    p.pid = pid;
    p.comm.assign(open + 1, close);
    int ppid = 0, pgrp = 0, sid = 0;
    if (std::sscanf(close + 1, " %c %d %d %d", &p.state, &ppid, &pgrp, &sid) != 4)
        return false;
    p.ppid = ppid;
    p.pgrp = pgrp;
    p.sid = sid;
    return true;
}

inline std::vector<ProcInfo> scanProc()
{
    std::vector<ProcInfo> out;
    DIR *dir = opendir("/proc");
    if (!dir)
        return out;
    while (dirent *e = readdir(dir)) {
        char *end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        ProcInfo p;
        if (pid > 0 && end && *end == '\0' && readProc(static_cast<pid_t>(pid), p))
            out.push_back(p);
    }
    closedir(dir);
    return out;
}

// A pid that is gone or a zombie (dead, waiting to be reaped).
inline bool pidGone(pid_t pid)
{
    ProcInfo p;
    return !readProc(pid, p) || !p.alive();
}

// The temp dirs latprobe made in `base` (latprobe-<pid>-XXXXXX).
inline QStringList latprobeTempDirs(const QString &base)
{
    return QDir(base).entryList({"latprobe-*"}, QDir::Dirs | QDir::NoDotAndDotDot);
}

// Whether `pid`'s environment holds exactly `entry` ("KEY=value"). A zombie
// has no environment left, so it never matches.
inline bool hasEnvEntry(pid_t pid, const std::string &entry)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/environ", pid);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    std::string env;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0)
        env.append(buf, static_cast<size_t>(n));
    ::close(fd);
    for (size_t at = 0; at < env.size();) {
        const size_t end = env.find('\0', at);
        if (env.compare(at, (end == std::string::npos ? env.size() : end) - at, entry) == 0)
            return true;
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return false;
}

// The live processes (not zombies) whose environment holds `entry`, among
// those whose comm starts with `commPrefix`: reading another process's
// environment waits for its memory map lock, so only candidates are read.
inline std::vector<ProcInfo> processesWithEnv(const std::string &entry,
                                              const std::string &commPrefix = "latprobe")
{
    std::vector<ProcInfo> out;
    for (const ProcInfo &p : scanProc())
        if (p.alive() && p.comm.rfind(commPrefix, 0) == 0 && hasEnvEntry(p.pid, entry))
            out.push_back(p);
    return out;
}
