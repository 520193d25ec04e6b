#pragma once

#include "knobenvironment.h"
#include "systemchange.h"

#include <string>
#include <vector>

namespace latprobe {

struct Setting;
struct Variant;

// Whether a setting changes the machine or only what latprobe runs.
enum class SettingScope {
    PerRun,     // latprobe applies it to its own threads or loads each turn: nothing to put back
    SystemWide, // the machine: journalled before it changes, put back by the guardian
};

// One row per setting a variant can change, written with designated
// initialisers: everything code asks of a setting is here (its help, its
// checks, what it needs, how it changes the machine), so nothing outside
// this table compares its key. docs/DESIGN.md, "Variants: settings and
// their guardian".
struct SettingKind
{
    std::string key;
    std::string syntax; // the value, as help shows it: "0|1"
    std::string help;
    SettingScope scope = SettingScope::PerRun;
    // Takes the rest of the text, commas and all, so it comes last: cmd=, scx=.
    bool takesRest = false;
    bool needsRoot = false;
    bool runsCommand = false; // the user's own program: needs --allow-commands
    // A NAME=VALUE setting given once per NAME (sysctl=); others once.
    bool onePerName = false;
    // Applies to the measuring threads' fair-class slice: refused when
    // they run SCHED_FIFO or RR.
    bool fairThreadsOnly = false;
    // What the machine must have, in words, for help and `latprobe sysinfo`.
    std::string needs = {};
    // The value alone: "" or one line saying what to write instead.
    std::string (*check)(const std::string &value) = nullptr;
    // What this machine lacks for any value: "" or what to grant or install.
    std::string (*machineCheck)(const KnobEnvironment &) = nullptr;
    // What it lacks for this value (a sysctl that is not there, a program
    // not installed), once the machine check passed.
    std::string (*valueCheck)(const std::string &value, const KnobEnvironment &) = nullptr;
    // What the machine runs with now, for `latprobe sysinfo` and the window.
    std::string (*current)(const KnobEnvironment &) = nullptr;
    // SystemWide: the change `setting` of `variant` (whose pid-named cgroup,
    // whose undo=) makes, for the guardian to journal and apply. A setting
    // with none is part of another's change (undo= of cmd=).
    SystemChange (*change)(const Setting &setting, const Variant &variant, pid_t owner,
                           const KnobEnvironment &) = nullptr;
};

const std::vector<SettingKind> &settingKinds();
const SettingKind *findSettingKind(const std::string &key);
// "autogroup, slice_us, ..." for messages.
std::string settingKeys();

// Sysctls a variant may set: value files under kernel.sched_*,
// kernel.numa_balancing* and vm.*, never an action file that cannot be put
// back (vm.drop_caches, vm.compact_memory). "" or why not.
std::string checkSysctlName(const std::string &name);

} // namespace latprobe
