// A load worker's CPU time as the kernel counts it: every thread of the
// worker, not its leader alone (a burn worker with threads=nproc showed the
// CPU time of one thread), threads that have already exited too, and the
// children it has reaped.

#include "procstat.h"
#include "realclock.h"

#include <QTest>

#include <atomic>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace latprobe;

namespace {
constexpr int64_t kSpinNs = 150'000'000;

// Spins until this thread has had kSpinNs of CPU: as long as that takes on
// a saturated machine, never less.
void spinOwnCpu()
{
    const int64_t until = RealClock::threadCpuNow() + kSpinNs;
    while (RealClock::threadCpuNow() < until) {
    }
}
} // namespace

class TestProcStat : public QObject
{
    Q_OBJECT

private slots:
    void everyThreadsCpuCounts()
    {
        const int64_t before = processClockNs(getpid());
        QVERIFY(before >= 0);
        std::atomic<int> spun{0};
        std::atomic<bool> release{false};
        std::vector<std::thread> threads;
        for (int i = 0; i < 2; ++i)
            threads.emplace_back([&] {
                spinOwnCpu();
                ++spun;
                release.wait(false);
            });
        while (spun.load() < 2)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const int64_t live = processClockNs(getpid()) - before;
        release = true;
        release.notify_all();
        for (std::thread &t : threads)
            t.join();
        QVERIFY2(live >= 2 * kSpinNs, qPrintable(QString("%1 ms").arg(live / 1000000)));
    }

    void threadsThatExitedStillCount()
    {
        const int64_t before = processClockNs(getpid());
        std::thread a(spinOwnCpu), b(spinOwnCpu);
        a.join();
        b.join();
        const int64_t after = processClockNs(getpid()) - before;
        QVERIFY2(after >= 2 * kSpinNs, qPrintable(QString("%1 ms").arg(after / 1000000)));
    }

    void reapedChildrenCount()
    {
        const int64_t before = reapedChildrenCpuNs(getpid());
        QVERIFY(before >= 0);
        const pid_t child = fork();
        if (child == 0) {
            spinOwnCpu();
            _exit(0);
        }
        QVERIFY(child > 0);
        // Alive, its CPU is its own clock's; reaped, the parent's cutime.
        QTRY_VERIFY_WITH_TIMEOUT(processClockNs(child) >= kSpinNs, 600000);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        // In /proc/<pid>/stat's ticks: one tick short at most.
        const int64_t tick = 1000000000LL / sysconf(_SC_CLK_TCK);
        const int64_t reaped = reapedChildrenCpuNs(getpid()) - before;
        QVERIFY2(reaped >= kSpinNs - tick, qPrintable(QString("%1 ms").arg(reaped / 1000000)));
    }

    void aGoneProcessHasNone()
    {
        QCOMPARE(processClockNs(999999999), int64_t{-1});
        QCOMPARE(reapedChildrenCpuNs(999999999), int64_t{-1});
        QCOMPARE(processClockNs(0), int64_t{-1});
    }
};

QTEST_GUILESS_MAIN(TestProcStat)
#include "tst_procstat.moc"
