// What latprobe does at the edges of the machine's resources: absurd
// memload sizes are refused by the memory cap, a read-only or full temp dir
// and running out of file descriptors are one line saying what and how to
// fix it (exit 2 when refused before measuring, 1 when it failed during the
// run), never a crash; the worker and spawn caps hold across groups; and
// latprobe, which needs root only for its flight recorder, says so once when run as root.

#include "loadlimits.h"
#include "loadmanager.h"
#include "loadspec.h"
#include "loadspectext.h"
#include "procscan.h"
#include "runprogram.h"
#include "statewait.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <set>
#include <sys/resource.h>
#include <unistd.h>

using namespace latprobe;

namespace {

// stderr without the root warning (tested on its own below; CI runs as root).
QStringList errorLines(const QString &err)
{
    QStringList lines;
    for (const QString &line : err.split('\n', Qt::SkipEmptyParts))
        if (!line.contains("running as root"))
            lines << line;
    return lines;
}

// A tmpfs mounted for a test and unmounted (lazily) however the test ends.
class TmpfsMount
{
public:
    // "" when mounted, else why not.
    QString mount(const QString &dir, const QString &options)
    {
        if (geteuid() != 0)
            return "mounting a tmpfs needs root";
        if (QProcess::execute("mount", {"-t", "tmpfs", "-o", options, "tmpfs", dir}) != 0)
            return "cannot mount a tmpfs here";
        m_dir = dir;
        return {};
    }
    ~TmpfsMount()
    {
        if (!m_dir.isEmpty())
            QProcess::execute("umount", {"-l", m_dir});
    }

private:
    QString m_dir;
};

// Live workers (comm latprobe:...) whose group leader is a child of ours.
int workersOfThisProcess()
{
    const std::vector<ProcInfo> all = scanProc();
    std::set<pid_t> leaders;
    for (const ProcInfo &p : all)
        if (p.ppid == getpid() && p.alive() && p.comm == "latprobe-group")
            leaders.insert(p.pid);
    int n = 0;
    for (const ProcInfo &p : all)
        n += p.alive() && leaders.count(p.ppid) && p.comm.rfind("latprobe:", 0) == 0;
    return n;
}

} // namespace

class TestGuards : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void absurdMemloadIsRefusedByTheCap_data();
    void absurdMemloadIsRefusedByTheCap();
    void unusableTempDirIsOneLine_data();
    void unusableTempDirIsOneLine();
    void fullTempDirIsOneLine();
    void tooFewFileDescriptorsIsOneLine_data();
    void tooFewFileDescriptorsIsOneLine();
    void guiRefusesTooFewFileDescriptors();
    void workerCapHoldsAcrossGroups();
    void spawnCapHoldsAcrossGroups();
    void rootIsWarnedAboutOnce_data();
    void rootIsWarnedAboutOnce();

private:
    QString m_binary;
    QTemporaryDir m_tmp;
};

void TestGuards::initTestCase()
{
    m_binary = qEnvironmentVariable("LATPROBE_BINARY");
    QVERIFY2(!m_binary.isEmpty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
    QVERIFY(m_tmp.isValid());
}

void TestGuards::absurdMemloadIsRefusedByTheCap_data()
{
    QTest::addColumn<QStringList>("loads");
    QTest::addColumn<QStringList>("says");
    const uint64_t availMiB = memAvailableBytes() >> 20;
    QTest::newRow("a terabyte") << QStringList{"memload:1:mb=1048576"}
                                << QStringList{"memload x1 would use 1048576 MiB", "50 %",
                                               "MiB available", "lower mb= or the count"};
    QTest::newRow("a terabyte in 2048 workers")
        << QStringList{"memload:2048:mb=512"} << QStringList{"memload x2048", "MiB available"};
    // Each fits alone; together they would take 60 % of what is available.
    const QString share = QString::number(std::max<uint64_t>(1, availMiB * 3 / 10));
    QTest::newRow("two groups that only fit alone")
        << QStringList{"memload:1:mb=" + share, "memload:1:mb=" + share}
        << QStringList{"with those running", "50 %", "mb="};
}

void TestGuards::absurdMemloadIsRefusedByTheCap()
{
    QFETCH(QStringList, loads);
    QFETCH(QStringList, says);
    // A run of an hour: only a refusal before measuring ends it in time,
    // and then without a report.
    QStringList args{"run", "-d", "3600", "--idle", "0.1", "-c", "wakeup", "--no-noise-check"};
    for (const QString &l : loads)
        args << "--load" << l;
    const Outcome o = runProgram(m_binary, args, {"TMPDIR=" + m_tmp.path()});
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QVERIFY2(o.exitCode == 2, qPrintable(o.describe()));
    QVERIFY2(o.out.isEmpty(), qPrintable(o.describe()));
    QCOMPARE(errorLines(o.err).size(), 1);
    for (const QString &s : says)
        QVERIFY2(o.err.contains(s), qPrintable(s + " not in: " + o.err));
}

void TestGuards::unusableTempDirIsOneLine_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("does not exist") << "missing";
    QTest::newRow("read-only") << "read-only";
}

