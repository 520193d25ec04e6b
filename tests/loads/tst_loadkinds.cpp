// Every load kind as real processes: KIND:N makes N workers named
// "latprobe:<kind>" (15 characters of it, as the kernel keeps) in the
// group's own process group, each worker's progress rises, and stop() or
// stopAll() leaves no process in the group and no temp dir behind.

#include "procscan.h"

#include "loadkind.h"
#include "loadlimits.h"
#include "loadmanager.h"
#include "loadspec.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <set>

using namespace latprobe;

Q_DECLARE_METATYPE(std::string)

namespace {

LoadSpec spec(const std::string &text)
{
    LoadSpec s;
    std::string error;
    if (!parseLoadSpec(text, s, error))
        qFatal("bad spec %s: %s", text.c_str(), error.c_str());
    return s;
}

bool precheckCompileOk()
{
    return findLoadKind("compile")->precheck(spec("compile:1")).empty();
}

bool groupEmpty(pid_t pgid)
{
    return kill(-pgid, 0) != 0 && errno == ESRCH;
}

std::set<pid_t> workerPids(const GroupStatus &g)
{
    std::set<pid_t> pids;
    for (const WorkerStatus &w : g.workers)
        pids.insert(w.pid);
    return pids;
}

// Live processes of one process group whose parent is `parent` (0: any)
// and whose comm is `comm`.
std::set<pid_t> groupProcesses(pid_t pgid, const std::string &comm, pid_t parent = 0)
{
    std::set<pid_t> out;
    for (const ProcInfo &p : scanProc())
        if (p.alive() && p.pgrp == pgid && p.comm == comm && (parent == 0 || p.ppid == parent))
            out.insert(p.pid);
    return out;
}

} // namespace

class TestLoadKinds : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void table();
    void defaultsFitTheCaps();
    void workersRunAndStop_data();
    void workersRunAndStop();
    void stopAllEmptiesEveryGroup();
    void compilerFailureIsOneLine();

private:
    QTemporaryDir m_tmp;
    std::string m_binary;
};

