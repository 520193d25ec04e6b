#pragma once

#include <functional>
#include <string>

namespace latprobe {

// Where the knobs layer finds the machine. Every path it reads or writes is
// under one of these roots, and every program it runs is looked up in
// `searchPath`, so the tests run the same code against a fake tree in a
// temp dir and a fake PATH. real() describes this machine.
struct KnobEnvironment
{
    std::string procRoot = "/proc";
    std::string sysRoot = "/sys";
    std::string debugRoot = "/sys/kernel/debug";
    std::string cgroupRoot = "/sys/fs/cgroup";
    // The kernel's log, read for why sched_ext disabled a scheduler.
    std::string kernelLog = "/dev/kmsg";
    std::string searchPath; // PATH, for schedulers and commands
    // Journals and locks (docs/DESIGN.md, "Variants: settings and their
    // guardian"): /run/latprobe as root, else $XDG_RUNTIME_DIR/latprobe;
    // "" when neither is there.
    std::string stateDir;
    bool root = false; // may change what needs root (effective uid 0)
    // "" when the kernel takes a per-task EEVDF slice, else why not. Unset:
    // nothing is probed (real() probes this kernel, once, when asked).
    std::function<std::string()> sliceProbe;
    // How long a sched_ext scheduler may take to be in force, and a
    // command to end, before it counts as failed.
    int schedulerStartMs = 20'000;
    int commandTimeoutMs = 60'000;

    static KnobEnvironment real();

    // procRoot/sys/kernel/sched_autogroup_enabled for
    // "kernel.sched_autogroup_enabled".
    std::string sysctlFile(const std::string &name) const;
    std::string autogroupFile() const;
    std::string preemptFile() const;
    std::string thpFile() const;     // sysRoot/kernel/mm/transparent_hugepage/enabled
    std::string schedExtDir() const; // sysRoot/kernel/sched_ext
};

// Where journals and locks go (see KnobEnvironment::stateDir).
std::string knobStateDir(bool root, const char *xdgRuntimeDir);

} // namespace latprobe
