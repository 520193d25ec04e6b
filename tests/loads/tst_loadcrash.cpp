// latprobe killed with SIGKILL while it runs loads: no worker may outlive
// it (each group's leader gets its death signal and kills its workers; the
// workers' own children die with them), and the leader removes the group's
// temp dir.

#include "procscan.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <set>

class TestLoadCrash : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void killNineLeavesNothing_data();
    void killNineLeavesNothing();

private:
    QString m_binary;
};

void TestLoadCrash::initTestCase()
{
    m_binary = qEnvironmentVariable("LATPROBE_BINARY");
    QVERIFY2(!m_binary.isEmpty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
}

void TestLoadCrash::killNineLeavesNothing_data()
{
    QTest::addColumn<QStringList>("loads");
    QTest::addColumn<QStringList>("workerComms"); // one entry per worker expected
    QTest::addColumn<QString>("helperComm");      // a child of a worker to wait for, or ""

    QStringList massive;
    for (int i = 0; i < 20; ++i)
        massive << "latprobe:massiv";
    const bool haveCc = !QStandardPaths::findExecutable("cc").isEmpty() ||
                        !QStandardPaths::findExecutable("gcc").isEmpty() ||
                        !QStandardPaths::findExecutable("clang").isEmpty();
    if (haveCc)
        QTest::newRow("massive_intr x20 + compile x2")
            << QStringList{"massive_intr:20", "compile:2"}
            << (massive + QStringList{"latprobe:compil", "latprobe:compil"})
            << QString("latprobe:compil"); // a compile runner: a compiler is under way
    else
        QTest::newRow("massive_intr x20") << QStringList{"massive_intr:20"} << massive << QString();
    QTest::newRow("hackbench + io + memload + spawn")
        << QStringList{"hackbench:2:fds=4", "io_write:1:mb=16", "io_read:1:mb=16",
                       "memload:1:mb=32", "spawn:1:rate=200"}
        << QStringList{"latprobe:hackbe", "latprobe:hackbe", "latprobe:io_wri",
                       "latprobe:io_rea", "latprobe:memloa", "latprobe:spawn"}
        << QString("latprobe:hackbe");
    QTest::newRow("custom") << QStringList{"custom:3:cmd=sleep 300"}
                            << QStringList{"sleep", "sleep", "sleep"} << QString();
}

void TestLoadCrash::killNineLeavesNothing()
{
    QFETCH(QStringList, loads);
    QFETCH(QStringList, workerComms);
    QFETCH(QString, helperComm);

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TMPDIR", tmp.path());
    QStringList args{"run", "-d", "60", "--idle", "0.5", "-c", "wakeup", "--no-progress"};
    for (const QString &l : loads)
        args << "--load" << l;
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(m_binary, args);
    QVERIFY(p.waitForStarted());
    const pid_t latprobe = static_cast<pid_t>(p.processId());

    // Its groups: the leaders are latprobe's children, each the first of a
    // new session; the workers are the leaders' children.
    std::set<pid_t> leaders, workers;
    std::map<std::string, int> comms;
    std::set<pid_t> sessions;
    auto look = [&] {
        leaders.clear();
        workers.clear();
        comms.clear();
        const std::vector<ProcInfo> all = scanProc();
        for (const ProcInfo &q : all)
            if (q.ppid == latprobe && q.alive() && q.comm == "latprobe-group")
                leaders.insert(q.pid);
        bool helper = helperComm.isEmpty();
        for (const ProcInfo &q : all) {
            if (!q.alive())
                continue;
            if (leaders.count(q.ppid)) {
                workers.insert(q.pid);
                ++comms[q.comm];
            } else if (workers.count(q.ppid) && q.comm == helperComm.toStdString()) {
                helper = true;
            }
        }
        std::map<std::string, int> expected;
        for (const QString &c : workerComms)
            ++expected[c.toStdString()];
        return helper && comms == expected && leaders.size() == size_t(loads.size());
    };
    QTRY_VERIFY_WITH_TIMEOUT(look(), 20000);
    QCOMPARE(p.state(), QProcess::Running);
    for (pid_t l : leaders)
        sessions.insert(l); // own session: sid == pgid == the leader's pid
    for (const ProcInfo &q : scanProc())
        if (q.alive() && leaders.count(q.pid))
            QCOMPARE(q.sid, q.pid);
    QVERIFY(!latprobeTempDirs(tmp.path()).isEmpty() || !loads.join(' ').contains("io_"));
    // Let the compilers start and the io files fill.
    QTest::qWait(700);

    QElapsedTimer timer;
    timer.start();
    QCOMPARE(::kill(latprobe, SIGKILL), 0);
    QVERIFY(p.waitForFinished(5000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);

    auto workersLeft = [&] {
        int n = 0;
        for (pid_t w : workers)
            n += !pidGone(w);
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(workersLeft(), 0, 1000);
    qInfo("workers gone %lld ms after the kill", static_cast<long long>(timer.elapsed()));

    // Nothing at all of the groups' sessions: leaders, senders, receivers,
    // compilers, spawned processes.
    auto sessionLeft = [&] {
        QStringList left;
        for (const ProcInfo &q : scanProc())
            if (q.alive() && sessions.count(q.sid))
                left << QString("%1 %2").arg(q.pid).arg(QString::fromStdString(q.comm));
        return left;
    };
    QTRY_COMPARE_WITH_TIMEOUT(sessionLeft(), QStringList(), 3000);
    // The leaders removed their temp dirs on the way out.
    QTRY_COMPARE_WITH_TIMEOUT(latprobeTempDirs(tmp.path()), QStringList(), 3000);
}

QTEST_GUILESS_MAIN(TestLoadCrash)
#include "tst_loadcrash.moc"
