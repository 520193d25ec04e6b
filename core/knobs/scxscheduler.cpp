#include "scxscheduler.h"

#include "childprocess.h"
#include "enumnames.h"
#include "kernelfile.h"
#include "programsearch.h"
#include "scxloader.h"
#include "wordsplit.h"

#include <chrono>
#include <csignal>
#include <fmt/format.h>
#include <thread>
#include <vector>

namespace latprobe {

namespace {

constexpr EnumName<SchedulerState> kSchedulerStateNames[] = {
    {SchedulerState::None, "none"},
    {SchedulerState::Running, "running"},
    {SchedulerState::Exited, "exited"},
    {SchedulerState::Ejected, "ejected"},
};

constexpr EnumName<SchedulerLauncher> kSchedulerLauncherNames[] = {
    {SchedulerLauncher::Guardian, "guardian"},
    {SchedulerLauncher::ScxLoader, "scx_loader"},
};

std::string baseName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string describeSchedExt(const std::string &schedExtDir)
{
    const SchedExtStatus s = readSchedExt(schedExtDir);
    return fmt::format("sched_ext state {}, ops {}", s.state.empty() ? "unreadable" : s.state,
                       s.ops.empty() ? "none" : s.ops);
}

} // namespace

const char *toString(SchedulerState state)
{
    return enumName(kSchedulerStateNames, state);
}

std::optional<SchedulerState> schedulerStateFromName(std::string_view name)
{
    return enumFromName(kSchedulerStateNames, name);
}

const char *toString(SchedulerLauncher launcher)
{
    return enumName(kSchedulerLauncherNames, launcher);
}

std::optional<SchedulerLauncher> schedulerLauncherFromName(std::string_view name)
{
    return enumFromName(kSchedulerLauncherNames, name);
}

std::string schedulerProgram(const std::string &commandLine)
{
    std::vector<std::string> argv;
    std::string error;
    return splitWords(commandLine, argv, error) && !argv.empty() ? argv.front() : std::string();
}

SchedulerLauncher chooseLauncher(const std::string &commandLine)
{
    const std::string program = schedulerProgram(commandLine);
    if (program.empty() || program.find('/') != std::string::npos)
        return SchedulerLauncher::Guardian;
    return scxLoaderOffers(program) ? SchedulerLauncher::ScxLoader : SchedulerLauncher::Guardian;
}

bool schedulerInForce(const std::string &program, const std::string &schedExtDir)
{
    const SchedExtStatus s = readSchedExt(schedExtDir);
    return s.state == "enabled" && opsNames(s.ops, program);
}

SchedExtStatus readSchedExt(const std::string &schedExtDir)
{
    SchedExtStatus status;
    std::string error;
    status.present = readKernelFile(schedExtDir + "/state", status.state, error);
    if (!readKernelFile(schedExtDir + "/root/ops", status.ops, error))
        status.ops.clear();
    return status;
}

bool opsNames(const std::string &ops, const std::string &program)
{
    const std::string name = baseName(program);
    return !ops.empty() && (ops == name || "scx_" + ops == name || ops == "scx_" + name);
}

bool startScheduler(const std::string &commandLine, const std::string &searchPath,
                    const std::string &schedExtDir, const std::string &logPath, int timeoutMs,
                    StartedScheduler &started, std::string &error)
{
    std::vector<std::string> argv;
    if (!splitWords(commandLine, argv, error) || argv.empty()) {
        error = fmt::format("scx \"{}\": {}", commandLine, error.empty() ? "no program" : error);
        return false;
    }
    started.program = findExecutable(argv.front(), searchPath);
    if (started.program.empty()) {
        error = fmt::format("cannot find the scheduler {} in PATH: install it", argv.front());
        return false;
    }
    argv.front() = started.program;
    started.pid = spawnLogged(argv, logPath, true, error);
    if (started.pid < 0)
        return false;
    started.startTime = processStartTime(started.pid);
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (schedulerInForce(started.program, schedExtDir))
            return true;
        int status = 0;
        if (waitForChild(started.pid, 0, status)) {
            const std::string last = lastLogLine(logPath);
            error = fmt::format("{} ended before it was in force: {}{}", argv.front(),
                                describeExit(status), last.empty() ? "" : ": " + last);
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    error = fmt::format("{} was not in force after {:.1f} s ({}), so it was stopped", argv.front(),
                        timeoutMs / 1000.0, describeSchedExt(schedExtDir));
    std::string ignored;
    stopScheduler(started.pid, started.startTime, started.program, schedExtDir, 5000, ignored);
    return false;
}

bool startThroughScxLoader(const std::string &commandLine, const std::string &schedExtDir,
                           int timeoutMs, StartedScheduler &started, std::string &error)
{
    std::vector<std::string> argv;
    if (!splitWords(commandLine, argv, error) || argv.empty()) {
        error = fmt::format("scx \"{}\": {}", commandLine, error.empty() ? "no program" : error);
        return false;
    }
    started = {0, 0, argv.front()};
    if (!scxLoaderSwitch(argv.front(), {argv.begin() + 1, argv.end()}, error))
        return false;
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (schedulerInForce(started.program, schedExtDir))
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    error = fmt::format("scx_loader did not bring {} in force within {:.1f} s ({}), so it was "
                        "stopped; journalctl -u scx_loader may say why",
                        argv.front(), timeoutMs / 1000.0, describeSchedExt(schedExtDir));
    std::string ignored;
    stopThroughScxLoader(started.program, schedExtDir, 5000, ignored);
    return false;
}

bool stopThroughScxLoader(const std::string &program, const std::string &schedExtDir, int timeoutMs,
                          std::string &error)
{
    // Another scheduler in force is not ours to stop: the service's
    // StopScheduler stops whatever it runs.
    const SchedExtStatus s = readSchedExt(schedExtDir);
    if (s.state == "disabled" || (!s.ops.empty() && !opsNames(s.ops, program)))
        return true;
    if (!scxLoaderStop(error))
        return false;
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (!schedulerInForce(program, schedExtDir))
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    error = fmt::format("{} is still in force after scx_loader was asked to stop it ({})",
                        baseName(program), describeSchedExt(schedExtDir));
    return false;
}

bool stopScheduler(pid_t pid, uint64_t startTime, const std::string &program,
                   const std::string &schedExtDir, int timeoutMs, std::string &error)
{
    // SIGINT, as scx schedulers take Ctrl-C: they unregister and exit.
    if (!processGone(pid, startTime))
        kill(pid, SIGINT);
    bool killed = false;
    for (int waited = 0;; waited += 10) {
        const bool gone = processGone(pid, startTime);
        if (gone && !schedulerInForce(program, schedExtDir))
            return true;
        if (waited >= timeoutMs) {
            if (gone || killed)
                break;
            kill(pid, SIGKILL); // the kernel unloads a scheduler whose process died
            killed = true;
            waited = timeoutMs / 2;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    error =
        fmt::format("{} is still in force ({})", baseName(program), describeSchedExt(schedExtDir));
    return false;
}

SchedulerStatus schedulerStatus(pid_t pid, uint64_t startTime, const std::string &program,
                                const std::string &schedExtDir, int exitStatus,
                                const std::string &logPath)
{
    if (pid <= 0)
        return {};
    const std::string name = baseName(program);
    const std::string last = lastLogLine(logPath);
    const std::string why = last.empty() ? "" : "; " + last;
    const SchedExtStatus s = readSchedExt(schedExtDir);
    const std::string state = s.state.empty() ? "unreadable" : s.state;
    if (exitStatus >= 0 || processGone(pid, startTime))
        return {SchedulerState::Exited,
                fmt::format("{} exited mid-round (state: {}{}{})", name, state,
                            exitStatus >= 0 ? "; " + describeExit(exitStatus) : "", why)};
    if (!schedulerInForce(program, schedExtDir))
        return {SchedulerState::Ejected,
                fmt::format("the kernel ejected {} mid-round (state: {}, ops: {}{})", name, state,
                            s.ops.empty() ? "none" : s.ops, why)};
    return {SchedulerState::Running, {}};
}

SchedulerStatus scxLoaderSchedulerStatus(const std::string &program, const std::string &schedExtDir)
{
    if (schedulerInForce(program, schedExtDir))
        return {SchedulerState::Running, {}};
    const SchedExtStatus s = readSchedExt(schedExtDir);
    return {SchedulerState::Exited,
            fmt::format("{}, run by scx_loader, left mid-round (state: {}, ops: {})",
                        baseName(program), s.state.empty() ? "unreadable" : s.state,
                        s.ops.empty() ? "none" : s.ops)};
}

} // namespace latprobe
