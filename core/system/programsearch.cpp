#include "programsearch.h"

#include <cstdlib>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

bool runnable(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

} // namespace

std::string programSearchPath()
{
    const char *path = std::getenv("PATH");
    return path ? path : "/usr/local/bin:/usr/bin:/bin";
}

std::string findExecutable(const std::string &name, const std::string &searchPath)
{
    if (name.empty())
        return {};
    if (name.find('/') != std::string::npos)
        return runnable(name) ? name : std::string();
    size_t begin = 0;
    for (;;) {
        const size_t end = searchPath.find(':', begin);
        std::string_view dir(searchPath);
        dir = dir.substr(begin, end == std::string::npos ? end : end - begin);
        std::string candidate(dir.empty() ? std::string_view(".") : dir);
        candidate.push_back('/');
        candidate.append(name);
        if (runnable(candidate))
            return candidate;
        if (end == std::string::npos)
            return {};
        begin = end + 1;
    }
}

std::string findExecutable(const std::string &name)
{
    return findExecutable(name, programSearchPath());
}

} // namespace latprobe
