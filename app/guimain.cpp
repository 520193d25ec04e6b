// latprobe-gui: the live window. `latprobe` with no arguments execs it,
// with LATPROBE_BINARY pointing at the small Qt-free latprobe binary that
// load workers and the start consumer re-execute.

#include "comparewindow.h"
#include "darkpalette.h"
#include "livesession.h"
#include "loadleader.h"
#include "loadlimits.h"
#include "loadspec.h"
#include "mainwindow.h"
#include "presets.h"
#include "processstarter.h"
#include "rootwarning.h"
#include "scenario.h"
#include "selfexe.h"
#include "signalwatcher.h"
#include "unattendedrun.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QStyleFactory>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
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

bool parseSeconds(const QString &text, double &value)
{
    bool ok = false;
    value = text.toDouble(&ok);
    return ok && value >= 0 && value <= 7 * 24 * 3600.0;
}

int fail(const QString &message)
{
    std::fprintf(stderr, "latprobe-gui: %s; see 'latprobe-gui --help'\n", qPrintable(message));
    return 2;
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

    Q_INIT_RESOURCE(latprobe);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("latprobe"));
    QApplication::setOrganizationName(QStringLiteral("latprobe"));
    QApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    QApplication::setDesktopFileName(QStringLiteral("latprobe"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("latprobe: a desktop interactivity latency probe for Linux (the GUI).\n"
                       "Measures at once; start loads from the window."));
    parser.addHelpOption();
    // -v is --verbose, as in `latprobe`; the version is -V.
    const QCommandLineOption version({QStringLiteral("V"), QStringLiteral("version")},
                                     QStringLiteral("Print the version and exit"));
    const QCommandLineOption runFor(QStringLiteral("run-for"),
                                    QStringLiteral("Unattended: quit after SECONDS, print the "
                                                   "report, write --out"),
                                    QStringLiteral("SECONDS"));
    const QCommandLineOption idle(QStringLiteral("idle"),
                                  QStringLiteral("Unattended: idle lead-in before --load "
                                                 "starts (default 5)"),
                                  QStringLiteral("SECONDS"), QStringLiteral("5"));
    const QCommandLineOption load({QStringLiteral("l"), QStringLiteral("load")},
                                  QStringLiteral("Unattended: a load to start after --idle, "
                                                 "KIND:N[:key=value...]; repeatable"),
                                  QStringLiteral("SPEC"));
    const QCommandLineOption out({QStringLiteral("o"), QStringLiteral("out")},
                                 QStringLiteral("Unattended: write the run to this JSON file"),
                                 QStringLiteral("FILE"));
    const QCommandLineOption preset({QStringLiteral("p"), QStringLiteral("preset")},
                                    QStringLiteral("Consumer preset: default, desktop, pro, "
                                                   "interbench"),
                                    QStringLiteral("NAME"), QStringLiteral("default"));
    const QCommandLineOption policy(QStringLiteral("policy"),
                                    QStringLiteral("Probe policy: other, fifo, rr, batch, idle"),
                                    QStringLiteral("POLICY"), QStringLiteral("other"));
    const QCommandLineOption priority(QStringLiteral("priority"),
                                      QStringLiteral("Real-time priority for fifo/rr (1-99)"),
                                      QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption nice(QStringLiteral("nice"),
                                  QStringLiteral("Nice value of the probe's threads"),
                                  QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption slack(QStringLiteral("timer-slack"),
                                   QStringLiteral("Timer slack of the probe's threads, ns"),
                                   QStringLiteral("NS"));
    const QCommandLineOption maxWorkers(QStringLiteral("max-workers"),
                                        QStringLiteral("Cap on load processes (default 2048)"),
                                        QStringLiteral("N"), QStringLiteral("2048"));
    const QCommandLineOption dark(QStringLiteral("dark"),
                                  QStringLiteral("Fusion style with a dark palette (also "
                                                 "LATPROBE_PALETTE=dark)"));
    const QCommandLineOption verbose({QStringLiteral("v"), QStringLiteral("verbose")},
                                     QStringLiteral("More diagnostics on stderr"));
    const QCommandLineOption quiet({QStringLiteral("q"), QStringLiteral("quiet")},
                                   QStringLiteral("Only errors on stderr"));
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QStringLiteral("Open the Compare window on the FILEs (runs "
                                                    "or cyclictest JSON); measure nothing"));
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("With --compare: a run file to compare"),
                                 QStringLiteral("[--compare FILE...]"));
    const QCommandLineOption scenario(QStringLiteral("scenario"),
                                      QStringLiteral("Play a scenario once measuring: built-in "
                                                     "quick, ramp, contest, interbench, or a "
                                                     "file"),
                                      QStringLiteral("NAME|FILE"));
    parser.addOptions({compare, scenario, version, runFor, idle, load, out, preset, policy,
                       priority, nice, slack, maxWorkers, dark, verbose, quiet});
    parser.process(app);
    if (parser.isSet(version)) {
        std::printf("latprobe %s\n", kVersion);
        return 0;
    }
    spdlog::set_level(parser.isSet(verbose) ? spdlog::level::debug
                      : parser.isSet(quiet) ? spdlog::level::err
                                            : spdlog::level::info);
    if (const char *warning = rootWarning(); warning && !parser.isSet(quiet))
        std::fprintf(stderr, "latprobe-gui: warning: %s\n", warning);

    if (!parser.isSet(compare) && !parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument \"%1\": run files go with --compare")
                        .arg(parser.positionalArguments().front()));

    LiveSession::Options options;
    for (int i = 0; i < argc; ++i)
        options.commandLine.emplace_back(argv[i]);
    options.preset = parser.value(preset).toStdString();
    if (!findPreset(options.preset))
        return fail(QStringLiteral("unknown preset \"%1\"").arg(parser.value(preset)));
    if (!parsePolicy(parser.value(policy).toStdString(), options.params.policy))
        return fail(QStringLiteral("unknown policy \"%1\"").arg(parser.value(policy)));
    options.params.priority = parser.value(priority).toInt();
    options.params.nice = parser.value(nice).toInt();
    if (parser.isSet(slack))
        options.params.timerSlackNs = parser.value(slack).toLongLong();
    options.limits.maxProcesses = std::max(1, parser.value(maxWorkers).toInt());

    std::vector<LoadSpec> loads;
    for (const QString &text : parser.values(load)) {
        LoadSpec spec;
        std::string error;
        if (!parseLoadSpec(text.toStdString(), spec, error))
            return fail(QString::fromStdString(error));
        loads.push_back(spec);
    }
    double runForS = 0, idleS = 5;
    if (parser.isSet(runFor) && (!parseSeconds(parser.value(runFor), runForS) || runForS <= 0))
        return fail(QStringLiteral("--run-for wants a number of seconds"));
    if (!parseSeconds(parser.value(idle), idleS))
        return fail(QStringLiteral("--idle wants a number of seconds"));
    if (!parser.isSet(runFor) && (!loads.empty() || parser.isSet(out)))
        return fail(QStringLiteral("--load and --out go with --run-for"));

    std::optional<Scenario> toPlay;
    if (parser.isSet(scenario)) {
        if (parser.isSet(runFor))
            return fail(QStringLiteral("--scenario and --run-for do not mix: use 'latprobe run "
                                       "--scenario' for an unattended scenario"));
        const std::string source = parser.value(scenario).toStdString();
        try {
            toPlay = builtinScenario(source);
            if (!toPlay)
                toPlay = loadScenarioFile(source);
        } catch (const ScenarioError &e) {
            return fail(QString::fromUtf8(e.what()));
        }
    }

    const QByteArray paletteEnv = qgetenv("LATPROBE_PALETTE");
    if (parser.isSet(dark) || paletteEnv == "dark") {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    }

    if (parser.isSet(compare)) {
        CompareWindow window;
        window.openFiles(parser.positionalArguments());
        window.show();
        return QApplication::exec();
    }

    if (const std::string error = checkDescriptorLimit(); !error.empty()) {
        std::fprintf(stderr, "latprobe-gui: %s\n", error.c_str());
        if (!parser.isSet(runFor))
            QMessageBox::critical(nullptr, QStringLiteral("latprobe"),
                                  QString::fromStdString(error) + QStringLiteral("."));
        return 2;
    }
    LiveSession session(options);
    MainWindow window(session);
    window.show();

    SignalWatcher signals_;
    UnattendedRun *unattended = nullptr;
    if (parser.isSet(runFor)) {
        unattended = new UnattendedRun(session, loads, idleS, runForS, parser.value(out), &app);
        QObject::connect(unattended, &UnattendedRun::finished, &app,
                         [](int code) { QCoreApplication::exit(code); });
    }
    // Measure once the window is up: building and first painting it is a
    // burst of CPU that does not belong in the idle baseline.
    QTimer::singleShot(250, &window, [&session, &window, unattended, toPlay] {
        session.start();
        if (unattended)
            unattended->start();
        if (toPlay)
            window.runScenario(*toPlay, true);
    });
    QObject::connect(&signals_, &SignalWatcher::received, &window, [&window, unattended](int) {
        if (unattended)
            unattended->finish(QStringLiteral("interrupted"));
        else
            window.close();
    });
    const int code = QApplication::exec();
    session.shutdown();
    return code;
}
