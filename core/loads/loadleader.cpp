#include "loadleader.h"

#include "loadkind.h"
#include "loadspec.h"
#include "schedattr.h"
#include "tempdir.h"
#include "threadparams.h"
#include "workerslot.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {

volatile sig_atomic_t g_parentDied = 0;

void onParentDeath(int)
{
    g_parentDied = 1;
    // latprobe is gone: one kill(2), here, reaches the whole group at once,
    // workers and what they started. Killed one by one from the main loop,
    // 400 busy workers left the leader one turn in 400 of their CPU share,
    // and the last of them died seconds after latprobe. The leader dies
    // with its group; the cleaner removes the temp dir.
    kill(0, SIGKILL);
}

// The leader's scheduler slice (EEVDF, Linux 6.12+; unprivileged): a short
// one puts a waking leader ahead of its own busy workers. With the default
// slice, the leader of 400 spinning workers woke from its death signal
// only after ~0.4 s, half a turn of the group, and the workers died later
// still. 0 restores the default (for the workers). Older kernels refuse it
// (EINVAL); nothing else changes then.
void setSlice(uint64_t ns)
{
    SchedAttr attr;
    attr.sched_policy = SCHED_OTHER;
    attr.sched_nice = getpriority(PRIO_PROCESS, 0);
    attr.sched_runtime = ns;
    setSchedAttr(0, attr);
}

// Whether a process of group `pgid` is still alive (not a zombie).
bool groupAlive(pid_t pgid)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return false;
    bool alive = false;
    while (dirent *e = readdir(proc)) {
        char path[300], state = 'X';
        int pgrp = 0;
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = std::fopen(path, "r");
        if (!f)
            continue;
        // pid (comm) state ppid pgrp: comm may hold spaces and ')'.
        char buf[512];
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = '\0';
        const char *close = std::strrchr(buf, ')');
        if (close && std::sscanf(close + 1, " %c %*d %d", &state, &pgrp) == 2 && pgrp == pgid &&
            state != 'Z' && state != 'X') {
            alive = true;
            break;
        }
    }
    closedir(proc);
    return alive;
}

// A child in a process group of its own, so the group's kill spares it: it
// holds the read end of a pipe whose write end the leader and the workers
// inherit. End of file: they are all gone, and it removes `dir` — read
// then, since the leader makes the directory after the cleaner is armed.
pid_t startCleaner(pid_t pgid, const char *dir, int &holdFd)
{
    int hold[2];
    if (pipe(hold) != 0)
        return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        close(hold[1]);
        close(kLoadVerdictFd); // the verdict's end of file is the leader's alone
        prctl(PR_SET_NAME, "latprobe-clean");
        char c;
        while (read(hold[0], &c, 1) < 0 && errno == EINTR) {
        }
        // Exec'd helpers (a compiler) never held the pipe.
        for (int i = 0; i < 2500 && groupAlive(pgid); ++i)
            usleep(2000);
        removeTree(dir);
        _exit(0);
    }
    close(hold[0]);
    if (pid < 0) {
        close(hold[1]);
        return -1;
    }
    setpgid(pid, pid); // out of the group before anything can kill it
    holdFd = hold[1];
    return pid;
}

void setError(GroupHeader &header, const std::string &message)
{
    int32_t expected = 0;
    if (header.failed.compare_exchange_strong(expected, GroupHeader::kErrorClaimed)) {
        std::snprintf(header.error, sizeof header.error, "%s", message.c_str());
        header.failed.store(GroupHeader::kErrorWritten);
    }
}

// The verdict on the start, once (see loadleader.h). Closing the pipe after
// it keeps latprobe's end of file for a leader that died undecided.
void sendVerdict(char verdict)
{
    while (write(kLoadVerdictFd, &verdict, 1) < 0 && errno == EINTR) {
    }
    close(kLoadVerdictFd);
}

// A start that cannot happen: the reason first, then the verdict, so that
// latprobe reads the reason once it has the verdict. No worker has been
// released, so the reason is the leader's own.
void refuseStart(GroupHeader &header, const std::string &message)
{
    setError(header, message);
    sendVerdict(kVerdictRefused);
}

