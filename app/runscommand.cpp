#include "runscommand.h"

#include "runlibrary.h"
#include "scenario.h"
#include "texttable.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace latprobe {

namespace {

// "audio_misses", "wakeup_p99_us": a consumer column's key in --format json.
std::string summaryKey(const ConsumerSummary &c)
{
    return fmt::format("{}_{}", c.traits->name,
                       c.traits->summary == SummaryFigure::P99 ? "p99_us" : "misses");
}

std::string lowercase(std::string_view text)
{
    std::string out(text);
    for (char &ch : out)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

// The consumer columns that some listed run measured, as indexes into every
// entry's `consumers`: a library of headless runs has no "stalls" column.
std::vector<size_t> measuredColumns(const std::vector<RunLibrary::Entry> &entries, size_t columns)
{
    std::vector<size_t> shown;
    for (size_t c = 0; c < columns; ++c)
        if (std::any_of(entries.begin(), entries.end(), [c](const RunLibrary::Entry &e) {
                return c < e.consumers.size() && e.consumers[c].measured;
            }))
            shown.push_back(c);
    return shown;
}

} // namespace

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

namespace {

void printRunsJson(const std::vector<RunLibrary::Entry> &entries)
{
    nlohmann::json out = nlohmann::json::array();
    for (const RunLibrary::Entry &e : entries) {
        out.push_back({{"path", e.path},
                       {"start_time", e.startTime},
                       {"kernel", e.kernel},
                       {"scheduler", e.scheduler},
                       {"scenario", e.scenario},
                       {"end_reason", e.endReason},
                       {"partial", e.partial},
                       {"duration_s", e.durationS},
                       {"phases", e.phases},
                       {"bytes", e.bytes},
                       {"traces", e.traces},
                       {"headlines", e.headlines},
                       {"error", e.error}});
        // A key per consumer column: "audio_misses", "wakeup_p99_us".
        for (const ConsumerSummary &c : e.consumers)
            out.back()[summaryKey(c)] = c.traits->summary == SummaryFigure::P99
                                            ? nlohmann::json(c.p99Us)
                                            : nlohmann::json(c.misses);
    }
    fmt::print("{}\n", out.dump(1));
}

// A line per run, a column per consumer the runs measured.
std::string runsTable(const std::vector<RunLibrary::Entry> &entries)
{
    const std::vector<ConsumerSummary> columns = summarizeConsumers(std::vector<PhaseResult>{});
    const std::vector<size_t> shown = measuredColumns(entries, columns.size());
    std::vector<std::string> head = {"started", "kernel", "scenario", "length"};
    for (size_t c : shown)
        head.push_back(lowercase(columns[c].traits->column));
    head.insert(head.end(), {"end", "file"});
    TextTable table(head);
    for (const RunLibrary::Entry &e : entries) {
        const std::string file = e.path.substr(e.path.rfind('/') + 1);
        std::vector<std::string> row;
        if (!e.error.empty()) {
            row = {"?", "?", "?", ""};
            row.resize(row.size() + shown.size());
            row.insert(row.end(), {"unreadable", file});
            table.addRow(row);
            continue;
        }
        row = {e.startTime.substr(0, 16), e.kernel,
               e.scenario.empty() ? kPlainRunScenario : e.scenario,
               fmt::format("{:.0f} s", e.durationS)};
        for (size_t c : shown)
            row.push_back(e.consumers[c].text());
        row.insert(row.end(), {e.partial ? e.endReason + "*" : e.endReason, file});
        table.addRow(row);
    }
    return table.render();
}

} // namespace

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
        printRunsJson(entries);
        return 0;
    }
    if (entries.empty()) {
        fmt::print("no runs in {} yet: every latprobe run and window session is kept there\n",
                   library.dir());
        return 0;
    }
    fmt::print("{}", runsTable(entries));
    uint64_t bytes = 0;
    bool partial = false;
    for (const RunLibrary::Entry &e : entries) {
        bytes += e.bytes;
        partial = partial || (e.partial && e.error.empty());
    }
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
