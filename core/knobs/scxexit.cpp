#include "scxexit.h"

#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>

namespace latprobe {

namespace {

constexpr size_t kMaxReasonChars = 200;

std::string cutReason(const std::string &text)
{
    return text.size() > kMaxReasonChars ? text.substr(0, kMaxReasonChars) + "..." : text;
}

// Each record of the kernel log at `path`, with its sequence number.
// /dev/kmsg hands one record per read(2), "PRIO,SEQ,USEC,FLAGS;TEXT\n",
// then its continuation lines, each starting with a space; it fails a read
// with EPIPE where records were overwritten meanwhile, and with EAGAIN at
// its end. A file of such lines (the tests') reads the same.
void forEachKernelRecord(const std::string &path,
                         const std::function<void(uint64_t, std::string_view)> &record)
{
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    std::string pending;
    char buf[8192];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && (errno == EPIPE || errno == EINTR))
            continue;
        if (n <= 0)
            break;
        pending.append(buf, static_cast<size_t>(n));
        size_t start = 0;
        for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
            const std::string_view line(pending.data() + start, end - start);
            const size_t comma = line.find(',');
            const size_t semicolon = line.find(';');
            uint64_t seq = 0;
            if (line.empty() || line.front() == ' ' || comma == std::string_view::npos ||
                semicolon == std::string_view::npos ||
                std::from_chars(line.data() + comma + 1, line.data() + semicolon, seq).ec !=
                    std::errc())
                continue;
            record(seq, line.substr(semicolon + 1));
        }
        pending.erase(0, start);
    }
    close(fd);
}

} // namespace

std::string withoutAnsi(std::string_view text)
{
    std::string out;
    for (size_t i = 0; i < text.size();) {
        if (text[i] != '\x1b') {
            out += text[i++];
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '[') {
            i += 2; // a CSI sequence ends at its final byte, '@' to '~'
            while (i < text.size() && (text[i] < '@' || text[i] > '~'))
                ++i;
            i += 1;
        } else {
            i += 2;
        }
    }
    return out;
}

uint64_t fileSize(const std::string &path)
{
    struct stat st = {};
    return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

std::string schedulerOwnWord(const std::string &logPath, uint64_t from)
{
    std::ifstream in(logPath);
    in.seekg(static_cast<std::streamoff>(from));
    std::string line, last, exit;
    while (std::getline(in, line)) {
        line = withoutAnsi(line);
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        last = line;
        if (const size_t at = line.find("EXIT: "); at != std::string::npos)
            exit = line.substr(at);
    }
    return cutReason(exit.empty() ? last : exit);
}

uint64_t kernelLogSeq(const std::string &kernelLog)
{
    uint64_t last = 0;
    forEachKernelRecord(kernelLog, [&](uint64_t seq, std::string_view) { last = seq; });
    return last;
}

std::string kernelDisabledLine(const std::string &kernelLog, uint64_t after)
{
    std::string first;
    forEachKernelRecord(kernelLog, [&](uint64_t seq, std::string_view text) {
        if (first.empty() && seq > after && text.rfind("sched_ext: BPF scheduler \"", 0) == 0 &&
            text.find("\" disabled (") != std::string_view::npos)
            first = text;
    });
    return cutReason(first);
}

} // namespace latprobe