[[noreturn]] void workerMain(const LoadSpec &spec, const LoadKind &kind, GroupHeader &header,
                             WorkerSlot &slot, int index, const std::string &tempDir, pid_t leader,
                             const char *name, int goFd)
{
    // Until the go signal, as little as possible: the leader is forking the
    // siblings meanwhile, and a fresh child's faults and syscalls compete
    // with it (800 workers: 1.4 s to fork with the set-up here, 1.1 s
    // with it after the signal).
    close(kLoadVerdictFd); // inherited from the leader, which decides alone
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != leader)
        _exit(1);
    prctl(PR_SET_NAME, name); // the leader stores the pid in the slot

    // Hold until every sibling exists: started one by one, the first
    // workers would starve the leader still forking the rest.
    char go;
    while (read(goFd, &go, 1) < 0 && errno == EINTR) {
    }
    close(goFd);

    setSlice(0);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    ThreadGrant grant = applyThreadParams(spec.sched);
    if (!grant.refusal.empty())
        std::fprintf(stderr, "latprobe:%s: %s\n", spec.kindName().c_str(), grant.refusal.c_str());
    // Its CPU time counts from here (WorkerSlot::cpuAtStartNs).
    timespec cpu{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    slot.cpuAtStartNs.store(static_cast<int64_t>(cpu.tv_sec) * 1'000'000'000 + cpu.tv_nsec);
    slot.state.store(static_cast<int32_t>(WorkerState::Running));
    const auto helpers = static_cast<int>(header.helpersPerWorker);
    WorkerContext ctx{spec,   header,  slot,
                      index,  tempDir, groupHelpers(&header, header.workers) + index * helpers,
                      helpers};
    const int rc = kind.body(ctx);
    slot.state.store(static_cast<int32_t>(WorkerState::Failed));
    _exit(rc ? rc : 1);
}

// The leader's own set-up, `deathSignals` held until the cleaner runs: a
// death signal before it would leave the temp dir behind. False when
// latprobe died before the death signal was armed.
bool becomeLeader(pid_t parent, const sigset_t &deathSignals)
{
    sigprocmask(SIG_BLOCK, &deathSignals, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        return false;
    // Nothing the leader starts may hold the verdict pipe: its end of file
    // tells latprobe the leader died undecided.
    fcntl(kLoadVerdictFd, F_SETFD, FD_CLOEXEC);
    prctl(PR_SET_NAME, "latprobe-group");
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    setSlice(100'000);
    return true;
}

// The group's shared memory (loadleader.h), or nullptr.
void *mapGroup()
{
    struct stat st;
    if (fstat(kLoadShmFd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(GroupHeader)))
        return nullptr;
    void *shm = mmap(nullptr, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, kLoadShmFd, 0);
    if (shm == MAP_FAILED)
        return nullptr;
    close(kLoadShmFd);
    return shm;
}

// The cleaner first, then the directory: a kill at any moment in between
// leaves nothing behind. False when refused, the reason sent.
bool makeTempDir(GroupHeader &header, std::string &tempDir)
{
    // Never closed: the cleaner waits for the end of file of every copy.
    int holdFd = -1;
    const pid_t cleaner = startCleaner(getpid(), header.tempDir, holdFd);
    if (cleaner < 0) {
        refuseStart(header,
                    fmt::format("cannot start the temp dir's cleaner: {}", std::strerror(errno)));
        return false;
    }
    header.cleanerPid.store(cleaner);
    std::string error;
    if (!createPrivateTempDir(header.tempDir, sizeof header.tempDir, error)) {
        refuseStart(header, error);
        return false;
    }
    tempDir = header.tempDir;
    return true;
}

// From here a death signal kills the group at once (onParentDeath).
// A variant's cgroup for the group (load_weight=): v1 and v2 both take a
// pid in cgroup.procs.
bool joinCgroup(GroupHeader &header, const char *dir)
{
    const std::string procs = std::string(dir) + "/cgroup.procs";
    const int fd = open(procs.c_str(), O_WRONLY | O_CLOEXEC);
    const std::string pid = std::to_string(getpid());
    const bool joined =
        fd >= 0 && write(fd, pid.data(), pid.size()) == static_cast<ssize_t>(pid.size());
    const int err = errno;
    if (fd >= 0)
        close(fd);
    if (!joined)
        refuseStart(header, fmt::format("cannot join the variant's cgroup {}: {}", dir,
                                        std::strerror(err)));
    return joined;
}

void armParentDeath(const sigset_t &deathSignals)
{
    struct sigaction sa
    {};
    sa.sa_handler = onParentDeath;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr); // no SA_RESTART: waitpid must return
    sigaction(SIGHUP, &sa, nullptr);
    sigprocmask(SIG_UNBLOCK, &deathSignals, nullptr);
}

// Forks every worker, then sends the verdict and releases them all at
// once. 0, or the leader's exit status when they could not all start.
int startWorkers(const LoadSpec &spec, const LoadKind &kind, GroupHeader &header, WorkerSlot *slots,
                 const std::string &tempDir)
{
    int go[2];
    if (pipe(go) != 0) {
        refuseStart(header, fmt::format("pipe: {}", std::strerror(errno)));
        return 3;
    }
    const pid_t self = getpid();
    const std::string workerName = ("latprobe:" + spec.kindName()).substr(0, 15);
    for (int i = 0; i < spec.count && !g_parentDied; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            close(go[1]);
            workerMain(spec, kind, header, slots[i], i, tempDir, self, workerName.c_str(), go[0]);
        }
        if (pid < 0) {
            refuseStart(header, fmt::format("could not start worker {} of {}: {} (raise the "
                                            "process limit, ulimit -u, or start fewer)",
                                            i + 1, spec.count, std::strerror(errno)));
            // Tear down what was started, never released: latprobe reaps.
            kill(0, SIGKILL);
            return 3;
        }
        slots[i].pid.store(pid);
        header.started.fetch_add(1);
    }
    if (g_parentDied) {
        kill(0, SIGKILL); // latprobe is gone (the handler did this already)
        return 1;
    }
    // Started, and said so before any worker can run: a worker that fails
    // from here on is a run-time error of a started group.
    sendVerdict(kVerdictStarted);
    close(go[0]);
    close(go[1]); // releases every worker at once
    return 0;
}

// Waits for the workers, recording how each ended, until none is left or
// latprobe is gone.
void reapWorkers(int workers, GroupHeader &header, WorkerSlot *slots)
{
    int alive = header.started.load();
    while (alive > 0 && !g_parentDied) {
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == ECHILD)
                break;
            continue; // EINTR: look at g_parentDied
        }
        for (int i = 0; i < workers; ++i)
            if (slots[i].pid.load() == pid) {
                slots[i].exitStatus.store(status);
                if (slots[i].state.load() != static_cast<int32_t>(WorkerState::Failed))
                    slots[i].state.store(static_cast<int32_t>(WorkerState::Exited));
                --alive;
            }
    }
}

} // namespace

