#pragma once

#include "run.h"
#include "runlibrary.h"
#include "taskthread.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace latprobe {

// How long to wait after a save of `lastBytes`: `every`, or longer when
// saving that much every `every` would write more than `budgetPerMinute`.
std::chrono::milliseconds autosaveInterval(std::chrono::milliseconds every, uint64_t lastBytes,
                                           uint64_t budgetPerMinute);

// Keeps a run in the run library while it is measured: every `every`, on a
// TaskThread of its own ("lp-autosave"), it takes a snapshot and saves it
// atomically to one file (compact JSON), so that a crash, a kill -9 or a
// forgotten close loses at most that much. A run grown past what `every`
// allows within kWriteBudget is saved less often (autosaveInterval()). The
// file is marked partial ("autosaved") until saveFinal() writes the
// finished run over it, indented.
class RunAutosaver
{
public:
    using Snapshot = std::function<Run()>;
    static constexpr std::chrono::seconds kDefaultEvery{10};
    // Bytes a minute the autosaves may write: a long, miss-heavy run's file
    // reaches megabytes, rewritten whole each time.
    static constexpr uint64_t kWriteBudgetPerMinute = 8u << 20;

    RunAutosaver(RunLibrary library, Snapshot snapshot,
                 std::chrono::milliseconds every = kDefaultEvery);
    ~RunAutosaver(); // stops; what was saved stays
    RunAutosaver(const RunAutosaver &) = delete;
    RunAutosaver &operator=(const RunAutosaver &) = delete;

    // Saves `run` as the file's last word and stops autosaving. False, with
    // `error`, when it could not be saved.
    bool saveFinal(const Run &run, std::string &error);
    // Stops autosaving and deletes the file: the user chose to discard it.
    void discard();
    // No more saves until saveFinal(): call it before the session finishes,
    // so that no snapshot races the probe's end.
    void stopAutosaving();

    std::string path() const; // "" before the first save
    const RunLibrary &library() const { return m_library; }
    // The file the run is (or will be) saved to, chosen now if no save
    // chose it yet: what the run's traces are named after.
    std::string claimPath(const Run &run);
    std::string lastError() const; // of the last save, "" when it worked
    int saves() const;
    uint64_t bytesWritten() const; // every save's file size, summed

private:
    void autosave();
    void scheduleNext(); // the next autosave, on m_thread
    std::chrono::milliseconds nextWait() const;
    bool save(Run run, bool final, std::string &error);

    RunLibrary m_library;
    Snapshot m_snapshot;
    std::chrono::milliseconds m_every;
    mutable std::mutex m_mutex;
    bool m_quit = false;
    std::string m_path, m_lastError;
    int m_saves = 0;
    uint64_t m_bytes = 0;
    uint64_t m_lastBytes = 0;           // the last save's size
    std::mutex m_saveMutex;             // one save at a time: the thread's or the final one
    TaskThread m_thread{"lp-autosave"}; // last: it stops first
};

} // namespace latprobe
