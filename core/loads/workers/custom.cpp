// contest's "real loads": a command the user typed, N copies. The worker
// execs it (no shell), so the worker *is* the command; its death signal
// (PR_SET_PDEATHSIG, set by the leader) survives the exec.
#include "workerkinds.h"

#include "../loadspec.h"
#include "workerutil.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace latprobe {

std::string precheckCustom(const LoadSpec &spec)
{
    if (spec.command.empty())
        return "custom: no command: write custom:N:cmd=PROGRAM ARGS";
    const std::string &program = spec.command[0];
    if (!findExecutable(program).empty())
        return {};
    if (program.find('/') != std::string::npos) {
        struct stat st;
        const int err = stat(program.c_str(), &st) != 0 ? errno
                        : S_ISDIR(st.st_mode)           ? EISDIR
                                                        : EACCES;
        return fmt::format("custom: cannot run {}: {} (give the path of an executable program)",
                           program, std::strerror(err));
    }
    return fmt::format("custom: cannot find {} in PATH: install it or give its full path", program);
}

int runCustom(WorkerContext &ctx)
{
    const std::vector<std::string> &command = ctx.spec.command;
    if (command.empty()) {
        reportWorkerError(ctx, "custom: no command: write custom:N:cmd=PROGRAM ARGS");
        return 2;
    }
    std::vector<char *> argv;
    argv.reserve(command.size() + 1);
    for (const std::string &w : command)
        argv.push_back(const_cast<char *>(w.c_str()));
    argv.push_back(nullptr);
    // Its output would land in latprobe's report; its errors stay visible.
    if (const int null = open("/dev/null", O_RDWR); null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
    execvp(argv[0], argv.data());
    reportWorkerError(ctx,
                      fmt::format("custom: cannot run {}: {}", command[0], std::strerror(errno)));
    return 127;
}

} // namespace latprobe
