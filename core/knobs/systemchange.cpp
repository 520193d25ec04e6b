#include "systemchange.h"

#include "childprocess.h"
#include "cpucgroup.h"
#include "enumnames.h"
#include "kernelfile.h"
#include "scxloader.h"
#include "scxscheduler.h"

#include <fmt/format.h>

namespace latprobe {

namespace {

constexpr EnumName<ChangeKind> kChangeKindNames[] = {
    {ChangeKind::File, "file"},       {ChangeKind::ChoiceFile, "choice"},
    {ChangeKind::Cgroup, "cgroup"},   {ChangeKind::Scheduler, "scheduler"},
    {ChangeKind::Command, "command"},
};

constexpr EnumName<ChangeState> kChangeStateNames[] = {
    {ChangeState::Pending, "pending"},
    {ChangeState::Applied, "applied"},
    {ChangeState::Restored, "restored"},
    {ChangeState::Failed, "failed"},
};

// --- value files and choice files: write, then read back what the kernel took

// The setting a file holds: the whole of a value file, the marked choice
// of a choice file.
bool readSetting(const ChangeRecord &r, std::string &value, std::string &error)
{
    if (!readKernelFile(r.change.target, value, error))
        return false;
    if (r.change.kind == ChangeKind::ChoiceFile) {
        const std::string text = value;
        value = choiceInForce(text);
        if (value.empty()) {
            error = fmt::format("{} marks no choice in force: \"{}\"", r.change.target, text);
            return false;
        }
    }
    return true;
}

// Writes `value` and reads it back into `readBack`: a value the kernel
// changed on its way in (clamped, rounded) is an error.
bool writeConfirmed(const ChangeRecord &r, const std::string &value, std::string &readBack,
                    std::string &error)
{
    if (!writeKernelFile(r.change.target, value, error) || !readSetting(r, readBack, error))
        return false;
    if (readBack != collapseSpaces(value)) {
        error = fmt::format("{} holds {} after {} was written to it: the kernel changed the value",
                            r.change.target, readBack, value);
        return false;
    }
    return true;
}

bool fileBefore(ChangeRecord &r, const ChangeContext &, std::string &error)
{
    return readSetting(r, r.before, error);
}

bool fileApply(ChangeRecord &r, const ChangeContext &, std::string &error)
{
    return writeConfirmed(r, r.change.value, r.applied, error);
}

bool fileRestore(ChangeRecord &r, const ChangeContext &, std::string &error)
{
    return writeConfirmed(r, r.before, r.restored, error);
}

std::string fileByHand(const ChangeRecord &r)
{
    return echoCommand(r.before, r.change.target);
}

// --- a cgroup of latprobe's own

bool cgroupBefore(ChangeRecord &r, const ChangeContext &, std::string &)
{
    r.before = pathExists(r.change.target) ? "present" : "absent";
    return true;
}

bool cgroupApply(ChangeRecord &r, const ChangeContext &, std::string &error)
{
    const size_t eq = r.change.value.find('=');
    const std::string file = r.change.value.substr(0, eq), value = r.change.value.substr(eq + 1);
    std::string readBack;
    if (!makeCgroup(r.change.target, file, value, readBack, error))
        return false;
    r.applied = file + "=" + readBack;
    if (readBack != value) {
        error = fmt::format("{}/{} holds {} after {} was written to it", r.change.target, file,
                            readBack, value);
        return false;
    }
    return true;
}

bool cgroupRestore(ChangeRecord &r, const ChangeContext &, std::string &error)
{
    if (!removeCgroup(r.change.target, error))
        return false;
    r.restored = "absent";
    return true;
}

std::string cgroupByHand(const ChangeRecord &r)
{
    return "rmdir " + shellQuote(r.change.target);
}

// --- a sched_ext scheduler

bool schedulerBefore(ChangeRecord &r, const ChangeContext &c, std::string &error)
{
    const SchedExtStatus s = readSchedExt(c.env.schedExtDir());
    if (s.state == "enabled") {
        error = fmt::format("the sched_ext scheduler {} already runs: stop it first",
                            s.ops.empty() ? "?" : s.ops);
        return false;
    }
    r.before = "none";
    return true;
}

// Whether a scheduler this record started may still run.
bool schedulerStarted(const ChangeRecord &r)
{
    return r.pid > 0 || (r.launcher == SchedulerLauncher::ScxLoader && !r.program.empty() &&
                         r.applied != "none");
}

bool schedulerStop(ChangeRecord &r, const ChangeContext &c, std::string &error)
{
    const std::string dir = c.env.schedExtDir();
    // Pending: a kill may have come before the switch, or after it.
    const bool switched = r.state != ChangeState::Pending;
    const bool stopped = r.pid > 0 ? stopScheduler(r.pid, r.pidStart, r.program, dir, 5000, error)
                                   : stopThroughScxLoader(r.program, switched, dir, 5000, error);
    if (stopped) {
        r.pid = 0;
        r.pidStart = 0;
        r.applied = "none";
    }
    return stopped;
}

bool schedulerApply(ChangeRecord &r, const ChangeContext &c, std::string &error)
{
    const std::string dir = c.env.schedExtDir();
    const bool same = r.applied == r.change.target;
    if (same && schedulerStarted(r) && (r.pid == 0 || !processGone(r.pid, r.pidStart)) &&
        schedulerInForce(r.program, dir)) {
        // This variant's scheduler is in force already: its turn counts from here.
        markInForce(r.inForce, c.env, r.pid > 0 ? schedulerLog(c.logDir) : std::string());
        return true;
    }
    if (schedulerStarted(r) && !schedulerStop(r, c, error))
        return false;
    StartedScheduler started;
    const bool ok =
        r.launcher == SchedulerLauncher::ScxLoader
            ? startThroughScxLoader(r.change.target, c.env, started, error)
            : startScheduler(r.change.target, c.env, schedulerLog(c.logDir), started, error);
    r.pid = ok ? started.pid : 0;
    r.pidStart = ok ? started.startTime : 0;
    r.program = started.program;
    r.inForce = started.mark;
    r.applied = ok ? r.change.target : "none";
    return ok;
}

bool schedulerRestore(ChangeRecord &r, const ChangeContext &c, std::string &error)
{
    // A record journalled pending through scx_loader may have been switched
    // to just before a kill: asking the service to stop is safe either way.
    if (r.launcher == SchedulerLauncher::ScxLoader && r.pid == 0 && r.state == ChangeState::Pending)
        r.applied = r.change.target;
    if (schedulerStarted(r) && !schedulerStop(r, c, error))
        return false;
    r.restored = "none";
    return true;
}

std::string schedulerByHand(const ChangeRecord &r)
{
    if (r.launcher == SchedulerLauncher::ScxLoader)
        return scxLoaderStopCommand();
    return r.pid > 0 ? fmt::format("kill {}", r.pid) : std::string();
}

// --- cmd= and undo=

std::string commandLog(const ChangeContext &c)
{
    return c.logDir + "/commands.log";
}

bool commandBefore(ChangeRecord &r, const ChangeContext &, std::string &)
{
    r.before.clear(); // what a command changes is its own business
    return true;
}

bool commandRun(const std::string &line, std::string &outcome, const ChangeContext &c,
                std::string &error)
{
    const CommandOutcome o =
        runCommandLine(line, c.env.searchPath, commandLog(c), c.env.commandTimeoutMs);
    outcome = o.summary;
    if (!o.ok)
        error = fmt::format("\"{}\": {}", line, o.summary);
    return o.ok;
}

bool commandApply(ChangeRecord &r, const ChangeContext &c, std::string &error)
{
    return commandRun(r.change.target, r.applied, c, error);
}

bool commandRestore(ChangeRecord &r, const ChangeContext &c, std::string &error)
{
    return commandRun(r.change.undo, r.restored, c, error);
}

std::string commandByHand(const ChangeRecord &r)
{
    return r.change.undo;
}

struct Mechanism
{
    ChangeKind kind;
    bool (*before)(ChangeRecord &, const ChangeContext &, std::string &);
    bool (*apply)(ChangeRecord &, const ChangeContext &, std::string &);
    bool (*restore)(ChangeRecord &, const ChangeContext &, std::string &);
    std::string (*byHand)(const ChangeRecord &);
    bool restoresBeforeReplacing;
    bool keptWhenSame;
};

constexpr Mechanism kMechanisms[] = {
    {ChangeKind::File, fileBefore, fileApply, fileRestore, fileByHand, false, false},
    {ChangeKind::ChoiceFile, fileBefore, fileApply, fileRestore, fileByHand, false, false},
    {ChangeKind::Cgroup, cgroupBefore, cgroupApply, cgroupRestore, cgroupByHand, false, false},
    {ChangeKind::Scheduler, schedulerBefore, schedulerApply, schedulerRestore, schedulerByHand,
     true, false},
    {ChangeKind::Command, commandBefore, commandApply, commandRestore, commandByHand, true, true},
};

const Mechanism &mechanism(ChangeKind kind)
{
    return *findRow<&Mechanism::kind>(kMechanisms, kind);
}

} // namespace

const char *toString(ChangeKind kind)
{
    return enumName(kChangeKindNames, kind);
}

std::optional<ChangeKind> changeKindFromName(std::string_view name)
{
    return enumFromName(kChangeKindNames, name);
}

const char *toString(ChangeState state)
{
    return enumName(kChangeStateNames, state);
}

std::optional<ChangeState> changeStateFromName(std::string_view name)
{
    return enumFromName(kChangeStateNames, name);
}

void planChange(ChangeRecord &record, const ChangeContext &)
{
    // A scheduler that may still run keeps the launcher that can stop it.
    if (record.change.kind != ChangeKind::Scheduler || schedulerStarted(record))
        return;
    record.launcher = chooseLauncher(record.change.target);
    // Named before the switch: a restore after a kill knows what to stop.
    if (record.launcher == SchedulerLauncher::ScxLoader)
        record.program = schedulerProgram(record.change.target);
}

bool readBefore(ChangeRecord &record, const ChangeContext &context, std::string &error)
{
    return mechanism(record.change.kind).before(record, context, error);
}

bool applyChange(ChangeRecord &record, const ChangeContext &context, std::string &error)
{
    record.state = ChangeState::Applied;
    record.error.clear();
    const bool ok = mechanism(record.change.kind).apply(record, context, error);
    if (!ok)
        record.error = error;
    return ok;
}

bool restoreChange(ChangeRecord &record, const ChangeContext &context, std::string &error)
{
    const Mechanism &m = mechanism(record.change.kind);
    if (m.restore(record, context, error)) {
        record.state = ChangeState::Restored;
        record.error.clear();
        record.byHand.clear();
        return true;
    }
    record.state = ChangeState::Failed;
    record.error = error;
    record.byHand = m.byHand(record);
    return false;
}

bool restoresBeforeReplacing(ChangeKind kind)
{
    return mechanism(kind).restoresBeforeReplacing;
}

bool keptWhenSame(ChangeKind kind)
{
    return mechanism(kind).keptWhenSame;
}

std::string schedulerLog(const std::string &logDir)
{
    return logDir + "/scheduler.log";
}

bool needsRestore(const ChangeRecord &record)
{
    return record.state != ChangeState::Restored;
}

} // namespace latprobe
