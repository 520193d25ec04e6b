#include "tempdir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fmt/format.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

std::string tempBase()
{
    const char *dir = std::getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

std::string createPrivateTempDir(std::string &error)
{
    std::string path = fmt::format("{}/latprobe-{}-XXXXXX", tempBase(), getpid());
    if (!mkdtemp(path.data())) {
        error = fmt::format("cannot create a temp dir in {} ({}): set TMPDIR to a writable "
                            "directory",
                            tempBase(), std::strerror(errno));
        return {};
    }
    return path;
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
    DIR *dir = opendir(tempBase().c_str());
    if (!dir)
        return 0;
    int removed = 0;
    while (dirent *e = readdir(dir)) {
        int pid = 0;
        char suffix[16];
        if (std::sscanf(e->d_name, "latprobe-%d-%15s", &pid, suffix) != 2 || pid <= 0)
            continue;
        if (kill(pid, 0) == 0 || errno == EPERM)
            continue;
        if (removeTree(tempBase() + "/" + e->d_name))
            ++removed;
    }
    closedir(dir);
    return removed;
}

} // namespace latprobe
