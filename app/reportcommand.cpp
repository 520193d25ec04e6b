#include "reportcommand.h"

#include "compare.h"
#include "cyclictestimport.h"
#include "outputformat.h"
#include "report.h"
#include "runfile.h"
#include "variantcompare.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace latprobe {

CLI::App *addReportCommand(CLI::App &app, ReportOptions &o)
{
    CLI::App *cmd = app.add_subcommand("report", "Print the report of a saved run");
    cmd->add_option("run", o.file, "A run file (or cyclictest --json output)")->required();
    cmd->add_option("-f,--format", o.format, formatHelp(runFormats()))
        ->check(CLI::IsMember(formatNames(runFormats())));
    cmd->add_flag("--state", o.state, "Also print the system state captured during the run");
    return cmd;
}

CLI::App *addCompareCommand(CLI::App &app, CompareOptions &o)
{
    CLI::App *cmd = app.add_subcommand(
        "compare", "Line runs up by what ran in each phase and compare each with the first");
    cmd->add_option("runs", o.files,
                    "Run files (or cyclictest --json outputs); the first is the reference")
        ->required()
        ->expected(1, -1);
    cmd->add_option("-f,--format", o.format, formatHelp(comparisonFormats()))
        ->check(CLI::IsMember(formatNames(comparisonFormats())));
    return cmd;
}

int executeReport(const ReportOptions &o)
{
    try {
        const Run run = readAnyRunFile(o.file);
        const RunFormat *format = findFormat(runFormats(), o.format);
        fmt::print("{}", (format ? *format : runFormats().front()).write(run));
        if (o.state) {
            if (run.states.empty())
                fmt::print("\nno system state was captured in this run\n");
            for (const StateCapture &s : run.states)
                fmt::print("\n{}", formatStateCapture(s));
        }
    } catch (const RunFileError &e) {
        fmt::print(stderr, "latprobe report: {}\n", e.what());
        return 2;
    }
    return 0;
}

int executeCompare(const CompareOptions &o)
{
    std::vector<Run> runs;
    try {
        for (const std::string &file : o.files)
            runs.push_back(readAnyRunFile(file));
    } catch (const RunFileError &e) {
        // A file it cannot use is a bad argument (README, exit codes).
        fmt::print(stderr, "latprobe compare: {}\n", e.what());
        return 2;
    }
    // One run that played variants in turns: its variants are the runs.
    const bool variants = runs.size() == 1 && hasVariants(runs.front());
    const Comparison c = variants ? compareVariants(runs.front()) : compareRuns(runs, o.files);
    const ComparisonFormat *format = findFormat(comparisonFormats(), o.format);
    fmt::print("{}", (format ? *format : comparisonFormats().front()).write(c));
    if (variants && (!format || format == &comparisonFormats().front()))
        for (const std::string &line : variantHeadlines(runs.front(), c))
            fmt::print("{}\n", line);
    return 0;
}

} // namespace latprobe
