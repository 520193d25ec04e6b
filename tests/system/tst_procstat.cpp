// A load worker's CPU time as the kernel counts it: every thread of the
// worker, not its leader alone (a burn worker with threads=nproc showed the
// CPU time of one thread), and threads that have already exited too.

#include "procstat.h"
#include "realclock.h"

#include <QTest>

#include <atomic>
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
        const int64_t before = scheduledCpuNs(getpid());
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
        const int64_t live = scheduledCpuNs(getpid()) - before;
        release = true;
        release.notify_all();
        for (std::thread &t : threads)
            t.join();
        QVERIFY2(live >= 2 * kSpinNs, qPrintable(QString("%1 ms").arg(live / 1000000)));
    }

    void threadsThatExitedStillCount()
    {
        const int64_t before = scheduledCpuNs(getpid());
        std::thread a(spinOwnCpu), b(spinOwnCpu);
        a.join();
        b.join();
        // In /proc/<pid>/stat's ticks only: one tick short at most.
        const int64_t tick = 1000000000LL / sysconf(_SC_CLK_TCK);
        const int64_t after = scheduledCpuNs(getpid()) - before;
        QVERIFY2(after >= 2 * kSpinNs - tick, qPrintable(QString("%1 ms").arg(after / 1000000)));
    }

    void aGoneProcessHasNone() { QCOMPARE(scheduledCpuNs(999999999), int64_t{-1}); }
};

QTEST_GUILESS_MAIN(TestProcStat)
#include "tst_procstat.moc"
