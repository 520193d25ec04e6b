// The latprobe binary as a user or a script runs it: version and help, a
// one-line fix-it message and exit 2 for every bad argument, a short run
// that reports and saves, and Ctrl-C that still reports and saves.

#include "runfile.h"
#include "runprogram.h"
#include "settingkind.h"
#include "statewait.h"
#include "version.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace latprobe;

namespace {

QString binary()
{
    QString fromCTest = qEnvironmentVariable("LATPROBE_BINARY");
    if (!fromCTest.isEmpty())
        return fromCTest;
    return QCoreApplication::applicationDirPath() + "/../../app/latprobe";
}

Outcome runLatprobe(const QStringList &args)
{
    return runProgram(binary(), args);
}

// Whether process `pid` runs a probe thread ("lp-wakeup", "lp-audio", ...).
bool measuring(qint64 pid)
{
    const QDir tasks(QString("/proc/%1/task").arg(pid));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + "/comm"));
        // A consumer's thread: the session's own (lp-session, lp-capture...)
        // exist from the start, before the noise check.
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().startsWith("lp-audio"))
            return true;
    }
    return false;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void versionIsTheProjectVersion_data();
    void versionIsTheProjectVersion();
    void helpExitsZero_data();
    void helpExitsZero();
    void badArgumentExits2WithOneLineSayingHowToFixIt_data();
    void badArgumentExits2WithOneLineSayingHowToFixIt();
    void shortRunReportsAndWritesARunFile();
    void interbenchPresetWakesByATimekeeperAndRunsGamingOnRequest();
    void ctrlCEndsARunWithAReportAndAPartialRunFile();
    void withoutADisplayItSaysSoAndMeasuresHeadless();
    void everyRunIsKeptInTheLibraryAndListed();
    void aKilledRunLeavesItsAutosaveInTheLibrary();
    void sysinfoListsEveryVariantSettingAllowedOrWhyNot();
    void sysinfoAsAUserSaysWhatNeedsRoot();
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(binary()).isExecutable(), qPrintable(binary() + " is not executable"));
}

void TestCli::versionIsTheProjectVersion_data()
{
    QTest::addColumn<QString>("option");
    QTest::newRow("--version") << "--version";
    QTest::newRow("-V") << "-V";
}

void TestCli::versionIsTheProjectVersion()
{
    QFETCH(QString, option);
    const Outcome o = runLatprobe({option});
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QCOMPARE(o.exitCode, 0);
    QCOMPARE(o.out, QString("latprobe %1\n").arg(kVersion));
    QCOMPARE(o.err, QString());
}

void TestCli::helpExitsZero_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mustMention");
    QTest::newRow("--help") << QStringList{"--help"} << QStringList{"run", "sysinfo", "--version"};
    QTest::newRow("run --help") << QStringList{"run", "--help"}
                                << QStringList{"--duration", "--consumers", "--out", "--preset"};
}

void TestCli::helpExitsZero()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, mustMention);
    const Outcome o = runLatprobe(args);
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QCOMPARE(o.exitCode, 0);
    for (const QString &text : mustMention)
        QVERIFY2(o.out.contains(text), qPrintable(text + " not in:\n" + o.out));
}

