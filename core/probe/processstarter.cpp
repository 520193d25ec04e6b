#include "processstarter.h"

#include "realclock.h"
#include "spawnchild.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace latprobe {

namespace {
constexpr int kReportFd = 3;
}

SelfStarter::SelfStarter(std::string binary)
    : m_child{.program = std::move(binary),
              .argv = {"latprobe:start", kStartProbeFlag},
              .inheritEnvironment = false}
{}

bool SelfStarter::start(int64_t &firstInstruction, int64_t &exited)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return false;
    m_child.fds = {{fds[1], kReportFd}};
    std::string error;
    const pid_t pid = spawnChild(m_child, error);
    close(fds[1]);
    if (pid < 0) {
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
