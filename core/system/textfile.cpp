#include "textfile.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

namespace latprobe {

namespace {

std::string mib(size_t bytes)
{
    return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1 << 20));
}

} // namespace

bool readTextFile(const std::string &path, size_t maxBytes, std::string &text, std::string &error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = fmt::format("cannot open ({})", std::strerror(errno));
        return false;
    }
    // Read one byte past the cap rather than trust the size stat() gives:
    // a pipe or /proc file has none.
    text.clear();
    char buffer[65536];
    while (in && text.size() <= maxBytes) {
        in.read(buffer, sizeof buffer);
        text.append(buffer, static_cast<size_t>(in.gcount()));
    }
    if (in.bad()) {
        error = fmt::format("read failed ({})", std::strerror(errno));
        return false;
    }
    if (text.size() > maxBytes) {
        error = fmt::format("is larger than {}, the most this reader takes", mib(maxBytes));
        text.clear();
        return false;
    }
    return true;
}

} // namespace latprobe
