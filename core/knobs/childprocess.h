#pragma once

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

// The programs the guardian runs for a variant (a sched_ext scheduler,
// cmd= and undo=): no shell, stdin from /dev/null, stdout and stderr
// appended to a log whose last line explains a failure.

// Starts `argv` (argv[0] a path) in a child. With `dieWithParent` the child
// gets SIGTERM when the calling process dies (PR_SET_PDEATHSIG: the caller
// must be single-threaded, as the guardian is). -1 with `error`, also
// when argv[0] cannot be run.
pid_t spawnLogged(const std::vector<std::string> &argv, const std::string &logPath,
                  bool dieWithParent, std::string &error);

// Waits for child `pid` to end, at most `timeoutMs`; false on time out.
bool waitForChild(pid_t pid, int timeoutMs, int &status);
// "exit status 1", "killed by SIGKILL".
std::string describeExit(int status);
// The last non-empty line of `path`, cut to 200 characters, or "".
std::string lastLogLine(const std::string &path);

// A command line run to its end (argv split as a shell quotes, no shell;
// the program looked up in `searchPath`), killed after `timeoutMs`.
struct CommandOutcome
{
    bool ok = false;     // ran and exited 0
    std::string summary; // "exit status 0", or why it failed, with its last line
};
CommandOutcome runCommandLine(const std::string &commandLine, const std::string &searchPath,
                              const std::string &logPath, int timeoutMs);

// A process's start time (/proc/<pid>/stat, field 22), 0 when it is gone:
// with the pid it names one process even after the pid is reused.
uint64_t processStartTime(pid_t pid, const std::string &procRoot = "/proc");
// Whether that process is gone: reaped if it is a child of the caller, a
// zombie, or another process now has its pid.
bool processGone(pid_t pid, uint64_t startTime, const std::string &procRoot = "/proc");

} // namespace latprobe