void TestCli::badArgumentExits2WithOneLineSayingHowToFixIt_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mustMention"); // what is wrong, and the way out

    // A CPU this machine does not have, even with many CPUs.
    const QString noSuchCpu = QString::number(std::max<long>(99, sysconf(_SC_NPROCESSORS_CONF)));

    QTest::newRow("unknown option") << QStringList{"--bogus"} << QStringList{"--bogus", "--help"};
    QTest::newRow("unknown run option")
        << QStringList{"run", "--bogus"} << QStringList{"--bogus", "--help"};
    QTest::newRow("unknown subcommand")
        << QStringList{"frobnicate"} << QStringList{"frobnicate", "--help"};
    QTest::newRow("--duration -1")
        << QStringList{"run", "--duration", "-1"} << QStringList{"--duration", "0.1"};
    QTest::newRow("--duration abc")
        << QStringList{"run", "--duration", "abc"} << QStringList{"--duration", "abc"};
    QTest::newRow("--duration without a value")
        << QStringList{"run", "--duration"} << QStringList{"--duration"};
    QTest::newRow("--consumers foo") << QStringList{"run", "--consumers", "foo"}
                                     << QStringList{"\"foo\"", "audio, video", "x and/or gaming"};
    QTest::newRow("--consumers named twice")
        << QStringList{"run", "--consumers", "wakeup,wakeup"} << QStringList{"\"wakeup\""};
    QTest::newRow("--wake alarm") << QStringList{"run", "--wake", "alarm"}
                                  << QStringList{"--wake", "timekeeper"};
    QTest::newRow("--audio-buffer with the timekeeper")
        << QStringList{"run", "--wake", "timekeeper", "--audio-buffer", "4"}
        << QStringList{"--audio-buffer", "--wake timer"};
    QTest::newRow("--preset nope")
        << QStringList{"run", "--preset", "nope"} << QStringList{"\"nope\"", "default, desktop"};
    QTest::newRow("--preset naming a scenario, as it once could")
        << QStringList{"run", "--preset", "ramp"}
        << QStringList{"--preset ramp", "--scenario ramp"};
    QTest::newRow("--preset nope beside a scenario")
        << QStringList{"run", "--scenario", "quick", "--preset", "nope"}
        << QStringList{"\"nope\"", "default, desktop"};
    QTest::newRow("--policy fifo without a priority")
        << QStringList{"run", "--policy", "fifo"} << QStringList{"fifo", "--priority 1..99"};
    QTest::newRow("--priority without a real-time policy")
        << QStringList{"run", "--priority", "5"} << QStringList{"--policy fifo or rr"};
    QTest::newRow("--cpus past the last CPU")
        << QStringList{"run", "--cpus", noSuchCpu}
        << QStringList{"CPU " + noSuchCpu, "this machine has 0-"};
    QTest::newRow("--cpus x") << QStringList{"run", "--cpus", "x"}
                              << QStringList{"\"x\"", "e.g. 0 or 0,2 or 0-1"};
    QTest::newRow("--align-us a second or more")
        << QStringList{"run", "--align-us", "1000000"} << QStringList{"--align-us", "999999"};
    QTest::newRow("--save-trace with --no-trace")
        << QStringList{"run", "--save-trace", "--no-trace"} << QStringList{"drop --no-trace"};
    QTest::newRow("--save-trace with nowhere to put them")
        << QStringList{"run", "--save-trace", "--no-library"}
        << QStringList{"--save-trace=DIR", "--out FILE"};
    QTest::newRow("--trace-max 0")
        << QStringList{"run", "--trace-max", "0"} << QStringList{"--trace-max"};
}

void TestCli::badArgumentExits2WithOneLineSayingHowToFixIt()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, mustMention);

    const Outcome o = runLatprobe(args);
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QCOMPARE(o.exitCode, 2);
    QCOMPARE(o.out, QString());
    QVERIFY2(o.err.endsWith('\n') && o.err.count('\n') == 1, qPrintable(o.describe()));
    QVERIFY2(o.err.startsWith("latprobe"), qPrintable(o.err));
    for (const QString &text : mustMention)
        QVERIFY2(o.err.contains(text), qPrintable(text + " not in: " + o.err));
}

void TestCli::shortRunReportsAndWritesARunFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath("short.json");
    QElapsedTimer wall;
    wall.start();
    const Outcome o = runLatprobe(
        {"run", "--duration", "1", "--consumers", "wakeup", "--out", file, "--no-progress"});
    const double wallS = static_cast<double>(wall.elapsed()) / 1000;
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QCOMPARE(o.exitCode, 0);

    QVERIFY2(o.out.startsWith(QString("latprobe %1 ").arg(kVersion)), qPrintable(o.out));
    QVERIFY2(o.out.contains("\nphase 1/1 "), qPrintable(o.out));
    QVERIFY2(o.out.contains("\nwakeup "), qPrintable(o.out));
    for (const QString &line : o.out.split('\n'))
        QVERIFY2(line.size() <= 72, qPrintable(line));

    Run run;
    try {
        run = readRunFile(file.toStdString());
    } catch (const RunFileError &e) {
        QFAIL(e.what());
    }
    QCOMPARE(run.version, std::string(kVersion));
    QVERIFY(!run.partial);
    QCOMPARE(run.endReason, std::string("completed"));
    QCOMPARE(run.consumers.size(), 1u);
    QCOMPARE(run.consumers[0].config.name, std::string("wakeup"));
    QCOMPARE(run.phases.size(), 1u);
    const ConsumerStats &w = run.phases[0].consumers.at(0);
    // How many of its periods a busy machine lets it serve is not this
    // test's business (tst_probe checks the accounting): only that it
    // measured, for the second asked, within the program's own lifetime.
    QVERIFY2(w.samples > 0 && w.samples <= w.expected,
             qPrintable(QString("%1 of %2").arg(w.samples).arg(w.expected)));
    QVERIFY2(run.phases[0].durationS >= 1.0 && run.phases[0].durationS < wallS,
             qPrintable(QString("%1 s measured in %2 s").arg(run.phases[0].durationS).arg(wallS)));
    QVERIFY(std::find(run.commandLine.begin(), run.commandLine.end(), "--duration") !=
            run.commandLine.end());
}

