#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace latprobe {

// A sched_ext scheduler (scx=NAME ARGS), started through scx_loader's D-Bus
// service where that runs and lists it (scxloader.h), else as a child of
// the guardian: in force once <sysfs>/kernel/sched_ext/state says
// "enabled" and root/ops names it, with or without the scx_ prefix
// (scx_lavd runs as "lavd"), whoever started it. The kernel unloads it
// when its process ends, so a scheduler that exits, or that the kernel
// ejects, leaves EEVDF running: a round measured then is not the variant's.

// Who starts and stops a scheduler of latprobe's: the guardian, as its
// child (which dies with it), or scx_loader's service (which outlives it:
// the journal says so, and whoever restores asks the service to stop).
enum class SchedulerLauncher { Guardian, ScxLoader };
const char *toString(SchedulerLauncher launcher); // "guardian", "scx_loader"
std::optional<SchedulerLauncher> schedulerLauncherFromName(std::string_view name);
// scx_loader when its service runs and lists `commandLine`'s program,
// named bare (a path is the user's own build: a child).
SchedulerLauncher chooseLauncher(const std::string &commandLine);
// The program `commandLine` runs, as written: "scx_lavd".
std::string schedulerProgram(const std::string &commandLine);

struct SchedExtStatus
{
    bool present = false; // the kernel has sched_ext (the state file exists)
    std::string state;    // "enabled", "disabled", "enabling", "disabling"
    std::string ops;      // the running scheduler's name, or ""
};
SchedExtStatus readSchedExt(const std::string &schedExtDir);
// Whether `ops` names the scheduler program `program` (a path or a name).
bool opsNames(const std::string &ops, const std::string &program);
// state "enabled" and root/ops names `program`.
bool schedulerInForce(const std::string &program, const std::string &schedExtDir);

// Starts `commandLine` (its program looked up in `searchPath`) and waits up
// to `timeoutMs` until it is in force. False with a one-line error (it
// exited first, with its last line of output; it was not in force in time,
// and was stopped).
struct StartedScheduler
{
    pid_t pid = -1;
    uint64_t startTime = 0;
    std::string program; // its path
};
bool startScheduler(const std::string &commandLine, const std::string &searchPath,
                    const std::string &schedExtDir, const std::string &logPath, int timeoutMs,
                    StartedScheduler &started, std::string &error);
// Stops it (SIGINT, then SIGKILL after `timeoutMs`) and waits until the
// kernel no longer runs it. False with an error when it still does.
bool stopScheduler(pid_t pid, uint64_t startTime, const std::string &program,
                   const std::string &schedExtDir, int timeoutMs, std::string &error);
// startScheduler() through scx_loader: `program` is then its bare name,
// `pid` 0.
bool startThroughScxLoader(const std::string &commandLine, const std::string &schedExtDir,
                           int timeoutMs, StartedScheduler &started, std::string &error);
// Asks scx_loader to stop it, when sched_ext may still run `program`, and
// waits until the kernel no longer does. False with an error.
bool stopThroughScxLoader(const std::string &program, const std::string &schedExtDir, int timeoutMs,
                          std::string &error);

enum class SchedulerState {
    None,    // no scheduler of this run is meant to run
    Running, // in force
    Exited,  // its process ended
    Ejected, // its process lives, the kernel no longer runs it
};
const char *toString(SchedulerState state); // "running"
std::optional<SchedulerState> schedulerStateFromName(std::string_view name);

struct SchedulerStatus
{
    SchedulerState state = SchedulerState::None;
    std::string detail; // Exited, Ejected: what happened, for the round's note
};
// How scheduler `pid` stands; `exitStatus` >= 0 when its parent reaped it.
SchedulerStatus schedulerStatus(pid_t pid, uint64_t startTime, const std::string &program,
                                const std::string &schedExtDir, int exitStatus,
                                const std::string &logPath);
// How a scheduler scx_loader runs stands: no process of ours to watch, so
// only whether the kernel runs it.
SchedulerStatus scxLoaderSchedulerStatus(const std::string &program,
                                         const std::string &schedExtDir);

} // namespace latprobe
