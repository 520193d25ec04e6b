#include "commandline.h"
#include "heappolicy.h"
#include "knobcheck.h"
#include "knobenvironment.h"
#include "reportcommand.h"
#include "rootwarning.h"
#include "runcommand.h"
#include "runscommand.h"
#include "selfexe.h"
#include "settingkind.h"
#include "sysinfo.h"
#include "version.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace latprobe;

namespace {

// What `--variant` may change here, and what each is now: the question
// before an A/B is "can this machine switch it, and from what".
void printVariantSettings()
{
    const KnobEnvironment env = KnobEnvironment::real();
    KnobRun run;
    run.allowCommands = true; // cmd= is the user's to allow, not the machine's to refuse
    fmt::print("\nvariant settings (latprobe run --variant NAME:SETTING,...)\n");
    for (const SettingKind &kind : settingKinds()) {
        const std::string setting = fmt::format("{}={}", kind.key, kind.syntax);
        const std::string refusal = machineRefusal(kind, env, run);
        if (!refusal.empty())
            fmt::print("  {:<34} refused: {}\n", setting, refusal);
        else if (kind.current)
            fmt::print("  {:<34} allowed, now {}\n", setting, kind.current(env));
        else
            fmt::print("  {:<34} allowed{}\n", setting,
                       kind.runsCommand ? " with --allow-commands" : "");
    }
}

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
    printVariantSettings();
    return 0;
}

// `latprobe` alone opens the GUI, a separate binary so that this one stays
// free of Qt: workers and the start consumer re-execute it hundreds of
// times, and loading Qt costs more than the starts it is meant to time.
int launchGui(int argc, char **argv, const RunOptions &runOptions,
              const std::vector<std::string> &commandLine)
{
    const char *display = std::getenv("DISPLAY");
    const char *wayland = std::getenv("WAYLAND_DISPLAY");
    const char *platform = std::getenv("QT_QPA_PLATFORM");
    if (!(display && *display) && !(wayland && *wayland) && !(platform && *platform)) {
        spdlog::warn("no display (DISPLAY and WAYLAND_DISPLAY are unset): measuring headless "
                     "for {} s instead; see 'latprobe run --help'",
                     runOptions.durationS);
        return executeRun(runOptions, commandLine);
    }
    const std::string self = selfExecutable();
    const std::string dir = self.substr(0, self.rfind('/'));
    const std::string candidates[] = {dir + "/latprobe-gui",
                                      dir + "/" LATPROBE_LIBEXEC_FROM_BIN "/latprobe-gui"};
    for (const std::string &gui : candidates) {
        if (access(gui.c_str(), X_OK) != 0)
            continue;
        setenv("LATPROBE_BINARY", self.c_str(), 0);
        std::vector<char *> args{const_cast<char *>(gui.c_str())};
        for (int i = 1; i < argc; ++i)
            args.push_back(argv[i]);
        args.push_back(nullptr);
        execv(gui.c_str(), args.data());
        spdlog::error("cannot start {}: {}", gui, std::strerror(errno));
        return 1;
    }
    spdlog::error("the GUI (latprobe-gui) is not installed beside {}: install it, or measure "
                  "headless with 'latprobe run'",
                  self);
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    if (int status = 0; runAsHelper(argc, argv, status))
        return status;

    returnLargeBlocksToTheSystem();
    const std::vector<std::string> commandLine(argv, argv + argc);

    CLI::App app("latprobe: a desktop interactivity latency probe for Linux.\n"
                 "Measures how late a simulated audio player, video player and\n"
                 "cyclictest-style wakeups run, and counts every missed deadline.",
                 "latprobe");
    app.set_version_flag("-V,--version", fmt::format("latprobe {}", kVersion));
    bool verbose = false, quiet = false;
    addVerbosityFlags(app, verbose, quiet);
    app.require_subcommand(0, 1);

    RunOptions runOptions;
    CLI::App *run = addRunCommand(app, runOptions);
    ReportOptions reportOptions;
    CLI::App *report = addReportCommand(app, reportOptions);
    CompareOptions compareOptions;
    CLI::App *compare = addCompareCommand(app, compareOptions);
    RunsOptions runsOptions;
    CLI::App *runs = addRunsCommand(app, runsOptions);
    CLI::App *sysinfo = app.add_subcommand("sysinfo", "Print what latprobe knows of this machine");

    if (const int status = parseCommandLine(app, argc, argv); status >= 0)
        return status;
    setUpLogging("latprobe", verbose, quiet);

    if (run->parsed())
        return executeRun(runOptions, commandLine);
    // `run` warns once its arguments are accepted; the GUI warns by itself.
    const char *warning = rootWarning();
    if (warning && (report->parsed() || compare->parsed() || sysinfo->parsed()))
        spdlog::warn("{}", warning);
    if (report->parsed())
        return executeReport(reportOptions);
    if (compare->parsed())
        return executeCompare(compareOptions);
    if (runs->parsed())
        return executeRuns(runsOptions);
    if (sysinfo->parsed())
        return printSysinfo();
    return launchGui(argc, argv, runOptions, commandLine);
}
