#include "runautosaver.h"

#include "realclock.h"

#include <algorithm>
#include <filesystem>
#include <malloc.h>

namespace latprobe {

std::chrono::milliseconds autosaveInterval(std::chrono::milliseconds every, uint64_t lastBytes,
                                           uint64_t budgetPerMinute)
{
    if (budgetPerMinute == 0)
        return every;
    const auto budgeted = std::chrono::milliseconds(static_cast<int64_t>(
        static_cast<double>(lastBytes) * 60000.0 / static_cast<double>(budgetPerMinute)));
    return std::max(every, budgeted);
}

RunAutosaver::RunAutosaver(RunLibrary library, Snapshot snapshot, std::chrono::milliseconds every)
    : m_library(std::move(library)), m_snapshot(std::move(snapshot)), m_every(every)
{
    scheduleNext();
}

RunAutosaver::~RunAutosaver()
{
    stopAutosaving();
}

void RunAutosaver::stopAutosaving()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_thread.stop();
}

void RunAutosaver::scheduleNext()
{
    const std::chrono::nanoseconds wait = nextWait();
    m_thread.runAt(RealClock::monotonicNow() + wait.count(), [this] { autosave(); });
}

void RunAutosaver::autosave()
{
    std::string error;
    save(m_snapshot(), false, error);
    // The snapshot's JSON tree was tens of megabytes in a long run; give
    // the pages back rather than keep them in this thread's arena (the
    // window's RSS swung 50 -> 170 MB in an hour without this).
    malloc_trim(0);
    scheduleNext();
}

std::chrono::milliseconds RunAutosaver::nextWait() const
{
    std::lock_guard lock(m_mutex);
    return autosaveInterval(m_every, m_lastBytes, kWriteBudgetPerMinute);
}

bool RunAutosaver::save(Run run, bool final, std::string &error)
{
    std::lock_guard saving(m_saveMutex);
    if (!final && run.phases.empty())
        return false; // nothing measured yet: nothing to keep
    if (!final) {
        // Read after a crash, it says what it is.
        run.partial = true;
        run.endReason = "autosaved";
    }
    std::string path;
    {
        std::lock_guard lock(m_mutex);
        if (m_quit && !final)
            return false;
        path = m_path;
    }
    if (path.empty())
        path = m_library.pathFor(run);
    const bool saved =
        m_library.save(run, path, error, final ? JsonLayout::Indented : JsonLayout::Compact);
    std::error_code ec;
    const uint64_t bytes = saved ? std::filesystem::file_size(path, ec) : 0;
    std::lock_guard lock(m_mutex);
    m_path = path;
    m_lastError = saved ? std::string() : error;
    if (saved) {
        ++m_saves;
        m_bytes += bytes;
        m_lastBytes = bytes;
    }
    return saved;
}

bool RunAutosaver::saveFinal(const Run &run, std::string &error)
{
    stopAutosaving();
    return save(run, true, error);
}

void RunAutosaver::discard()
{
    stopAutosaving();
    std::lock_guard saving(m_saveMutex);
    std::string path;
    {
        std::lock_guard lock(m_mutex);
        path = m_path;
        m_path.clear();
    }
    std::string error;
    if (!path.empty())
        m_library.remove(path, error);
}

std::string RunAutosaver::claimPath(const Run &run)
{
    std::lock_guard saving(m_saveMutex);
    std::lock_guard lock(m_mutex);
    if (m_path.empty())
        m_path = m_library.pathFor(run);
    return m_path;
}

std::string RunAutosaver::path() const
{
    std::lock_guard lock(m_mutex);
    return m_path;
}

std::string RunAutosaver::lastError() const
{
    std::lock_guard lock(m_mutex);
    return m_lastError;
}

int RunAutosaver::saves() const
{
    std::lock_guard lock(m_mutex);
    return m_saves;
}

uint64_t RunAutosaver::bytesWritten() const
{
    std::lock_guard lock(m_mutex);
    return m_bytes;
}

} // namespace latprobe
