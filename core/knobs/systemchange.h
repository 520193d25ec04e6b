#pragma once

#include "knobenvironment.h"
#include "scxscheduler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace latprobe {

// How a system-wide setting changes the machine. Each kind is a row of
// mechanisms (systemchange.cpp): how to read the value before, apply,
// restore, and the command that restores by hand.
enum class ChangeKind {
    File,       // a value file: /proc/sys, autogroup
    ChoiceFile, // a file of choices with the one in force in parentheses: debugfs sched/preempt
    Cgroup,     // a cgroup latprobe makes, with a weight, and removes
    Scheduler,  // a sched_ext scheduler the guardian runs and stops
    Command,    // cmd=, put back by its undo=
};
const char *toString(ChangeKind kind);
std::optional<ChangeKind> changeKindFromName(std::string_view name);

// What one setting of a variant changes, worked out from its row before
// anything changes.
struct SystemChange
{
    std::string key;     // the setting's key: "autogroup"
    std::string setting; // as written: "autogroup=0"
    ChangeKind kind = ChangeKind::File;
    // What two runs must not change at once, and the name of its lock:
    // "kernel.sched_autogroup_enabled" for autogroup= and for the sysctl.
    std::string resource;
    std::string target; // the file, the cgroup's directory, the command line
    std::string value;  // what to write; "cpu.shares=512" for a cgroup
    std::string undo;   // Command: the command line that puts it back
    // Another run could change the same resource, so it is locked; a
    // cgroup named after its run is its own.
    bool exclusive = true;
    bool operator==(const SystemChange &) const = default;
};

enum class ChangeState {
    Pending,  // journalled, being applied: restoring it is safe
    Applied,  // in force (maybe with an error: written, read back otherwise)
    Restored, // put back and read back
    Failed,   // the restore failed: `byHand` says how to do it
};
const char *toString(ChangeState state);
std::optional<ChangeState> changeStateFromName(std::string_view name);

// A change as the journal keeps it and the run file records it: the value
// before the run, as last applied, and as restored.
struct ChangeRecord
{
    SystemChange change;
    ChangeState state = ChangeState::Pending;
    std::string before, applied, restored;
    std::string error;  // why the last apply or restore failed
    std::string byHand; // Failed: the shell line that puts it back by hand
    // Scheduler: its process (the pid with its start time names one
    // process even after the pid is reused) and program, and who started it
    // (journalled before it starts: only scx_loader can stop what it runs).
    pid_t pid = 0;
    uint64_t pidStart = 0;
    std::string program;
    SchedulerLauncher launcher = SchedulerLauncher::Guardian;
    // Where it came in force, for the guardian that watches it; not
    // journalled (a restore stops it whatever it did since).
    InForceMark inForce;
};

// What the mechanisms need beside the record: the machine and where the
// programs they run write their output.
struct ChangeContext
{
    KnobEnvironment env;
    std::string logDir;
};

// Decides how the change will be made, before it is journalled as pending
// and made: a scheduler's launcher.
void planChange(ChangeRecord &record, const ChangeContext &context);
// Reads the value before (the first time a run touches the resource).
bool readBefore(ChangeRecord &record, const ChangeContext &context, std::string &error);
// Makes the change; `record.applied` says what the machine then holds.
// False with `error` when it is not in force as asked (it may be in part:
// restore it).
bool applyChange(ChangeRecord &record, const ChangeContext &context, std::string &error);
// Puts the value before back; `record.restored` says what the machine then
// holds. False with `error`; `byHand` is then set.
bool restoreChange(ChangeRecord &record, const ChangeContext &context, std::string &error);
// How a change gives way to another of the same resource (the next
// variant's): a value is written over; a command or a scheduler is put
// back first (its undo runs, it stops).
bool restoresBeforeReplacing(ChangeKind kind);
// Whether the same change, in force without error, is left as it is
// rather than made again: a command runs once for consecutive turns of its
// variant. (A scheduler is kept too, by its own apply, while it runs.)
bool keptWhenSame(ChangeKind kind);

// Where the guardian's scheduler writes its output, in `logDir`.
std::string schedulerLog(const std::string &logDir);

// Whether `record` still needs restoring (anything but Restored).
bool needsRestore(const ChangeRecord &record);

} // namespace latprobe
