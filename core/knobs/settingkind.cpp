#include "settingkind.h"

#include "cpucgroup.h"
#include "kernelfile.h"
#include "programsearch.h"
#include "scxscheduler.h"
#include "taskslice.h"
#include "variant.h"
#include "wordsplit.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

// A whole number in [min, max], nothing around it.
bool integerIn(const std::string &text, long min, long max)
{
    long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size() && v >= min && v <= max;
}

// --- values

std::string checkAutogroup(const std::string &v)
{
    return v == "0" || v == "1" ? "" : "autogroup must be 0 (off) or 1 (on)";
}

std::string checkSlice(const std::string &v)
{
    return integerIn(v, static_cast<long>(kMinSliceUs), static_cast<long>(kMaxSliceUs))
               ? ""
               : "slice_us must be a whole number of microseconds from 100 to 100000 (the "
                 "kernel clamps to 0.1-100 ms without a word)";
}

std::string checkPreempt(const std::string &v)
{
    return v == "none" || v == "voluntary" || v == "full" || v == "lazy"
               ? ""
               : "preempt must be none, voluntary, full or lazy";
}

std::string checkThp(const std::string &v)
{
    return v == "always" || v == "madvise" || v == "never" ? ""
                                                           : "thp must be always, madvise or never";
}

std::string checkNice(const std::string &v)
{
    return integerIn(v, -20, 19) ? "" : "load_nice must be a whole number from -20 to 19";
}

std::string checkLoadPolicy(const std::string &v)
{
    return v == "batch" || v == "idle" ? "" : "load_policy must be batch or idle";
}

std::string checkWeight(const std::string &v)
{
    return integerIn(v, 1, 10000)
               ? ""
               : "load_weight must be a whole number from 1 to 10000 (cgroup v2 cpu.weight; "
                 "100 is the default)";
}

std::string checkSysctl(const std::string &v)
{
    const size_t eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        return fmt::format("sysctl \"{}\": write sysctl=NAME=VALUE, e.g. "
                           "sysctl=kernel.sched_child_runs_first=1",
                           v);
    if (v.find('\n') != std::string::npos)
        return "a sysctl's value is one line";
    return checkSysctlName(v.substr(0, eq));
}

std::string checkCommandLine(const std::string &v)
{
    if (v.find_first_not_of(" \t") == std::string::npos)
        return "a program is missing: write PROGRAM ARGS";
    std::vector<std::string> words;
    std::string error;
    return splitWords(v, words, error) ? "" : fmt::format("\"{}\": {}", v, error);
}

// --- the machine

std::string machineAutogroup(const KnobEnvironment &env)
{
    return pathExists(env.autogroupFile())
               ? ""
               : fmt::format("autogroup needs a kernel with CONFIG_SCHED_AUTOGROUP ({} is "
                             "missing)",
                             env.autogroupFile());
}

std::string machineSlice(const KnobEnvironment &env)
{
    return env.sliceProbe ? env.sliceProbe() : "";
}

std::string machinePreempt(const KnobEnvironment &env)
{
    const std::string file = env.preemptFile();
    if (!pathExists(file))
        return fmt::format("the preemption model is fixed here ({} is missing): preempt needs a "
                           "PREEMPT_DYNAMIC kernel and debugfs mounted (mount -t debugfs none "
                           "/sys/kernel/debug)",
                           file);
    const int fd = open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return fmt::format("the preemption model is fixed here: cannot write {} ({}); preempt "
                           "needs a PREEMPT_DYNAMIC kernel whose debugfs root may write",
                           file, std::strerror(errno));
    close(fd);
    return {};
}

std::string machineThp(const KnobEnvironment &env)
{
    const std::string file = env.thpFile();
    if (!pathExists(file))
        return fmt::format("this kernel has no transparent huge pages ({} is missing): thp needs "
                           "CONFIG_TRANSPARENT_HUGEPAGE",
                           file);
    const int fd = open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return fmt::format("cannot write {} ({}): thp needs root and a writable sysfs", file,
                           std::strerror(errno));
    close(fd);
    return {};
}

std::string machineWeight(const KnobEnvironment &env)
{
    return findCpuController(env.cgroupRoot).refusal;
}

