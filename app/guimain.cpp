// latprobe-gui: the live window. `latprobe` with no arguments execs it,
// with LATPROBE_BINARY pointing at the small Qt-free latprobe binary that
// load workers and the start consumer re-execute.

#include "commandline.h"
#include "comparewindow.h"
#include "darkpalette.h"
#include "heappolicy.h"
#include "livesession.h"
#include "mainwindow.h"
#include "preferencesdialog.h"
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
#include <QSettings>
#include <QStyleFactory>
#include <QTimer>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
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

// What latprobe-gui was asked to do, from its command line.
struct GuiOptions
{
    RunOptions run;
    double runForS = 0; // > 0: unattended, as `latprobe run` for that long
    bool compare = false, dark = false, verbose = false, quiet = false;
    std::vector<std::string> files; // with --compare
    bool unattended() const { return runForS > 0; }
};

// Parsed before QApplication exists: --help and --version need no display.
// Returns an exit status, or -1 to go on with `plan` resolved.
int parseGuiOptions(int argc, char **argv, GuiOptions &o, RunPlan &plan)
{
    CLI::App cli("latprobe: a desktop interactivity latency probe for Linux (the window).\n"
                 "Measures at once; start loads from the window. With --run-for, runs\n"
                 "unattended as 'latprobe run' does, the window open.",
                 "latprobe-gui");
    cli.set_version_flag("-V,--version", fmt::format("latprobe {}", kVersion));
    addRunOptions(cli, o.run, RunFrontEnd::Window);
    cli.add_option("--run-for", o.runForS,
                   "Unattended: quit after SECONDS, print the report, write --out")
        ->check(CLI::Range(0.1, 7 * 24 * 3600.0));
    addVerbosityFlags(cli, o.verbose, o.quiet);
    cli.add_flag("--compare", o.compare,
                 "Open the Compare window on the FILEs (runs or cyclictest JSON);\nmeasure "
                 "nothing");
    cli.add_option("files", o.files, "With --compare: run files to compare");
    cli.add_flag("--dark", o.dark, "Fusion style with a dark palette (also LATPROBE_PALETTE=dark)");
    if (const int status = parseCommandLine(cli, argc, argv); status >= 0)
        return status;
    setUpLogging("latprobe-gui", o.verbose, o.quiet);
    if (const char *warning = rootWarning(); warning && !o.quiet)
        spdlog::warn("{}", warning);

    if (!o.compare && !o.files.empty())
        return refuseArguments(
            "latprobe-gui", fmt::format("unexpected argument \"{}\": run files go with --compare",
                                        o.files.front()));
    if (!o.unattended() && (!o.run.loads.empty() || !o.run.out.empty()))
        return refuseArguments("latprobe-gui", "--load and --out go with --run-for");
    if (o.unattended() && !o.run.scenario.empty())
        return refuseArguments(
            "latprobe-gui",
            "--scenario and --run-for do not mix: use 'latprobe run --scenario' for an "
            "unattended scenario");
    if (o.unattended())
        o.run.durationS = o.runForS;
    std::string error;
    if (!o.compare && !resolveRunPlan(o.run, RunFrontEnd::Window, plan, error))
        return refuseArguments("latprobe-gui", error);
    return -1;
}

void setUpApplication(bool dark)
{
    QApplication::setApplicationName(QStringLiteral("latprobe"));
    QApplication::setOrganizationName(QStringLiteral("latprobe"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setDesktopFileName(QStringLiteral("latprobe"));
    if (dark || qgetenv("LATPROBE_PALETTE") == "dark") {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    }
}

int openCompareWindow(const std::vector<std::string> &files)
{
    CompareWindow window;
    QStringList paths;
    for (const std::string &f : files)
        paths << QString::fromStdString(f);
    window.openFiles(paths);
    window.show();
    return QApplication::exec();
}

// One window measuring one run until it closes. Returns its exit status;
// `next` gets the scenario to play in a new run when the user chose one.
int measureInWindow(const GuiOptions &o, const RunPlan &plan, SignalWatcher &signals_,
                    const std::vector<std::string> &commandLine, std::optional<Scenario> &next)
{
    RunOptions run = o.run;
    // Edit ▸ Preferences can ask for --save-trace in every window.
    if (QSettings(QStringLiteral("latprobe"), QStringLiteral("latprobe"))
            .value(QLatin1String(PreferencesDialog::kSaveTracesKey), false)
            .toBool())
        run.saveTrace = true;
    LiveSession session(sessionOptions(plan, run, RunFrontEnd::Window, commandLine));
    // Every window session is kept in the run library as it goes.
    if (!o.run.noLibrary)
        session.keepInLibrary(RunLibrary());
    MainWindow window(session);
    QObject::connect(&window, &MainWindow::closedForNewRun, qApp,
                     [] { QCoreApplication::exit(0); });
    window.show();

    UnattendedRun *unattendedRun = nullptr;
    if (o.unattended()) {
        unattendedRun =
            new UnattendedRun(session, plan.scenario, QString::fromStdString(o.run.out), qApp);
        QObject::connect(unattendedRun, &UnattendedRun::finished, qApp,
                         [](int code) { QCoreApplication::exit(code); });
    }
    // Measure once the window is up: building and first painting it is a
    // burst of CPU that does not belong in the idle baseline.
    QTimer::singleShot(250, &window, [&session, &window, &plan, unattendedRun] {
        session.start();
        if (unattendedRun)
            unattendedRun->start();
        else if (plan.scenarioChosen)
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
    next = window.nextRun();
    return code;
}

} // namespace

int main(int argc, char **argv)
{
    // Only when LATPROBE_BINARY points here: act as the worker binary.
    if (int status = 0; runAsHelper(argc, argv, status))
        return status;
    locateLatprobeBinary();
    returnLargeBlocksToTheSystem();

    GuiOptions o;
    RunPlan plan;
    if (const int status = parseGuiOptions(argc, argv, o, plan); status >= 0)
        return status;

    Q_INIT_RESOURCE(latprobe);
    QApplication app(argc, argv);
    setUpApplication(o.dark);
    if (o.compare)
        return openCompareWindow(o.files);

    if (const std::string error = checkRunEnvironment(o.run); !error.empty()) {
        spdlog::error("{}", error);
        if (!o.unattended())
            QMessageBox::critical(nullptr, QStringLiteral("latprobe"),
                                  QString::fromStdString(error) + QStringLiteral("."));
        return 2;
    }
    if (!o.run.out.empty())
        removeStaleSaveTemps(o.run.out); // what a killed save to the same file left

    SignalWatcher signals_;
    const std::vector<std::string> commandLine(argv, argv + argc);
    // A scenario the user chose to play in a run of its own closes the
    // window, its run kept; a new window measures the new run from its start.
    for (;;) {
        std::optional<Scenario> next;
        const int code = measureInWindow(o, plan, signals_, commandLine, next);
        if (!next)
            return code;
        plan.scenario = *next;
        plan.scenarioChosen = true;
    }
}
