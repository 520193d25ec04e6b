#include "selfexe.h"

#include <climits>
#include <cstdlib>
#include <unistd.h>

namespace latprobe {

std::string selfExecutable()
{
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("/proc/self/exe");
}

std::string latprobeBinary()
{
    const char *env = std::getenv("LATPROBE_BINARY");
    return env && *env ? std::string(env) : selfExecutable();
}

} // namespace latprobe
