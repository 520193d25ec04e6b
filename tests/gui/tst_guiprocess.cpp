// latprobe-gui as a process (offscreen): the unattended run that the
// GUI-vs-headless benchmark uses, and a clean end on SIGTERM — loads gone,
// run written.

#include "runfile.h"
#include "statewait.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <vector>

using namespace latprobe;

namespace {

// The load processes `parent` started: leaders (argv[2] names the parent)
// and their workers (forked from a leader, so the same argv). Zombies and
// processes that are gone do not count.
std::vector<pid_t> loadProcessesOf(qint64 parent)
{
    std::vector<pid_t> out;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &e : entries) {
        bool ok = false;
        const pid_t pid = e.toInt(&ok);
        if (!ok)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> argv = cmdline.readAll().split('\0');
        const QByteArray text = stat.readAll();
        const QList<QByteArray> rest = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (argv.size() > 2 && argv[1] == "--load-leader" && argv[2].toLongLong() == parent &&
            rest.size() > 1 && rest[0] != "Z")
            out.push_back(pid);
    }
    return out;
}

// Whether `pid` runs a thread named `name` (the probe's lp-audio, ...).
bool hasThread(qint64 pid, const QByteArray &name)
{
    const QString dir = QStringLiteral("/proc/%1/task").arg(pid);
    for (const QString &tid : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(dir + QLatin1Char('/') + tid + QStringLiteral("/comm"));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == name)
            return true;
    }
    return false;
}

} // namespace

class TestGuiProcess : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void unattendedRunWritesTheRun();
    void sigtermStopsLoadsAndWritesTheRun();
    void sigtermClosesTheWindow();
    void sigusr1CapturesTheState();
    void aKilledWindowLeavesItsAutosaveInTheLibrary();
    void helpAndVersionNeedNoDisplay();
    void runOptionsAreCheckedAsLatprobeRunChecksThem_data();
    void runOptionsAreCheckedAsLatprobeRunChecksThem();

private:
    QProcess *start(const QStringList &args);
    QTemporaryDir m_dir;
};

void TestGuiProcess::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::exists(QStringLiteral(LATPROBE_GUI)));
}

QProcess *TestGuiProcess::start(const QStringList &args)
{
    auto *p = new QProcess(this);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.path());
    env.insert(QStringLiteral("LATPROBE_LIBRARY"), m_dir.filePath(QStringLiteral("library")));
    p->setProcessEnvironment(env);
    p->start(QStringLiteral(LATPROBE_GUI), args);
    return p;
}

void TestGuiProcess::unattendedRunWritesTheRun()
{
    const QString out = m_dir.filePath(QStringLiteral("unattended.json"));
    QProcess *p = start({"--run-for", "5", "--idle", "2", "--load",
                         "massive_intr:2:work_ms=1:sleep_ms=10", "--out", out});
    QVERIFY(p->waitForFinished(60000));
    const QString report = QString::fromUtf8(p->readAllStandardOutput());
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QVERIFY2(p->exitCode() == 0, qPrintable(p->readAllStandardError()));
    QVERIFY2(report.contains(QStringLiteral("phase 2/2  massive_intr x2")), qPrintable(report));
    const Run run = readRunFile(out.toStdString());
    QCOMPARE(run.phases.size(), size_t(2));
    QCOMPARE(QString::fromStdString(run.phases[1].name), QStringLiteral("massive_intr x2"));
    QVERIFY2(run.phases[0].durationS > 1.5 && run.phases[0].durationS < 6,
             qPrintable(QString::number(run.phases[0].durationS)));
    QCOMPARE(QString::fromStdString(run.endReason), QStringLiteral("completed"));
    QCOMPARE(run.loads.size(), size_t(1));
    QCOMPARE(run.loads[0].perWorker.size(), size_t(2));
    QVERIFY(loadProcessesOf(p->processId()).empty());
}

void TestGuiProcess::sigtermStopsLoadsAndWritesTheRun()
{
    const QString out = m_dir.filePath(QStringLiteral("interrupted.json"));
    QProcess *p = start({"--run-for", "120", "--idle", "0.5", "--load",
                         "massive_intr:3:work_ms=1:sleep_ms=10", "--out", out});
    QVERIFY(p->waitForStarted());
    const qint64 pid = p->processId();
    std::vector<pid_t> loads;
    QTRY_VERIFY_WITH_TIMEOUT((loads = loadProcessesOf(pid)).size() == 4, 20000); // leader + 3
    ::kill(static_cast<pid_t>(pid), SIGTERM);
    QVERIFY(p->waitForFinished(15000));
    QCOMPARE(p->exitCode(), 130);
    QTRY_VERIFY_WITH_TIMEOUT(loadProcessesOf(pid).empty(), 2000);
    const Run run = readRunFile(out.toStdString());
    QVERIFY(run.partial);
    QCOMPARE(QString::fromStdString(run.endReason), QStringLiteral("interrupted"));
    QCOMPARE(run.loads.size(), size_t(1));
}

