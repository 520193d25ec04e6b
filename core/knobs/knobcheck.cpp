#include "knobcheck.h"

#include "settingkind.h"

#include <fmt/format.h>
#include <map>
#include <set>

namespace latprobe {

namespace {

// The run-level refusals of `kind`: consent, root, the probe's policy.
std::string grantRefusal(const SettingKind &kind, const KnobEnvironment &env, const KnobRun &run)
{
    if (kind.runsCommand && !run.allowCommands)
        return fmt::format("{}= runs a program of yours: add --allow-commands to allow it",
                           kind.key);
    if (kind.needsRoot && !env.root)
        return fmt::format("{}= changes the whole machine and needs root: run latprobe as "
                           "root (sudo)",
                           kind.key);
    if (kind.fairThreadsOnly && run.realtimeProbe)
        return fmt::format("{}= applies to SCHED_OTHER threads, and this run measures with "
                           "SCHED_FIFO or RR: measure with --policy other",
                           kind.key);
    return {};
}

// Two settings of one variant that change the same thing (autogroup= and
// sysctl=kernel.sched_autogroup_enabled=).
std::string sameResourceTwice(const Variant &variant, const KnobEnvironment &env)
{
    std::map<std::string, std::string> byResource;
    for (const SystemChange &c : systemChanges(variant, 0, env)) {
        auto [it, fresh] = byResource.emplace(c.resource, c.setting);
        if (!fresh)
            return fmt::format("{} and {} both change {}: keep one", it->second, c.setting,
                               c.resource);
    }
    return {};
}

std::string refuseVariant(const Variant &variant, const KnobEnvironment &env, const KnobRun &run,
                          std::map<const SettingKind *, std::string> &machine)
{
    if (std::string why = checkVariant(variant); !why.empty())
        return why;
    bool systemWide = false;
    for (const Setting &s : variant.settings) {
        const SettingKind &kind = *findSettingKind(s.key);
        systemWide = systemWide || kind.scope == SettingScope::SystemWide;
        // Once a run: the slice probe starts a thread.
        if (!machine.count(&kind))
            machine[&kind] = machineRefusal(kind, env, run);
        if (!machine[&kind].empty())
            return machine[&kind];
        if (kind.valueCheck)
            if (std::string why = kind.valueCheck(s.value, env); !why.empty())
                return why;
    }
    if (systemWide && env.stateDir.empty())
        return "a setting that changes the machine is journalled in $XDG_RUNTIME_DIR, which is "
               "not set: set it (or run as root, which uses /run)";
    return sameResourceTwice(variant, env);
}

} // namespace

std::string machineRefusal(const SettingKind &kind, const KnobEnvironment &env, const KnobRun &run)
{
    if (std::string why = grantRefusal(kind, env, run); !why.empty())
        return why;
    return kind.machineCheck ? kind.machineCheck(env) : "";
}

std::string refuseVariants(const std::vector<Variant> &variants, const KnobEnvironment &env,
                           const KnobRun &run)
{
    std::set<std::string> names;
    std::map<const SettingKind *, std::string> machine;
    for (const Variant &v : variants) {
        if (!names.insert(v.name).second)
            return fmt::format("two variants are called {}: give each its own name", v.name);
        if (std::string why = refuseVariant(v, env, run, machine); !why.empty())
            return fmt::format("variant {}: {}", v.name, why);
    }
    return {};
}

std::vector<SystemChange> systemChanges(const Variant &variant, pid_t owner,
                                        const KnobEnvironment &env)
{
    std::vector<SystemChange> changes;
    for (const SettingKind &kind : settingKinds())
        for (const Setting &s : variant.settings)
            if (s.key == kind.key && kind.change)
                changes.push_back(kind.change(s, variant, owner, env));
    return changes;
}

} // namespace latprobe
