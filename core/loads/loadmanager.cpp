#include "loadmanager.h"

#include "loadkind.h"
#include "loadleader.h"
#include "processalive.h"
#include "procstat.h"
#include "realclock.h"
#include "selfexe.h"
#include "spawnchild.h"
#include "tempdir.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <new>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {

// What the leader is doing: its scheduler state ('R' runnable, 'S' asleep,
// 'D' in the kernel, 'T' stopped, ...) and the CPU time it has had, in ns
// (the scheduler's own count where the kernel shows it, else ticks).
struct LeaderLook
{
    char state = '?';
    int64_t cpuNs = -1;
};

LeaderLook lookAt(pid_t pid)
{
    LeaderLook look;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (FILE *f = std::fopen(path, "re")) {
        char buf[512];
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = '\0';
        // pid (comm) state ...: comm may hold spaces and ')'.
        if (const char *close = std::strrchr(buf, ')'))
            std::sscanf(close + 1, " %c", &look.state);
    }
    look.cpuNs = processClockNs(pid);
    return look;
}

// Waits for the leader's verdict byte on `fd`. Returns it; 0 when the leader
// ended without one (end of file); -1 with `error` when it went `stallNs`
// neither running nor waiting to run: it is then stopped, or stuck in the
// kernel. A leader that waits its turn is waited for however long that
// takes: beside 1000 busy workers on 2 CPUs a runnable leader was seen to
// wait over 100 s for the CPU (a 30 s deadline here refused such starts).
int awaitVerdict(int fd, pid_t leader, const std::string &label, int64_t stallNs,
                 std::string &error)
{
    int64_t cpu = lookAt(leader).cpuNs;
    int64_t activeAt = RealClock::monotonicNow();
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, 1000);
        if (ready > 0) {
            char verdict = 0;
            const ssize_t n = read(fd, &verdict, 1);
            if (n == 1)
                return static_cast<unsigned char>(verdict);
            if (n == 0)
                return 0;
            if (errno != EINTR && errno != EAGAIN) {
                error = fmt::format("cannot start {}: reading the leader's verdict: {}", label,
                                    std::strerror(errno));
                return -1;
            }
            continue;
        }
        if (ready < 0 && errno != EINTR) {
            error = fmt::format("cannot start {}: poll: {}", label, std::strerror(errno));
            return -1;
        }
        // Once a second without a verdict: is the leader getting anywhere?
        const int64_t now = RealClock::monotonicNow();
        const LeaderLook look = lookAt(leader);
        if (look.cpuNs != cpu || look.state == 'R') {
            cpu = look.cpuNs;
            activeAt = now;
        } else if (now - activeAt > stallNs) {
            error = fmt::format("{} did not start: its leader (pid {}, state {}) has not run "
                                "for {:.0f} s (stopped, or stuck in the kernel)",
                                label, leader, look.state, static_cast<double>(stallNs) / 1e9);
            return -1;
        }
    }
}

// A group's shared memory for `workers` and their `helpers` each, its header
// and slots constructed, and `fd` its memfd for the leader. nullptr on
// failure, `error` saying why.
std::shared_ptr<GroupMemory> createGroupShm(int workers, int helpers, const std::string &label,
                                            int &fd, std::string &error)
{
    const size_t size =
        groupShmSize(static_cast<uint32_t>(workers), static_cast<uint32_t>(helpers));
    fd = memfd_create("latprobe-load", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
        error = fmt::format("cannot create shared memory for {}: {}", label, std::strerror(errno));
        if (fd >= 0)
            close(fd);
        return nullptr;
    }
    void *shm = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (shm == MAP_FAILED) {
        close(fd);
        error = fmt::format("cannot map shared memory: {}", std::strerror(errno));
        return nullptr;
    }
    auto *header = new (shm) GroupHeader;
    header->workers = static_cast<uint32_t>(workers);
    header->helpersPerWorker = static_cast<uint32_t>(helpers);
    for (int i = 0; i < workers; ++i)
        new (&groupSlots(shm)[i]) WorkerSlot;
    for (int i = 0; i < workers * helpers; ++i)
        new (&groupHelpers(shm, header->workers)[i]) std::atomic<int32_t>(0);
    return std::make_shared<GroupMemory>(shm, size);
}

// Why a leader whose verdict `said` (awaitVerdict(), 0 or more) was not
// "started" failed. A leader that ended without a verdict is reaped first:
// its exit status says why.
std::string startFailure(int said, pid_t leader, const GroupHeader &header,
                         const std::string &label)
{
    if (said == kVerdictRefused) // the leader wrote its reason before its verdict
        return header.hasError() ? std::string(header.error)
                                 : fmt::format("{} failed to start", label);
    if (said > 0)
        return fmt::format("{} failed to start (the leader answered '{}')", label,
                           static_cast<char>(said));
    int status = 0;
    while (waitpid(leader, &status, 0) < 0 && errno == EINTR) {
    }
    return header.hasError()
               ? std::string(header.error)
               : fmt::format("{} failed to start (leader exit status {})", label, status);
}

} // namespace

