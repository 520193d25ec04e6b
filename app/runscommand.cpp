#include "runscommand.h"

#include "runlibrary.h"
#include "scenario.h"
#include "texttable.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace latprobe {

CLI::App *addRunsCommand(CLI::App &app, RunsOptions &o)
{
    CLI::App *cmd =
        app.add_subcommand("runs", "List the run library (every run latprobe kept), or prune it");
    cmd->footer("The library is $LATPROBE_LIBRARY, else $XDG_DATA_HOME/latprobe/runs, else\n"
                "~/.local/share/latprobe/runs. Only latprobe-*.json files are touched.\n"
                "Open a run with: latprobe report FILE; compare with: latprobe compare A B");
    cmd->add_option("-f,--format", o.format, "text (default) or json")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("--prune-to", o.pruneToMb,
                    "Delete the oldest runs until the library holds at most this many MiB")
        ->check(CLI::Range(0.0, 1e9));
    cmd->add_flag("--dir", o.dir, "Print the library's folder and exit");
    return cmd;
}

int executeRuns(const RunsOptions &o)
{
    const RunLibrary library;
    if (o.dir) {
        fmt::print("{}\n", library.dir());
        return 0;
    }
    if (o.pruneToMb >= 0) {
        const auto max = static_cast<uint64_t>(o.pruneToMb * 1024 * 1024);
        const RunLibrary::Pruned pruned = library.prune(max);
        fmt::print("pruned {} run{} ({:.1f} MiB) from {}\n", pruned.files,
                   pruned.files == 1 ? "" : "s", static_cast<double>(pruned.bytes) / (1 << 20),
                   library.dir());
        return 0;
    }
    const std::vector<RunLibrary::Entry> entries = library.list();
    if (o.format == "json") {
        nlohmann::json out = nlohmann::json::array();
        for (const RunLibrary::Entry &e : entries)
            out.push_back({{"path", e.path},
                           {"start_time", e.startTime},
                           {"kernel", e.kernel},
                           {"scheduler", e.scheduler},
                           {"scenario", e.scenario},
                           {"end_reason", e.endReason},
                           {"partial", e.partial},
                           {"duration_s", e.durationS},
                           {"phases", e.phases},
                           {"audio_misses", e.audioMisses},
                           {"video_misses", e.videoMisses},
                           {"wakeup_p99_us", e.wakeupP99Us},
                           {"bytes", e.bytes},
                           {"traces", e.traces},
                           {"headlines", e.headlines},
                           {"error", e.error}});
        fmt::print("{}\n", out.dump(1));
        return 0;
    }
    if (entries.empty()) {
        fmt::print("no runs in {} yet: every latprobe run and window session is kept there\n",
                   library.dir());
        return 0;
    }
    TextTable table({"started", "kernel", "scenario", "length", "skips", "drops", "end", "file"});
    uint64_t bytes = 0;
    bool partial = false;
    for (const RunLibrary::Entry &e : entries) {
        bytes += e.bytes;
        partial = partial || (e.partial && e.error.empty());
        const std::string file = e.path.substr(e.path.rfind('/') + 1);
        if (!e.error.empty()) {
            table.addRow({"?", "?", "?", "", "", "", "unreadable", file});
            continue;
        }
        table.addRow({e.startTime.substr(0, 16), e.kernel,
                      e.scenario.empty() ? kPlainRunScenario : e.scenario,
                      fmt::format("{:.0f} s", e.durationS), std::to_string(e.audioMisses),
                      std::to_string(e.videoMisses), e.partial ? e.endReason + "*" : e.endReason,
                      file});
    }
    fmt::print("{}", table.render());
    // A variant run's verdict is its point: under the table, one line each.
    for (const RunLibrary::Entry &e : entries)
        for (const std::string &line : e.headlines)
            fmt::print("{}: {}\n", e.path.substr(e.path.rfind('/') + 1), line);
    for (const RunLibrary::Entry &e : entries)
        if (e.traces > 0)
            fmt::print("{}: {} saved trace{} (--save-trace)\n",
                       e.path.substr(e.path.rfind('/') + 1), e.traces, e.traces == 1 ? "" : "s");
    fmt::print("{} run{}, {:.1f} MiB in {}{}\n", entries.size(), entries.size() == 1 ? "" : "s",
               static_cast<double>(bytes) / (1 << 20), library.dir(),
               partial ? " (* partial: interrupted, cancelled or autosaved)" : "");
    return 0;
}

} // namespace latprobe
