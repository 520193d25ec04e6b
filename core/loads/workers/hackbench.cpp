// hackbench -p -g 1 per worker: `fds` senders write `size`-byte messages
// round-robin to `fds` receivers over pipes (or socketpairs), forever; the
// receivers count the messages into the worker's slot.
#include "workerkinds.h"

#include "../loadspec.h"
#include "workerutil.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace latprobe {

namespace {

[[noreturn]] void receiverMain(WorkerSlot &slot, int fd, size_t size)
{
    // Bounded: a read takes what is there, up to 64 KiB, and only whole
    // messages are counted.
    std::vector<char> buf(std::max<size_t>(size, 65536));
    uint64_t bytes = 0, counted = 0;
    for (;;) {
        const ssize_t n = read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(1); // every sender is gone: the worker reports it
        bytes += static_cast<uint64_t>(n);
        if (const uint64_t messages = bytes / size; messages > counted) {
            addSharedProgress(slot, messages - counted);
            counted = messages;
        }
    }
}

[[noreturn]] void senderMain(const std::vector<int> &outs, size_t size, int index)
{
    std::vector<char> msg(size, static_cast<char>('a' + index % 26));
    for (;;)
        for (int fd : outs) {
            size_t done = 0;
            while (done < size) {
                const ssize_t n = write(fd, msg.data() + done, size - done);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    _exit(1); // a receiver is gone
                done += static_cast<size_t>(n);
            }
        }
}

void closeAll(const std::vector<int> &fds)
{
    for (int fd : fds)
        close(fd);
}

void killChildren(const std::vector<pid_t> &children)
{
    for (pid_t pid : children)
        kill(pid, SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
}

// One channel per receiver into `in` and `out`; every sender writes to all
// of them. False when one cannot be made, reported.
bool openChannels(WorkerContext &ctx, int fds, bool sockets, std::vector<int> &in,
                  std::vector<int> &out)
{
    in.assign(fds, -1);
    out.assign(fds, -1);
    for (int i = 0; i < fds; ++i) {
        int p[2];
        const int rc =
            sockets ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) : pipe2(p, O_CLOEXEC);
        if (rc != 0) {
            reportWorkerError(ctx, fmt::format("hackbench: cannot create {} {} of {}: {} (lower "
                                               "fds= or raise ulimit -n)",
                                               sockets ? "socketpair" : "pipe", i + 1, fds,
                                               std::strerror(errno)));
            return false;
        }
        in[i] = p[0];
        out[i] = p[1];
    }
    return true;
}

// Child `i` of the worker: receivers first, then senders, each keeping only
// its own ends.
[[noreturn]] void childMain(WorkerContext &ctx, pid_t worker, int i, const std::vector<int> &in,
                            const std::vector<int> &out, size_t size)
{
    const int fds = static_cast<int>(in.size());
    if (!armWorkerChild(worker))
        _exit(1);
    if (i < fds) {
        closeAll(out);
        for (int j = 0; j < fds; ++j)
            if (j != i)
                close(in[j]);
        receiverMain(ctx.slot, in[i], size);
    }
    closeAll(in);
    senderMain(out, size, i - fds);
}

// Senders and receivers run until killed; one ending is an error.
int watchChildren(WorkerContext &ctx, const std::vector<pid_t> &children, int fds)
{
    for (;;) {
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0 && errno == EINTR)
            continue;
        const auto it = std::find(children.begin(), children.end(), pid);
        const bool receiver = it != children.end() && it - children.begin() < fds;
        killChildren(children);
        reportWorkerError(ctx, fmt::format("hackbench: a {} ended unexpectedly ({}): start the "
                                           "load again",
                                           receiver ? "receiver" : "sender",
                                           WIFSIGNALED(status)
                                               ? fmt::format("signal {}", WTERMSIG(status))
                                               : fmt::format("exit {}", WEXITSTATUS(status))));
        return 1;
    }
}

} // namespace

int hackbenchHelpers(const LoadSpec &spec)
{
    return 2 * static_cast<int>(loadParam(spec, "fds"));
}

int hackbenchProcesses(const LoadSpec &spec)
{
    return 1 + hackbenchHelpers(spec);
}

int runHackbench(WorkerContext &ctx)
{
    const int fds = static_cast<int>(loadParam(ctx.spec, "fds"));
    const size_t size = static_cast<size_t>(loadParam(ctx.spec, "size"));
    const bool sockets = loadParam(ctx.spec, "sockets") != 0;
    const pid_t self = getpid();

    std::vector<int> in, out;
    if (!openChannels(ctx, fds, sockets, in, out))
        return 1;
    std::vector<pid_t> children;
    for (int i = 0; i < 2 * fds; ++i) {
        const bool receiver = i < fds;
        const pid_t pid = fork();
        if (pid == 0)
            childMain(ctx, self, i, in, out, size);
        if (pid < 0) {
            const int err = errno;
            closeAll(in);
            closeAll(out);
            killChildren(children);
            reportWorkerError(ctx,
                              fmt::format("hackbench: cannot start {} {} of {}: {} (raise "
                                          "ulimit -u, or lower fds= or the count)",
                                          receiver ? "receiver" : "sender",
                                          (receiver ? i : i - fds) + 1, fds, std::strerror(err)));
            return 1;
        }
        children.push_back(pid);
        // Their CPU time is this worker's (LoadKind::liveHelpers).
        if (i < ctx.helperCount)
            ctx.helpers[i].store(pid, std::memory_order_relaxed);
    }
    closeAll(in);
    closeAll(out);
    return watchChildren(ctx, children, fds);
}

} // namespace latprobe
