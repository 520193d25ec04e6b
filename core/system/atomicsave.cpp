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
    removeStaleSaveTemps(path);
    std::string tmp = ownedTempTemplate(saveTempPrefix(path));
    const int fd = mkstemp(tmp.data());
    if (fd < 0) {
        error = fmt::format("{}: cannot create a file beside it ({}): check the directory "
                            "exists and is writable",
                            path, std::strerror(errno));
        return false;
    }
    size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            ::close(fd);
            ::unlink(tmp.c_str());
            error = fmt::format("{}: write failed ({}): free some space or save elsewhere", path,
                                std::strerror(err));
            return false;
        }
        written += static_cast<size_t>(n);
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
