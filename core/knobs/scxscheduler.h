#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace latprobe {

// A sched_ext scheduler (scx=NAME ARGS) as a child of the guardian: in
// force once <sysfs>/kernel/sched_ext/state says "enabled" and root/ops
// names it, with or without the scx_ prefix (scx_lavd runs as "lavd"). The
// kernel unloads it when its process ends, so a scheduler that exits, or
// that the kernel ejects, leaves EEVDF running: a round measured then is
// not the variant's. scx_loader's D-Bus service is not used: a child the
// guardian started is one it can watch with waitpid and that dies with it.

struct SchedExtStatus
{
    bool present = false; // the kernel has sched_ext (the state file exists)
    std::string state;    // "enabled", "disabled", "enabling", "disabling"
    std::string ops;      // the running scheduler's name, or ""
};
SchedExtStatus readSchedExt(const std::string &schedExtDir);
// Whether `ops` names the scheduler program `program` (a path or a name).
bool opsNames(const std::string &ops, const std::string &program);

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

} // namespace latprobe
