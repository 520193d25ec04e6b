#include "runkeeper.h"

#include "missevidence.h"
#include "savedtraces.h"

#include <spdlog/spdlog.h>

namespace latprobe {

RunKeeper::RunKeeper() = default;

RunKeeper::~RunKeeper() = default;

void RunKeeper::keepInLibrary(RunLibrary library, RunAutosaver::Snapshot snapshot,
                              std::chrono::milliseconds every)
{
    if (!m_autosaver && !m_pending)
        m_pending =
            std::make_unique<Pending>(Pending{std::move(library), std::move(snapshot), every});
}

void RunKeeper::startAutosaving()
{
    if (!m_pending)
        return;
    m_autosaver = std::make_unique<RunAutosaver>(std::move(m_pending->library),
                                                 std::move(m_pending->snapshot), m_pending->every);
    m_pending.reset();
}

std::string RunKeeper::keptPath() const
{
    return m_autosaver ? m_autosaver->path() : std::string();
}

std::string RunKeeper::keepError() const
{
    return m_autosaver ? m_keepError : "the run is not kept in a library (--no-library)";
}

void RunKeeper::discard()
{
    if (m_autosaver)
        m_autosaver->discard();
    m_autosaver.reset();
    m_pending.reset();
}

void RunKeeper::stopAutosaving()
{
    if (m_autosaver)
        m_autosaver->stopAutosaving();
}

void RunKeeper::openSavedTraces(MissEvidence &evidence, const std::string &traceDir,
                                uint64_t maxBytes)
{
    if (!evidence.recording()) {
        spdlog::warn("--save-trace: the flight recorder is off, so no trace is saved");
        return;
    }
    const std::string dir = !traceDir.empty() ? traceDir
                            : m_autosaver     ? m_autosaver->library().dir()
                                              : std::string();
    auto traces = std::make_unique<SavedTraces>();
    std::string error;
    if (dir.empty()) {
        spdlog::warn("--save-trace: no folder for the traces (give --save-trace=DIR): none is "
                     "saved");
    } else if (!traces->open(dir, error)) {
        spdlog::warn("{}", error);
    } else if (evidence.saveTraces(traces->writingDir(), maxBytes)) {
        m_traces = std::move(traces);
    }
}

void RunKeeper::placeTraceFiles(std::vector<MissExplanation> &explanations) const
{
    if (m_traces)
        for (MissExplanation &x : explanations)
            x.traceFile = m_traces->pathOf(x.traceFile);
}

void RunKeeper::keepFinished(Run &run, const std::string &outPath)
{
    if (m_traces) {
        const std::string runPath = m_autosaver ? m_autosaver->claimPath(run) : outPath;
        m_traces->place(run, runPath.empty() ? m_traces->dir() + "/latprobe-run.json" : runPath);
    }
    if (m_autosaver) {
        m_keepError.clear();
        m_autosaver->saveFinal(run, m_keepError);
    }
}

} // namespace latprobe
