#include "runautosaver.h"

#include <filesystem>
#include <pthread.h>

namespace latprobe {

RunAutosaver::RunAutosaver(RunLibrary library, Snapshot snapshot, std::chrono::milliseconds every)
    : m_library(std::move(library)), m_snapshot(std::move(snapshot)), m_every(every)
{
    m_thread = std::thread([this] { main(); });
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
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void RunAutosaver::main()
{
    pthread_setname_np(pthread_self(), "lp-autosave");
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, m_every, [this] { return m_quit; })) {
        lock.unlock();
        std::string error;
        save(m_snapshot(), false, error);
        lock.lock();
    }
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
    const bool saved = m_library.save(run, path, error);
    std::error_code ec;
    const uint64_t bytes = saved ? std::filesystem::file_size(path, ec) : 0;
    std::lock_guard lock(m_mutex);
    m_path = path;
    m_lastError = saved ? std::string() : error;
    if (saved) {
        ++m_saves;
        m_bytes += bytes;
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