void TestLoadKinds::initTestCase()
{
    m_binary = qEnvironmentVariable("LATPROBE_BINARY").toStdString();
    QVERIFY2(!m_binary.empty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
    QVERIFY(m_tmp.isValid());
    // Every temp dir latprobe makes lands here, where the tests can see it.
    qputenv("TMPDIR", m_tmp.path().toLocal8Bit());
}

void TestLoadKinds::table()
{
    const std::vector<std::string> expected = {"massive_intr", "ocbench",  "burn",    "hackbench",
                                               "compile",      "io_write", "io_read", "memload",
                                               "spawn",        "custom"};
    for (const std::string &name : expected) {
        const LoadKind *k = findLoadKind(name);
        QVERIFY2(k, name.c_str());
        QVERIFY2(k->body, name.c_str());
        QVERIFY2(!k->unit.empty() && !k->description.empty(), name.c_str());
        for (const LoadParam &p : k->params) {
            QVERIFY2(p.min <= p.defaultValue && p.defaultValue <= p.max,
                     (name + "." + p.key).c_str());
            QVERIFY2(!p.help.empty(), (name + "." + p.key).c_str());
        }
    }
    QCOMPARE(loadKinds().size(), expected.size());
    for (const char *name : {"compile", "io_write", "io_read"})
        QVERIFY2(findLoadKind(name)->needsTempDir, name);
    QCOMPARE(processesFor(spec("hackbench:10")), 10 * (1 + 2 * 20));
    QCOMPARE(processesFor(spec("hackbench:2:fds=3")), 2 * 7);
}

void TestLoadKinds::defaultsFitTheCaps()
{
    // Every kind with its defaults starts on an ordinary machine.
    for (const LoadKind &k : loadKinds()) {
        const LoadSpec s = spec(k.name + ":1" + (k.name == "custom" ? ":cmd=sleep 1" : ""));
        QCOMPARE(checkLoadLimits(s, LoadLimits{}, {}), std::string());
    }
    // hackbench:10 is hackbench -p -g 10: 410 processes, under the cap.
    QCOMPARE(checkLoadLimits(spec("hackbench:10"), LoadLimits{}, {}), std::string());
}

void TestLoadKinds::workersRunAndStop_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<std::string>("comm"); // of the workers, once running
    QTest::addColumn<int>("perWorker");    // processes named like the worker, per worker
    QTest::addColumn<bool>("progress");

    QTest::newRow("massive_intr") << std::string("massive_intr:3:work_ms=2")
                                  << std::string("latprobe:massiv") << 1 << true;
    QTest::newRow("ocbench") << std::string("ocbench:2:run_us=20000:sleep_us=20000")
                             << std::string("latprobe:ocbenc") << 1 << true;
    QTest::newRow("burn") << std::string("burn:2") << std::string("latprobe:burn") << 1 << true;
    QTest::newRow("hackbench") << std::string("hackbench:2:fds=3") << std::string("latprobe:hackbe")
                               << 7 << true;
    QTest::newRow("hackbench sockets") << std::string("hackbench:1:fds=2:sockets=1:size=1000")
                                       << std::string("latprobe:hackbe") << 5 << true;
    QTest::newRow("compile") << std::string("compile:2:files=4:funcs=1:opt=1")
                             << std::string("latprobe:compil") << 0 << true;
    QTest::newRow("io_write") << std::string("io_write:2:mb=8:sync_mb=2")
                              << std::string("latprobe:io_wri") << 1 << true;
    QTest::newRow("io_read") << std::string("io_read:2:mb=8") << std::string("latprobe:io_rea") << 1
                             << true;
    QTest::newRow("memload") << std::string("memload:2:mb=16") << std::string("latprobe:memloa")
                             << 1 << true;
    QTest::newRow("spawn") << std::string("spawn:2:rate=100") << std::string("latprobe:spawn") << 0
                           << true;
    QTest::newRow("custom") << std::string("custom:2:cmd=sleep 100") << std::string("sleep") << 1
                            << false;
}

void TestLoadKinds::workersRunAndStop()
{
    QFETCH(std::string, text);
    QFETCH(std::string, comm);
    QFETCH(int, perWorker);
    QFETCH(bool, progress);
    const LoadSpec s = spec(text);
    if (s.kind == "compile" && !precheckCompileOk())
        QSKIP("no C compiler here");

    LoadManager manager(LoadLimits{}, m_binary);
    std::string error;
    const int id = manager.start(s, error);
    QVERIFY2(id > 0, error.c_str());

    auto groups = manager.status();
    QCOMPARE(groups.size(), size_t{1});
    const pid_t pgid = groups[0].leader;
    QVERIFY(pgid > 0);
    QCOMPARE(static_cast<int>(groups[0].workers.size()), s.count);
    const std::set<pid_t> workers = workerPids(groups[0]);
    QCOMPARE(static_cast<int>(workers.size()), s.count);
    QVERIFY(!workers.count(0));

    // The workers are the leader's children in its process group, named
    // after the kind (custom: the command it became).
    QTRY_COMPARE_WITH_TIMEOUT(groupProcesses(pgid, comm, pgid), workers, 10000);
    // Released together once all exist, then each marks itself running.
    auto allRunning = [&] {
        const std::vector<GroupStatus> now = manager.status();
        return std::all_of(now[0].workers.begin(), now[0].workers.end(),
                           [](const WorkerStatus &w) { return w.state == WorkerState::Running; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allRunning(), 10000);
    // hackbench's senders and receivers carry the worker's name too.
    if (perWorker > 1)
        QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(groupProcesses(pgid, comm).size()),
                                  s.count * perWorker, 10000);

    if (progress) {
        std::vector<uint64_t> before;
        const std::vector<GroupStatus> first = manager.status();
        for (const WorkerStatus &w : first[0].workers)
            before.push_back(w.progress);
        auto allRose = [&] {
            const std::vector<GroupStatus> now = manager.status();
            for (size_t i = 0; i < now[0].workers.size(); ++i)
                if (now[0].workers[i].progress <= before[i])
                    return false;
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(allRose(), 20000);
    }
    QCOMPARE(manager.status()[0].error, std::string());

    QElapsedTimer timer;
    timer.start();
    QVERIFY(manager.stop(id));
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString("stop took %1 ms").arg(timer.elapsed())));
    QVERIFY2(groupEmpty(pgid), "a process of the group survived stop()");
    for (pid_t pid : workers)
        QVERIFY(pidGone(pid));
    QVERIFY(manager.status().empty());
    QCOMPARE(latprobeTempDirs(m_tmp.path()), QStringList());
}