void TestCli::interbenchPresetWakesByATimekeeperAndRunsGamingOnRequest()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath("interbench.json");
    const Outcome o =
        runLatprobe({"run", "--duration", "1", "--preset", "interbench", "--consumers",
                     "video,gaming", "--out", file, "--no-progress", "--no-noise-check"});
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QCOMPARE(o.exitCode, 0);
    QVERIFY2(o.out.contains("wake timekeeper"), qPrintable(o.out));
    QVERIFY2(o.out.contains("\ngaming "), qPrintable(o.out));

    Run run;
    try {
        run = readRunFile(file.toStdString());
    } catch (const RunFileError &e) {
        QFAIL(e.what());
    }
    QCOMPARE(run.consumers.size(), 2u);
    const ConsumerSetup &video = run.consumers[0];
    QCOMPARE(video.config.wake, WakeMethod::Timekeeper);
    // SCHED_FIFO 96 when permitted, else SCHED_OTHER and why.
    const ThreadGrant &tk = video.timekeeperGrant;
    QVERIFY2(
        (tk.policy == SchedPolicy::Fifo && tk.priority == 96 && tk.refusal.empty()) ||
            (tk.policy == SchedPolicy::Other && !tk.refusal.empty()),
        qPrintable(QString::fromStdString(std::string(toString(tk.policy)) + " " + tk.refusal)));
    QCOMPARE(run.consumers[1].config.kind, ConsumerKind::Continuous);
    const ConsumerStats &gaming = run.phases.at(0).consumers.at(1);
    QVERIFY(gaming.samples > 0);
    QVERIFY(gaming.hasCpuTarget && !gaming.hasDeadline);
    QVERIFY(gaming.desiredCpuPct > 0 && gaming.desiredCpuPct <= 100);
}

void TestCli::ctrlCEndsARunWithAReportAndAPartialRunFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath("interrupted.json");
    QProcess p;
    QElapsedTimer sinceStart;
    sinceStart.start();
    // An hour: only the interrupt ends it in time.
    p.start(binary(), {"run", "--duration", "3600", "--out", file, "--no-progress"});
    QVERIFY(p.waitForStarted(kStateWaitMs));

    // Measuring has begun once the consumer threads exist (named lp-audio,
    // lp-wakeup, ... for top -H); then let them measure a little.
    QTRY_VERIFY_WITH_TIMEOUT(measuring(p.processId()) || p.state() != QProcess::Running,
                             kStateWaitMs);
    QVERIFY2(measuring(p.processId()), p.readAllStandardError().constData());
    QTest::qWait(1500);

    QElapsedTimer stopping;
    stopping.start();
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
    const bool finished = p.waitForFinished(kStateWaitMs);
    const qint64 tookMs = stopping.elapsed();
    const double wallS = static_cast<double>(sinceStart.elapsed()) / 1000;
    if (!finished) {
        p.kill();
        p.waitForFinished(2000);
    }
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString context = out + "\n" + QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(finished, qPrintable(context));
    qInfo("stopped %lld ms after the interrupt", static_cast<long long>(tookMs));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);

    QVERIFY2(out.startsWith(QString("latprobe %1 ").arg(kVersion)), qPrintable(context));
    QVERIFY2(out.contains("interrupted (partial)"), qPrintable(context));
    QVERIFY2(out.contains("\nphase 1/1 "), qPrintable(context));

    Run run;
    try {
        run = readRunFile(file.toStdString());
    } catch (const RunFileError &e) {
        QFAIL(e.what());
    }
    QVERIFY(run.partial);
    QCOMPARE(run.endReason, std::string("interrupted"));
    QCOMPARE(run.phases.size(), 1u);
    const PhaseResult &phase = run.phases[0];
    QVERIFY2(phase.durationS > 1.0 && phase.durationS < wallS,
             qPrintable(QString("%1 s measured in %2 s").arg(phase.durationS).arg(wallS)));
    // Every consumer with a period well under the time measured has samples.
    QCOMPARE(phase.consumers.size(), run.consumers.size());
    for (size_t i = 0; i < run.consumers.size(); ++i)
        if (run.consumers[i].config.periodNs < 100000000)
            QVERIFY2(phase.consumers[i].samples > 0, run.consumers[i].config.name.c_str());
}

