#include "scxscheduler.h"

#include "childprocess.h"
#include "enumnames.h"
#include "kernelfile.h"
#include "programsearch.h"
#include "scxexit.h"
#include "scxloader.h"
#include "wordsplit.h"

#include <charconv>
#include <chrono>
#include <csignal>
#include <fmt/format.h>
#include <thread>
#include <vector>

namespace latprobe {

namespace {

constexpr EnumName<SchedulerState> kSchedulerStateNames[] = {
    {SchedulerState::None, "none"},           {SchedulerState::Running, "running"},
    {SchedulerState::Exited, "exited"},       {SchedulerState::Ejected, "ejected"},
    {SchedulerState::Restarted, "restarted"},
};

constexpr EnumName<SchedulerLauncher> kSchedulerLauncherNames[] = {
    {SchedulerLauncher::Guardian, "guardian"},
    {SchedulerLauncher::ScxLoader, "scx_loader"},
};

// Schedulers whose ops name is not their program's: scx_rlfifo, before
// scx 1.0.16, ran as rustland's ops (scx_rustland_core took no name then).
struct OpsAlias
{
    std::string_view program;
    std::string_view ops;
};
constexpr OpsAlias kOpsAliases[] = {
    {"scx_rlfifo", "rustland"},
};

std::string baseName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string_view withoutScxPrefix(std::string_view name)
{
    return name.rfind("scx_", 0) == 0 ? name.substr(4) : name;
}

// `ops` is `name`, or `name` and a version after "_".
bool namesOrVersions(std::string_view ops, std::string_view name)
{
    return ops.rfind(name, 0) == 0 && (ops.size() == name.size() || ops[name.size()] == '_');
}

// In force, and counted by the kernel after `seqBefore`: this start's enable.
bool cameInForce(const SchedExtStatus &s, const std::string &program, int64_t seqBefore)
{
    return s.state == "enabled" && opsNames(s.ops, program) &&
           (s.enableSeq < 0 || s.enableSeq > seqBefore);
}

// "; REASON" from the first of `reasons` that says anything, or "".
std::string firstReason(std::initializer_list<std::string> reasons)
{
    for (const std::string &r : reasons)
        if (!r.empty())
            return "; " + r;
    return {};
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
    std::string error, seq;
    status.present = readKernelFile(schedExtDir + "/state", status.state, error);
    if (!readKernelFile(schedExtDir + "/root/ops", status.ops, error))
        status.ops.clear();
    if (readKernelFile(schedExtDir + "/enable_seq", seq, error) &&
        std::from_chars(seq.data(), seq.data() + seq.size(), status.enableSeq).ec != std::errc())
        status.enableSeq = -1;
    return status;
}

bool opsNames(const std::string &ops, const std::string &program)
{
    const std::string name = baseName(program);
    const std::string_view bare = withoutScxPrefix(ops);
    if (bare.empty())
        return false;
    if (namesOrVersions(bare, withoutScxPrefix(name)))
        return true;
    for (const OpsAlias &alias : kOpsAliases)
        if (withoutScxPrefix(alias.program) == withoutScxPrefix(name) &&
            namesOrVersions(bare, alias.ops))
            return true;
    return false;
}

void markInForce(InForceMark &mark, const KnobEnvironment &env, const std::string &logPath)
{
    mark.enableSeq = readSchedExt(env.schedExtDir()).enableSeq;
    mark.kernelLogSeq = kernelLogSeq(env.kernelLog);
    mark.logFrom = logPath.empty() ? 0 : fileSize(logPath);
}

bool startScheduler(const std::string &commandLine, const KnobEnvironment &env,
                    const std::string &logPath, StartedScheduler &started, std::string &error)
{
    const std::string schedExtDir = env.schedExtDir();
    const int timeoutMs = env.schedulerStartMs;
    std::vector<std::string> argv;
    if (!splitWords(commandLine, argv, error) || argv.empty()) {
        error = fmt::format("scx \"{}\": {}", commandLine, error.empty() ? "no program" : error);
        return false;
    }
    started.program = findExecutable(argv.front(), env.searchPath);
    if (started.program.empty()) {
        error = fmt::format("cannot find the scheduler {} in PATH: install it", argv.front());
        return false;
    }
    argv.front() = started.program;
    const int64_t seqBefore = readSchedExt(schedExtDir).enableSeq;
    const uint64_t logFrom = fileSize(logPath);
    started.pid = spawnLogged(argv, logPath, true, error);
    if (started.pid < 0)
        return false;
    started.startTime = processStartTime(started.pid);
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (cameInForce(readSchedExt(schedExtDir), started.program, seqBefore)) {
            markInForce(started.mark, env, logPath);
            started.mark.logFrom = logFrom;
            return true;
        }
        int status = 0;
        if (waitForChild(started.pid, 0, status)) {
            const std::string why = schedulerOwnWord(logPath, logFrom);
            error = fmt::format("{} ended before it was in force: {}{}", argv.front(),
                                describeExit(status), why.empty() ? "" : ": " + why);
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

bool startThroughScxLoader(const std::string &commandLine, const KnobEnvironment &env,
                           StartedScheduler &started, std::string &error)
{
    const std::string schedExtDir = env.schedExtDir();
    const int timeoutMs = env.schedulerStartMs;
    std::vector<std::string> argv;
    if (!splitWords(commandLine, argv, error) || argv.empty()) {
        error = fmt::format("scx \"{}\": {}", commandLine, error.empty() ? "no program" : error);
        return false;
    }
    started = {0, 0, argv.front(), {}};
    const int64_t seqBefore = readSchedExt(schedExtDir).enableSeq;
    if (!scxLoaderSwitch(argv.front(), {argv.begin() + 1, argv.end()}, error))
        return false;
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (cameInForce(readSchedExt(schedExtDir), started.program, seqBefore)) {
            markInForce(started.mark, env, {});
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    error = fmt::format("scx_loader did not bring {} in force within {:.1f} s ({}), so it was "
                        "stopped; journalctl -u scx_loader may say why",
                        argv.front(), timeoutMs / 1000.0, describeSchedExt(schedExtDir));
    std::string ignored;
    stopThroughScxLoader(started.program, true, schedExtDir, 5000, ignored);
    return false;
}

bool stopThroughScxLoader(const std::string &program, bool switched, const std::string &schedExtDir,
                          int timeoutMs, std::string &error)
{
    // Unsure the service runs ours, another scheduler in force is not ours
    // to stop: its StopScheduler stops whatever it runs.
    const SchedExtStatus s = readSchedExt(schedExtDir);
    if (s.state == "disabled" || (!switched && !s.ops.empty() && !opsNames(s.ops, program)))
        return true;
    if (!scxLoaderStop(error))
        return false;
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (readSchedExt(schedExtDir).state == "disabled")
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
                                const InForceMark &mark, const KnobEnvironment &env, int exitStatus,
                                const std::string &logPath)
{
    if (pid <= 0)
        return {};
    const std::string name = baseName(program);
    const SchedExtStatus s = readSchedExt(env.schedExtDir());
    const std::string state = s.state.empty() ? "unreadable" : s.state;
    const bool exited = exitStatus >= 0 || processGone(pid, startTime);
    const bool inForce = s.state == "enabled" && opsNames(s.ops, program);
    const bool back = mark.enableSeq >= 0 && s.enableSeq != mark.enableSeq;
    if (!exited && inForce && !back)
        return {SchedulerState::Running, {}};
    const std::string own = schedulerOwnWord(logPath, mark.logFrom);
    const std::string kernel = kernelDisabledLine(env.kernelLog, mark.kernelLogSeq);
    if (exited)
        return {SchedulerState::Exited,
                fmt::format("{} exited mid-round (state: {}{}{})", name, state,
                            exitStatus >= 0 ? "; " + describeExit(exitStatus) : "",
                            firstReason({own, kernel}))};
    if (!inForce)
        return {SchedulerState::Ejected,
                fmt::format("the kernel ejected {} mid-round (state: {}, ops: {}{})", name, state,
                            s.ops.empty() ? "none" : s.ops, firstReason({kernel, own}))};
    return {SchedulerState::Restarted,
            fmt::format("{} left and came back mid-round (enable_seq {}, then {}{})", name,
                        mark.enableSeq, s.enableSeq, firstReason({own, kernel}))};
}

SchedulerStatus scxLoaderSchedulerStatus(const std::string &program, const InForceMark &mark,
                                         const KnobEnvironment &env)
{
    const SchedExtStatus s = readSchedExt(env.schedExtDir());
    const bool inForce = s.state == "enabled" && opsNames(s.ops, program);
    const bool back = mark.enableSeq >= 0 && s.enableSeq != mark.enableSeq;
    if (inForce && !back)
        return {SchedulerState::Running, {}};
    const std::string kernel = firstReason({kernelDisabledLine(env.kernelLog, mark.kernelLogSeq)});
    if (!inForce)
        return {SchedulerState::Exited,
                fmt::format("{}, run by scx_loader, left mid-round (state: {}, ops: {}{})",
                            baseName(program), s.state.empty() ? "unreadable" : s.state,
                            s.ops.empty() ? "none" : s.ops, kernel)};
    return {SchedulerState::Restarted,
            fmt::format("{}, run by scx_loader, left and came back mid-round (enable_seq {}, then "
                        "{}{})",
                        baseName(program), mark.enableSeq, s.enableSeq, kernel)};
}

} // namespace latprobe