void TestGuiProcess::sigtermClosesTheWindow()
{
    QProcess *p = start({});
    QVERIFY(p->waitForStarted());
    // Measuring (the window is up, the handlers are installed): then stop it.
    QTRY_VERIFY_WITH_TIMEOUT(hasThread(p->processId(), "lp-audio"), 20000);
    QCOMPARE(p->state(), QProcess::Running);
    ::kill(static_cast<pid_t>(p->processId()), SIGTERM);
    QVERIFY(p->waitForFinished(10000));
    QCOMPARE(p->exitStatus(), QProcess::NormalExit);
    QCOMPARE(p->exitCode(), 0);
}

// kill -9 gives the window no chance to save: what the last autosave (at
// most 10 s old) wrote is what is left, and it reads.
void TestGuiProcess::aKilledWindowLeavesItsAutosaveInTheLibrary()
{
    QDir library(m_dir.filePath(QStringLiteral("library")));
    library.removeRecursively();
    QProcess *p = start({});
    QVERIFY(p->waitForStarted());
    auto files = [&library] {
        return library.entryList({QStringLiteral("latprobe-*.json")}, QDir::Files);
    };
    QTRY_VERIFY_WITH_TIMEOUT(!files().isEmpty() || p->state() != QProcess::Running, kStateWaitMs);
    QElapsedTimer sinceKill;
    sinceKill.start();
    ::kill(static_cast<pid_t>(p->processId()), SIGKILL);
    QVERIFY(p->waitForFinished(kStateWaitMs));
    QCOMPARE(files().size(), 1);
    const Run run = readRunFile(library.filePath(files().front()).toStdString());
    qInfo("in the library %lld ms after kill -9, with %.1f s measured",
          static_cast<long long>(sinceKill.elapsed()), run.phases.at(0).durationS);
    QVERIFY(run.partial);
    QCOMPARE(run.endReason, std::string("autosaved"));
    QVERIFY(run.phases.at(0).durationS > 5);
    QVERIFY(run.phases.at(0).consumers.at(0).samples > 0);
}

// kill -USR1 captures the system's state, as it does for `latprobe run`:
// sent before SIGTERM, the capture is in the run that SIGTERM writes.
void TestGuiProcess::sigusr1CapturesTheState()
{
    const QString out = m_dir.filePath(QStringLiteral("captured.json"));
    QProcess *p = start({"--run-for", "600", "--no-auto-capture", "--out", out});
    QVERIFY(p->waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(hasThread(p->processId(), "lp-audio"), 60000);
    ::kill(static_cast<pid_t>(p->processId()), SIGUSR1);
    ::kill(static_cast<pid_t>(p->processId()), SIGTERM);
    QVERIFY(p->waitForFinished(60000));
    QCOMPARE(p->exitCode(), 130);
    const Run run = readRunFile(out.toStdString());
    QCOMPARE(run.states.size(), size_t(1));
    QCOMPARE(QString::fromStdString(run.states[0].reason), QStringLiteral("on demand"));
}

// Parsed before Qt looks for a display: a window user's --help works over
// ssh, and so does a script asking for the version.
void TestGuiProcess::helpAndVersionNeedNoDisplay()
{
    for (const QString &flag : {QStringLiteral("--help"), QStringLiteral("--version")}) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(LATPROBE_GUI), {flag});
        QVERIFY(p.waitForFinished(30000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, qPrintable(p.readAllStandardError()));
        QVERIFY2(out.contains(flag == QLatin1String("--help") ? QStringLiteral("--run-for")
                                                              : QStringLiteral("latprobe 0.")),
                 qPrintable(out));
    }
}

// The window takes `latprobe run`'s options from the same parser, with the
// same checks, and refuses before any window opens.
void TestGuiProcess::runOptionsAreCheckedAsLatprobeRunChecksThem_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("fifo without a priority")
        << QStringList{"--policy", "fifo"} << QStringLiteral("--policy fifo needs --priority");
    QTest::newRow("a CPU that does not exist")
        << QStringList{"--cpus", "1000"} << QStringLiteral("CPU 1000 does not exist");
    QTest::newRow("an unknown consumer")
        << QStringList{"--consumers", "audio,radio"} << QStringLiteral("unknown consumer");
    QTest::newRow("an unknown preset")
        << QStringList{"--preset", "nope"} << QStringLiteral("unknown preset");
    QTest::newRow("a malformed load")
        << QStringList{"--run-for", "20", "--load", "burn:many"} << QStringLiteral("burn");
    QTest::newRow("a load over the cap")
        << QStringList{"--run-for", "20", "--load", "burn:20", "--max-workers", "10"}
        << QStringLiteral("--max-workers");
    QTest::newRow("an option the window does not take")
        << QStringList{"--no-progress"} << QStringLiteral("--no-progress");
}

void TestGuiProcess::runOptionsAreCheckedAsLatprobeRunChecksThem()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    QProcess *p = start(args);
    QVERIFY(p->waitForFinished(30000));
    QStringList lines = QString::fromUtf8(p->readAllStandardError()).split(QLatin1Char('\n'));
    lines.removeIf([](const QString &l) { return l.isEmpty() || l.contains("running as root"); });
    QCOMPARE(p->exitCode(), 2);
    QCOMPARE(lines.size(), 1); // one line
    QVERIFY2(lines[0].contains(says), qPrintable(lines[0]));
}

QTEST_GUILESS_MAIN(TestGuiProcess)
#include "tst_guiprocess.moc"
