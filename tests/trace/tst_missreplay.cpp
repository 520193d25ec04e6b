// The explanation of a miss from a trace, on synthetic traces shaped like
// the kernel's: a SCHED_FIFO culprit, a SCHED_OTHER hog the consumer waits
// behind until the tick, a wakeup preemption, interrupts, a migration, and
// a trace whose buffer no longer reaches the window's start.

#include "missreplay.h"
#include "recenttrace.h"

#include <QTest>

#include <cstring>
#include <vector>

using namespace latprobe;

namespace {

constexpr int64_t kStart = 1'000'000'000; // the period's start
constexpr int64_t us = 1000;
constexpr int kTid = 100;

using T = SchedEvent::Type;

SchedEvent ev(T type, int64_t atUs, int cpu = 0)
{
    SchedEvent e;
    e.type = type;
    e.ts = kStart + atUs * us;
    e.cpu = static_cast<int16_t>(cpu);
    return e;
}

SchedEvent sw(int64_t atUs, int prevPid, const char *prevComm, int64_t prevState, int nextPid,
              const char *nextComm, int cpu = 0, int prevPrio = 120, int nextPrio = 120)
{
    SchedEvent e = ev(T::Switch, atUs, cpu);
    e.prevPid = prevPid;
    std::strncpy(e.prevComm, prevComm, sizeof e.prevComm - 1);
    e.prevState = prevState;
    e.prevPrio = prevPrio;
    e.pid = nextPid;
    std::strncpy(e.comm, nextComm, sizeof e.comm - 1);
    e.prio = nextPrio;
    return e;
}

SchedEvent wake(T type, int64_t atUs, int target = 0, int cpu = 0)
{
    SchedEvent e = ev(type, atUs, cpu);
    e.pid = kTid;
    std::strcpy(e.comm, "lp-audio");
    e.targetCpu = static_cast<int16_t>(target);
    return e;
}

SchedEvent irq(T type, int64_t atUs, const char *name, int cpu = 0)
{
    SchedEvent e = ev(type, atUs, cpu);
    std::strncpy(e.name, name, sizeof e.name - 1);
    return e;
}

// The consumer's timer fires in a local timer interrupt at +20 us and wakes it.
std::vector<SchedEvent> timerWakes(std::vector<SchedEvent> before)
{
    before.push_back(irq(T::IrqEntry, 20, "local_timer"));
    before.push_back(ev(T::HrtimerExpire, 25));
    before.push_back(wake(T::Waking, 30));
    before.push_back(wake(T::Wakeup, 32));
    before.push_back(irq(T::IrqExit, 40, "local_timer"));
    return before;
}

const DelayShare *shareOf(const MissExplanation &x, const char *name)
{
    for (const DelayShare &s : x.shares)
        if (s.name == name)
            return &s;
    return nullptr;
}

constexpr int64_t kSleeping = 1; // TASK_INTERRUPTIBLE
constexpr int64_t kPreempted = 0x100;

} // namespace

class TestMissReplay : public QObject
{
    Q_OBJECT

private slots:
    void fifoCulpritTakesTheWait();
    void tickBoundBehindOtherHog();
    void wakeupPreemption();
    void interruptsByHandlerName();
    void migrationAndIdle();
    void overrunPeriodRunsFromItsStart();
    void traceOverwrittenIsSaid();
    void blockingAfterTheWakeupIsNotTheTimers();
    void keptBetweenReadsIsTheLastSpanOnly();
    void theSmallestSharesAreSummed();
};

