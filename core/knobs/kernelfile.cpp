#include "kernelfile.h"

#include "textfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace latprobe {

namespace {

// A setting file is a line or a few; a larger one is not a setting.
constexpr size_t kMaxSettingFileBytes = 64 * 1024;

} // namespace

std::string collapseSpaces(const std::string &text)
{
    std::istringstream in(text);
    std::string word, out;
    while (in >> word)
        out += (out.empty() ? "" : " ") + word;
    return out;
}

bool pathExists(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

bool readKernelFile(const std::string &path, std::string &value, std::string &error)
{
    std::string text, why;
    if (!readTextFile(path, kMaxSettingFileBytes, text, why)) {
        error = fmt::format("cannot read {}: {}", path, why);
        return false;
    }
    value = collapseSpaces(text);
    return true;
}

bool writeKernelFile(const std::string &path, const std::string &value, std::string &error)
{
    // O_TRUNC: the kernel's files ignore it; a fake tree's plain file needs it.
    const int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    ssize_t n = -1;
    if (fd >= 0) {
        do
            n = write(fd, value.data(), value.size());
        while (n < 0 && errno == EINTR);
    }
    const int err = fd < 0 || n < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    if (err != 0 || static_cast<size_t>(n) != value.size()) {
        error = fmt::format("cannot write {} to {}: {}", value, path,
                            err ? std::strerror(err) : "short write");
        return false;
    }
    return true;
}

namespace {

// The marks around the choice in force: debugfs's, then sysfs's.
constexpr std::pair<char, char> kChoiceMarks[] = {{'(', ')'}, {'[', ']'}};

} // namespace

std::string choiceInForce(const std::string &text)
{
    for (const auto &[openMark, closeMark] : kChoiceMarks) {
        const size_t open = text.find(openMark);
        const size_t close = open == std::string::npos ? open : text.find(closeMark, open);
        if (close != std::string::npos)
            return text.substr(open + 1, close - open - 1);
    }
    return {};
}

std::vector<std::string> choicesOffered(const std::string &text)
{
    std::istringstream in(text);
    std::vector<std::string> choices;
    std::string word;
    while (in >> word) {
        for (const auto &[openMark, closeMark] : kChoiceMarks)
            if (word.size() > 2 && word.front() == openMark && word.back() == closeMark)
                word = word.substr(1, word.size() - 2);
        choices.push_back(word);
    }
    return choices;
}

std::string shellQuote(const std::string &word)
{
    const bool plain =
        !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789_.,:/=+-@%") == std::string::npos;
    if (plain)
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string echoCommand(const std::string &value, const std::string &path)
{
    return fmt::format("echo {} > {}", shellQuote(value), shellQuote(path));
}

} // namespace latprobe
