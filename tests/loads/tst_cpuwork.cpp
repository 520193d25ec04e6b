// massive_intr's and ocbench's busy part is CPU time on a schedule: a
// worker preempted mid-work finishes later, CPU the kernel charges it
// between two busy parts comes out of the next, and its loop count says how
// much CPU it got, not how often it was woken. Virtual time: nothing here
// spins for real.

#include "workers/cpuwork.h"

#include <QTest>

#include <cstdint>
#include <functional>

using namespace latprobe;

namespace {

constexpr int64_t kMs = 1000000;

// A thread on a made-up machine. Each read of its CPU clock takes `kReadNs`
// of wall time, which counts as CPU time only while the scheduler has the
// thread on a CPU (`onCpu`, asked at that wall time).
struct FakeThread
{
    static constexpr int64_t kReadNs = 1000;
    std::function<bool(int64_t wall)> onCpu = [](int64_t) { return true; };
    int64_t wall = 0;
    int64_t cpu = 0;

    int64_t cpuNow()
    {
        if (onCpu(wall))
            cpu += kReadNs;
        wall += kReadNs;
        return cpu;
    }
    // A sleep of `ns` that the kernel charges `charged` of CPU for (going to
    // sleep and waking).
    void sleep(int64_t ns, int64_t charged = 0)
    {
        cpu += charged;
        wall += ns + charged;
    }
};

// On a CPU `run` ns out of every `run + wait`: a worker sharing a CPU with
// others.
std::function<bool(int64_t)> share(int64_t run, int64_t wait)
{
    return [=](int64_t wall) { return wall % (run + wait) < run; };
}

} // namespace

class TestCpuWork : public QObject
{
    Q_OBJECT

private slots:
    void preemptionDelaysTheEndOfWork_data();
    void preemptionDelaysTheEndOfWork();
    void loopsCountTheCpuAWorkerGot_data();
    void loopsCountTheCpuAWorkerGot();
};

void TestCpuWork::preemptionDelaysTheEndOfWork_data()
{
    QTest::addColumn<int64_t>("preemptedAt");
    QTest::addColumn<int64_t>("preemptedFor");
    QTest::addColumn<int64_t>("wallTaken");

    QTest::newRow("never preempted") << int64_t{0} << int64_t{0} << 8 * kMs;
    // Regression: spinning on the monotonic clock, this worker was done at
    // 8 ms having worked 4, and counted a full loop.
    QTest::newRow("4 ms off the CPU mid-work") << 2 * kMs << 4 * kMs << 12 * kMs;
    QTest::newRow("preempted at once") << int64_t{0} << 20 * kMs << 28 * kMs;
}

void TestCpuWork::preemptionDelaysTheEndOfWork()
{
    QFETCH(int64_t, preemptedAt);
    QFETCH(int64_t, preemptedFor);
    QFETCH(int64_t, wallTaken);

    FakeThread t;
    t.onCpu = [=](int64_t wall) {
        return wall < preemptedAt || wall >= preemptedAt + preemptedFor;
    };
    CpuWorkSchedule schedule(0, 8 * kMs);
    const int64_t done = schedule.work([&] { return t.cpuNow(); });

    QVERIFY(done >= 8 * kMs && done <= 8 * kMs + FakeThread::kReadNs);
    QCOMPARE(t.cpu, done);
    QVERIFY2(
        t.wall >= wallTaken && t.wall <= wallTaken + 2 * FakeThread::kReadNs,
        qPrintable(QString("done at %1 ns of wall time, expected %2").arg(t.wall).arg(wallTaken)));
}

void TestCpuWork::loopsCountTheCpuAWorkerGot_data()
{
    QTest::addColumn<int64_t>("run");
    QTest::addColumn<int64_t>("wait");
    QTest::addColumn<int64_t>("charged");    // CPU charged for each sleep
    QTest::addColumn<int>("bigChargeEvery"); // a sleep in so many is charged 10 ms

    QTest::newRow("a CPU of its own") << 1 * kMs << int64_t{0} << int64_t{0} << 0;
    QTest::newRow("half a CPU") << 1 * kMs << 1 * kMs << int64_t{0} << 0;
    QTest::newRow("a quarter, in 3 ms slices") << 3 * kMs << 9 * kMs << int64_t{0} << 0;
    QTest::newRow("a third, in 100 us slices") << kMs / 10 << kMs / 5 << int64_t{0} << 0;
    // Regression (issue 45): timed from each busy part's start, what the
    // kernel charged for sleeping was lost between two parts, and workers
    // with equal CPU counted loops up to 25 % apart at x200.
    QTest::newRow("39 us charged per sleep, as measured")
        << 3 * kMs << 9 * kMs << int64_t{39000} << 0;
    QTest::newRow("10 ms charged to every 20th sleep") << 3 * kMs << 9 * kMs << int64_t{1000} << 20;
}

void TestCpuWork::loopsCountTheCpuAWorkerGot()
{
    QFETCH(int64_t, run);
    QFETCH(int64_t, wait);
    QFETCH(int64_t, charged);
    QFETCH(int, bigChargeEvery);

    // massive_intr's loop for 10 s of wall time: work 8 ms, count, sleep 1 ms.
    FakeThread t;
    t.onCpu = share(run, wait);
    CpuWorkSchedule schedule(t.cpu, 8 * kMs);
    uint64_t loops = 0;
    while (t.wall < 10000 * kMs) {
        schedule.work([&] { return t.cpuNow(); });
        ++loops;
        const bool big = bigChargeEvery > 0 && loops % static_cast<uint64_t>(bigChargeEvery) == 0;
        t.sleep(1 * kMs, big ? 10 * kMs : charged);
    }

    // What a user compares: loops x 8 ms against the CPU time the kernel
    // says the worker had, beyond which it holds the last sleep's charge at
    // most. The wall-clock spin gave the first four rows 1111 loops, 8 ms of
    // CPU per loop only to the first.
    const int64_t worked = static_cast<int64_t>(loops) * 8 * kMs;
    const int64_t lastCharge = bigChargeEvery > 0 ? 10 * kMs : charged;
    QVERIFY2(t.cpu >= worked && t.cpu <= worked + lastCharge + FakeThread::kReadNs,
             qPrintable(QString("%1 loops for %2 ms of CPU").arg(loops).arg(t.cpu / kMs)));
}

QTEST_APPLESS_MAIN(TestCpuWork)
#include "tst_cpuwork.moc"