void TestMissReplay::fifoCulpritTakesTheWait()
{
    // The culprit (SCHED_FIFO 10: prio 89) took the CPU before the period
    // began and spins 15 ms; the consumer runs once it sleeps.
    auto events = timerWakes({sw(-2000, kTid, "lp-audio", kSleeping, 200, "culprit", 0, 120, 89)});
    events.push_back(sw(15000, 200, "culprit", kSleeping, kTid, "lp-audio", 0, 89, 120));
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 15000 * us, kStart + 15300 * us}, "none");
    QCOMPARE(x.windowNs, 15300 * us);
    QCOMPARE(x.timerNs, 30 * us);
    QCOMPARE(x.expiryNs, 25 * us);
    QCOMPARE(x.selfNs, 300 * us);
    QCOMPARE(x.irqNs, 10 * us);
    QCOMPARE(x.unknownNs, int64_t{0});
    QCOMPARE(x.cpu, 0);
    QVERIFY(!x.shares.empty());
    QCOMPARE(x.shares.front().name, std::string("culprit"));
    QCOMPARE(x.shares.front().pid, 200);
    QCOMPARE(x.shares.front().prio, 89);
    QCOMPARE(x.shares.front().ns, (15000 - 40) * us);
    QVERIFY(x.shares.front().ns >= x.delayNs() * 9 / 10);
    QCOMPARE(x.waitEnd, std::string("the task ahead blocked"));
    QCOMPARE(x.windowNs, x.timerNs + x.irqNs + x.waitNs + x.selfNs + x.unknownNs);
}

void TestMissReplay::tickBoundBehindOtherHog()
{
    // A nice 0 hog keeps the CPU after the wakeup; preempt=none: the
    // consumer gets it at the next tick, 4 ms later (HZ 250).
    auto events = timerWakes({sw(-500, kTid, "lp-audio", kSleeping, 300, "hog")});
    events.push_back(irq(T::IrqEntry, 4000, "local_timer"));
    events.push_back(irq(T::IrqExit, 4010, "local_timer"));
    events.push_back(sw(4015, 300, "hog", kPreempted, kTid, "lp-audio"));
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 4015 * us, kStart + 4300 * us}, "none");
    QCOMPARE(x.waitEnd, std::string("tick-bound: preempt=none"));
    QCOMPARE(x.waitEndTask, std::string("hog[300]"));
    const DelayShare *hog = shareOf(x, "hog");
    QVERIFY(hog);
    QCOMPARE(hog->ns, (4000 - 40 + 5) * us);
    QCOMPARE(hog->pid, 300);
    const DelayShare *tick = shareOf(x, "local_timer");
    QVERIFY(tick);
    QCOMPARE(tick->kind, DelayShare::Kind::Irq);
    QCOMPARE(tick->ns, 20 * us); // 10 us at the wakeup, 10 at the tick
}

void TestMissReplay::wakeupPreemption()
{
    // Switched in as the interrupt that woke it returns: no tick waited for.
    auto events = timerWakes({sw(-500, kTid, "lp-audio", kSleeping, 300, "hog")});
    events.push_back(sw(45, 300, "hog", kPreempted, kTid, "lp-audio"));
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 45 * us, kStart + 6000 * us}, "none");
    QCOMPARE(x.waitEnd, std::string("wakeup preemption"));
    QCOMPARE(x.selfNs, (6000 - 45) * us);
}

void TestMissReplay::interruptsByHandlerName()
{
    auto events = timerWakes({sw(-500, kTid, "lp-audio", kSleeping, 300, "hog")});
    events.push_back(irq(T::IrqEntry, 1000, "virtio0-input.0"));
    events.push_back(irq(T::IrqExit, 1200, "virtio0-input.0"));
    events.push_back(irq(T::SoftirqEntry, 1200, "NET_RX"));
    events.push_back(irq(T::SoftirqExit, 1500, "NET_RX"));
    events.push_back(sw(2000, 300, "hog", kSleeping, kTid, "lp-audio"));
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 2000 * us, kStart + 2100 * us}, "none");
    const DelayShare *dev = shareOf(x, "virtio0-input.0");
    QVERIFY(dev);
    QCOMPARE(dev->kind, DelayShare::Kind::Irq);
    QCOMPARE(dev->ns, 200 * us);
    const DelayShare *net = shareOf(x, "NET_RX");
    QVERIFY(net);
    QCOMPARE(net->kind, DelayShare::Kind::Softirq);
    QCOMPARE(net->ns, 300 * us);
    QCOMPARE(x.irqNs, (10 + 200 + 300) * us);
}

