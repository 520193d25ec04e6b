#include "childprocess.h"

#include "programsearch.h"
#include "spawnchild.h"
#include "wordsplit.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace latprobe {

pid_t spawnLogged(const std::vector<std::string> &argv, const std::string &logPath,
                  bool dieWithParent, std::string &error)
{
    const int logFd = open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (logFd < 0) {
        error = fmt::format("cannot open the log {}: {}", logPath, std::strerror(errno));
        return -1;
    }
    const int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    const pid_t pid = spawnChild({.program = argv.front(),
                                  .argv = argv,
                                  .fds = {{null, 0}, {logFd, 1}, {logFd, 2}},
                                  .deathSignal = dieWithParent ? SIGTERM : 0},
                                 error);
    close(null);
    close(logFd);
    return pid;
}

bool waitForChild(pid_t pid, int timeoutMs, int &status)
{
    for (int waited = 0;; waited += 5) {
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return r == pid;
        if (waited >= timeoutMs)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string describeExit(int status)
{
    if (WIFEXITED(status))
        return fmt::format("exit status {}", WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const char *name = sigabbrev_np(WTERMSIG(status));
        return name ? fmt::format("killed by SIG{}", name)
                    : fmt::format("killed by signal {}", WTERMSIG(status));
    }
    return fmt::format("status {}", status);
}

std::string lastLogLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos)
            last = line;
    return last.size() > 200 ? last.substr(0, 200) + "..." : last;
}

CommandOutcome runCommandLine(const std::string &commandLine, const std::string &searchPath,
                              const std::string &logPath, int timeoutMs)
{
    std::vector<std::string> argv;
    std::string error;
    if (!splitWords(commandLine, argv, error) || argv.empty())
        return {false, fmt::format("cannot split \"{}\": {}", commandLine, error)};
    const std::string program = findExecutable(argv.front(), searchPath);
    if (program.empty())
        return {false, fmt::format("cannot find {} in PATH", argv.front())};
    argv.front() = program;
    const pid_t pid = spawnLogged(argv, logPath, false, error);
    if (pid < 0)
        return {false, error};
    int status = 0;
    if (!waitForChild(pid, timeoutMs, status)) {
        kill(pid, SIGKILL);
        waitForChild(pid, 5000, status);
        return {false, fmt::format("still running after {} s, killed", timeoutMs / 1000)};
    }
    CommandOutcome outcome{WIFEXITED(status) && WEXITSTATUS(status) == 0, describeExit(status)};
    if (const std::string last = lastLogLine(logPath); !outcome.ok && !last.empty())
        outcome.summary += ": " + last;
    return outcome;
}

uint64_t processStartTime(pid_t pid, const std::string &procRoot)
{
    char buf[1024];
    const std::string path = fmt::format("{}/{}/stat", procRoot, pid);
    FILE *f = std::fopen(path.c_str(), "re");
    if (!f)
        return 0;
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // pid (comm) state, then 18 fields to starttime; comm may hold ')'.
    const char *close = std::strrchr(buf, ')');
    char state = 0;
    unsigned long long start = 0;
    if (!close || std::sscanf(close + 1,
                              " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
                              "%*d %*d %*d %llu",
                              &state, &start) != 2)
        return 0;
    return state == 'Z' || state == 'X' ? 0 : start;
}

bool processGone(pid_t pid, uint64_t startTime, const std::string &procRoot)
{
    if (pid <= 0)
        return true;
    int status = 0;
    waitpid(pid, &status, WNOHANG); // reaps it if it is a child that ended
    const uint64_t now = processStartTime(pid, procRoot);
    return now == 0 || (startTime != 0 && now != startTime);
}

} // namespace latprobe
