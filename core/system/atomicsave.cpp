#include "atomicsave.h"

#include "tempdir.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

// A save's temp files: "<name>.latprobe-<pid>-XXXXXX" beside the file.
std::string saveTempPrefix(const std::string &name)
{
    return name + ".latprobe-";
}

std::string dirOf(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string nameOf(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

int removeStaleSaveTemps(const std::string &path)
{
    return removeOrphanedTemps(
        dirOf(path), saveTempPrefix(nameOf(path)),
        [](int dirFd, const char *name) { return unlinkat(dirFd, name, 0) == 0; });
}

bool saveFileAtomically(const std::string &path, const std::string &text, std::string &error)
{
    return saveFileAtomically(
        path, [&text](const TextWriter &write) { write(text); }, error);
}

bool saveFileAtomically(const std::string &path,
                        const std::function<void(const TextWriter &)> &produce, std::string &error)
{
    removeStaleSaveTemps(path);
    std::string tmp = ownedTempTemplate(saveTempPrefix(path));
    const int fd = mkstemp(tmp.data());
    if (fd < 0) {
        error = fmt::format("{}: cannot create a file beside it ({}): check the directory "
                            "exists and is writable",
                            path, std::strerror(errno));
        return false;
    }
    int writeErrno = 0; // the first write's failure; later pieces are dropped
    const auto writeAll = [fd, &writeErrno](std::string_view text) {
        size_t written = 0;
        while (writeErrno == 0 && written < text.size()) {
            const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                writeErrno = n < 0 ? errno : ENOSPC;
            else
                written += static_cast<size_t>(n);
        }
    };
    // Pieces are often a few bytes: gather them into writes of kBuffer.
    static constexpr size_t kBuffer = 64 * 1024;
    std::string buffer;
    buffer.reserve(kBuffer);
    produce([&](std::string_view piece) {
        if (buffer.size() + piece.size() > kBuffer) {
            writeAll(buffer);
            buffer.clear();
        }
        if (piece.size() >= kBuffer)
            writeAll(piece);
        else
            buffer.append(piece);
    });
    writeAll(buffer);
    if (writeErrno != 0) {
        ::close(fd);
        ::unlink(tmp.c_str());
        error = fmt::format("{}: write failed ({}): free some space or save elsewhere", path,
                            std::strerror(writeErrno));
        return false;
    }
    fchmod(fd, 0644);
    if (::fsync(fd) != 0 || ::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        error = fmt::format("{}: could not be saved ({})", path, std::strerror(err));
        return false;
    }
    // The rename itself survives a power cut only once the directory is synced.
    if (const int dfd = ::open(dirOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return true;
}

} // namespace latprobe
