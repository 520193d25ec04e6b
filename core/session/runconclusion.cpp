#include "runconclusion.h"

#include "report.h"
#include "runfile.h"
#include "savedtraces.h"
#include "session.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

namespace latprobe {

int concludeRun(Session &session, RunEnd end, const std::string &out, const std::string &program)
{
    if (end == RunEnd::LoadFailed || end == RunEnd::SettingFailed)
        if (const std::optional<ScenarioOutcome> outcome = session.lastScenario())
            spdlog::error("{}", outcome->error);
    const Run run = session.finish(end);
    if (end == RunEnd::Interrupted)
        spdlog::warn("interrupted: reporting what was measured so far");
    for (const ConsumerSetup &c : run.consumers)
        if (const std::string w =
                loopWanderWarning(c.config.name, c.loopSpeed, c.workLoopSpeed, c.endLoopSpeed);
            !w.empty())
            spdlog::warn("{}", w);
    fmt::print("{}", formatTextReport(run));
    std::fflush(stdout);
    int status = 0;
    if (!out.empty()) {
        try {
            // Its traces were placed beside the library's copy.
            Run copy = run;
            if (const std::string kept = session.keptPath(); !kept.empty())
                rebaseTraceFiles(copy, kept, out);
            writeRunFile(copy, out);
            spdlog::info("run written to {}", out);
        } catch (const RunFileError &e) {
            fmt::print(stderr, "{}: {}\n", program, e.what());
            status = 1;
        }
    }
    if (session.keepsInLibrary()) {
        if (const std::string error = session.keepError(); error.empty())
            spdlog::info("kept in the run library: {}", session.keptPath());
        else
            spdlog::warn("not kept in the run library: {}", error);
    }
    if (status != 0)
        return status;
    if (end == RunEnd::Interrupted)
        return 130;
    // A load whose workers failed mid-run (each said why on stderr) did not
    // run as asked: the report is there, but the run is a failure.
    const bool loadError = std::any_of(run.loads.begin(), run.loads.end(),
                                       [](const LoadGroupResult &l) { return !l.error.empty(); });
    return end == RunEnd::LoadFailed || end == RunEnd::SettingFailed || loadError ? 1 : 0;
}

} // namespace latprobe
