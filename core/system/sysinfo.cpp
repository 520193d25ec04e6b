#include "sysinfo.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <sys/utsname.h>
#include <unistd.h>
#include <vector>
#include <zlib.h>

namespace latprobe {

namespace {

std::string trim(const std::string &s)
{
    const auto first = s.find_first_not_of(" \t\n");
    const auto last = s.find_last_not_of(" \t\n");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// "key : value" lines of /proc/cpuinfo.
std::string cpuinfoField(const std::string &key)
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                return trim(line.substr(colon + 1));
        }
    return {};
}

using KernelConfig = std::map<std::string, std::string>;

// The CONFIG_* values of `keys` (those set) from /proc/config.gz (IKCONFIG),
// else /boot/config-<release>: in one pass, for the file is 100 KB and more.
KernelConfig readKernelConfig(const std::string &release, const std::vector<std::string> &keys)
{
    KernelConfig found;
    const auto take = [&](std::string_view line) {
        const auto eq = line.find('=');
        if (eq == std::string_view::npos)
            return;
        const std::string key(line.substr(0, eq));
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
            found[key] = trim(std::string(line.substr(eq + 1)));
    };
    if (gzFile gz = gzopen("/proc/config.gz", "rb")) {
        char buf[4096];
        while (found.size() < keys.size() && gzgets(gz, buf, sizeof buf))
            take(buf);
        gzclose(gz);
        return found;
    }
    std::ifstream in("/boot/config-" + release);
    std::string line;
    while (found.size() < keys.size() && std::getline(in, line))
        take(line);
    return found;
}

bool isSet(const KernelConfig &config, const std::string &key)
{
    const auto it = config.find(key);
    return it != config.end() && it->second == "y";
}

std::string preemptionModel(const std::string &version, const KernelConfig &config,
                            const std::string &cmdline)
{
    if (version.find("PREEMPT_RT") != std::string::npos)
        return "rt";
    const bool dynamic = version.find("PREEMPT_DYNAMIC") != std::string::npos;
    if (dynamic) {
        // The active model is in debugfs when it is mounted and readable...
        const std::string active = readFirstLine("/sys/kernel/debug/sched/preempt", "");
        const auto open = active.find('(');
        const auto close = active.find(')');
        if (open != std::string::npos && close != std::string::npos)
            return active.substr(open + 1, close - open - 1);
        // ...else it is preempt= on the command line, else the built-in default.
        const auto arg = (" " + cmdline).find(" preempt=");
        if (arg != std::string::npos) {
            const std::string rest = cmdline.substr(arg + 8);
            return rest.substr(0, rest.find(' '));
        }
    }
    std::string model = "unknown";
    if (isSet(config, "CONFIG_PREEMPT_NONE"))
        model = "none";
    else if (isSet(config, "CONFIG_PREEMPT_VOLUNTARY"))
        model = "voluntary";
    else if (isSet(config, "CONFIG_PREEMPT_LAZY"))
        model = "lazy";
    else if (isSet(config, "CONFIG_PREEMPT") ||
             (!dynamic && version.find("PREEMPT") != std::string::npos))
        model = "full";
    return model;
}

std::string activeScheduler(const std::string &release)
{
    if (readFirstLine("/sys/kernel/sched_ext/state", "") == "enabled")
        return "sched_ext:" + readFirstLine("/sys/kernel/sched_ext/root/ops", "unknown");
    int major = 0, minor = 0;
    if (std::sscanf(release.c_str(), "%d.%d", &major, &minor) == 2)
        return (major > 6 || (major == 6 && minor >= 6)) ? "eevdf" : "cfs";
    return "unknown";
}

std::string virtualization()
{
    if (cpuinfoField("flags").find(" hypervisor") == std::string::npos)
        return "none";
    std::string vendor = readFirstLine("/sys/class/dmi/id/sys_vendor", "");
    std::string product = readFirstLine("/sys/class/dmi/id/product_name", "");
    std::string name = trim(vendor + " " + product);
    return name.empty() ? "vm" : name;
}

} // namespace

std::string readFirstLine(const std::string &path, const std::string &fallback)
{
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return fallback;
    return trim(line);
}

SystemInfo readSystemInfo()
{
    SystemInfo info;
    utsname u{};
    uname(&u);
    info.kernelRelease = u.release;
    info.kernelVersion = u.version;
    info.machine = u.machine;
    info.cpuModel = cpuinfoField("model name");
    if (info.cpuModel.empty())
        info.cpuModel = "unknown";
    info.cpuCount = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    info.governor = readFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "none");
    const KernelConfig config = readKernelConfig(
        info.kernelRelease, {"CONFIG_HZ", "CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_VOLUNTARY",
                             "CONFIG_PREEMPT_LAZY", "CONFIG_PREEMPT"});
    const auto hz = config.find("CONFIG_HZ");
    info.hz = hz != config.end() ? hz->second : "unknown";
    info.scheduler = activeScheduler(info.kernelRelease);
    const std::string autogroup = readFirstLine("/proc/sys/kernel/sched_autogroup_enabled", "");
    info.autogroup = autogroup == "1" ? "on" : autogroup == "0" ? "off" : "unavailable";
    const std::string runtime = readFirstLine("/proc/sys/kernel/sched_rt_runtime_us", "");
    const std::string period = readFirstLine("/proc/sys/kernel/sched_rt_period_us", "");
    info.rtThrottling = runtime == "-1" ? "off" : runtime + "/" + period + " us";
    info.cmdline = readFirstLine("/proc/cmdline", "");
    info.preemption = preemptionModel(info.kernelVersion, config, info.cmdline);
    info.virtualization = virtualization();
    return info;
}

} // namespace latprobe