namespace {

QStringList libraryFiles(const QString &dir)
{
    return QDir(dir).entryList({"latprobe-*.json"}, QDir::Files);
}

} // namespace

void TestCli::everyRunIsKeptInTheLibraryAndListed()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QStringList env{"LATPROBE_LIBRARY=" + dir.path()};
    Outcome o = runProgram(
        binary(),
        {"run", "--duration", "1", "--consumers", "wakeup", "--no-progress", "--no-noise-check"},
        env);
    QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
    const QStringList files = libraryFiles(dir.path());
    QCOMPARE(files.size(), 1);
    QVERIFY2(o.err.contains("kept in the run library: " + dir.filePath(files[0])),
             qPrintable(o.err));
    const Run run = readRunFile(dir.filePath(files[0]).toStdString());
    QCOMPARE(run.endReason, std::string("completed"));
    QVERIFY(!run.partial);

    // Listed, newest first, with the file's name.
    o = runProgram(binary(), {"runs"}, env);
    QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
    QVERIFY2(o.out.contains(files[0]) && o.out.contains("completed"), qPrintable(o.out));
    QVERIFY2(o.out.contains("1 run, "), qPrintable(o.out));
    // A column per consumer the listed runs measured, from the consumer table.
    const QString head = o.out.section('\n', 0, 0);
    QVERIFY2(head.contains("wakeup p99") && !head.contains("skips"), qPrintable(head));
    // A trace saved with it (--save-trace) is listed with it, and pruned with it.
    const QString trace = QString(files[0]).replace(".json", ".trace-1.dat");
    QFile traceFile(dir.filePath(trace));
    QVERIFY(traceFile.open(QIODevice::WriteOnly));
    traceFile.close();
    o = runProgram(binary(), {"runs"}, env);
    QVERIFY2(o.out.contains(files[0] + ": 1 saved trace (--save-trace)"), qPrintable(o.out));

    // --no-library keeps nothing; pruning to 0 empties it, sparing the user's files.
    o = runProgram(binary(),
                   {"run", "--duration", "0.5", "--consumers", "wakeup", "--no-progress",
                    "--no-noise-check", "--no-library"},
                   env);
    QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
    QCOMPARE(libraryFiles(dir.path()).size(), 1);
    QFile mine(dir.filePath("notes.json"));
    QVERIFY(mine.open(QIODevice::WriteOnly));
    mine.close();
    o = runProgram(binary(), {"runs", "--prune-to", "0"}, env);
    QVERIFY2(o.out.startsWith("pruned 1 run "), qPrintable(o.out));
    QVERIFY(libraryFiles(dir.path()).isEmpty());
    QVERIFY(!QFile::exists(dir.filePath(trace)));
    QVERIFY(QFile::exists(dir.filePath("notes.json")));
}

