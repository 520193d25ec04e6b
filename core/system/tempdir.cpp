#include "tempdir.h"

#include "processalive.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fmt/format.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

constexpr const char *kTempDirPrefix = "latprobe-";

// The pid in "<pid>-XXXXXX", or 0 when `rest` is not that.
pid_t ownerPid(const char *rest)
{
    const char *end = rest + std::strlen(rest);
    pid_t pid = 0;
    const auto [dash, ec] = std::from_chars(rest, end, pid);
    if (ec != std::errc() || pid <= 0 || *dash != '-' || end - (dash + 1) != 6)
        return 0;
    return pid;
}

} // namespace

std::string ownedTempTemplate(const std::string &prefix)
{
    return fmt::format("{}{}-XXXXXX", prefix, getpid());
}

int removeOrphanedTemps(const std::string &dirName, const std::string &prefix,
                        const std::function<bool(int dirFd, const char *name)> &remove)
{
    DIR *dir = opendir(dirName.c_str());
    if (!dir)
        return 0;
    int removed = 0;
    while (dirent *e = readdir(dir)) {
        if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) != 0)
            continue;
        const pid_t pid = ownerPid(e->d_name + prefix.size());
        if (pid > 0 && !processAlive(pid) && remove(dirfd(dir), e->d_name))
            ++removed;
    }
    closedir(dir);
    return removed;
}

std::string tempBase()
{
    const char *dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

bool createPrivateTempDir(char *path, size_t size, std::string &error)
{
    const std::string name = ownedTempTemplate(tempBase() + "/" + kTempDirPrefix);
    if (name.size() >= size) {
        error = fmt::format("the temp dir's name would be too long in {}: set TMPDIR to a "
                            "shorter path",
                            tempBase());
        return false;
    }
    std::memcpy(path, name.c_str(), name.size() + 1);
    if (!mkdtemp(path)) {
        path[0] = '\0';
        error = fmt::format("cannot create a temp dir in {} ({}): set TMPDIR to a writable "
                            "directory",
                            tempBase(), std::strerror(errno));
        return false;
    }
    return true;
}

bool removeTree(const std::string &path)
{
    if (path.empty())
        return true;
    nftw(
        path.c_str(),
        [](const char *p, const struct stat *, int, struct FTW *) {
            ::remove(p);
            return 0;
        },
        16, FTW_DEPTH | FTW_PHYS);
    struct stat st;
    return ::lstat(path.c_str(), &st) != 0;
}

int removeStaleTempDirs()
{
    const std::string base = tempBase();
    return removeOrphanedTemps(
        base, kTempDirPrefix, [&](int, const char *name) { return removeTree(base + "/" + name); });
}

} // namespace latprobe
