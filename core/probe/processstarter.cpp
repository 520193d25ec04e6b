#include "processstarter.h"

#include "realclock.h"

#include <cerrno>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {
constexpr int kReportFd = 3;
}

SelfStarter::SelfStarter(std::string binary) : m_binary(std::move(binary)) {}

bool SelfStarter::start(int64_t &firstInstruction, int64_t &exited)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], kReportFd);
    char *const argv[] = {const_cast<char *>("latprobe:start"), const_cast<char *>(kStartProbeFlag),
                          nullptr};
    char *const envp[] = {nullptr};
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, m_binary.c_str(), &actions, nullptr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return false;
    }
    int64_t stamp = 0;
    ssize_t n;
    while ((n = read(fds[0], &stamp, sizeof stamp)) < 0 && errno == EINTR) {
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    exited = RealClock::monotonicNow();
    if (n != sizeof stamp || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return false;
    firstInstruction = stamp;
    return true;
}

int runStartProbe()
{
    const int64_t now = RealClock::monotonicNow();
    return write(kReportFd, &now, sizeof now) == sizeof now ? 0 : 1;
}

} // namespace latprobe