void TestGuards::unusableTempDirIsOneLine()
{
    QFETCH(QString, how);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString tmpdir = dir.filePath("t");
    TmpfsMount mount;
    if (how == "missing") {
        tmpdir = dir.filePath("no/such/dir");
    } else {
        QVERIFY(QDir().mkdir(tmpdir));
        // Root writes through permissions: a read-only tmpfs stops it too.
        if (geteuid() == 0) {
            if (const QString why = mount.mount(tmpdir, "ro,size=64m"); !why.isEmpty())
                QSKIP(qPrintable(why));
        } else {
            QVERIFY(QFile::setPermissions(tmpdir, QFile::ReadOwner | QFile::ExeOwner));
        }
    }
    // io_write needs a temp dir; refused before anything is measured.
    const Outcome o = runProgram(m_binary,
                                 {"run", "-d", "3600", "--idle", "0.1", "-c", "wakeup",
                                  "--no-noise-check", "--load", "io_write:1:mb=1"},
                                 {"TMPDIR=" + tmpdir});
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QVERIFY2(o.exitCode == 2, qPrintable(o.describe()));
    QCOMPARE(errorLines(o.err).size(), 1);
    QVERIFY2(o.err.contains(tmpdir) && o.err.contains("set TMPDIR to a writable directory"),
             qPrintable(o.err));
    QVERIFY(o.out.isEmpty());

    // Loads without temp files do not care.
    const Outcome fine = runProgram(
        m_binary,
        {"run", "-d", "1", "--idle", "0.5", "-c", "wakeup", "--no-noise-check", "--load", "burn:1"},
        {"TMPDIR=" + tmpdir});
    QVERIFY2(fine.finished && fine.exitCode == 0, qPrintable(fine.describe()));
}

void TestGuards::fullTempDirIsOneLine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    TmpfsMount mount;
    if (const QString why = mount.mount(dir.path(), "size=1m"); !why.isEmpty())
        QSKIP(qPrintable(why));
    // Fill it up.
    QFile filler(dir.filePath("filler"));
    QVERIFY(filler.open(QIODevice::WriteOnly));
    const QByteArray block(64 * 1024, 'x');
    while (filler.write(block) == block.size() && filler.flush()) {
    }
    filler.close();

    const Outcome io = runProgram(m_binary,
                                  {"run", "-d", "3600", "--idle", "0.1", "-c", "wakeup",
                                   "--no-noise-check", "--load", "io_write:1:mb=1"},
                                  {"TMPDIR=" + dir.path()});
    QVERIFY2(io.finished && io.status == QProcess::NormalExit && io.exitCode == 2,
             qPrintable(io.describe()));
    QCOMPARE(errorLines(io.err).size(), 1);
    QVERIFY2(io.err.contains("MiB free in " + dir.path()) && io.err.contains("TMPDIR"),
             qPrintable(io.err));

    // The run file cannot be saved there: measured, reported, then one line
    // and exit 1 (a runtime failure), the old file untouched.
    const QString out = dir.filePath("run.json");
    const Outcome save = runProgram(
        m_binary, {"-q", "run", "-d", "0.5", "-c", "wakeup", "--no-noise-check", "--out", out});
    QVERIFY2(save.finished && save.status == QProcess::NormalExit && save.exitCode == 1,
             qPrintable(save.describe()));
    QVERIFY2(save.out.contains("phase 1/1"), qPrintable(save.out));
    QCOMPARE(errorLines(save.err).size(), 1);
    QVERIFY2(save.err.contains(out) && save.err.contains("No space left on device") &&
                 save.err.contains("free some space or save elsewhere"),
             qPrintable(save.err));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{"filler"});
}

