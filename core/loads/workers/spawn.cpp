// "Starting loads of applications": a storm of short-lived processes, each
// a fork+exec of /bin/true, at `rate` per second per worker. Counts the
// processes launched.
#include "workerkinds.h"

#include "../loadspec.h"
#include "workerutil.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace latprobe {

namespace {

std::string trueProgram()
{
    for (const char *path : {"/bin/true", "/usr/bin/true"})
        if (access(path, X_OK) == 0)
            return path;
    return findExecutable("true");
}

} // namespace

std::string precheckSpawn(const LoadSpec &)
{
    return trueProgram().empty()
               ? "spawn: no true program found (/bin/true, /usr/bin/true, PATH): install coreutils"
               : std::string();
}

int runSpawn(WorkerContext &ctx)
{
    const std::string program = trueProgram();
    if (program.empty()) {
        reportWorkerError(ctx, precheckSpawn(ctx.spec));
        return 1;
    }
    char *const argv[] = {const_cast<char *>(program.c_str()), nullptr};
    Pacer pacer(loadParam(ctx.spec, "rate"));
    // At most this many children in flight: a stalled machine must not
    // pile up thousands of them.
    constexpr int kMaxInFlight = 256;
    int inFlight = 0, refusedInARow = 0;
    for (;;) {
        while (inFlight > 0 && waitpid(-1, nullptr, WNOHANG) > 0)
            --inFlight;
        if (inFlight >= kMaxInFlight) {
            if (waitpid(-1, nullptr, 0) > 0)
                --inFlight;
            continue;
        }
        pacer.wait();

        pid_t pid = 0;
        // posix_spawn: vfork+exec in glibc, the cheap way to start a process.
        const int rc = posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv, environ);
        if (rc == 0) {
            ++inFlight;
            refusedInARow = 0;
            addProgress(ctx.slot, 1);
            continue;
        }
        if (rc == EAGAIN && ++refusedInARow < 1000) {
            sleepFor(1000000); // the process limit, for now: wait and retry
            continue;
        }
        reportWorkerError(ctx, fmt::format("spawn: cannot start {}: {} (raise ulimit -u, or "
                                           "lower rate= or the count)",
                                           program, std::strerror(rc)));
        return 1;
    }
}

} // namespace latprobe
