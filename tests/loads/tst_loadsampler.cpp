// The load layer's sampler (issue 45): what runs is in its snapshot the
// moment a group starts and gone the moment it stops; each worker's CPU time
// is its processes' as the kernel counts it, helpers and reaped children
// included where its kind says so; and massive_intr's loops x work is each
// worker's CPU time within 2 % at x200, on a machine that workload saturates.

#include "loadspectext.h"
#include "sanitized.h"
#include "statewait.h"

#include "loadmanager.h"
#include "loadspec.h"
#include "procstat.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

using namespace latprobe;

namespace {

uint64_t fewestLoops(const GroupStatus &g)
{
    uint64_t fewest = UINT64_MAX;
    for (const WorkerStatus &w : g.workers)
        fewest = std::min(fewest, w.progress);
    return fewest;
}

// The first worker of `g` whose loops x `workNs` is not its CPU time within
// `pct` %, described; "" when there is none.
QString offByMore(const GroupStatus &g, int64_t workNs, double pct)
{
    for (size_t i = 0; i < g.workers.size(); ++i) {
        const WorkerStatus &w = g.workers[i];
        const double worked = static_cast<double>(w.progress) * static_cast<double>(workNs);
        const auto cpu = static_cast<double>(w.cpuNs);
        if (w.cpuNs < 0 || std::abs(cpu - worked) > pct / 100 * cpu)
            return QString("worker %1 (pid %2): %3 loops x %4 ms = %5 ms, CPU time %6 ms")
                .arg(i)
                .arg(w.pid)
                .arg(w.progress)
                .arg(static_cast<double>(workNs) / 1e6)
                .arg(worked / 1e6, 0, 'f', 1)
                .arg(cpu / 1e6, 0, 'f', 1);
    }
    return {};
}

} // namespace

class TestLoadSampler : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void publishesWhatRunsAtOnce();
    void helpersAndReapedChildrenAreTheWorkersCpu_data();
    void helpersAndReapedChildrenAreTheWorkersCpu();
    void loopsTimesWorkIsTheCpuTimeAtScale();

private:
    std::string m_binary;
};

void TestLoadSampler::initTestCase()
{
    m_binary = qEnvironmentVariable("LATPROBE_BINARY").toStdString();
    QVERIFY2(!m_binary.empty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
}

void TestLoadSampler::publishesWhatRunsAtOnce()
{
    LoadManager manager(LoadLimits{}, m_binary);
    QVERIFY(manager.sampled().empty());
    std::string error;
    const int id = manager.start(spec("massive_intr:3:work_ms=2"), error);
    QVERIFY2(id > 0, error.c_str());

    // In the snapshot as start() returns, its workers' pids with it.
    std::vector<GroupStatus> groups = manager.sampled();
    QCOMPARE(groups.size(), size_t{1});
    QCOMPARE(groups[0].id, id);
    QCOMPARE(groups[0].workers.size(), size_t{3});
    for (const WorkerStatus &w : groups[0].workers)
        QVERIFY(w.pid > 0);

    // The pass the start asked for reads the CPU times.
    manager.waitForSample();
    groups = manager.sampled();
    QCOMPARE(groups.size(), size_t{1});
    QCOMPARE(groups[0].cpuFairness.workers, 3);
    for (const WorkerStatus &w : groups[0].workers)
        QVERIFY(w.cpuNs >= 0);

    // Later passes on their own, once a second: progress and CPU time rise.
    const int64_t first = groups[0].sampledAt;
    const uint64_t loops = groups[0].workers[0].progress;
    QTRY_VERIFY_WITH_TIMEOUT(manager.sampled().at(0).sampledAt > first &&
                                 manager.sampled().at(0).workers[0].progress > loops,
                             kStateWaitMs);
    const GroupStatus later = manager.sampled().at(0);
    QVERIFY(later.sampledAt - first >= LoadSampler::kPeriodNs / 2);
    QVERIFY(later.workers[0].cpuNs > 0);
    QVERIFY(later.throughputPerS > 0);

    // Gone as stop() returns.
    QVERIFY(manager.stop(id));
    QVERIFY(manager.sampled().empty());
    manager.waitForSample();
    QVERIFY(manager.sampled().empty());
}

void TestLoadSampler::helpersAndReapedChildrenAreTheWorkersCpu_data()
{
    QTest::addColumn<std::string>("text");
    // hackbench's worker only watches its senders and receivers, which do
    // the work and live as long as it does; spawn's /bin/true are reaped.
    QTest::newRow("hackbench's helpers") << std::string("hackbench:1:fds=2");
    QTest::newRow("spawn's reaped children") << std::string("spawn:1:rate=400");
}

void TestLoadSampler::helpersAndReapedChildrenAreTheWorkersCpu()
{
    QFETCH(std::string, text);
    LoadManager manager(LoadLimits{}, m_binary);
    std::string error;
    QVERIFY2(manager.start(spec(text), error) > 0, error.c_str());
    const pid_t worker = manager.sampled().at(0).workers.at(0).pid;
    // The worker's figure outgrows its own process's CPU by far.
    const auto beyondItsOwn = [&] {
        const int64_t own = processClockNs(worker);
        const int64_t counted = manager.status().at(0).workers.at(0).cpuNs;
        return own >= 0 && counted > own + 50'000'000;
    };
    QTRY_VERIFY_WITH_TIMEOUT(beyondItsOwn(), kStateWaitMs);
    manager.stopAll();
}

void TestLoadSampler::loopsTimesWorkIsTheCpuTimeAtScale()
{
    // Issue 45: at x200, a worker's loops x work fell 25 % short of its CPU
    // time, unevenly. Work 1 ms: each worker past 60 loops has had 60 ms of
    // CPU, so the loop under way is under 2 % of it. Waited for by state:
    // every worker past 60 loops, however long this saturated machine takes;
    // a worker caught in a long stretch the kernel charged it between two
    // loops (absorbed by its next) is looked at again, up to 200 loops.
    // (x20 in a sanitizer build, whose workers are the instrumented
    // latprobe: 200 of them are gigabytes.)
    constexpr int64_t kWorkNs = 1'000'000;
    const std::string workers = kSanitized ? "20" : "200";
    LoadManager manager(LoadLimits{}, m_binary);
    std::string error;
    QVERIFY2(manager.start(spec("massive_intr:" + workers + ":work_ms=1"), error) > 0,
             error.c_str());
    QString off = QStringLiteral("no worker reached 60 loops");
    for (;;) {
        const GroupStatus g = manager.status().at(0);
        const uint64_t fewest = fewestLoops(g);
        if (fewest >= 60 && (off = offByMore(g, kWorkNs, 2.0)).isEmpty())
            break;
        QVERIFY2(fewest < 200, qPrintable(off));
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    manager.stopAll();
}

QTEST_GUILESS_MAIN(TestLoadSampler)
#include "tst_loadsampler.moc"