void TestLoadKinds::stopAllEmptiesEveryGroup()
{
    std::vector<std::string> texts = {
        "massive_intr:4:work_ms=2", "hackbench:2:fds=2",      "io_write:1:mb=8", "io_read:1:mb=8",
        "spawn:1:rate=200",         "custom:2:cmd=sleep 100", "memload:1:mb=8"};
    if (precheckCompileOk())
        texts.push_back("compile:2:files=4:funcs=4");
    LoadManager manager(LoadLimits{}, m_binary);
    for (const std::string &t : texts) {
        std::string error;
        QVERIFY2(manager.start(spec(t), error) > 0, error.c_str());
    }
    std::vector<pid_t> pgids;
    std::set<pid_t> workers;
    for (const GroupStatus &g : manager.status()) {
        pgids.push_back(g.leader);
        for (pid_t pid : workerPids(g))
            workers.insert(pid);
    }
    QCOMPARE(pgids.size(), texts.size());
    // The groups with a temp dir have one each, all in our TMPDIR.
    QTRY_VERIFY(latprobeTempDirs(m_tmp.path()).size() >= 3);
    // Let the compilers and the spawn storm get going.
    QTest::qWait(500);

    QElapsedTimer timer;
    timer.start();
    manager.stopAll();
    QVERIFY2(timer.elapsed() < 2000,
             qPrintable(QString("stopAll took %1 ms").arg(timer.elapsed())));
    for (pid_t pgid : pgids)
        QVERIFY2(groupEmpty(pgid), qPrintable(QString("group %1 survived").arg(pgid)));
    for (pid_t pid : workers)
        QVERIFY(pidGone(pid));
    QVERIFY(manager.status().empty());
    QCOMPARE(manager.runningProcesses(), 0);
    QCOMPARE(latprobeTempDirs(m_tmp.path()), QStringList());
    const auto timeline = manager.timeline();
    QCOMPARE(std::count_if(timeline.begin(), timeline.end(),
                           [](const LoadEvent &e) { return !e.started; }),
             static_cast<long>(texts.size()));
}

void TestLoadKinds::compilerFailureIsOneLine()
{
    // A "compiler" that always fails: the worker reports it, in one line.
    qputenv("CC", "false");
    LoadManager manager(LoadLimits{}, m_binary);
    std::string error;
    const int id = manager.start(spec("compile:1:files=2"), error);
    qunsetenv("CC");
    QVERIFY2(id > 0, error.c_str());
    QTRY_VERIFY_WITH_TIMEOUT(!manager.status()[0].error.empty(), 10000);
    const std::string message = manager.status()[0].error;
    QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    QVERIFY2(message.find("compile") != std::string::npos &&
                 message.find("false") != std::string::npos &&
                 message.find("CC") != std::string::npos,
             message.c_str());
    QVERIFY(manager.stop(id));
    QCOMPARE(latprobeTempDirs(m_tmp.path()), QStringList());
}

QTEST_GUILESS_MAIN(TestLoadKinds)
#include "tst_loadkinds.moc"
