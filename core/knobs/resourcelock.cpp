#include "resourcelock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

namespace latprobe {

namespace {

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

} // namespace

ResourceLocks::~ResourceLocks()
{
    release();
}

void ResourceLocks::release()
{
    for (int fd : m_fds)
        close(fd);
    m_fds.clear();
}

std::string ResourceLocks::acquire(const std::string &stateDir,
                                   const std::vector<std::string> &resources, pid_t owner)
{
    for (const std::string &resource : resources) {
        const std::string path = stateDir + "/" + resource + ".lock";
        const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            release();
            return fmt::format("cannot open the lock {}: {}", path, std::strerror(errno));
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const std::string holder = holderOf(fd);
            close(fd);
            release();
            return fmt::format("{} is changing {} now: wait until it ends", holder, resource);
        }
        const std::string who = fmt::format("{} {}\n", getpid(), owner);
        if (ftruncate(fd, 0) != 0 || pwrite(fd, who.data(), who.size(), 0) < 0) {
            // Only the message to a second run suffers.
        }
        m_fds.push_back(fd);
    }
    return {};
}

} // namespace latprobe
