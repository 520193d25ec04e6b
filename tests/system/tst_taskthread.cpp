// The thread that runs a session's posted commands and its timed tick: a
// timed task given from another thread runs when due, even while the thread
// sleeps with nothing queued (a session's first tick is armed so, from the
// thread that starts it).

#include "realclock.h"
#include "taskthread.h"

#include <QTest>

#include <atomic>

using namespace latprobe;

class TestTaskThread : public QObject
{
    Q_OBJECT

private slots:
    void aTimedTaskFromAnotherThreadRunsWhileItSleeps()
    {
        TaskThread thread("lp-test");
        thread.run([] {}); // started, and now asleep with nothing to do
        std::atomic<bool> ran{false};
        thread.runAt(RealClock::monotonicNow(), [&ran] { ran = true; });
        QTRY_VERIFY_WITH_TIMEOUT(ran.load(), 10'000);
    }

    void anEarlierTimedTaskReplacesALaterOne()
    {
        TaskThread thread("lp-test");
        std::atomic<int> ran{0};
        thread.runAt(RealClock::monotonicNow() + 3'600'000'000'000, [&ran] { ran = 1; });
        thread.run([] {}); // asleep until the hour's task
        thread.runAt(RealClock::monotonicNow(), [&ran] { ran = 2; });
        QTRY_COMPARE_WITH_TIMEOUT(ran.load(), 2, 10'000);
    }
};

QTEST_GUILESS_MAIN(TestTaskThread)
#include "tst_taskthread.moc"