std::string machineScx(const KnobEnvironment &env)
{
    const SchedExtStatus s = readSchedExt(env.schedExtDir());
    if (!s.present)
        return fmt::format("scx needs a kernel with sched_ext (CONFIG_SCHED_CLASS_EXT, Linux "
                           "6.12+), and {}/state is missing: boot such a kernel",
                           env.schedExtDir());
    if (s.state == "enabled")
        return fmt::format("the sched_ext scheduler {} already runs: stop it first (scxctl stop, "
                           "or systemctl stop scx_loader)",
                           s.ops.empty() ? "?" : s.ops);
    return {};
}

// --- the machine, for one value

std::string valueNice(const std::string &v, const KnobEnvironment &env)
{
    return v.front() == '-' && !env.root ? "load_nice below 0 needs root: run latprobe as root, "
                                           "or use 0 to 19"
                                         : "";
}

// A choice file's setting: "" when the kernel offers `v`.
std::string choiceOffered(const std::string &file, const std::string &key, const std::string &v)
{
    std::string text, error;
    if (!readKernelFile(file, text, error))
        return error;
    for (const std::string &choice : choicesOffered(text))
        if (choice == v)
            return {};
    return fmt::format("this kernel offers no {}={} (it offers: {})", key, v, text);
}

std::string valuePreempt(const std::string &v, const KnobEnvironment &env)
{
    return choiceOffered(env.preemptFile(), "preempt", v);
}

std::string valueThp(const std::string &v, const KnobEnvironment &env)
{
    return choiceOffered(env.thpFile(), "thp", v);
}

std::string valueSysctl(const std::string &v, const KnobEnvironment &env)
{
    const std::string name = v.substr(0, v.find('='));
    const std::string file = env.sysctlFile(name);
    struct stat st;
    if (stat(file.c_str(), &st) != 0)
        return fmt::format("unknown sysctl {} ({} is missing): check the name with sysctl -a", name,
                           file);
    if (!(st.st_mode & S_IRUSR))
        return fmt::format("sysctl {} cannot be read, so it could not be put back: it is an "
                           "action, not a setting",
                           name);
    if (!(st.st_mode & S_IWUSR))
        return fmt::format("sysctl {} is read-only", name);
    return {};
}

std::string programMissing(const std::string &commandLine, const KnobEnvironment &env,
                           const char *what)
{
    std::vector<std::string> words;
    std::string error;
    splitWords(commandLine, words, error);
    if (words.empty() || !findExecutable(words.front(), env.searchPath).empty())
        return {};
    return fmt::format("cannot find the {} {} in PATH: install it or give its full path", what,
                       words.front());
}

std::string valueScx(const std::string &v, const KnobEnvironment &env)
{
    return programMissing(v, env, "scheduler");
}

std::string valueCommand(const std::string &v, const KnobEnvironment &env)
{
    return programMissing(v, env, "program");
}

// --- now

std::string currentAutogroup(const KnobEnvironment &env)
{
    std::string v, error;
    return readKernelFile(env.autogroupFile(), v, error) ? v : "unavailable";
}

