// contest's read_load: read a file of `mb` MiB sequentially, forever, with
// its pages dropped from the page cache before each pass so that every
// pass goes to the disk; or, with drop=0, interbench's Read: the same file
// read again and again from wherever the kernel keeps it (RAM, where it fits).
// The group's leader writes and syncs the files before the workers start
// (interbench, too, makes its file before it measures): a step's numbers
// do not count gigabytes being written.
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

std::string readFilePath(const std::string &tempDir, int worker)
{
    return fmt::format("{}/read-{}", tempDir, worker);
}

std::string ioReadAdvice(int err)
{
    return err == ENOSPC || err == EDQUOT ? "free space there, lower mb=, or set TMPDIR elsewhere"
                                          : "check it, or set TMPDIR elsewhere";
}

std::string writeReadFile(const std::string &path, uint64_t fileBytes, size_t block, int worker)
{
    auto fail = [&](const char *what, int err) {
        return fmt::format("io_read: {} {} failed: {} ({})", what, path, std::strerror(err),
                           ioReadAdvice(err));
    };
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return fail("creating", errno);
    std::vector<unsigned char> buf(block);
    fillRandom(buf, static_cast<uint64_t>(worker) + 1);
    for (uint64_t offset = 0, n = 0; offset < fileBytes; ++n) {
        std::memcpy(buf.data(), &n, sizeof n);
        const size_t len = static_cast<size_t>(std::min<uint64_t>(block, fileBytes - offset));
        const ssize_t done = pwrite(fd, buf.data(), len, static_cast<off_t>(offset));
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0) {
            const int err = done < 0 ? errno : ENOSPC;
            close(fd);
            return fail("writing", err);
        }
        offset += static_cast<uint64_t>(done);
    }
    // On the disk before the step begins: no writeback of it during the
    // step, and clean pages that drop= can evict.
    const int synced = fdatasync(fd);
    const int err = errno;
    close(fd);
    return synced == 0 ? std::string() : fail("syncing", err);
}

} // namespace

std::string prepareIoRead(const LoadSpec &spec, const std::string &tempDir)
{
    if (tempDir.empty())
        return "io_read: no temp dir for the file to read";
    const uint64_t fileBytes = static_cast<uint64_t>(loadParam(spec, "mb")) << 20;
    const size_t block = static_cast<size_t>(loadParam(spec, "block_kb")) << 10;
    for (int i = 0; i < spec.count; ++i)
        if (std::string error = writeReadFile(readFilePath(tempDir, i), fileBytes, block, i);
            !error.empty())
            return error;
    return {};
}

int runIoRead(WorkerContext &ctx)
{
    const size_t block = static_cast<size_t>(loadParam(ctx.spec, "block_kb")) << 10;
    const bool drop = loadParam(ctx.spec, "drop") != 0;
    const std::string path = readFilePath(ctx.tempDir, ctx.index);
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        reportWorkerError(ctx, fmt::format("io_read: opening {} failed: {} ({})", path,
                                           std::strerror(err), ioReadAdvice(err)));
        return 1;
    }
    std::vector<unsigned char> buf(block);
    uint64_t pending = 0;
    for (;;) {
        if (drop)
            posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        for (off_t offset = 0;;) {
            const ssize_t got = pread(fd, buf.data(), buf.size(), offset);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                const int err = errno;
                reportWorkerError(ctx, fmt::format("io_read: reading {} failed: {} ({})", path,
                                                   std::strerror(err), ioReadAdvice(err)));
                return 1;
            }
            if (got == 0)
                break;
            offset += got;
            pending += static_cast<uint64_t>(got);
            if (pending >= 1048576) {
                addProgress(ctx.slot, pending >> 20);
                pending &= 1048575;
            }
        }
    }
}

} // namespace latprobe