void TestGuards::tooFewFileDescriptorsIsOneLine_data()
{
    QTest::addColumn<int>("maxFds");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("says");
    // Too few for latprobe itself: refused before measuring.
    QTest::newRow("ulimit -n 8") << 8 << 2 << "only 8 open files allowed";
    // Enough for latprobe, too few for hackbench's 16 pipes: the worker
    // says so, the run is reported and fails.
    QTest::newRow("ulimit -n 16") << 16 << 1 << "hackbench: cannot create pipe";
    QTest::newRow("ulimit -n 64") << 64 << 0 << "";
}

void TestGuards::tooFewFileDescriptorsIsOneLine()
{
    QFETCH(int, maxFds);
    QFETCH(int, exitCode);
    QFETCH(QString, says);
    const Outcome o =
        runProgram(m_binary,
                   {"-q", "run", "-d", "2", "--idle", "0.5", "--no-noise-check", "-c",
                    "wakeup,start", "--load", "burn:2", "--load", "hackbench:1:fds=8"},
                   {"TMPDIR=" + m_tmp.path()}, maxFds);
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QVERIFY2(o.exitCode == exitCode, qPrintable(o.describe()));
    const QStringList lines = errorLines(o.err);
    if (exitCode == 0) {
        QVERIFY2(lines.isEmpty(), qPrintable(o.describe()));
        return;
    }
    // One line naming the limit and the way out.
    QVERIFY2(lines.size() == 1, qPrintable(o.describe()));
    QVERIFY2(lines[0].contains(says) && lines[0].contains("ulimit -n"), qPrintable(o.describe()));
    QCOMPARE(o.out.isEmpty(), exitCode == 2); // a run that failed still reports
}

void TestGuards::guiRefusesTooFewFileDescriptors()
{
#ifdef LATPROBE_GUI
    const Outcome o = runProgram(
        QStringLiteral(LATPROBE_GUI), {"-q", "--run-for", "2"},
        {"TMPDIR=" + m_tmp.path(), "XDG_RUNTIME_DIR=" + m_tmp.path(), "QT_QPA_PLATFORM=offscreen"},
        8);
    QVERIFY2(o.finished && o.status == QProcess::NormalExit, qPrintable(o.describe()));
    QVERIFY2(o.exitCode == 2, qPrintable(o.describe()));
    const QStringList lines = errorLines(o.err);
    QVERIFY2(lines.size() == 1, qPrintable(o.describe()));
    QVERIFY2(lines[0].contains("only 8 open files allowed") && lines[0].contains("ulimit -n"),
             qPrintable(o.describe()));
#else
    QSKIP("built without the GUI");
#endif
}

void TestGuards::workerCapHoldsAcrossGroups()
{
    // The GUI's way: groups started one by one beside those running.
    LoadLimits limits;
    limits.maxProcesses = 10;
    LoadManager manager(limits);
    std::string error;
    QVERIFY2(manager.start(spec("burn:6:nice=19"), error) > 0, error.c_str());
    QCOMPARE(manager.start(spec("burn:5:nice=19"), error), -1);
    QVERIFY2(QString::fromStdString(error).contains("11 with those running") &&
                 QString::fromStdString(error).contains("the cap is 10"),
             error.c_str());
    QCOMPARE(manager.status().size(), size_t(1));
    QVERIFY2(manager.start(spec("burn:4:nice=19"), error) > 0, error.c_str());
    QCOMPARE(manager.start(spec("burn:1:nice=19"), error), -1);
    QCOMPARE(manager.runningProcesses(), 10);
    QTRY_COMPARE_WITH_TIMEOUT(workersOfThisProcess(), 10, kStateWaitMs);
    manager.stopAll();
    QCOMPARE(workersOfThisProcess(), 0);
    // Room again once they are gone.
    QVERIFY2(manager.start(spec("burn:10:nice=19"), error) > 0, error.c_str());
    manager.stopAll();
}

