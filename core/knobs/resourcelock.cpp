#include "resourcelock.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

constexpr const char *kLockSuffix = ".lock";

// "1234 5678": the guardian that holds the lock and the latprobe it serves.
std::string holderOf(int fd)
{
    char buf[64] = {};
    const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    int guardian = 0, owner = 0;
    if (n <= 0 || std::sscanf(buf, "%d %d", &guardian, &owner) != 2)
        return "another latprobe";
    return fmt::format("another latprobe (pid {}, its guardian {})", owner, guardian);
}

// Whether the file `fd` has open and locked is still the one at `path`: a
// holder unlinks the path before it lets go, so a lock won on a file no
// longer there (or replaced since) excludes no one.
bool stillAtPath(int fd, const std::string &path)
{
    struct stat held, named;
    return fstat(fd, &held) == 0 && stat(path.c_str(), &named) == 0 &&
           held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

enum class Took { Lock, Busy, Failed };

// Opens and locks `path`, again while the file locked turns out to have
// been unlinked meanwhile.
Took takeLock(const std::string &path, int &fd, std::string &error)
{
    for (;;) {
        fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            error = fmt::format("cannot open the lock {}: {}", path, std::strerror(errno));
            return Took::Failed;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0)
            return Took::Busy; // fd stays open: the caller reads the holder from it
        if (stillAtPath(fd, path))
            return Took::Lock;
        close(fd);
    }
}

// Unlinked while still locked: whoever opens the path next makes a new file,
// and whoever waits on the old one sees it gone once it gets the lock.
void dropLock(const std::string &path, int fd)
{
    unlink(path.c_str());
    close(fd);
}

} // namespace

ResourceLocks::~ResourceLocks()
{
    release();
}

void ResourceLocks::release()
{
    for (const Held &held : m_held)
        dropLock(held.path, held.fd);
    m_held.clear();
}

std::string ResourceLocks::acquire(const std::string &stateDir,
                                   const std::vector<std::string> &resources, pid_t owner)
{
    for (const std::string &resource : resources) {
        const std::string path = stateDir + "/" + resource + kLockSuffix;
        int fd = -1;
        std::string error;
        const Took took = takeLock(path, fd, error);
        if (took != Took::Lock) {
            if (took == Took::Busy) {
                error = fmt::format("{} is changing {} now: wait until it ends", holderOf(fd),
                                    resource);
                close(fd);
            }
            release();
            return error;
        }
        const std::string who = fmt::format("{} {}\n", getpid(), owner);
        if (ftruncate(fd, 0) != 0 || pwrite(fd, who.data(), who.size(), 0) < 0) {
            // Only the message to a second run suffers.
        }
        m_held.push_back({path, fd});
    }
    return {};
}

void removeUnheldLocks(const std::string &stateDir)
{
    DIR *dir = opendir(stateDir.c_str());
    if (!dir)
        return;
    std::vector<std::string> locks;
    while (const dirent *e = readdir(dir)) {
        const std::string name = e->d_name;
        if (name.size() > std::strlen(kLockSuffix) && name.ends_with(kLockSuffix))
            locks.push_back(stateDir + "/" + name);
    }
    closedir(dir);
    for (const std::string &path : locks) {
        // Only a lock its holder's death let go of: a held one is busy.
        int fd = -1;
        std::string ignored;
        switch (takeLock(path, fd, ignored)) {
        case Took::Lock:
            dropLock(path, fd);
            break;
        case Took::Busy:
            close(fd);
            break;
        case Took::Failed:
            break;
        }
    }
}

} // namespace latprobe