struct LoadManager::Group
{
    int id = 0;
    LoadSpec spec;
    pid_t leader = 0;
    int64_t startedAt = 0;
    // Shared with the sampler, which may still be reading it after a stop.
    std::shared_ptr<GroupMemory> memory;
    std::string tempDir;
    bool stopped = false;

    GroupHeader &header() const { return memory->header(); }
    WorkerSlot *slots() const { return memory->workerSlots(); }
    GroupView view() const { return {id, spec, leader, startedAt, memory}; }

    ~Group() { removeTree(tempDir); }
};

LoadManager::LoadManager(LoadLimits limits, std::string workerBinary)
    : m_binary(workerBinary.empty() ? latprobeBinary() : workerBinary), m_limits(limits)
{
    // Orphaned workers (their leader killed first) are re-parented to us, so
    // we can reap them and know for sure that none is left.
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    removeStaleTempDirs();
}

LoadManager::~LoadManager()
{
    m_sampler.stop(); // it reads the groups through views()
    stopAll();
}

LoadLimits LoadManager::limits() const
{
    std::lock_guard lock(m_mutex);
    return m_limits;
}

void LoadManager::setLimits(const LoadLimits &limits)
{
    std::lock_guard lock(m_mutex);
    m_limits = limits;
}

int LoadManager::start(const LoadSpec &spec, std::string &error)
{
    const LoadKind *kind = spec.kind;
    if (!kind || !kind->body) {
        error = fmt::format("unknown load kind \"{}\"", spec.kindName());
        return -1;
    }
    if (kind->precheck) {
        error = kind->precheck(spec);
        if (!error.empty())
            return -1;
    }
    std::vector<LoadSpec> running;
    LoadLimits limits;
    {
        std::lock_guard lock(m_mutex);
        for (const auto &g : m_groups)
            running.push_back(g->spec);
        limits = m_limits;
    }
    error = checkLoadLimits(spec, limits, running);
    if (!error.empty())
        return -1;

    auto group = std::make_unique<Group>();
    group->spec = spec;
    bool ok = false;
    m_spawner.run([&] { ok = launch(*group, error); });
    if (!ok) {
        killGroup(*group);
        reapGroup(*group);
        return -1;
    }
    GroupView view;
    {
        std::lock_guard lock(m_mutex);
        group->id = m_nextId++;
        m_timeline.push_back({group->startedAt, group->id, spec.label(), true});
        view = group->view();
        m_groups.push_back(std::move(group));
    }
    m_sampler.added(view);
    return view.id;
}

bool LoadManager::launch(Group &g, std::string &error)
{
    const LoadKind &kind = *g.spec.kind;
    int fd = -1;
    const int helpers = kind.liveHelpers ? kind.liveHelpers(g.spec) : 0;
    g.memory = createGroupShm(g.spec.count, helpers, g.spec.label(), fd, error);
    if (!g.memory)
        return false;
    const GroupHeader &header = g.header();

    ChildSpec leader{.program = m_binary,
                     .argv = {"latprobe:" + kind.name, kLoadLeaderFlag, std::to_string(getpid()),
                              kind.needsTempDir ? kLoadLeaderMakesTempDir : "-", g.spec.toString(),
                              g.spec.cgroup.empty() ? "-" : g.spec.cgroup},
                     .group = g.spec.ownSession ? ChildSpec::Group::OwnSession
                                                : ChildSpec::Group::OwnGroup};

    // The leader's verdict on the start (loadleader.h), as one byte.
    int verdict[2];
    if (pipe2(verdict, O_CLOEXEC) != 0) {
        error = fmt::format("cannot start {}: pipe: {}", g.spec.label(), std::strerror(errno));
        close(fd);
        return false;
    }
    leader.fds = {{fd, kLoadShmFd}, {verdict[1], kLoadVerdictFd}};
    // Started from lp-spawner, whose end is the leader's PR_SET_PDEATHSIG.
    std::string spawnError;
    const pid_t pid = spawnChild(leader, spawnError);
    close(fd);
    close(verdict[1]);
    if (pid < 0) {
        error = fmt::format("cannot start {}: {} (the program for the workers)", g.spec.label(),
                            spawnError);
        close(verdict[0]);
        return false;
    }
    g.leader = pid;
    g.startedAt = RealClock::monotonicNow();

    // Wait for the verdict, not for time: on a saturated machine a leader
    // may take minutes to fork its workers, and it is waited for.
    const int said = awaitVerdict(verdict[0], pid, g.spec.label(), limits().leaderStallNs, error);
    close(verdict[0]);
    // The leader's temp dir is ours to remove too, once the group is reaped;
    // read only when the leader no longer writes it (said a verdict, or
    // died): an undecided leader's cleaner removes it.
    if (said == kVerdictStarted || said == kVerdictRefused)
        g.tempDir = header.tempDir;
    if (said == kVerdictStarted)
        return true;
    if (said >= 0) // else awaitVerdict() said why
        error = startFailure(said, pid, header, g.spec.label());
    if (said == 0)
        g.tempDir = header.tempDir; // reaped by startFailure()
    // g.leader stays: the caller still empties its process group.
    return false;
}