std::string currentSlice(const KnobEnvironment &env)
{
    std::string v, error;
    if (readKernelFile(env.debugRoot + "/sched/base_slice_ns", v, error) &&
        integerIn(v, 1, 1'000'000'000))
        return fmt::format("default ({} us)", std::stol(v) / 1000);
    return "default";
}

// A choice file's choice in force, else `otherwise`.
std::string choiceNow(const std::string &file, const char *otherwise)
{
    std::string text, error;
    const std::string choice = readKernelFile(file, text, error) ? choiceInForce(text) : "";
    return choice.empty() ? otherwise : choice;
}

std::string currentPreempt(const KnobEnvironment &env)
{
    return choiceNow(env.preemptFile(), "fixed");
}

std::string currentThp(const KnobEnvironment &env)
{
    return choiceNow(env.thpFile(), "unavailable");
}

std::string currentPerLoad(const KnobEnvironment &)
{
    return "each load's own";
}

std::string currentWeight(const KnobEnvironment &env)
{
    const CpuController c = findCpuController(env.cgroupRoot);
    return c.version == 0 ? "unavailable"
                          : fmt::format("100 (cgroup v{} {})", c.version, weightFile(c.version));
}

std::string currentScx(const KnobEnvironment &env)
{
    const SchedExtStatus s = readSchedExt(env.schedExtDir());
    if (!s.present)
        return "unavailable";
    return s.state == "enabled" ? "sched_ext:" + s.ops : "none";
}

// --- what changes

SystemChange changeOf(const Setting &s, ChangeKind kind, std::string resource, std::string target,
                      std::string value)
{
    return {s.key, s.text(), kind, std::move(resource), std::move(target), std::move(value), {}};
}

SystemChange changeAutogroup(const Setting &s, const Variant &, pid_t, const KnobEnvironment &env)
{
    return changeOf(s, ChangeKind::File, "kernel.sched_autogroup_enabled", env.autogroupFile(),
                    s.value);
}

SystemChange changePreempt(const Setting &s, const Variant &, pid_t, const KnobEnvironment &env)
{
    return changeOf(s, ChangeKind::ChoiceFile, "preempt", env.preemptFile(), s.value);
}

SystemChange changeThp(const Setting &s, const Variant &, pid_t, const KnobEnvironment &env)
{
    return changeOf(s, ChangeKind::ChoiceFile, "transparent_hugepage", env.thpFile(), s.value);
}

SystemChange changeWeight(const Setting &s, const Variant &, pid_t owner,
                          const KnobEnvironment &env)
{
    const CpuController c = findCpuController(env.cgroupRoot);
    const std::string name = fmt::format("latprobe-{}", owner);
    SystemChange change = changeOf(
        s, ChangeKind::Cgroup, "cgroup." + name, c.root + "/" + name,
        fmt::format("{}={}", weightFile(c.version), weightValue(c.version, std::stoi(s.value))));
    change.exclusive = false;
    return change;
}

SystemChange changeSysctl(const Setting &s, const Variant &, pid_t, const KnobEnvironment &env)
{
    const size_t eq = s.value.find('=');
    const std::string name = s.value.substr(0, eq);
    return changeOf(s, ChangeKind::File, name, env.sysctlFile(name), s.value.substr(eq + 1));
}

SystemChange changeScx(const Setting &s, const Variant &, pid_t, const KnobEnvironment &)
{
    return changeOf(s, ChangeKind::Scheduler, "sched_ext", s.value, {});
}

SystemChange changeCommand(const Setting &s, const Variant &variant, pid_t, const KnobEnvironment &)
{
    SystemChange c = changeOf(s, ChangeKind::Command, "cmd", s.value, {});
    if (const Setting *undo = variant.find("undo"))
        c.undo = undo->value;
    return c;
}

} // namespace

// Long on purpose: the table, one row a setting.
const std::vector<SettingKind> &settingKinds()
{
    static const std::vector<SettingKind> kinds = {
        {.key = "autogroup",
         .syntax = "0|1",
         .help = "autogroup off or on; programs started after the switch take it",
         .scope = SettingScope::SystemWide,
         .needsRoot = true,
         .needs = "/proc/sys/kernel/sched_autogroup_enabled",
         .check = checkAutogroup,
         .machineCheck = machineAutogroup,
         .current = currentAutogroup,
         .change = changeAutogroup},
        {.key = "slice_us",
         .syntax = "100-100000",
         .help = "the measuring threads' EEVDF slice in microseconds (SCHED_OTHER only)",
         .fairThreadsOnly = true,
         .needs = "Linux 6.12+ (sched_setattr sched_runtime)",
         .check = checkSlice,
         .machineCheck = machineSlice,
         .current = currentSlice},
        {.key = "preempt",
         .syntax = "none|voluntary|full|lazy",
         .help = "the preemption model",
         .scope = SettingScope::SystemWide,
         .needsRoot = true,
         .needs = "a PREEMPT_DYNAMIC kernel, debugfs sched/preempt",
         .check = checkPreempt,
         .machineCheck = machinePreempt,
         .valueCheck = valuePreempt,
         .current = currentPreempt,
         .change = changePreempt},
        {.key = "thp",
         .syntax = "always|madvise|never",
         .help = "transparent huge pages for every process (sysfs transparent_hugepage/enabled)",
         .scope = SettingScope::SystemWide,
         .needsRoot = true,
         .needs = "/sys/kernel/mm/transparent_hugepage/enabled",
         .check = checkThp,
         .machineCheck = machineThp,
         .valueCheck = valueThp,
         .current = currentThp,
         .change = changeThp},
        {.key = "load_nice",
         .syntax = "-20-19",
         .help = "every load group's nice, over its own nice=",
         .needs = "root below 0",
         .check = checkNice,
         .valueCheck = valueNice,
         .current = currentPerLoad},
        {.key = "load_policy",
         .syntax = "batch|idle",
         .help = "every load group's policy, over its own policy=",
         .check = checkLoadPolicy,
         .current = currentPerLoad},
        {.key = "load_weight",
         .syntax = "1-10000",
         .help = "the load groups' CPU weight in a cgroup of their own (cgroup v2 units; v1 "
                 "cpu.shares x1024/100)",
         .scope = SettingScope::SystemWide,
         .needsRoot = true,
         .needs = "the cgroup cpu controller",
         .check = checkWeight,
         .machineCheck = machineWeight,
         .current = currentWeight,
         .change = changeWeight},
        {.key = "sysctl",
         .syntax = "NAME=VALUE",
         .help = "a sysctl under kernel.sched_*, kernel.numa_balancing* or vm.*",
         .scope = SettingScope::SystemWide,
         .needsRoot = true,
         .onePerName = true,
         .needs = "/proc/sys",
         .check = checkSysctl,
         .valueCheck = valueSysctl,
         .change = changeSysctl},
        {.key = "scx",
         .syntax = "NAME [ARGS]",
         .help = "a sched_ext scheduler, run for the variant's turns",
         .scope = SettingScope::SystemWide,
         .takesRest = true,
         .needsRoot = true,
         .needs = "a kernel with sched_ext, the scheduler's program",
         .check = checkCommandLine,
         .machineCheck = machineScx,
         .valueCheck = valueScx,
         .current = currentScx,
         .change = changeScx},
        {.key = "cmd",
         .syntax = "PROGRAM [ARGS]",
         .help = "your own command, run when the variant's turn starts (--allow-commands)",
         .scope = SettingScope::SystemWide,
         .takesRest = true,
         .runsCommand = true,
         .needs = "the program",
         .check = checkCommandLine,
         .valueCheck = valueCommand,
         .change = changeCommand},
        {.key = "undo",
         .syntax = "PROGRAM [ARGS]",
         .help = "the command that puts back what cmd= changed, run when the turn ends",
         .scope = SettingScope::SystemWide,
         .takesRest = true,
         .runsCommand = true,
         .needs = "the program",
         .check = checkCommandLine,
         .valueCheck = valueCommand},
    };
    return kinds;
}

const SettingKind *findSettingKind(const std::string &key)
{
    for (const SettingKind &k : settingKinds())
        if (k.key == key)
            return &k;
    return nullptr;
}

std::string settingKeys()
{
    std::string keys;
    for (const SettingKind &k : settingKinds())
        keys += (keys.empty() ? "" : ", ") + k.key;
    return keys;
}

std::string checkSysctlName(const std::string &name)
{
    const bool word =
        !name.empty() &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.") == std::string::npos &&
        name.find("..") == std::string::npos && name.front() != '.' && name.back() != '.';
    if (!word)
        return fmt::format("\"{}\" is not a sysctl name (write it with dots: vm.swappiness)", name);
    for (const char *action : {"vm.drop_caches", "vm.compact_memory", "vm.stat_refresh"})
        if (name == action)
            return fmt::format("sysctl {} is an action, not a setting: it cannot be put back",
                               name);
    const bool allowed = name.rfind("kernel.sched_", 0) == 0 ||
                         name.rfind("kernel.numa_balancing", 0) == 0 || name.rfind("vm.", 0) == 0;
    return allowed ? ""
                   : fmt::format("sysctl {} is outside what a variant may set: kernel.sched_*, "
                                 "kernel.numa_balancing* or vm.*",
                                 name);
}

} // namespace latprobe
