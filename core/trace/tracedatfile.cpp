#include "tracedatfile.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace latprobe {

namespace {

// trace-cmd's option numbers (trace-cmd.dat.v6(5) leaves them to its source:
// enum tracecmd_file_options); only the machine's uname is written.
constexpr uint16_t kOptionDone = 0;
constexpr uint16_t kOptionUname = 5;

// Numbers go in the host's byte order, which the file's header names.
template <typename T> void put(std::string &out, T value)
{
    char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    out.append(bytes, sizeof value);
}

void putSized8(std::string &out, const std::string &text)
{
    put<uint64_t>(out, text.size());
    out += text;
}

std::string header(const TraceDatFormats &f, const std::map<int, std::string> &comms)
{
    std::string out;
    out += "\x17\x08\x44tracing";
    out += std::string("6", 2); // the version, and its terminating zero
    out += static_cast<char>(std::endian::native == std::endian::big ? 1 : 0);
    out += static_cast<char>(sizeof(long));
    put<uint32_t>(out, f.pageSize);
    out += std::string("header_page", 12);
    putSized8(out, f.headerPage);
    out += std::string("header_event", 13);
    putSized8(out, f.headerEvent);
    put<uint32_t>(out, static_cast<uint32_t>(f.ftrace.size()));
    for (const std::string &format : f.ftrace)
        putSized8(out, format);
    put<uint32_t>(out, static_cast<uint32_t>(f.systems.size()));
    for (const auto &[system, formats] : f.systems) {
        out += system;
        out += '\0';
        put<uint32_t>(out, static_cast<uint32_t>(formats.size()));
        for (const std::string &format : formats)
            putSized8(out, format);
    }
    put<uint32_t>(out, 0); // no kallsyms: addresses print as numbers
    put<uint32_t>(out, 0); // no trace_printk formats
    std::string names;
    for (const auto &[pid, comm] : comms)
        names += fmt::format("{} {}\n", pid, comm);
    putSized8(out, names);
    put<uint32_t>(out, static_cast<uint32_t>(f.cpus));
    out += std::string("options  ", 10);
    if (!f.uname.empty()) {
        put<uint16_t>(out, kOptionUname);
        put<uint32_t>(out, static_cast<uint32_t>(f.uname.size() + 1));
        out += f.uname;
        out += '\0';
    }
    put<uint16_t>(out, kOptionDone);
    out += std::string("flyrecord", 10);
    return out;
}

} // namespace

std::string traceDatBytes(const TraceDatFormats &formats, const std::vector<RawPagePtr> &pages,
                          const std::map<int, std::string> &comms)
{
    std::vector<std::vector<const RawPage *>> byCpu(static_cast<size_t>(std::max(formats.cpus, 0)));
    for (const RawPagePtr &page : pages)
        if (page && page->cpu >= 0 && page->cpu < formats.cpus &&
            page->bytes.size() == formats.pageSize)
            byCpu[static_cast<size_t>(page->cpu)].push_back(page.get());
    for (auto &cpuPages : byCpu) {
        std::sort(cpuPages.begin(), cpuPages.end(),
                  [](const RawPage *a, const RawPage *b) { return a->from < b->from; });
        // One page saved for two overlapping windows is one page.
        cpuPages.erase(std::unique(cpuPages.begin(), cpuPages.end()), cpuPages.end());
    }
    std::string out = header(formats, comms);
    // The CPUs' table (offset and size of each), then the data, each CPU's
    // page-aligned.
    const size_t tableAt = out.size();
    out.append(byCpu.size() * 16, '\0');
    const size_t page = std::max<size_t>(formats.pageSize, 1);
    std::vector<std::pair<uint64_t, uint64_t>> table;
    for (const auto &cpuPages : byCpu) {
        out.append((page - out.size() % page) % page, '\0');
        const uint64_t offset = out.size();
        for (const RawPage *p : cpuPages)
            out.append(p->bytes.data(), p->bytes.size());
        table.emplace_back(offset, out.size() - offset);
    }
    for (size_t i = 0; i < table.size(); ++i) {
        std::memcpy(&out[tableAt + 16 * i], &table[i].first, 8);
        std::memcpy(&out[tableAt + 16 * i + 8], &table[i].second, 8);
    }
    return out;
}

bool writeTraceDat(const std::string &path, const TraceDatFormats &formats,
                   const std::vector<RawPagePtr> &pages, const std::map<int, std::string> &comms,
                   std::string &error)
{
    const std::string bytes = traceDatBytes(formats, pages, comms);
    const std::string partial = fmt::format("{}.partial-{}", path, getpid());
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = fmt::format("cannot write {}: {}", partial, std::strerror(errno));
        return false;
    }
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += static_cast<size_t>(n);
    }
    const int writeErrno = done == bytes.size() ? 0 : (errno ? errno : ENOSPC);
    const bool synced = writeErrno == 0 && fsync(fd) == 0;
    const int syncErrno = errno;
    ::close(fd);
    if (!synced || std::rename(partial.c_str(), path.c_str()) != 0) {
        const int err = writeErrno ? writeErrno : (!synced ? syncErrno : errno);
        ::unlink(partial.c_str());
        error = fmt::format("cannot write {}: {}", path, std::strerror(err));
        return false;
    }
    return true;
}

} // namespace latprobe