void TestGuards::spawnCapHoldsAcrossGroups()
{
    LoadLimits limits;
    limits.spawnRateMax = 100;
    LoadManager manager(limits);
    std::string error;
    const int first = manager.start(spec("spawn:2:rate=30:nice=19"), error);
    QVERIFY2(first > 0, error.c_str());
    QCOMPARE(manager.start(spec("spawn:1:rate=50"), error), -1);
    QVERIFY2(QString::fromStdString(error).contains("110 with those running") &&
                 QString::fromStdString(error).contains("100/s") &&
                 QString::fromStdString(error).contains("rate="),
             error.c_str());
    QVERIFY2(manager.start(spec("spawn:1:rate=40:nice=19"), error) > 0, error.c_str());
    // They do run: every worker has started processes.
    auto allStarted = [&] {
        for (const GroupStatus &g : manager.status())
            for (const WorkerStatus &w : g.workers)
                if (w.progress == 0)
                    return false;
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allStarted(), kStateWaitMs);
    // And the rate holds, over a window of running: 100 processes a second.
    auto started = [&] {
        uint64_t n = 0;
        for (const GroupStatus &g : manager.status())
            for (const WorkerStatus &w : g.workers)
                n += w.progress;
        return n;
    };
    const uint64_t before = started();
    QElapsedTimer timer;
    timer.start();
    QTest::qWait(2000);
    const double rate = static_cast<double>(started() - before) * 1000.0 / timer.elapsed();
    qInfo("spawn groups at 30+30+40/s started %.0f processes/s", rate);
    QVERIFY2(rate <= 100 * 1.15, qPrintable(QString::number(rate)));
    manager.stopAll();
}

void TestGuards::rootIsWarnedAboutOnce_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("args");
    // Start probes and load leaders are latprobe re-executed: they stay quiet.
    QTest::newRow("run with loads and start probes")
        << "latprobe" << QStringList{"run",    "-d",    "1.5",          "--idle",
                                     "0.5",    "-c",    "wakeup,start", "--no-noise-check",
                                     "--load", "burn:2"};
    QTest::newRow("sysinfo") << "latprobe" << QStringList{"sysinfo"};
#ifdef LATPROBE_GUI
    QTest::newRow("gui, unattended with loads")
        << "latprobe-gui" << QStringList{"--run-for", "2", "--idle", "0.5", "--load", "burn:2"};
#endif
}

void TestGuards::rootIsWarnedAboutOnce()
{
    QFETCH(QString, program);
    QFETCH(QStringList, args);
#ifdef LATPROBE_GUI
    const QString path = program == "latprobe-gui" ? QStringLiteral(LATPROBE_GUI) : m_binary;
#else
    const QString path = m_binary;
#endif
    const Outcome o = runProgram(path, args, {"TMPDIR=" + m_tmp.path()});
    QVERIFY2(o.finished && o.status == QProcess::NormalExit && o.exitCode == 0,
             qPrintable(o.describe()));
    const int warnings = static_cast<int>(o.err.count("running as root"));
    if (geteuid() != 0) {
        QCOMPARE(warnings, 0);
        return;
    }
    QVERIFY2(warnings == 1, qPrintable(o.describe()));
    for (const QString &line : o.err.split('\n'))
        if (line.contains("running as root"))
            QVERIFY2(line.startsWith(program + ": warning: ") && line.contains("README"),
                     qPrintable(line));
}

QTEST_GUILESS_MAIN(TestGuards)
#include "tst_guards.moc"
