#include "runlibrary.h"

#include "runfile.h"
#include "scenario.h"
#include "variantcompare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

namespace fs = std::filesystem;

namespace latprobe {

namespace {

constexpr const char *kPrefix = "latprobe-";
constexpr const char *kSuffix = ".json";

// Keeps a name part to what every file system and shell takes unquoted.
std::string namePart(const std::string &text)
{
    std::string out;
    for (char c : text) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '+';
        out += plain ? c : '-';
    }
    // No "--" runs, no leading or trailing dash, and not too long.
    std::string squeezed;
    for (char c : out)
        if (!(c == '-' && (squeezed.empty() || squeezed.back() == '-')))
            squeezed += c;
    while (!squeezed.empty() && squeezed.back() == '-')
        squeezed.pop_back();
    return squeezed.substr(0, 64);
}

constexpr const char *kTraceInfix = ".trace-";
constexpr const char *kTraceSuffix = ".dat";

// "<stem>.trace-<n>.dat": the stem of the run it belongs to, or "" when
// `name` is no such file.
std::string traceStem(const std::string &name)
{
    const size_t infix = name.rfind(kTraceInfix);
    const size_t suffix = std::string(kTraceSuffix).size();
    if (infix == std::string::npos || name.size() <= suffix ||
        name.compare(name.size() - suffix, suffix, kTraceSuffix) != 0)
        return {};
    const size_t digits = infix + std::string(kTraceInfix).size();
    const std::string number = name.substr(digits, name.size() - suffix - digits);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos)
        return {};
    return name.substr(0, infix);
}

// The trace files in `dir`, by the stem of their run.
std::map<std::string, std::vector<fs::path>> tracesByStem(const std::string &dir)
{
    std::map<std::string, std::vector<fs::path>> traces;
    std::error_code ec;
    for (const fs::directory_entry &file : fs::directory_iterator(dir, ec))
        if (std::string stem = traceStem(file.path().filename().string()); !stem.empty())
            traces[stem].push_back(file.path());
    return traces;
}

std::string stemOf(const fs::path &runFile)
{
    return runFile.stem().string();
}

uint64_t sizeOf(const std::vector<fs::path> &files)
{
    uint64_t bytes = 0;
    std::error_code ec;
    for (const fs::path &f : files)
        if (const uintmax_t n = fs::file_size(f, ec); !ec)
            bytes += n;
    return bytes;
}

} // namespace

std::string RunLibrary::traceFileName(const std::string &runPath, const std::string &traceName)
{
    // "trace-3.dat" beside "latprobe-....json": "latprobe-....trace-3.dat".
    return stemOf(runPath) + "." + traceName;
}

