#pragma once

#include "knobenvironment.h"
#include "systemchange.h"
#include "variant.h"

#include <string>
#include <vector>

namespace latprobe {

struct SettingKind;

// What the run around the variants allows.
struct KnobRun
{
    bool allowCommands = false; // --allow-commands: cmd= and undo= may run
    bool realtimeProbe = false; // the measuring threads run SCHED_FIFO or RR: no EEVDF slice
};

// Why these variants cannot run on this machine, checked before anything
// changes: "" when they can, else the first refusal, one line that names
// the variant and says what to grant or install (root, sched_ext, a
// scheduler's program, a writable sched/preempt, the cgroup cpu
// controller, --allow-commands) or what to write instead (a sysctl outside
// the allowed families, an action sysctl, a slice out of range).
std::string refuseVariants(const std::vector<Variant> &variants, const KnobEnvironment &env,
                           const KnobRun &run);

// Why this machine refuses `kind` whatever its value: "" when it allows
// it. For `latprobe sysinfo` and the window's A/B dialog, which grey out
// what is refused.
std::string machineRefusal(const SettingKind &kind, const KnobEnvironment &env, const KnobRun &run);

// The system-wide changes of `variant`, in the order they are applied.
std::vector<SystemChange> systemChanges(const Variant &variant, pid_t owner,
                                        const KnobEnvironment &env);

} // namespace latprobe
