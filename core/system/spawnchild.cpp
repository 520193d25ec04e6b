#include "spawnchild.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace latprobe {

namespace {

constexpr int kDefaultSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

std::vector<char *> pointers(const std::vector<std::string> &strings)
{
    std::vector<char *> out;
    out.reserve(strings.size() + 1);
    for (const std::string &s : strings)
        out.push_back(const_cast<char *>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

// What the child is handed, built before it starts: between fork and exec
// only async-signal-safe calls are allowed in a threaded process.
struct Prepared
{
    std::vector<char *> argv, env;
    // {a duplicate above every target, its target}: no dup2 onto a target
    // can close a source still to be moved.
    std::vector<std::pair<int, int>> moves;
    int firstClosed = 3; // descriptors from here on are not the child's

    ~Prepared()
    {
        for (const auto &[from, to] : moves)
            if (from >= 0)
                close(from);
    }
};

bool prepare(const ChildSpec &spec, Prepared &p, std::string &error)
{
    p.argv = pointers(spec.argv);
    if (!spec.inheritEnvironment)
        p.env = pointers(spec.environment);
    for (const auto &[from, to] : spec.fds)
        p.firstClosed = std::max(p.firstClosed, to + 1);
    for (const auto &[from, to] : spec.fds) {
        const int above = fcntl(from, F_DUPFD_CLOEXEC, p.firstClosed);
        p.moves.emplace_back(above, to);
        if (above < 0) {
            error = fmt::format("cannot run {}: descriptor {}: {}", spec.program, from,
                                std::strerror(errno));
            return false;
        }
    }
    return true;
}

char *const *environmentOf(const ChildSpec &spec, const Prepared &p)
{
    return spec.inheritEnvironment ? environ : p.env.data();
}

pid_t spawnWithPosixSpawn(const ChildSpec &spec, const Prepared &p, int &err)
{
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    for (const auto &[from, to] : p.moves)
        posix_spawn_file_actions_adddup2(&files, from, to);
    posix_spawn_file_actions_addclosefrom_np(&files, p.firstClosed);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : kDefaultSignals)
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    if (spec.group == ChildSpec::Group::OwnSession)
        flags |= POSIX_SPAWN_SETSID;
    else if (spec.group == ChildSpec::Group::OwnGroup) {
        flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&attr, 0);
    }
    posix_spawnattr_setflags(&attr, flags);
    pid_t pid = -1;
    err = posix_spawn(&pid, spec.program.c_str(), &files, &attr, p.argv.data(),
                      environmentOf(spec, p));
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&files);
    return err == 0 ? pid : -1;
}

// In the forked child: only async-signal-safe calls. An exec that fails
// writes its errno to `report`.
[[noreturn]] void execForked(const ChildSpec &spec, const Prepared &p, pid_t parent, int report)
{
    if (spec.group == ChildSpec::Group::OwnSession)
        setsid();
    else if (spec.group == ChildSpec::Group::OwnGroup)
        setpgid(0, 0);
    int err = 0;
    if (prctl(PR_SET_PDEATHSIG, spec.deathSignal) != 0 || getppid() != parent)
        err = ESRCH; // the parent is gone already
    for (const auto &[from, to] : p.moves)
        if (err == 0 && dup2(from, to) < 0)
            err = errno;
    // Close-on-exec rather than closed: `report` must live until the exec.
    close_range(static_cast<unsigned>(p.firstClosed), ~0U, CLOSE_RANGE_CLOEXEC);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : kDefaultSignals)
        signal(sig, SIG_DFL);
    if (err == 0) {
        execve(spec.program.c_str(), p.argv.data(), environmentOf(spec, p));
        err = errno;
    }
    [[maybe_unused]] const ssize_t n = write(report, &err, sizeof err);
    _exit(127);
}

pid_t spawnWithFork(const ChildSpec &spec, const Prepared &p, int &err)
{
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        err = errno;
        return -1;
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0)
        execForked(spec, p, parent, report[1]);
    err = pid < 0 ? errno : 0;
    close(report[1]);
    // End of file: the exec closed the pipe, the program runs.
    if (pid > 0)
        while (read(report[0], &err, sizeof err) < 0 && errno == EINTR) {
        }
    close(report[0]);
    if (pid > 0 && err != 0) {
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        return -1;
    }
    return pid;
}

} // namespace

pid_t spawnChild(const ChildSpec &spec, std::string &error)
{
    Prepared p;
    if (!prepare(spec, p, error))
        return -1;
    int err = 0;
    const pid_t pid =
        spec.deathSignal ? spawnWithFork(spec, p, err) : spawnWithPosixSpawn(spec, p, err);
    if (pid < 0)
        error = fmt::format("cannot run {}: {}", spec.program, std::strerror(err));
    return pid;
}

} // namespace latprobe
