#include "statecapture.h"

#include "procstat.h"
#include "sysinfo.h"

#include <algorithm>
#include <chrono>
#include <dirent.h>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace latprobe {

namespace {

std::string readText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::string text(kStateTextLimit + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    if (text.size() > kStateTextLimit) {
        text.resize(kStateTextLimit);
        text += "\n[truncated]\n";
    }
    return text;
}

std::map<int, int64_t> cpuByPid()
{
    std::map<int, int64_t> out;
    DIR *dir = opendir("/proc");
    if (!dir)
        return out;
    while (dirent *e = readdir(dir)) {
        char *end = nullptr;
        const long pid = std::strtol(e->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        const int64_t cpu = processCpuNs(static_cast<pid_t>(pid));
        if (cpu >= 0)
            out[static_cast<int>(pid)] = cpu;
    }
    closedir(dir);
    return out;
}

} // namespace

StateCapture captureSystemState(const std::string &reason, int windowMs, size_t topN)
{
    StateCapture s;
    s.reason = reason;
    for (const char *path : {"/sys/kernel/debug/sched/debug", "/proc/sched_debug"}) {
        s.schedDebug = readText(path);
        if (!s.schedDebug.empty()) {
            s.schedDebugSource = path;
            break;
        }
    }
    s.schedstat = readText("/proc/schedstat");
    s.loadavg = readFirstLine("/proc/loadavg", "");

    const auto before = cpuByPid();
    std::this_thread::sleep_for(std::chrono::milliseconds(windowMs));
    const auto after = cpuByPid();
    for (const auto &[pid, cpu] : after) {
        auto it = before.find(pid);
        if (it == before.end() || cpu <= it->second)
            continue;
        TopProcess p;
        p.pid = pid;
        p.comm = readFirstLine(fmt::format("/proc/{}/comm", pid), "?");
        p.cpuPct = 100.0 * static_cast<double>(cpu - it->second) / (windowMs * 1e6);
        s.top.push_back(p);
    }
    std::sort(s.top.begin(), s.top.end(),
              [](const TopProcess &a, const TopProcess &b) { return a.cpuPct > b.cpuPct; });
    if (s.top.size() > topN)
        s.top.resize(topN);
    return s;
}

std::string formatStateCapture(const StateCapture &s)
{
    std::string out = fmt::format("state at {:.1f} s, phase {}: {}\n", s.timeS, s.phase, s.reason);
    out += fmt::format("loadavg {}\n", s.loadavg);
    out += "top CPU consumers:\n";
    for (const TopProcess &p : s.top)
        out += fmt::format("  {:>7}  {:<16}  {:5.1f} %\n", p.pid, p.comm, p.cpuPct);
    if (s.schedDebug.empty())
        out += "scheduler debug: not readable (mount debugfs and run as root)\n";
    else
        out += fmt::format("--- {}\n{}", s.schedDebugSource, s.schedDebug);
    if (!s.schedstat.empty())
        out += "--- /proc/schedstat\n" + s.schedstat;
    return out;
}

} // namespace latprobe
