#pragma once

#include "knobenvironment.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace latprobe {

// A sched_ext scheduler (scx=NAME ARGS), started through scx_loader's D-Bus
// service where that offers it (scxloader.h), else as a child of the
// guardian: in force once <sysfs>/kernel/sched_ext/state says "enabled",
// root/ops names it (opsNames()) and enable_seq has counted its enable,
// whoever started it. The kernel unloads it when its process ends, so a
// scheduler that exits, or that the kernel ejects, leaves EEVDF running: a
// round measured then is not the variant's. Nor is one it left and came
// back to: scx_loader starts a failed scheduler again (5 times), a Rust
// scheduler reloads itself on CPU hotplug.

// Who starts and stops a scheduler of latprobe's: the guardian, as its
// child (which dies with it), or scx_loader's service (which outlives it:
// the journal says so, and whoever restores asks the service to stop).
enum class SchedulerLauncher { Guardian, ScxLoader };
const char *toString(SchedulerLauncher launcher); // "guardian", "scx_loader"
std::optional<SchedulerLauncher> schedulerLauncherFromName(std::string_view name);
// scx_loader when its service offers `commandLine`'s program, named bare
// (a path is the user's own build: a child).
SchedulerLauncher chooseLauncher(const std::string &commandLine);
// The program `commandLine` runs, as written: "scx_lavd".
std::string schedulerProgram(const std::string &commandLine);

struct SchedExtStatus
{
    bool present = false; // the kernel has sched_ext (the state file exists)
    std::string state;    // "enabled", "disabled", "enabling", "disabling"
    std::string ops;      // the running scheduler's name, or ""
    // Every enable since boot, counted once the state shows it; -1 on a
    // kernel without the file.
    int64_t enableSeq = -1;
};
SchedExtStatus readSchedExt(const std::string &schedExtDir);
// Whether `ops` names the scheduler program `program` (a path or a name):
// its name without scx_, alone or followed by "_" (scx 1.0.16 on append
// their version: "lavd_1.0.16_g..._x86_64_unknown_linux_gnu"), or another
// name its row of the aliases gives it (scx_rlfifo ran as "rustland").
bool opsNames(const std::string &ops, const std::string &program);
// state "enabled" and root/ops names `program`.
bool schedulerInForce(const std::string &program, const std::string &schedExtDir);

// Where sched_ext and the logs stood once a scheduler of latprobe's was in
// force: a later enable_seq means it left and came back, and what the logs
// said after says why.
struct InForceMark
{
    int64_t enableSeq = -1;
    uint64_t kernelLogSeq = 0; // the kernel log's last record then
    uint64_t logFrom = 0;      // where its own log's lines since begin
};
// Marks it anew: a scheduler kept into another turn counts from there.
void markInForce(InForceMark &mark, const KnobEnvironment &env, const std::string &logPath);

// Starts `commandLine` (its program looked up in env.searchPath) and waits
// up to env.schedulerStartMs until it is in force. False with a one-line
// error (it exited first, with its own word on why; it was not in force in
// time, and was stopped).
struct StartedScheduler
{
    pid_t pid = -1;
    uint64_t startTime = 0;
    std::string program; // its path
    InForceMark mark;
};
bool startScheduler(const std::string &commandLine, const KnobEnvironment &env,
                    const std::string &logPath, StartedScheduler &started, std::string &error);
// Stops it (SIGINT, then SIGKILL after `timeoutMs`) and waits until the
// kernel no longer runs it. False with an error when it still does.
bool stopScheduler(pid_t pid, uint64_t startTime, const std::string &program,
                   const std::string &schedExtDir, int timeoutMs, std::string &error);
// startScheduler() through scx_loader: `program` is then its bare name,
// `pid` 0.
bool startThroughScxLoader(const std::string &commandLine, const KnobEnvironment &env,
                           StartedScheduler &started, std::string &error);
// Asks scx_loader to stop its scheduler while sched_ext runs one, and
// waits until sched_ext runs none. One latprobe `switched` to is stopped
// whatever its ops name reads; else (a kill may have come between the
// journal and the switch) only one that `program` names. False with an
// error.
bool stopThroughScxLoader(const std::string &program, bool switched, const std::string &schedExtDir,
                          int timeoutMs, std::string &error);

enum class SchedulerState {
    None,      // no scheduler of this run is meant to run
    Running,   // in force
    Exited,    // its process ended
    Ejected,   // its process lives, the kernel no longer runs it
    Restarted, // in force again, after it left: enable_seq moved on
};
const char *toString(SchedulerState state); // "running"
std::optional<SchedulerState> schedulerStateFromName(std::string_view name);

struct SchedulerStatus
{
    SchedulerState state = SchedulerState::None;
    std::string detail; // Exited, Ejected: what happened, for the round's note
};
// How scheduler `pid` stands since `mark`; `exitStatus` >= 0 when its
// parent reaped it. Why it left: its own word, or the kernel's.
SchedulerStatus schedulerStatus(pid_t pid, uint64_t startTime, const std::string &program,
                                const InForceMark &mark, const KnobEnvironment &env, int exitStatus,
                                const std::string &logPath);
// How a scheduler scx_loader runs stands since `mark`: no process of ours
// to watch, so whether the kernel runs it, and the kernel's word on why
// not (scx_loader's own log is the journal's).
SchedulerStatus scxLoaderSchedulerStatus(const std::string &program, const InForceMark &mark,
                                         const KnobEnvironment &env);

} // namespace latprobe