void TestMissReplay::migrationAndIdle()
{
    // Woken onto CPU 1 behind a busy task, pulled to CPU 0, which was idle.
    std::vector<SchedEvent> events{sw(-500, kTid, "lp-audio", kSleeping, 400, "busy", 1),
                                   sw(-400, 500, "other", kSleeping, 0, "swapper/0", 0)};
    events.push_back(wake(T::Waking, 10, 1, 1));
    events.push_back(wake(T::Wakeup, 12, 1, 1));
    SchedEvent m = ev(T::Migrate, 1000, 0);
    m.pid = kTid;
    m.origCpu = 1;
    m.targetCpu = 0;
    events.push_back(m);
    events.push_back(sw(1100, 0, "swapper/0", 0, kTid, "lp-audio", 0));
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 1100 * us, kStart + 1200 * us}, "none");
    QCOMPARE(x.migrations, 1);
    QCOMPARE(x.cpu, 0);
    QCOMPARE(shareOf(x, "busy")->ns, (1000 - 10) * us);
    QCOMPARE(shareOf(x, "idle")->kind, DelayShare::Kind::Idle);
    QCOMPARE(shareOf(x, "idle")->ns, 100 * us);
    QCOMPARE(x.waitEnd, std::string("idle CPU"));
}

void TestMissReplay::overrunPeriodRunsFromItsStart()
{
    // The previous period's work still ran when this one began: no timer.
    std::vector<SchedEvent> events{sw(-3000, 300, "hog", kPreempted, kTid, "lp-video"),
                                   sw(2000, kTid, "lp-video", kSleeping, 300, "hog")};
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart, kStart + 1500 * us}, "none");
    QCOMPARE(x.timerNs, int64_t{0});
    QCOMPARE(x.selfNs, 1500 * us);
    QCOMPARE(x.delayNs(), int64_t{0});
}

void TestMissReplay::traceOverwrittenIsSaid()
{
    std::vector<SchedEvent> events{sw(3000, 300, "hog", kSleeping, kTid, "lp-audio")};
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 3000 * us, kStart + 3100 * us}, "none");
    QCOMPARE(x.unknownNs, 3000 * us);
    QVERIFY(x.note.find("overwritten") != std::string::npos);
}

void TestMissReplay::blockingAfterTheWakeupIsNotTheTimers()
{
    // Woken on time, it ran, then slept 2 ms on a page fault's I/O.
    auto events = timerWakes({sw(-500, kTid, "lp-audio", kSleeping, 0, "swapper/0")});
    events.push_back(sw(50, 0, "swapper/0", 0, kTid, "lp-audio"));
    events.push_back(sw(100, kTid, "lp-audio", 2 /* TASK_UNINTERRUPTIBLE */, 0, "swapper/0"));
    SchedEvent back = wake(T::Waking, 2100);
    events.push_back(back);
    events.push_back(sw(2110, 0, "swapper/0", 0, kTid, "lp-audio"));
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + 50 * us, kStart + 2400 * us}, "none");
    QCOMPARE(x.timerNs, 30 * us);
    QCOMPARE(x.expiryNs, 25 * us); // its timer's, not the later wakeup's
    QCOMPARE(x.unknownNs, 2000 * us);
    QVERIFY(x.note.find("blocked") != std::string::npos);
    QCOMPARE(x.windowNs, x.timerNs + x.irqNs + x.waitNs + x.selfNs + x.unknownNs);
}

