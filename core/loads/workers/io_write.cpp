// contest's io_load: stream writes into a file of `mb` MiB, fsync every
// `sync_mb` and at the end, rewind, forever; with sync_end=0, sync_mb=0 and
// truncate=1, interbench's Write, which never syncs, leaves writeback to the
// kernel and reopens its file emptied for each pass; close_flush=1 adds the
// writeback its close starts. The file has no name (O_TMPFILE), so nothing
// is left on disk whatever kills the worker.
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

std::string ioAdvice(int err, const std::string &dir)
{
    if (err == ENOSPC || err == EDQUOT)
        return fmt::format("free space in {}, lower mb=, or set TMPDIR elsewhere", dir);
    return fmt::format("check {}, or set TMPDIR elsewhere", dir);
}

// One line: what failed where, the kernel's reason and what to do; the
// worker's exit code.
int ioFailure(WorkerContext &ctx, const char *doing, int err)
{
    reportWorkerError(ctx, fmt::format("io_write: {} {} failed: {} ({})", doing, ctx.tempDir,
                                       std::strerror(err), ioAdvice(err, ctx.tempDir)));
    return 1;
}

template <class Call> int retryOnEintr(Call call)
{
    int rc = 0;
    while ((rc = call()) != 0 && errno == EINTR) {
    }
    return rc;
}

} // namespace

int runIoWrite(WorkerContext &ctx)
{
    const uint64_t fileBytes = static_cast<uint64_t>(loadParam(ctx.spec, "mb")) << 20;
    const uint64_t syncBytes = static_cast<uint64_t>(loadParam(ctx.spec, "sync_mb") * 1048576);
    const size_t block = static_cast<size_t>(loadParam(ctx.spec, "block_kb")) << 10;
    const bool syncAtEnd = loadParam(ctx.spec, "sync_end") != 0;
    const bool truncateEachPass = loadParam(ctx.spec, "truncate") != 0;
    const bool closeFlush = loadParam(ctx.spec, "close_flush") != 0;
    const int fd = openAnonymousFile(ctx.tempDir);
    if (fd < 0) {
        const int err = errno;
        reportWorkerError(ctx,
                          fmt::format("io_write: cannot create a file in {}: {} ({})", ctx.tempDir,
                                      std::strerror(err), ioAdvice(err, ctx.tempDir)));
        return 1;
    }
    std::vector<unsigned char> buf(block);
    fillRandom(buf, static_cast<uint64_t>(getpid()));

    uint64_t offset = 0, sinceSync = 0, pending = 0; // pending: bytes not yet counted
    for (uint64_t n = 0;; ++n) {
        // A different first word per block: no two blocks alike.
        std::memcpy(buf.data(), &n, sizeof n);
        const size_t len = static_cast<size_t>(std::min<uint64_t>(block, fileBytes - offset));
        const ssize_t done = pwrite(fd, buf.data(), len, static_cast<off_t>(offset));
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return ioFailure(ctx, "writing to", done < 0 ? errno : ENOSPC);
        offset += static_cast<uint64_t>(done);
        sinceSync += static_cast<uint64_t>(done);
        pending += static_cast<uint64_t>(done);
        const bool atEnd = offset >= fileBytes;
        if ((syncBytes > 0 && sinceSync >= syncBytes) || (atEnd && syncAtEnd)) {
            if (fsync(fd) != 0)
                return ioFailure(ctx, "fsync in", errno);
            sinceSync = 0;
        }
        if (pending >= 1048576) {
            addProgress(ctx.slot, pending >> 20);
            pending &= 1048575;
        }
        if (atEnd) {
            // interbench's fclose() of a file its fopen("w") emptied: ext4's
            // auto_da_alloc (and xfs, btrfs) allocate and submit the whole
            // pass in the closer's context, and the next emptying waits for
            // that I/O. Without it the pass is dropped unwritten.
            if (closeFlush &&
                retryOnEintr([fd] { return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE); }))
                return ioFailure(ctx, "writing back the file in", errno);
            offset = 0; // rewind: the file never grows past mb
            if (truncateEachPass && retryOnEintr([fd] { return ftruncate(fd, 0); }))
                return ioFailure(ctx, "emptying the file in", errno);
        }
    }
}

} // namespace latprobe
