#include "cpucgroup.h"

#include "kernelfile.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace latprobe {

namespace {

bool listsWord(const std::string &file, const std::string &word)
{
    std::string text, error;
    if (!readKernelFile(file, text, error))
        return false;
    std::istringstream in(text);
    std::string w;
    while (in >> w)
        if (w == word)
            return true;
    return false;
}

std::string parentOf(const std::string &dir)
{
    const size_t slash = dir.rfind('/');
    return slash == std::string::npos || slash == 0 ? "/" : dir.substr(0, slash);
}

} // namespace

CpuController findCpuController(const std::string &cgroupRoot)
{
    for (const std::string &v2 : {cgroupRoot, cgroupRoot + "/unified"}) {
        if (!listsWord(v2 + "/cgroup.controllers", "cpu"))
            continue;
        if (!listsWord(v2 + "/cgroup.subtree_control", "cpu"))
            return {0, v2,
                    fmt::format("load_weight needs the cgroup v2 cpu controller enabled for "
                                "child groups: echo +cpu > {}/cgroup.subtree_control",
                                v2)};
        return {2, v2, {}};
    }
    for (const std::string &v1 : {cgroupRoot + "/cpu", cgroupRoot + "/cpu,cpuacct"})
        if (pathExists(v1 + "/cpu.shares"))
            return {1, v1, {}};
    return {0,
            {},
            fmt::format("load_weight needs the cgroup cpu controller, and {} has none (no cpu in "
                        "cgroup.controllers, no v1 cpu hierarchy): enable it in the kernel or "
                        "mount it",
                        cgroupRoot)};
}

const char *weightFile(int version)
{
    return version == 2 ? "cpu.weight" : "cpu.shares";
}

long weightValue(int version, int weight)
{
    return version == 2 ? weight : static_cast<long>(weight) * 1024 / 100;
}

bool makeCgroup(const std::string &dir, const std::string &file, const std::string &value,
                std::string &readBack, std::string &error)
{
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
        error = fmt::format("cannot make the cgroup {}: {}", dir, std::strerror(errno));
        return false;
    }
    const std::string path = dir + "/" + file;
    return writeKernelFile(path, value, error) && readKernelFile(path, readBack, error);
}

bool moveIntoCgroup(const std::string &dir, pid_t pid, std::string &error)
{
    return writeKernelFile(dir + "/cgroup.procs", std::to_string(pid), error);
}

bool removeCgroup(const std::string &dir, std::string &error)
{
    // A kill -9 leaves loads dying in it for a moment: rmdir says EBUSY
    // until they are out. Up to 5 s, then the error stands.
    for (int attempt = 0; attempt < 250; ++attempt) {
        if (rmdir(dir.c_str()) == 0 || errno == ENOENT)
            return true;
        if (errno != EBUSY)
            break;
        std::string procs, ignored;
        if (readKernelFile(dir + "/cgroup.procs", procs, ignored)) {
            std::istringstream in(procs);
            std::string pid;
            while (in >> pid)
                writeKernelFile(parentOf(dir) + "/cgroup.procs", pid, ignored);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    error = fmt::format("cannot remove the cgroup {}: {}", dir, std::strerror(errno));
    return false;
}

} // namespace latprobe
