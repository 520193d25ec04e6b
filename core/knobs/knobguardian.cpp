#include "knobguardian.h"

#include "changeset.h"
#include "guardianprotocol.h"
#include "knobjournal.h"
#include "resourcelock.h"
#include "variantjson.h"

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {

using nlohmann::json;

volatile sig_atomic_t g_terminate = 0;

void onTerminate(int)
{
    g_terminate = 1;
}

void setUpSignals()
{
    prctl(PR_SET_NAME, "latprobe-guard");
    // Its own session already; these would still end it before it restores.
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa
    {};
    sa.sa_handler = onTerminate;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr); // no SA_RESTART: the wait must return
}

// The guardian's state once started: its directory, locks and changes.
struct Guard
{
    KnobEnvironment env;
    JournalDir dir;
    ResourceLocks locks;
    std::unique_ptr<ChangeSet> changes;
    pid_t scheduler = 0;
    int schedulerExit = -1; // its status once reaped here
};

// The start request: the directory, the locks, the stale journals put
// back; the reply says how it went.
bool start(LineChannel &channel, Guard &guard)
{
    json request;
    std::string error;
    if (channel.receive(request, 60'000, error) != LineChannel::Got::Line ||
        request.value("op", "") != "start")
        return false;
    guard.env = environmentFromJson(request.value("env", json::object()));
    const pid_t owner = request.value("owner", 0);
    std::vector<std::string> resources = request.value("resources", std::vector<std::string>{});
    if (guard.dir.create(guard.env.stateDir, error))
        error = guard.locks.acquire(guard.env.stateDir, resources, owner);
    if (!error.empty()) {
        guard.dir.remove();
        channel.send({{"error", error}}, error);
        return false;
    }
    // With the locks held: no run of ours reads a value before while a
    // dead run's journal of it is being put back.
    const Recovery recovered = recoverStaleJournals(guard.env.stateDir, guard.env);
    guard.changes = std::make_unique<ChangeSet>(guard.env, guard.dir, owner);
    return channel.send({{"journal", guard.dir.path()},
                         {"recovered", recordsToJson(recovered.records)},
                         {"failures", recovered.failures}},
                        error);
}

json applyReply(Guard &guard, const json &request)
{
    Variant variant;
    std::string error;
    if (!variantFromJson(request.value("variant", json()), "variant", variant, error))
        return {{"error", error}, {"applied", json::array()}, {"load_cgroup", ""}};
    const TurnResult turn = guard.changes->applyVariant(variant);
    guard.scheduler = guard.changes->schedulerPid();
    guard.schedulerExit = -1;
    return {{"error", turn.error},
            {"applied", recordsToJson(turn.applied)},
            {"load_cgroup", turn.loadCgroup}};
}

// Keeps the status of the scheduler when it exits; other children (the
// commands) are waited for where they run.
void reapScheduler(Guard &guard)
{
    int status = 0;
    if (guard.scheduler > 0 && waitpid(guard.scheduler, &status, WNOHANG) == guard.scheduler) {
        guard.schedulerExit = status;
        guard.scheduler = 0;
    }
}

json schedulerReply(Guard &guard)
{
    reapScheduler(guard);
    const SchedulerStatus s = guard.changes->scheduler(guard.schedulerExit);
    return {{"state", toString(s.state)}, {"detail", s.detail}};
}

// Puts everything back and says on stderr (latprobe's, if it still has
// one) what could not be; the journal stays then, for the next start.
void restoreAndEnd(Guard &guard, std::vector<ChangeRecord> &records)
{
    records = guard.changes->restoreAll();
    bool failed = false;
    for (const ChangeRecord &r : records)
        if (r.state == ChangeState::Failed) {
            std::fprintf(stderr, "latprobe guardian: %s\n", restoreFailure(r).c_str());
            failed = true;
        }
    guard.locks.release();
    if (!failed)
        guard.dir.remove();
}

// Answers latprobe's requests: true once it says "finish", false when it
// is gone (end of file) or SIGTERM came.
bool serve(LineChannel &channel, Guard &guard)
{
    std::string error;
    while (!g_terminate) {
        // Asleep between requests: this runs beside a latency measurement.
        // The timeout only bounds a SIGTERM that lands just before poll().
        json request;
        const LineChannel::Got got = channel.receive(request, 1000, error);
        if (got == LineChannel::Got::EndOfFile || got == LineChannel::Got::Failed)
            return false;
        if (got != LineChannel::Got::Line)
            continue;
        const std::string op = request.value("op", "");
        if (op == "finish")
            return true;
        channel.send(op == "apply"       ? applyReply(guard, request)
                     : op == "scheduler" ? schedulerReply(guard)
                                         : json{{"error", "unknown request " + op}},
                     error);
    }
    return false;
}

} // namespace

int runKnobGuardian(int argc, char **argv)
{
    // argv: latprobe:guardian --knob-guardian; the rest comes over the socket.
    if (argc != 2 || std::string(argv[1]) != kKnobGuardianFlag)
        return 2;
    // Nothing of latprobe's but the socket: a pipe end held here would
    // keep its reader from seeing the end of file it waits for. And the
    // socket is ours alone: a scheduler holding it would keep latprobe
    // from seeing this guardian die.
    closefrom(kGuardianFd + 1);
    fcntl(kGuardianFd, F_SETFD, FD_CLOEXEC);
    setUpSignals();
    LineChannel channel(kGuardianFd);
    Guard guard;
    if (!start(channel, guard))
        return 1;
    bool finishing = false;
    try {
        finishing = serve(channel, guard);
    } catch (const std::exception &e) {
        // Whatever went wrong here, the machine is put back.
        std::fprintf(stderr, "latprobe guardian: %s; putting everything back\n", e.what());
    }
    std::vector<ChangeRecord> records;
    restoreAndEnd(guard, records);
    std::string error;
    if (finishing)
        channel.send({{"records", recordsToJson(records)}}, error);
    return 0;
}

} // namespace latprobe