void TestCli::aKilledRunLeavesItsAutosaveInTheLibrary()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LATPROBE_LIBRARY", dir.path());
    p.setProcessEnvironment(env);
    p.start(binary(), {"run", "--duration", "3600", "--consumers", "wakeup", "--no-progress",
                       "--no-noise-check"});
    QVERIFY(p.waitForStarted(kStateWaitMs));
    // The first autosave, 10 s into the run (later on a saturated machine).
    QTRY_VERIFY_WITH_TIMEOUT(!libraryFiles(dir.path()).isEmpty() || p.state() != QProcess::Running,
                             kStateWaitMs);
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGKILL), 0);
    QVERIFY(p.waitForFinished(kStateWaitMs));
    const QStringList files = libraryFiles(dir.path());
    QCOMPARE(files.size(), 1);
    // Saved atomically: what is there reads, whenever the kill came.
    const Run run = readRunFile(dir.filePath(files[0]).toStdString());
    QVERIFY(run.partial);
    QCOMPARE(run.endReason, std::string("autosaved"));
    QCOMPARE(run.phases.size(), 1u);
    QVERIFY(run.phases[0].durationS >= 5);
    QVERIFY(run.phases[0].consumers.at(0).samples > 0);
}

// README command (a) on a machine with no display: `latprobe` alone cannot
// open the window, so it says so and measures headless instead.
void TestCli::withoutADisplayItSaysSoAndMeasuresHeadless()
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    p.setProcessEnvironment(env);
    p.start(binary(), {});
    QVERIFY(p.waitForStarted(kStateWaitMs));
    QTRY_VERIFY_WITH_TIMEOUT(measuring(p.processId()) || p.state() != QProcess::Running,
                             kStateWaitMs);
    // (QVERIFY2 evaluates its message always: no readAll in it.)
    QVERIFY(measuring(p.processId()));
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGINT), 0);
    QVERIFY(p.waitForFinished(kStateWaitMs));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(err.contains("no display"), qPrintable(err));
    QVERIFY2(out.startsWith(QString("latprobe %1 ").arg(kVersion)), qPrintable(out + err));
    QCOMPARE(p.exitCode(), 130);
}

namespace {

// sysinfo's settings by key: "autogroup" -> the rest of its line.
QMap<QString, QString> sysinfoSettings(const Outcome &o)
{
    QMap<QString, QString> byKey;
    for (const QString &line : o.out.split('\n'))
        if (line.startsWith("  ") && line.contains('='))
            byKey[line.trimmed().section('=', 0, 0)] = line;
    return byKey;
}

} // namespace

void TestCli::sysinfoListsEveryVariantSettingAllowedOrWhyNot()
{
    const Outcome o = runLatprobe({"sysinfo"});
    QVERIFY2(o.finished && o.exitCode == 0, qPrintable(o.describe()));
    const QMap<QString, QString> asIs = sysinfoSettings(o);
    for (const SettingKind &kind : settingKinds()) {
        const QString line = asIs.value(QString::fromStdString(kind.key));
        QVERIFY2(line.contains(" allowed") || line.contains(" refused: "),
                 qPrintable(QString::fromStdString(kind.key) +
                            " is missing from sysinfo or says neither: " + line));
        if (line.contains(" allowed") && kind.current)
            QVERIFY2(line.contains(", now "), qPrintable(line));
    }
}

void TestCli::sysinfoAsAUserSaysWhatNeedsRoot()
{
    // As most users run it. Not root, this suite is such a user already.
    Outcome user;
    if (geteuid() != 0) {
        user = runLatprobe({"sysinfo"});
    } else {
        if (QStandardPaths::findExecutable("setpriv").isEmpty())
            QSKIP("run as root, and setpriv (util-linux) is not installed to drop to nobody");
        user = runProgram(
            "setpriv", {"--reuid=65534", "--regid=65534", "--clear-groups", binary(), "sysinfo"});
    }
    QVERIFY2(user.finished && user.exitCode == 0, qPrintable(user.describe()));
    const QMap<QString, QString> asUser = sysinfoSettings(user);
    int needingRoot = 0;
    for (const SettingKind &kind : settingKinds()) {
        if (!kind.needsRoot)
            continue;
        ++needingRoot;
        const QString line = asUser.value(QString::fromStdString(kind.key));
        QVERIFY2(line.contains(" refused: ") && line.contains("root"),
                 qPrintable(QString::fromStdString(kind.key) + ": " + line));
    }
    QVERIFY2(needingRoot > 0, "no variant setting needs root: the check above checked nothing");
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