void TestMissReplay::keptBetweenReadsIsTheLastSpanOnly()
{
    // A second of events 10 us apart: kept, the 300 ms before the newest,
    // while a miss to come may still be asked about (from after the newest).
    std::vector<SchedEvent> events(100'000);
    for (size_t i = 0; i < events.size(); ++i)
        events[i].ts = kStart + static_cast<int64_t>(i) * 10 * us;
    const int64_t later = kStart + 100'000 * 10 * us;
    const size_t reuse = 50'000;
    keepRecent(events, 300'000 * us, later, 200'000, reuse);
    QCOMPARE(events.size(), size_t{30'001});
    QCOMPARE(events.front().ts, kStart + 69'999 * 10 * us);
    QCOMPARE(events.back().ts, kStart + 99'999 * 10 * us);
    // A burst past the room kept for the next read: the memory of the
    // seven tenths dropped goes back.
    QVERIFY2(events.capacity() <= 2 * events.size() + 4096,
             qPrintable(QString::number(events.capacity())));
    // A miss still to be asked about keeps its trace, however old.
    keepRecent(events, 100'000 * us, kStart + 80'000 * 10 * us, 200'000, reuse);
    QCOMPARE(events.size(), size_t{20'000});
    QCOMPARE(events.front().ts, kStart + 80'000 * 10 * us);
    // Within the room kept, the next read finds it already there.
    events.reserve(reuse);
    const SchedEvent *room = events.data();
    keepRecent(events, 300'000 * us, later, 200'000, reuse);
    QCOMPARE(events.capacity(), reuse);
    QCOMPARE(events.data(), room);
    // A burst denser than the bound: the newest kept.
    keepRecent(events, 300'000 * us, later, 1000, reuse);
    QCOMPARE(events.size(), size_t{1000});
    QCOMPARE(events.back().ts, kStart + 99'999 * 10 * us);
    std::vector<SchedEvent> none;
    keepRecent(none, 300'000 * us, later, 1000, reuse);
    QVERIFY(none.empty());
    // No miss will be asked about: nothing kept, and its memory goes back.
    keepRecent(events, 300'000 * us, INT64_MAX, 200'000, reuse);
    QVERIFY(events.empty());
    QCOMPARE(events.capacity(), size_t{0});
}

void TestMissReplay::theSmallestSharesAreSummed()
{
    // Twenty tasks take the CPU in turn after the wakeup, task k for k+1
    // ms (hackbench's senders): the twelve largest are named, the other
    // eight and the timer interrupt's 10 us summed, and nothing is lost.
    auto events = timerWakes({sw(-500, kTid, "lp-audio", kSleeping, 1000, "t0")});
    int64_t at = 1000;
    for (int k = 0; k < 20; ++k) {
        const std::string prev = "t" + std::to_string(k), next = "t" + std::to_string(k + 1);
        at += (k + 1) * 1000;
        if (k + 1 < 20)
            events.push_back(sw(at, 1000 + k, prev.c_str(), kPreempted, 1001 + k, next.c_str()));
        else
            events.push_back(sw(at, 1000 + k, prev.c_str(), kPreempted, kTid, "lp-audio"));
    }
    const MissExplanation x =
        explainMiss(events, {kTid, kStart, kStart + at * us, kStart + (at + 100) * us}, "none");
    QCOMPARE(x.shares.size(), MissExplanation::kMaxShares);
    QCOMPARE(x.otherShares, 9);
    QCOMPARE(x.shares.front().name, std::string("t19")); // 20 ms, the largest
    int64_t named = 0;
    for (const DelayShare &s : x.shares)
        if (s.kind == DelayShare::Kind::Task) {
            QVERIFY(s.ns >= 9000 * us); // t8 to t19: 9 ms and more
            named += s.ns;
        }
    // t0 from the timer interrupt's exit to 2 ms, t1 to t7 2 to 8 ms, the
    // interrupt's 10 us.
    QCOMPARE(x.otherSharesNs, (2000 - 40 + 35'000 + 10) * us);
    int64_t irq = 0;
    for (const DelayShare &s : x.shares)
        irq += s.kind == DelayShare::Kind::Task ? 0 : s.ns;
    QCOMPARE(named + irq + x.otherSharesNs, x.waitNs + x.irqNs);
}

QTEST_APPLESS_MAIN(TestMissReplay)
#include "tst_missreplay.moc"