void LoadManager::killGroup(Group &g)
{
    if (g.leader > 0)
        kill(-g.leader, SIGKILL);
}

void LoadManager::reapGroup(Group &g)
{
    if (g.leader <= 0)
        return;
    const pid_t pgid = g.leader;
    // The leader is our child; its workers become ours (subreaper) once it
    // is gone. Keep killing until the group is empty: a worker caught in
    // fork() can still add a process.
    const int64_t deadline = RealClock::monotonicNow() + 5'000'000'000LL;
    for (;;) {
        while (waitpid(-pgid, nullptr, WNOHANG) > 0) {
        }
        if (!processGroupAlive(pgid))
            break;
        if (RealClock::monotonicNow() > deadline) {
            spdlog::error("{}: processes of group {} survive SIGKILL", g.spec.label(), pgid);
            break;
        }
        kill(-pgid, SIGKILL);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    g.leader = 0;
    removeTree(g.tempDir);
    g.tempDir.clear();
    // The leader's temp dir cleaner, ours once the leader is gone: it ends
    // as soon as the group has.
    if (const pid_t cleaner = g.memory ? g.header().cleanerPid.load() : 0; cleaner > 0)
        for (int i = 0; i < 5000 && waitpid(cleaner, nullptr, WNOHANG) == 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

bool LoadManager::stop(int id)
{
    std::unique_ptr<Group> group;
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_groups.begin(); it != m_groups.end(); ++it)
            if ((*it)->id == id) {
                group = std::move(*it);
                m_groups.erase(it);
                break;
            }
        if (!group)
            return false;
    }
    m_sampler.removed({id});
    killGroup(*group);
    reapGroup(*group);
    std::lock_guard lock(m_mutex);
    m_timeline.push_back({RealClock::monotonicNow(), id, group->spec.label(), false});
    return true;
}

void LoadManager::stopAll()
{
    std::vector<std::unique_ptr<Group>> groups;
    {
        std::lock_guard lock(m_mutex);
        groups.swap(m_groups);
    }
    std::vector<int> ids;
    for (const auto &g : groups)
        ids.push_back(g->id);
    m_sampler.removed(ids);
    for (auto &g : groups)
        killGroup(*g);
    for (auto &g : groups)
        reapGroup(*g);
    const int64_t now = RealClock::monotonicNow();
    std::lock_guard lock(m_mutex);
    for (auto &g : groups)
        m_timeline.push_back({now, g->id, g->spec.label(), false});
}

std::vector<GroupView> LoadManager::views() const
{
    std::lock_guard lock(m_mutex);
    std::vector<GroupView> out;
    out.reserve(m_groups.size());
    for (const auto &g : m_groups)
        out.push_back(g->view());
    return out;
}

std::vector<GroupStatus> LoadManager::status() const
{
    std::vector<GroupStatus> out;
    for (const GroupView &g : views())
        out.push_back(sampleGroup(g, RealClock::monotonicNow()));
    return out;
}

std::vector<LoadEvent> LoadManager::timeline() const
{
    std::lock_guard lock(m_mutex);
    return m_timeline;
}

std::vector<LoadSpec> LoadManager::specs() const
{
    std::lock_guard lock(m_mutex);
    std::vector<LoadSpec> out;
    for (const auto &g : m_groups)
        out.push_back(g->spec);
    return out;
}

std::map<int, std::string> LoadManager::processLabels() const
{
    std::lock_guard lock(m_mutex);
    std::map<int, std::string> out;
    for (const auto &g : m_groups) {
        const std::string label = g->spec.label();
        out[g->leader] = label;
        for (int i = 0; i < g->spec.count; ++i)
            if (const pid_t pid = g->slots()[i].pid.load(std::memory_order_relaxed); pid > 0)
                out[pid] = label;
    }
    return out;
}

std::vector<std::string> LoadManager::activeLabels() const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> labels;
    for (const auto &g : m_groups)
        labels.push_back(g->spec.label());
    return labels;
}

int LoadManager::runningProcesses() const
{
    std::lock_guard lock(m_mutex);
    int n = 0;
    for (const auto &g : m_groups)
        n += processesFor(g->spec);
    return n;
}

} // namespace latprobe
