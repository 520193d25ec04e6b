// Helpers shared by the load kinds that fork, exec or write files.
#include "workerutil.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace latprobe {

bool armWorkerChild(pid_t worker)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != worker)
        return false; // the worker died before the death signal was armed
    // Inherited over fork already; set again in case the worker renamed itself.
    char name[16] = {};
    prctl(PR_GET_NAME, name);
    prctl(PR_SET_NAME, name);
    return true;
}

int openAnonymousFile(const std::string &dir)
{
    const std::string base = dir.empty() ? "/tmp" : dir;
    int fd = open(base.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    // No O_TMPFILE on this filesystem: a name that lives for one syscall.
    std::string path = base + "/io-XXXXXX";
    fd = mkostemp(path.data(), O_CLOEXEC);
    if (fd < 0)
        return -1;
    unlink(path.c_str());
    return fd;
}

void fillRandom(std::vector<unsigned char> &buf, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (unsigned char &byte : buf) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        byte = static_cast<unsigned char>(x >> 32);
    }
}

std::vector<pid_t> childrenOfSelf()
{
    std::vector<pid_t> out;
    const pid_t self = getpid();
    if (FILE *f = std::fopen(fmt::format("/proc/self/task/{}/children", self).c_str(), "r")) {
        int pid = 0;
        while (std::fscanf(f, "%d", &pid) == 1)
            out.push_back(pid);
        std::fclose(f);
        return out;
    }
    // No CONFIG_PROC_CHILDREN: look for our pid as the parent in every stat.
    DIR *proc = opendir("/proc");
    if (!proc)
        return out;
    while (dirent *e = readdir(proc)) {
        const int pid = std::atoi(e->d_name);
        if (pid <= 0)
            continue;
        if (FILE *f = std::fopen(fmt::format("/proc/{}/stat", pid).c_str(), "r")) {
            char buf[512];
            const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
            std::fclose(f);
            buf[n] = '\0';
            // pid (comm) state ppid: comm may hold spaces and ')', so
            // parse after the last ')'.
            if (const char *close = std::strrchr(buf, ')')) {
                char state;
                int ppid = 0;
                if (std::sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == self)
                    out.push_back(pid);
            }
        }
    }
    closedir(proc);
    return out;
}

} // namespace latprobe
