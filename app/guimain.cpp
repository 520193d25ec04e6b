// latprobe-gui: the live window. `latprobe` with no arguments execs it,
// with LATPROBE_BINARY pointing at the small Qt-free latprobe binary that
// load workers and the start consumer re-execute.

#include "commandline.h"
#include "comparewindow.h"
#include "darkpalette.h"
#include "heappolicy.h"
#include "livesession.h"
#include "loadleader.h"
#include "mainwindow.h"
#include "processstarter.h"
#include "rootwarning.h"
#include "runfile.h"
#include "runoptionscli.h"
#include "selfexe.h"
#include "signalwatcher.h"
#include "unattendedrun.h"
#include "version.h"

#include <CLI/CLI.hpp>
#include <QApplication>
#include <QMessageBox>
#include <QStyleFactory>
#include <QTimer>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unistd.h>

using namespace latprobe;

namespace {

// Started directly (not through `latprobe`): find latprobe beside us or in
// the bin directory. Failing that, workers would re-execute this binary,
// which still works (see main) but pays for loading Qt at every start.
void locateLatprobeBinary()
{
    const char *env = std::getenv("LATPROBE_BINARY");
    if (env && *env)
        return;
    const std::string self = selfExecutable();
    const std::string dir = self.substr(0, self.rfind('/'));
    const std::string candidates[] = {dir + "/latprobe",
                                      dir + "/" LATPROBE_BIN_FROM_LIBEXEC "/latprobe"};
    for (const std::string &c : candidates)
        if (access(c.c_str(), X_OK) == 0) {
            setenv("LATPROBE_BINARY", c.c_str(), 1);
            return;
        }
}

} // namespace

int main(int argc, char **argv)
{
    // Only when LATPROBE_BINARY points here: act as the worker binary.
    if (argc > 1 && std::string_view(argv[1]) == kStartProbeFlag)
        return runStartProbe();
    if (argc > 1 && std::string_view(argv[1]) == kLoadLeaderFlag)
        return runLoadLeader(argc, argv);
    locateLatprobeBinary();
    returnLargeBlocksToTheSystem();

    // Parsed before QApplication exists: --help and --version need no display.
    CLI::App cli("latprobe: a desktop interactivity latency probe for Linux (the window).\n"
                 "Measures at once; start loads from the window. With --run-for, runs\n"
                 "unattended as 'latprobe run' does, the window open.",
                 "latprobe-gui");
    cli.set_version_flag("-V,--version", fmt::format("latprobe {}", kVersion));
    RunOptions run;
    addRunOptions(cli, run, RunFrontEnd::Window);
    double runForS = 0;
    cli.add_option("--run-for", runForS,
                   "Unattended: quit after SECONDS, print the report, write --out")
        ->check(CLI::Range(0.1, 7 * 24 * 3600.0));
    bool compare = false, dark = false, verbose = false, quiet = false;
    addVerbosityFlags(cli, verbose, quiet);
    std::vector<std::string> files;
    cli.add_flag("--compare", compare,
                 "Open the Compare window on the FILEs (runs or cyclictest JSON);\nmeasure "
                 "nothing");
    cli.add_option("files", files, "With --compare: run files to compare");
    cli.add_flag("--dark", dark, "Fusion style with a dark palette (also LATPROBE_PALETTE=dark)");
    if (const int status = parseCommandLine(cli, argc, argv); status >= 0)
        return status;
    setUpLogging("latprobe-gui", verbose, quiet);
    if (const char *warning = rootWarning(); warning && !quiet)
        spdlog::warn("{}", warning);

    const bool unattended = runForS > 0;
    if (!compare && !files.empty())
        return refuseArguments(
            "latprobe-gui",
            fmt::format("unexpected argument \"{}\": run files go with --compare", files.front()));
    if (!unattended && (!run.loads.empty() || !run.out.empty()))
        return refuseArguments("latprobe-gui", "--load and --out go with --run-for");
    if (unattended && !run.scenario.empty())
        return refuseArguments(
            "latprobe-gui",
            "--scenario and --run-for do not mix: use 'latprobe run --scenario' for an "
            "unattended scenario");
    if (unattended)
        run.durationS = runForS;
    RunPlan plan;
    std::string error;
    if (!compare && !resolveRunPlan(run, RunFrontEnd::Window, plan, error))
        return refuseArguments("latprobe-gui", error);

    Q_INIT_RESOURCE(latprobe);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("latprobe"));
    QApplication::setOrganizationName(QStringLiteral("latprobe"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setDesktopFileName(QStringLiteral("latprobe"));

    const QByteArray paletteEnv = qgetenv("LATPROBE_PALETTE");
    if (dark || paletteEnv == "dark") {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    }

    if (compare) {
        CompareWindow window;
        QStringList paths;
        for (const std::string &f : files)
            paths << QString::fromStdString(f);
        window.openFiles(paths);
        window.show();
        return QApplication::exec();
    }

    if (error = checkRunEnvironment(run); !error.empty()) {
        spdlog::error("{}", error);
        if (!unattended)
            QMessageBox::critical(nullptr, QStringLiteral("latprobe"),
                                  QString::fromStdString(error) + QStringLiteral("."));
        return 2;
    }
    if (!run.out.empty())
        removeStaleSaveTemps(run.out); // what a killed save to the same file left

    SignalWatcher signals_;
    // A scenario the user chose to play in a run of its own closes the
    // window, its run kept; a new window measures the new run from its start.
    for (;;) {
        LiveSession session(sessionOptions(plan, run, RunFrontEnd::Window,
                                           std::vector<std::string>(argv, argv + argc)));
        // Every window session is kept in the run library as it goes.
        if (!run.noLibrary)
            session.keepInLibrary(RunLibrary());
        MainWindow window(session);
        QObject::connect(&window, &MainWindow::closedForNewRun, &app,
                         [] { QCoreApplication::exit(0); });
        window.show();

        UnattendedRun *unattendedRun = nullptr;
        if (unattended) {
            unattendedRun =
                new UnattendedRun(session, plan.scenario, QString::fromStdString(run.out), &app);
            QObject::connect(unattendedRun, &UnattendedRun::finished, &app,
                             [](int code) { QCoreApplication::exit(code); });
        }
        // Measure once the window is up: building and first painting it is a
        // burst of CPU that does not belong in the idle baseline.
        const bool playScenario = plan.scenarioChosen;
        QTimer::singleShot(250, &window, [&session, &window, &plan, unattendedRun, playScenario] {
            session.start();
            if (unattendedRun)
                unattendedRun->start();
            else if (playScenario)
                window.runScenario(plan.scenario, true);
        });
        QObject::connect(&signals_, &SignalWatcher::received, &window,
                         [&window, &session, unattendedRun](int signal) {
                             if (signal == SIGUSR1)
                                 session.captureNow(); // as `latprobe run` does
                             else if (unattendedRun)
                                 unattendedRun->interrupt();
                             else
                                 window.closeKeepingRun();
                         });
        const int code = QApplication::exec();
        session.shutdown();
        if (!window.nextRun())
            return code;
        plan.scenario = *window.nextRun();
        plan.scenarioChosen = true;
    }
}
