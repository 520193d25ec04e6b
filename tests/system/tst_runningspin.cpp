// The consumers' work counts only the time the thread ran: a consumer
// preempted mid-work finishes later by as long as it was off the CPU.
// Virtual time for the rules; one short real spin for the clock it reads.

#include "cpuspin.h"
#include "realclock.h"

#include <QTest>

#include <cstdint>
#include <functional>

using namespace latprobe;

namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;

// A thread whose monotonic clock reads take `readNs` each; `offCpuAfter`
// gives, for the read at a wall time, how long the thread is then kept off
// the CPU before that read returns (preempted, an interrupt, the host).
struct FakeThread
{
    int64_t readNs = 50;
    std::function<int64_t(int64_t wall)> offCpuAfter = [](int64_t) { return 0; };
    // Whether time off the CPU was another task's (a context switch) rather
    // than an interrupt's or the host's.
    bool offCpuIsSwitch = true;
    int64_t wall = 0;
    int reads = 0;
    long switches = 0;
    int switchReads = 0;

    int64_t now()
    {
        ++reads;
        const int64_t off = offCpuAfter(wall);
        if (off > 0 && offCpuIsSwitch)
            ++switches;
        wall += readNs + off;
        return wall;
    }
    long contextSwitches()
    {
        ++switchReads;
        return switches;
    }
};

} // namespace

class TestRunningSpin : public QObject
{
    Q_OBJECT

private slots:
    void preemptionDelaysTheEndOfWork_data();
    void preemptionDelaysTheEndOfWork();
    void shortInterruptionsCountAsRunning();
    void theSwitchCountIsReadOnlyAfterAGap();
    void theRealWorkTakesTheCpuTimeAsked();
};

void TestRunningSpin::preemptionDelaysTheEndOfWork_data()
{
    QTest::addColumn<int64_t>("preemptedAt");
    QTest::addColumn<int64_t>("preemptedFor");

    QTest::newRow("never preempted") << int64_t{0} << int64_t{0};
    QTest::newRow("4 ms off the CPU mid-work") << 2 * kMs << 4 * kMs;
    QTest::newRow("a tick's wait at its first step") << int64_t{1} << 4 * kMs;
    QTest::newRow("just over a gap") << 3 * kMs << kRunningGapNs + kUs;
    QTest::newRow("a 40-us wakeup preemption") << 3 * kMs << 40 * kUs;
}

void TestRunningSpin::preemptionDelaysTheEndOfWork()
{
    QFETCH(int64_t, preemptedAt);
    QFETCH(int64_t, preemptedFor);

    FakeThread t;
    bool preempted = false;
    t.offCpuAfter = [&](int64_t wall) {
        if (preempted || preemptedFor == 0 || wall < preemptedAt)
            return int64_t{0};
        preempted = true;
        return preemptedFor;
    };
    const int64_t ran = busyWhileRunning(
        6 * kMs, [&] { return t.now(); }, [&] { return t.contextSwitches(); });

    QVERIFY(ran >= 6 * kMs);
    QVERIFY(ran <= 6 * kMs + t.readNs);
    // Done once it ran 6 ms: the time off the CPU comes on top.
    QVERIFY2(t.wall >= 6 * kMs + preemptedFor && t.wall <= 6 * kMs + preemptedFor + 2 * t.readNs,
             qPrintable(QString("work ended at %1 ns").arg(t.wall)));
}

void TestRunningSpin::shortInterruptionsCountAsRunning()
{
    // A 5-us interrupt every 100 us is the thread's, as its CPU clock would
    // count it: the work ends when the wall clock says 6 ms.
    FakeThread t;
    int64_t nextIrq = 100 * kUs;
    t.offCpuAfter = [&](int64_t wall) {
        if (wall < nextIrq)
            return int64_t{0};
        nextIrq += 100 * kUs;
        return 5 * kUs;
    };
    busyWhileRunning(
        6 * kMs, [&] { return t.now(); }, [&] { return t.contextSwitches(); });
    QVERIFY2(t.wall <= 6 * kMs + 5 * kUs + 2 * t.readNs,
             qPrintable(QString("work ended at %1 ns").arg(t.wall)));

    // The host stalling the vCPU 50 us every ms, no other task running:
    // the thread's too, as a calibrated loop's speed counts it.
    FakeThread host;
    host.offCpuIsSwitch = false;
    int64_t nextStall = kMs;
    host.offCpuAfter = [&](int64_t wall) {
        if (wall < nextStall)
            return int64_t{0};
        nextStall += kMs;
        return 50 * kUs;
    };
    busyWhileRunning(
        6 * kMs, [&] { return host.now(); }, [&] { return host.contextSwitches(); });
    QVERIFY2(host.wall <= 6 * kMs + 50 * kUs + 2 * host.readNs,
             qPrintable(QString("work ended at %1 ns").arg(host.wall)));
}

void TestRunningSpin::theSwitchCountIsReadOnlyAfterAGap()
{
    // A system call per clock read would cost the work its pace: the count
    // is read at the start and after each of the three gaps only.
    FakeThread t;
    int64_t next = 1 * kMs;
    t.offCpuAfter = [&](int64_t wall) {
        if (wall < next || next > 3 * kMs)
            return int64_t{0};
        next += kMs;
        return 20 * kUs;
    };
    busyWhileRunning(
        6 * kMs, [&] { return t.now(); }, [&] { return t.contextSwitches(); });
    QCOMPARE(t.switchReads, 4);
    QVERIFY2(t.wall >= 6 * kMs + 60 * kUs, qPrintable(QString("work ended at %1 ns").arg(t.wall)));
}

void TestRunningSpin::theRealWorkTakesTheCpuTimeAsked()
{
    // On the real clocks: whatever else runs, 20 ms of work takes at least
    // 20 ms of the thread's CPU time, and the wall time it took. Not at most:
    // the CPU clock also charges the thread the interrupts and host stalls
    // over kRunningGapNs that the work leaves out (23 ms beside ctest -j2).
    RealClock clock(WorkMode::CpuTime);
    const int64_t cpu0 = RealClock::threadCpuNow();
    const int64_t wall0 = RealClock::monotonicNow();
    clock.work(20 * kMs);
    const int64_t cpu = RealClock::threadCpuNow() - cpu0;
    const int64_t wall = RealClock::monotonicNow() - wall0;
    QVERIFY2(wall >= 20 * kMs, qPrintable(QString("ended after %1 ns").arg(wall)));
    QVERIFY2(cpu >= 19 * kMs, qPrintable(QString("%1 ns of CPU for 20 ms of work").arg(cpu)));
}

QTEST_GUILESS_MAIN(TestRunningSpin)
#include "tst_runningspin.moc"
