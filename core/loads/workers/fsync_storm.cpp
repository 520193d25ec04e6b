// The "fsync storm" of Firefox 3 on ext4: a program that saves small files
// the safe way, write, fsync, rename over the old one, makes every save wait
// for the journal, and a desktop that touches the disk freezes with it. Each
// worker saves `kb` KiB so, `rate` times a second (0: as fast as it can), in
// the group's temp dir, renaming over its own file (rename=1, as editors and
// browsers save) or unlinking it (rename=0). Counts the files saved.
#include "workerkinds.h"

#include "../loadspec.h"
#include "workerutil.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <vector>

namespace latprobe {

namespace {

int stormFailure(WorkerContext &ctx, const char *doing, int err)
{
    const std::string advice =
        err == ENOSPC || err == EDQUOT
            ? fmt::format("free space in {}, lower kb= or the count, or set TMPDIR elsewhere",
                          ctx.tempDir)
            : fmt::format("check {}, or set TMPDIR elsewhere", ctx.tempDir);
    reportWorkerError(ctx, fmt::format("fsync_storm: {} a file in {} failed: {} ({})", doing,
                                       ctx.tempDir, std::strerror(err), advice));
    return 1;
}

// Writes all of `buf` to `fd`; 0, or errno.
int writeAll(int fd, const std::vector<unsigned char> &buf)
{
    for (size_t done = 0; done < buf.size();) {
        const ssize_t n = write(fd, buf.data() + done, buf.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : ENOSPC;
        done += static_cast<size_t>(n);
    }
    return 0;
}

} // namespace

int runFsyncStorm(WorkerContext &ctx)
{
    std::vector<unsigned char> buf(static_cast<size_t>(loadParam(ctx.spec, "kb")) << 10);
    fillRandom(buf, static_cast<uint64_t>(getpid()));
    const bool renameOver = loadParam(ctx.spec, "rename") != 0;
    // The worker's own names: the group's workers share its temp dir, which
    // goes with the group, whatever kills the worker mid-save.
    const std::string saved = fmt::format("{}/save-{}", ctx.tempDir, ctx.index);
    const std::string fresh = saved + ".new";
    Pacer pacer(loadParam(ctx.spec, "rate"));
    for (uint64_t n = 0;; ++n) {
        pacer.wait();
        // A different first word per save: no two saves alike.
        std::memcpy(buf.data(), &n, std::min(sizeof n, buf.size()));
        const int fd = open(fresh.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            return stormFailure(ctx, "creating", errno);
        int err = writeAll(fd, buf);
        const char *doing = "writing";
        if (err == 0 && fsync(fd) != 0) {
            err = errno;
            doing = "fsync of";
        }
        close(fd);
        if (err != 0)
            return stormFailure(ctx, doing, err);
        if (renameOver ? rename(fresh.c_str(), saved.c_str()) : unlink(fresh.c_str()))
            return stormFailure(ctx, renameOver ? "renaming" : "removing", errno);
        addProgress(ctx.slot, 1);
    }
}

} // namespace latprobe
