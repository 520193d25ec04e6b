#include "savedtraces.h"

#include "runlibrary.h"
#include "tempdir.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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
    std::string writing = ownedTempTemplate(dir + "/" + kWritingPrefix);
    if (ec || !mkdtemp(writing.data())) {
        error = fmt::format("--save-trace: cannot write in {}: {} (give --save-trace=DIR a "
                            "folder you can write to)",
                            dir, ec ? ec.message() : std::strerror(errno));
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
    return removeOrphanedTemps(dir, kWritingPrefix, [&](int, const char *name) {
        std::error_code ec;
        return fs::remove_all(fs::path(dir) / name, ec) > 0;
    });
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
