#include "runconclusion.h"

#include "report.h"
#include "runfile.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

namespace latprobe {

int concludeRun(const Run &run, RunEnd end, const std::string &out, const std::string &program)
{
    if (end == RunEnd::Interrupted)
        spdlog::warn("interrupted: reporting what was measured so far");
    for (const ConsumerSetup &c : run.consumers)
        if (const std::string w =
                loopWanderWarning(c.config.name, c.loopSpeed, c.workLoopSpeed, c.endLoopSpeed);
            !w.empty())
            spdlog::warn("{}", w);
    fmt::print("{}", formatTextReport(run));
    std::fflush(stdout);
    if (!out.empty()) {
        try {
            writeRunFile(run, out);
            spdlog::info("run written to {}", out);
        } catch (const RunFileError &e) {
            fmt::print(stderr, "{}: {}\n", program, e.what());
            return 1;
        }
    }
    if (end == RunEnd::Interrupted)
        return 130;
    // A load whose workers failed mid-run (each said why on stderr) did not
    // run as asked: the report is there, but the run is a failure.
    const bool loadError = std::any_of(run.loads.begin(), run.loads.end(),
                                       [](const LoadGroupResult &l) { return !l.error.empty(); });
    return end == RunEnd::LoadFailed || loadError ? 1 : 0;
}

} // namespace latprobe