void reportWorkerError(WorkerContext &ctx, const std::string &message)
{
    setError(ctx.header, fmt::format("{} worker {}: {}", ctx.spec.kindName(), ctx.index, message));
    std::fprintf(stderr, "latprobe:%s: %s\n", ctx.spec.kindName().c_str(), message.c_str());
}

int runLoadLeader(int argc, char **argv)
{
    // argv: latprobe:<kind> --load-leader <parent pid> <temp dir or -> <spec> <cgroup or ->
    if (argc != 6)
        return 2;
    const pid_t parent = static_cast<pid_t>(std::atoi(argv[2]));
    sigset_t deathSignals;
    sigemptyset(&deathSignals);
    sigaddset(&deathSignals, SIGTERM);
    sigaddset(&deathSignals, SIGHUP);
    if (!becomeLeader(parent, deathSignals))
        return 1;
    void *shm = mapGroup();
    if (!shm)
        return 2;
    auto &header = *static_cast<GroupHeader *>(shm);
    WorkerSlot *slots = groupSlots(shm);
    header.leaderPid.store(getpid());

    const bool needsTempDir = std::strcmp(argv[3], kLoadLeaderMakesTempDir) == 0;
    LoadSpec spec;
    std::string error;
    const LoadKind *kind = nullptr;
    if (!parseLoadSpec(argv[4], spec, error) || !(kind = spec.kind)) {
        refuseStart(header,
                    error.empty() ? fmt::format("unknown load kind in {}", argv[4]) : error);
        return 2;
    }
    if (static_cast<uint32_t>(spec.count) != header.workers) {
        refuseStart(header, "worker count does not match the shared memory");
        return 2;
    }
    // Before any worker forks: they inherit it.
    if (std::strcmp(argv[5], "-") != 0 && !joinCgroup(header, argv[5]))
        return 3;
    std::string tempDir;
    if (needsTempDir && !makeTempDir(header, tempDir))
        return 3;
    armParentDeath(deathSignals);
    if (kind->prepare) {
        error = kind->prepare(spec, tempDir);
        if (!error.empty()) {
            refuseStart(header, error);
            return 3;
        }
    }
    if (const int status = startWorkers(spec, *kind, header, slots, tempDir); status != 0)
        return status;
    reapWorkers(spec.count, header, slots);
    if (g_parentDied)
        kill(0, SIGKILL);
    return 0;
}

} // namespace latprobe
