#include "savedtraces.h"

#include "runlibrary.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <signal.h>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

namespace latprobe {

namespace {

constexpr const char *kWritingPrefix = ".latprobe-traces-";

fs::path absoluteFolderOf(const std::string &path)
{
    const fs::path p = fs::absolute(fs::path(path)).lexically_normal();
    return p.parent_path();
}

bool sameFolder(const fs::path &a, const fs::path &b)
{
    std::error_code ec;
    return a == b || fs::equivalent(a, b, ec);
}

} // namespace

SavedTraces::~SavedTraces()
{
    if (!m_writing.empty()) {
        std::error_code ec;
        fs::remove_all(m_writing, ec);
    }
}

bool SavedTraces::open(const std::string &dir, std::string &error)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    static std::atomic<int> opened{0};
    const std::string writing = fmt::format("{}/{}{}-{}", dir, kWritingPrefix, getpid(), opened++);
    if (ec || !fs::create_directory(writing, ec) || ec) {
        error = fmt::format("--save-trace: cannot write in {}: {} (give --save-trace=DIR a "
                            "folder you can write to)",
                            dir, ec ? ec.message() : "it exists");
        return false;
    }
    removeStale(dir);
    m_dir = fs::absolute(fs::path(dir)).lexically_normal().string();
    m_writing = writing;
    return true;
}

void SavedTraces::place(Run &run, const std::string &runPath)
{
    const fs::path runFolder = absoluteFolderOf(runPath);
    const bool besideRun = sameFolder(runFolder, fs::path(m_dir));
    for (MissExplanation &x : run.explanations) {
        if (x.traceFile.empty() || x.traceFile.find('/') != std::string::npos)
            continue;
        const std::string name = RunLibrary::traceFileName(runPath, x.traceFile);
        const fs::path from = fs::path(m_writing) / x.traceFile;
        const fs::path to = fs::path(m_dir) / name;
        std::error_code ec;
        if (fs::exists(from, ec))
            fs::rename(from, to, ec);
        if (ec || !fs::exists(to, ec)) {
            x.traceFile.clear();
            continue;
        }
        m_placed[x.traceFile] = to.string();
        x.traceFile = besideRun ? name : to.string();
    }
    run.folder = runFolder.string();
}

std::string SavedTraces::pathOf(const std::string &name) const
{
    if (name.empty() || name.front() == '/')
        return name;
    const auto it = m_placed.find(name);
    return it != m_placed.end() ? it->second : m_writing + "/" + name;
}

int SavedTraces::removeStale(const std::string &dir)
{
    int removed = 0;
    std::error_code ec;
    for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(kWritingPrefix, 0) != 0)
            continue;
        const auto pid =
            static_cast<pid_t>(std::atol(name.c_str() + std::string(kWritingPrefix).size()));
        const bool gone = pid > 0 && pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH;
        if (gone && fs::remove_all(entry.path(), ec) > 0)
            ++removed;
    }
    return removed;
}

void rebaseTraceFiles(Run &run, const std::string &fromPath, const std::string &toPath)
{
    const fs::path from = absoluteFolderOf(fromPath), to = absoluteFolderOf(toPath);
    if (sameFolder(from, to))
        return;
    for (MissExplanation &x : run.explanations)
        if (!x.traceFile.empty() && fs::path(x.traceFile).is_relative())
            x.traceFile = (from / x.traceFile).string();
}

} // namespace latprobe
