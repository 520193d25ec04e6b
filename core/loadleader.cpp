#include "loadleader.h"

#include "loadkind.h"
#include "loadspec.h"
#include "tempdir.h"
#include "threadparams.h"
#include "workerslot.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {

volatile sig_atomic_t g_parentDied = 0;

void onParentDeath(int)
{
    g_parentDied = 1;
}

// SIGKILL to every child listed by /proc; returns how many there were.
int killChildren()
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%d/children", getpid());
    FILE *f = std::fopen(path, "r");
    if (!f)
        return 0;
    int pid = 0, n = 0;
    while (std::fscanf(f, "%d", &pid) == 1) {
        kill(pid, SIGKILL);
        ++n;
    }
    std::fclose(f);
    return n;
}

void setError(GroupHeader &header, const std::string &message)
{
    int32_t expected = 0;
    if (header.failed.compare_exchange_strong(expected, 1))
        std::snprintf(header.error, sizeof header.error, "%s", message.c_str());
}

[[noreturn]] void workerMain(const LoadSpec &spec, const LoadKind &kind, GroupHeader &header,
                             WorkerSlot &slot, int index, const std::string &tempDir, pid_t leader,
                             int goFd)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != leader)
        _exit(1);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const std::string name = ("latprobe:" + spec.kind).substr(0, 15);
    prctl(PR_SET_NAME, name.c_str());
    slot.pid.store(getpid());

    // Hold until every sibling exists: started one by one, the first
    // workers would starve the leader still forking the rest.
    char go;
    while (read(goFd, &go, 1) < 0 && errno == EINTR) {
    }
    close(goFd);

    ThreadGrant grant = applyThreadParams(spec.sched);
    if (!grant.refusal.empty())
        std::fprintf(stderr, "latprobe:%s: %s\n", spec.kind.c_str(), grant.refusal.c_str());
    slot.state.store(static_cast<int32_t>(WorkerState::Running));
    WorkerContext ctx{spec, header, slot, index, tempDir};
    const int rc = kind.body(ctx);
    slot.state.store(static_cast<int32_t>(WorkerState::Failed));
    _exit(rc ? rc : 1);
}

} // namespace

void reportWorkerError(WorkerContext &ctx, const std::string &message)
{
    setError(ctx.header, fmt::format("{} worker {}: {}", ctx.spec.kind, ctx.index, message));
    std::fprintf(stderr, "latprobe:%s: %s\n", ctx.spec.kind.c_str(), message.c_str());
}

int runLoadLeader(int argc, char **argv)
{
    // argv: latprobe:<kind> --load-leader <parent pid> <temp dir or -> <spec>
    if (argc != 5)
        return 2;
    const pid_t parent = static_cast<pid_t>(std::atoi(argv[2]));
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        return 1; // latprobe died before the death signal was armed
    prctl(PR_SET_NAME, "latprobe-group");
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    struct stat st;
    if (fstat(kLoadShmFd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(GroupHeader)))
        return 2;
    void *shm = mmap(nullptr, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, kLoadShmFd, 0);
    if (shm == MAP_FAILED)
        return 2;
    close(kLoadShmFd);
    auto &header = *static_cast<GroupHeader *>(shm);
    WorkerSlot *slots = groupSlots(shm);
    header.leaderPid.store(getpid());

    const std::string tempDir = std::strcmp(argv[3], "-") == 0 ? "" : argv[3];
    LoadSpec spec;
    std::string error;
    const LoadKind *kind = nullptr;
    if (!parseLoadSpec(argv[4], spec, error) || !(kind = findLoadKind(spec.kind))) {
        setError(header, error);
        return 2;
    }
    if (static_cast<uint32_t>(spec.count) != header.workers) {
        setError(header, "worker count does not match the shared memory");
        return 2;
    }

    struct sigaction sa
    {};
    sa.sa_handler = onParentDeath;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr); // no SA_RESTART: waitpid must return
    sigaction(SIGHUP, &sa, nullptr);

    if (kind->prepare) {
        error = kind->prepare(spec, tempDir);
        if (!error.empty()) {
            setError(header, error);
            return 3;
        }
    }

    int go[2];
    if (pipe(go) != 0) {
        setError(header, fmt::format("pipe: {}", std::strerror(errno)));
        return 3;
    }
    const pid_t self = getpid();
    for (int i = 0; i < spec.count && !g_parentDied; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            close(go[1]);
            workerMain(spec, *kind, header, slots[i], i, tempDir, self, go[0]);
        }
        if (pid < 0) {
            setError(header, fmt::format("could not start worker {} of {}: {} (raise the process "
                                         "limit, ulimit -u, or start fewer)",
                                         i + 1, spec.count, std::strerror(errno)));
            g_parentDied = 1; // tear down what was started
            break;
        }
        slots[i].pid.store(pid);
        header.started.fetch_add(1);
    }
    close(go[0]);
    close(go[1]); // releases every worker at once

    int alive = header.started.load();
    while (alive > 0 && !g_parentDied) {
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == ECHILD)
                break;
            continue; // EINTR: look at g_parentDied
        }
        for (int i = 0; i < spec.count; ++i)
            if (slots[i].pid.load() == pid) {
                slots[i].exitStatus.store(status);
                if (slots[i].state.load() != static_cast<int32_t>(WorkerState::Failed))
                    slots[i].state.store(static_cast<int32_t>(WorkerState::Exited));
                --alive;
            }
    }
    if (g_parentDied) {
        // latprobe is gone (or a start failed): nothing of ours may stay,
        // including what a custom command started. As a subreaper the
        // leader inherits every orphaned descendant, so killing its
        // children until none is left reaches them all.
        for (int i = 0; i < spec.count; ++i)
            if (const pid_t pid = slots[i].pid.load(); pid > 0)
                kill(pid, SIGKILL);
        for (int round = 0; round < 5000; ++round) {
            while (waitpid(-1, nullptr, WNOHANG) > 0) {
            }
            if (killChildren() == 0)
                break;
            usleep(1000);
        }
        removeTree(tempDir);
    }
    return 0;
}

} // namespace latprobe
