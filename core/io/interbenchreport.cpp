#include "interbenchreport.h"

#include <cctype>
#include <fmt/format.h>

namespace latprobe {

namespace {

// interbench's labels: "Audio", "Video", "X", "Gaming".
std::string label(const std::string &consumer)
{
    std::string out = consumer;
    if (!out.empty())
        out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}

std::string loadLabel(const std::string &phase, const std::string &consumerLabel)
{
    const std::string prefix = consumerLabel + ": ";
    return phase.rfind(prefix, 0) == 0 ? phase.substr(prefix.size()) : phase;
}

bool realTime(SchedPolicy policy)
{
    return policy == SchedPolicy::Fifo || policy == SchedPolicy::RoundRobin;
}

} // namespace

std::string formatInterbenchReport(const Run &run)
{
    std::string out = fmt::format("Benchmarking kernel {} with latprobe {}\n\n",
                                  run.system.kernelRelease, run.version);
    for (const ConsumerSetup &setup : run.consumers) {
        const std::string &name = setup.config.name;
        const std::string title = label(name);
        const bool rt = realTime(setup.grant.policy);
        const bool deadlines = setup.config.hasDeadline();
        std::string rows;
        for (const PhaseResult &phase : run.phases) {
            const ConsumerStats *s = phase.consumer(name);
            if (s == nullptr || s->samples == 0)
                continue;
            const double unit = rt ? 1.0 : 1000.0;
            // interbench's own formats, column for column.
            rows += fmt::format("{}\t{:6.1f} +/- {:<8.1f}{:6.1f}\t\t{:4.3g}",
                                loadLabel(phase.name, title), s->ibLatencyMeanUs / unit,
                                s->ibLatencyRmsUs / unit,
                                static_cast<double>(s->ibLatencyMaxUs) / unit, s->desiredCpuPct);
            if (deadlines)
                rows += fmt::format("\t{:11.3g}", s->deadlinesMetPct);
            rows += "\n";
        }
        if (rows.empty())
            continue;
        out += fmt::format("--- Benchmarking simulated cpu of {} {}in the presence of simulated "
                           "---\n",
                           title, rt ? "real time " : "");
        out += fmt::format("Load\tLatency +/- SD ({})  Max Latency   % Desired CPU{}\n",
                           rt ? "us" : "ms", deadlines ? "  % Deadlines Met" : "");
        out += rows + "\n";
    }
    return out;
}

} // namespace latprobe
