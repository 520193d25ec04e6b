#include "loadleader.h"
#include "processstarter.h"
#include "runcommand.h"
#include "sysinfo.h"
#include "version.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <string>
#include <string_view>
#include <vector>

using namespace latprobe;

namespace {

int printSysinfo()
{
    const SystemInfo s = readSystemInfo();
    fmt::print("kernel          {} ({})\n", s.kernelRelease, s.kernelVersion);
    fmt::print("machine         {}\n", s.machine);
    fmt::print("cpu             {} x {}\n", s.cpuCount, s.cpuModel);
    fmt::print("governor        {}\n", s.governor);
    fmt::print("hz              {}\n", s.hz);
    fmt::print("preemption      {}\n", s.preemption);
    fmt::print("scheduler       {}\n", s.scheduler);
    fmt::print("autogroup       {}\n", s.autogroup);
    fmt::print("rt throttling   {}\n", s.rtThrottling);
    fmt::print("virtualization  {}\n", s.virtualization);
    fmt::print("cmdline         {}\n", s.cmdline);
    return 0;
}

void setUpLogging(bool verbose, bool quiet)
{
    auto logger = spdlog::stderr_color_mt("latprobe");
    logger->set_pattern("latprobe: %^%l%$: %v");
    logger->set_level(verbose ? spdlog::level::debug
                      : quiet ? spdlog::level::err
                              : spdlog::level::info);
    spdlog::set_default_logger(logger);
}

} // namespace

int main(int argc, char **argv)
{
    // A load group's leader: dispatched before anything else is set up, so a
    // worker costs no more than the exec.
    if (argc > 1 && std::string_view(argv[1]) == kStartProbeFlag)
        return runStartProbe();
    if (argc > 1 && std::string_view(argv[1]) == kLoadLeaderFlag)
        return runLoadLeader(argc, argv);

    const std::vector<std::string> commandLine(argv, argv + argc);

    CLI::App app("latprobe: a desktop interactivity latency probe for Linux.\n"
                 "Measures how late a simulated audio player, video player and\n"
                 "cyclictest-style wakeups run, and counts every missed deadline.",
                 "latprobe");
    app.set_version_flag("-V,--version", fmt::format("latprobe {}", kVersion));
    bool verbose = false, quiet = false;
    app.add_flag("-v,--verbose", verbose, "More diagnostics on stderr");
    app.add_flag("-q,--quiet", quiet, "Only errors on stderr");
    app.require_subcommand(0, 1);

    RunOptions runOptions;
    CLI::App *run = addRunCommand(app, runOptions);
    CLI::App *sysinfo = app.add_subcommand("sysinfo", "Print what latprobe knows of this machine");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        fmt::print(stderr, "latprobe: {}; see 'latprobe --help'\n", e.what());
        return 2;
    }
    setUpLogging(verbose, quiet);

    if (run->parsed())
        return executeRun(runOptions, commandLine);
    if (sysinfo->parsed())
        return printSysinfo();
    fmt::print("{}", app.help());
    return 0;
}
