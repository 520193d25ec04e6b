// contest's read_load: read a file of `mb` MiB sequentially, forever, with
// its pages dropped from the page cache before each pass so that every
// pass goes to the disk. The file has no name (O_TMPFILE).
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

int runIoRead(WorkerContext &ctx)
{
    const uint64_t fileBytes = static_cast<uint64_t>(loadParam(ctx.spec, "mb")) << 20;
    const size_t block = static_cast<size_t>(loadParam(ctx.spec, "block_kb")) << 10;
    const std::string &dir = ctx.tempDir;
    auto fail = [&](const char *what, int err) {
        reportWorkerError(ctx, fmt::format("io_read: {} in {} failed: {} ({})", what, dir,
                                           std::strerror(err),
                                           err == ENOSPC || err == EDQUOT
                                               ? "free space there, lower mb=, or set TMPDIR "
                                                 "elsewhere"
                                               : "check it, or set TMPDIR elsewhere"));
        return 1;
    };
    const int fd = openAnonymousFile(dir);
    if (fd < 0)
        return fail("creating a file", errno);

    std::vector<unsigned char> buf(block);
    fillRandom(buf, static_cast<uint64_t>(getpid()));
    for (uint64_t offset = 0, n = 0; offset < fileBytes; ++n) {
        std::memcpy(buf.data(), &n, sizeof n);
        const size_t len = static_cast<size_t>(std::min<uint64_t>(block, fileBytes - offset));
        const ssize_t done = pwrite(fd, buf.data(), len, static_cast<off_t>(offset));
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return fail("writing the file to read", done < 0 ? errno : ENOSPC);
        offset += static_cast<uint64_t>(done);
    }
    // Clean pages can be dropped; dirty ones cannot.
    if (fdatasync(fd) != 0)
        return fail("fdatasync", errno);

    uint64_t pending = 0;
    for (;;) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        for (uint64_t offset = 0; offset < fileBytes;) {
            const ssize_t got = pread(fd, buf.data(), buf.size(), static_cast<off_t>(offset));
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                return fail("reading", errno);
            if (got == 0)
                break;
            offset += static_cast<uint64_t>(got);
            pending += static_cast<uint64_t>(got);
            if (pending >= 1048576) {
                addProgress(ctx.slot, pending >> 20);
                pending &= 1048575;
            }
        }
    }
}

} // namespace latprobe
