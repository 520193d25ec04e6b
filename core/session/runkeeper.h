#pragma once

#include "runautosaver.h"
#include "runlibrary.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace latprobe {

class MissEvidence;
class SavedTraces;
struct MissExplanation;

// Where a session's run is kept: in the run library as it is measured
// (RunAutosaver) and over that at its end, and `--save-trace`'s trace files
// beside it. A session without a library keeps nothing but the traces.
class RunKeeper
{
public:
    RunKeeper();
    ~RunKeeper();
    RunKeeper(const RunKeeper &) = delete;
    RunKeeper &operator=(const RunKeeper &) = delete;

    void keepInLibrary(RunLibrary library, RunAutosaver::Snapshot snapshot,
                       std::chrono::milliseconds every);
    bool keepsInLibrary() const { return m_autosaver != nullptr || m_pending != nullptr; }
    // The first autosave is `every` from now: once the run has started, so
    // that no snapshot reads parts the start is still making.
    void startAutosaving();
    std::string keptPath() const;  // "" before the first save
    std::string keepError() const; // why the finished run was not kept, "" when it was
    void discard();                // stops keeping and deletes it: the user chose so
    // No snapshot while the probe ends.
    void stopAutosaving();

    // `--save-trace`: the recorder saves each explained miss's window into
    // `traceDir`, else beside the run in the library; a warning says why not.
    void openSavedTraces(MissEvidence &evidence, const std::string &traceDir, uint64_t maxBytes);
    // Their trace files by the path they are at now.
    void placeTraceFiles(std::vector<MissExplanation> &explanations) const;
    // The finished run: its traces placed beside its file (the library's,
    // else `outPath`), then the run kept over its autosave.
    void keepFinished(Run &run, const std::string &outPath);

private:
    struct Pending
    {
        RunLibrary library;
        RunAutosaver::Snapshot snapshot;
        std::chrono::milliseconds every;
    };
    std::unique_ptr<Pending> m_pending; // asked for, not yet started
    std::unique_ptr<RunAutosaver> m_autosaver;
    std::unique_ptr<SavedTraces> m_traces;
    std::string m_keepError;
};

} // namespace latprobe