std::vector<std::string> RunLibrary::tracesOf(const std::string &runPath)
{
    std::vector<std::string> out;
    const fs::path run(runPath);
    const auto traces = tracesByStem(run.parent_path().empty() ? "." : run.parent_path().string());
    if (auto it = traces.find(stemOf(run)); it != traces.end())
        for (const fs::path &p : it->second)
            out.push_back(p.string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string RunLibrary::defaultDir()
{
    if (const char *own = std::getenv("LATPROBE_LIBRARY"); own && *own)
        return own;
    if (const char *data = std::getenv("XDG_DATA_HOME"); data && *data == '/')
        return std::string(data) + "/latprobe/runs";
    const char *home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.local/share/latprobe/runs";
}

RunLibrary::RunLibrary(std::string dir, uint64_t maxBytes)
    : m_dir(std::move(dir)), m_maxBytes(maxBytes)
{}

bool RunLibrary::isLibraryFile(const std::string &name)
{
    const size_t p = std::string(kPrefix).size(), s = std::string(kSuffix).size();
    return name.size() > p + s && name.compare(0, p, kPrefix) == 0 &&
           name.compare(name.size() - s, s, kSuffix) == 0 && name.find('/') == std::string::npos;
}

std::string RunLibrary::pathFor(const Run &run) const
{
    std::string when = run.startTime.substr(0, 19); // "2026-12-01T03:12:40"
    std::replace(when.begin(), when.end(), ':', '-');
    std::string stem = kPrefix + namePart(when.empty() ? "undated" : when);
    if (const std::string kernel = namePart(run.system.kernelRelease); !kernel.empty())
        stem += "-" + kernel;
    if (const std::string scenario = namePart(run.scenario);
        !scenario.empty() && scenario != kPlainRunScenario)
        stem += "-" + scenario;
    std::string path = m_dir + "/" + stem + kSuffix;
    std::error_code ec;
    for (int n = 2; fs::exists(path, ec); ++n)
        path = fmt::format("{}/{}-{}{}", m_dir, stem, n, kSuffix);
    return path;
}

bool RunLibrary::save(const Run &run, const std::string &path, std::string &error,
                      JsonLayout layout) const
{
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    if (ec) {
        error = fmt::format("cannot create the run library {}: {} (set LATPROBE_LIBRARY to "
                            "another folder)",
                            m_dir, ec.message());
        return false;
    }
    try {
        writeRunFile(run, path, layout);
    } catch (const std::exception &e) {
        error = e.what();
        return false;
    }
    prune(m_maxBytes, path);
    return true;
}

std::vector<RunLibrary::Entry> RunLibrary::list() const
{
    std::vector<Entry> out;
    std::error_code ec;
    const auto traces = tracesByStem(m_dir);
    for (const fs::directory_entry &file : fs::directory_iterator(m_dir, ec)) {
        const std::string name = file.path().filename().string();
        if (!isLibraryFile(name) || !file.is_regular_file(ec))
            continue;
        Entry e;
        e.path = file.path().string();
        e.bytes = file.file_size(ec);
        if (auto it = traces.find(stemOf(file.path())); it != traces.end()) {
            e.traces = it->second.size();
            e.bytes += sizeOf(it->second);
        }
        try {
            const Run run = readRunFile(e.path);
            e.startTime = run.startTime;
            e.kernel = run.system.kernelRelease;
            e.scheduler = run.system.scheduler;
            e.scenario = run.scenario;
            e.endReason = run.endReason;
            e.partial = run.partial;
            e.phases = run.phases.size();
            for (const PhaseResult &p : run.phases)
                e.durationS += p.durationS;
            e.consumers = summarizeConsumers(run.phases);
            if (hasVariants(run))
                e.headlines = variantHeadlines(run, compareVariants(run));
        } catch (const std::exception &err) {
            e.error = err.what();
        }
        out.push_back(std::move(e));
    }
    // ISO times sort as text; unreadable files (no time) go last.
    std::sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) {
        return a.startTime != b.startTime ? a.startTime > b.startTime : a.path > b.path;
    });
    return out;
}

bool RunLibrary::remove(const std::string &path, std::string &error) const
{
    const fs::path p(path);
    std::error_code ec;
    if (!isLibraryFile(p.filename().string()) ||
        !fs::equivalent(p.parent_path(), fs::path(m_dir), ec)) {
        error = fmt::format("{} is not a run of the library {}: latprobe deletes only its own "
                            "files there",
                            path, m_dir);
        return false;
    }
    if (!fs::remove(p, ec) || ec) {
        error = fmt::format("cannot delete {}: {}", path, ec ? ec.message() : "it is not there");
        return false;
    }
    for (const std::string &trace : tracesOf(path))
        fs::remove(trace, ec);
    return true;
}

RunLibrary::Pruned RunLibrary::prune(uint64_t maxBytes, const std::string &keep) const
{
    struct File
    {
        fs::path path;
        fs::file_time_type modified;
        uint64_t bytes;
    };
    std::vector<File> files;
    uint64_t total = 0;
    std::error_code ec;
    auto traces = tracesByStem(m_dir);
    for (const fs::directory_entry &file : fs::directory_iterator(m_dir, ec)) {
        if (!isLibraryFile(file.path().filename().string()) || !file.is_regular_file(ec))
            continue;
        uint64_t bytes = file.file_size(ec);
        if (auto it = traces.find(stemOf(file.path())); it != traces.end())
            bytes += sizeOf(it->second);
        total += bytes;
        files.push_back({file.path(), file.last_write_time(ec), bytes});
    }
    std::sort(files.begin(), files.end(),
              [](const File &a, const File &b) { return a.modified < b.modified; });
    Pruned pruned;
    for (const File &f : files) {
        if (total <= maxBytes)
            break;
        if (!keep.empty() && fs::equivalent(f.path, fs::path(keep), ec))
            continue;
        if (fs::remove(f.path, ec)) {
            if (auto it = traces.find(stemOf(f.path)); it != traces.end())
                for (const fs::path &trace : it->second)
                    fs::remove(trace, ec);
            total -= f.bytes;
            ++pruned.files;
            pruned.bytes += f.bytes;
        }
    }
    return pruned;
}

} // namespace latprobe
