// interbench's method on virtual time: a consumer woken by the timekeeper
// thread, charged interbench's latency (periodic_schedule() in interbench.c:
// the timekeeper's oversleep not charged, each lost period charged a period),
// and interbench's X, whose work ramps 0..100 ms in 100 ms windows. The
// figures are worked out by hand from interbench.c for scripted late wakeups
// and preemptions.

#include "collector.h"
#include "fakeclock.h"
#include "periodicloop.h"
#include "presets.h"
#include "statsaccumulator.h"
#include "timekeeper.h"

#include <QTest>

#include <atomic>
#include <csignal>
#include <cstddef>
#include <iterator>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <thread>
#include <vector>

using namespace latprobe;

namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;
constexpr int64_t kStart = 5000 * kMs;

// interbench's audio with round numbers: 10 ms periods, 1 ms of work.
ConsumerConfig audio10ms(WakeMethod wake)
{
    ConsumerConfig c = audioConsumerByPeriod(10 * kMs, 2, 10);
    c.wake = wake;
    return c;
}

struct LoopResult
{
    std::vector<Sample> samples;
    ConsumerStats stats;
};

// Runs `cycles` cycles of the real PeriodicLoop on `clock`, woken by a real
// Timekeeper on the same clock when the config asks for one, and folds them
// through the real Collector over `periods` periods.
LoopResult runLoop(const ConsumerConfig &config, test::FakeClock &clock, uint64_t cycles,
                   int periods)
{
    SpscRing<Sample> ring(1 << 16);
    std::atomic<bool> stop{false};
    uint64_t ran = 0;
    if (config.wake == WakeMethod::Timekeeper) {
        Timekeeper timekeeper(clock, clock, ThreadParams{});
        PeriodicLoop loop(config, clock, ring, &timekeeper);
        ran = loop.run(kStart, stop, cycles);
    } else {
        PeriodicLoop loop(config, clock, ring);
        ran = loop.run(kStart, stop, cycles);
    }
    LoopResult r;
    Collector collector({config}, kStart);
    ring.drain([&](const Sample &s) {
        r.samples.push_back(s);
        collector.add(0, s);
    });
    const int64_t end = kStart + periods * config.periodNs + config.periodNs / 2;
    collector.finish(end);
    if (ran == cycles)
        r.stats = collector.phases(end).front().consumers.front();
    return r;
}

std::atomic<int> g_yields{0};

void countYield(int, siginfo_t *, void *)
{
    g_yields.fetch_add(1, std::memory_order_relaxed);
}

// From here on the calling thread, and the threads it starts, raise SIGSYS
// instead of calling sched_yield(): what a thread that spins before it
// sleeps calls. Per thread, so the rest of the test process is untouched
// (and no fork, which ThreadSanitizer refuses in a process with threads).
// False where seccomp filters cannot be set.
bool trapSchedYield()
{
#if defined(__x86_64__)
    constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
    return false;
#endif
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sched_yield, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

} // namespace

class TestInterbenchLoop : public QObject
{
    Q_OBJECT

private slots:
    void timekeeperOversleepIsNotCharged();
    void lostPeriodsAreChargedAPeriodEach();
    void aWakePastTheDeadlineDoesNoWork();
    void timekeeperGrantIsRecorded();
    void timekeeperHandOffsNeverYield();
    void xRampsItsWorkInHundredMillisecondWindows();
    void xLateWindowIsAMissedDeadline();
    void xSkipsTheBurnOfAWindowAlreadyPast();
    void xWokenByTheTimekeeperIsChargedFromInterbenchsDeadline();
};

void TestInterbenchLoop::timekeeperOversleepIsNotCharged()
{
    // Cycle 1: the timekeeper wakes 3 ms late, and the consumer runs 200 us
    // after it posts. A timer wake is charged all 3.2 ms; interbench's
    // method only the 200 us that were the consumer's own wait.
    for (const WakeMethod wake : {WakeMethod::Timer, WakeMethod::Timekeeper}) {
        test::FakeClock clock(kStart);
        clock.lateWakeups = {0, 3 * kMs};
        // A timekeeper-woken consumer reads the clock as it runs and after
        // its work; a timer wake is read by the sleep itself.
        if (wake == WakeMethod::Timekeeper)
            clock.lateReads = {0, 0, 200 * kUs};
        else
            clock.lateWakeups[1] += 200 * kUs;
        const LoopResult r = runLoop(audio10ms(wake), clock, 10, 10);
        QCOMPARE(r.samples.size(), 10u);
        const Sample &s = r.samples[1];
        QCOMPARE(s.periodStart, kStart + 2 * 10 * kMs);
        QCOMPARE(s.woke - s.periodStart, 3200 * kUs);
        QCOMPARE(latencyUs(s), wake == WakeMethod::Timekeeper ? 200 : 3200);
        QCOMPARE(r.stats.maxUs, wake == WakeMethod::Timekeeper ? 200 : 3200);
        QCOMPARE(r.stats.misses, 0u);
        QCOMPARE(r.stats.ibLatencyMaxUs, r.stats.maxUs);
    }
}

void TestInterbenchLoop::lostPeriodsAreChargedAPeriodEach()
{
    // Cycle 1's 1 ms of work is preempted 25 ms: it ends 26 ms after its
    // period began, 16 ms past its deadline (the next period). interbench:
    // intervals = 16 / 10 + 1 = 2 deadlines missed, 2 x 10 ms charged, and
    // it sleeps to the next period still ahead, 30 ms after its own.
    test::FakeClock clock(kStart);
    clock.preemptions = {0, 25 * kMs};
    const LoopResult r = runLoop(audio10ms(WakeMethod::Timekeeper), clock, 10, 11);
    QCOMPARE(r.samples.size(), 10u);
    const Sample &late = r.samples[1];
    QCOMPARE(late.missedDeadline, 1u);
    QCOMPARE(late.periodsSkipped, 1u);
    QCOMPARE(late.lostNs, 20 * kMs);
    QCOMPARE(latencyUs(late), 20000);
    QCOMPARE(r.samples[2].periodStart, late.periodStart + 30 * kMs);
    QCOMPARE(latencyUs(r.samples[2]), 0);
    QCOMPARE(r.stats.misses, 2u);
    QCOMPARE(r.stats.deadlinesMet, 9u);
    QCOMPARE(r.stats.maxUs, 20000);
    QCOMPARE(r.stats.ibLatencyMaxUs, 20000);
    QCOMPARE(r.stats.ibLatencyMeanUs, 20000.0 / 10);
    // interbench's % desired CPU counts burns: the late one is done, and as
    // it ran past two windows both count as missed besides (missed_burns +=
    // intervals when intervals > 1): 10 done of 12.
    QCOMPARE(r.stats.desiredCpuPct, 100.0 * 10 / 12);
}

void TestInterbenchLoop::aWakePastTheDeadlineDoesNoWork()
{
    // The timekeeper itself wakes 15 ms late in cycle 1: past the deadline
    // before any work. interbench skips the burn and charges one period; the
    // oversleep, the timekeeper's, is not charged.
    test::FakeClock clock(kStart);
    clock.lateWakeups = {0, 15 * kMs};
    const LoopResult r = runLoop(audio10ms(WakeMethod::Timekeeper), clock, 6, 7);
    QCOMPARE(r.samples.size(), 6u);
    const Sample &late = r.samples[1];
    QCOMPARE(late.workDone, 0);
    QCOMPARE(late.done, late.woke);
    QCOMPARE(late.missedDeadline, 1u);
    QCOMPARE(late.periodsSkipped, 0u);
    QCOMPARE(late.excusedNs, 15 * kMs);
    QCOMPARE(latencyUs(late), 10000);
    QCOMPARE(r.samples[2].periodStart, late.periodStart + 20 * kMs);
    QCOMPARE(r.stats.misses, 1u);
    QCOMPARE(r.stats.desiredCpuPct, 100.0 * 5 / 6);
}

void TestInterbenchLoop::timekeeperGrantIsRecorded()
{
    // SCHED_FIFO 96 where permitted; else SCHED_OTHER with the refusal said.
    test::FakeClock clock(kStart);
    Timekeeper timekeeper(clock, clock, ThreadParams{});
    const ThreadGrant &g = timekeeper.grant();
    if (g.refusal.empty()) {
        QCOMPARE(g.policy, SchedPolicy::Fifo);
        QCOMPARE(g.priority, Timekeeper::kPriority);
    } else {
        QCOMPARE(g.policy, SchedPolicy::Other);
        QVERIFY(g.refusal.find("96") != std::string::npos);
    }
}

void TestInterbenchLoop::timekeeperHandOffsNeverYield()
{
    // interbench's timekeeper and consumer hand over through POSIX
    // semaphores, which wait in the kernel at once. Through ones that spin
    // and yield first (std::binary_semaphore), a SCHED_OTHER timekeeper
    // changed what the scheduler ran next: latprobe's Video under Compile met
    // 86-98 % of its deadlines where interbench's met 55-64 %.
    struct sigaction counting
    {
    }, before{};
    counting.sa_sigaction = countYield;
    counting.sa_flags = SA_SIGINFO;
    QVERIFY(sigaction(SIGSYS, &counting, &before) == 0);
    g_yields = 0;
    bool trapped = false;
    size_t samples = 0;
    std::thread consumer([&] {
        trapped = trapSchedYield();
        if (!trapped)
            return;
        test::FakeClock clock(kStart);
        samples = runLoop(audio10ms(WakeMethod::Timekeeper), clock, 200, 201).samples.size();
    });
    consumer.join();
    sigaction(SIGSYS, &before, nullptr);
    if (!trapped)
        QSKIP("seccomp filters cannot be set here");
    QCOMPARE(samples, size_t{200});
    QVERIFY2(g_yields.load() == 0,
             qPrintable(QString("the timekeeper's hand-offs called sched_yield() %1 times")
                            .arg(g_yields.load())));
}

void TestInterbenchLoop::xRampsItsWorkInHundredMillisecondWindows()
{
    // emulate_x(): for i = 0..100, periodic_schedule(i ms of work, due
    // 100 - i ms after `deadline`), then deadline += i ms. The burn of
    // window i starts i - 1 ms before the `deadline` it is due from, so it
    // is due 99 ms after it woke; the 100 ms burn has no deadline at all and
    // the next window follows at once.
    test::FakeClock clock(kStart);
    const ConsumerConfig x = xConsumer();
    const LoopResult r = runLoop(x, clock, 203, 205);
    QCOMPARE(r.samples.size(), 203u);
    for (size_t k = 0; k < r.samples.size(); ++k) {
        const Sample &s = r.samples[k];
        QCOMPARE(s.workDone, static_cast<int64_t>(k % 101) * kMs);
        QCOMPARE(s.missedDeadline, 0u);
        QCOMPARE(s.noDeadline, k % 101 == 100 ? 1u : 0u);
        QCOMPARE(s.woke, s.periodStart);
    }
    QCOMPARE(r.samples[0].periodStart, kStart + 100 * kMs);
    QCOMPARE(r.samples[1].periodStart - r.samples[0].periodStart, 100 * kMs);
    QCOMPARE(r.samples[2].periodStart - r.samples[1].periodStart, 99 * kMs);
    QCOMPARE(r.samples[50].periodStart - r.samples[49].periodStart, 99 * kMs);
    // After the 100 ms burn: window 0 at once, then a whole 200 ms (interbench
    // moves `deadline` 100 ms past the burn's end and X's window 0 is due
    // 100 ms after that).
    QCOMPARE(r.samples[101].periodStart, r.samples[100].done);
    QCOMPARE(r.samples[102].periodStart - r.samples[101].periodStart, 200 * kMs);
    QCOMPARE(r.stats.misses, 0u);
    QCOMPARE(r.stats.deadlinesMet, 201u);
    QCOMPARE(r.stats.deadlinesMetPct, 100.0);
}

void TestInterbenchLoop::xLateWindowIsAMissedDeadline()
{
    // Window 50's 50 ms burn is preempted 60 ms: it ends 110 ms after it
    // woke, 11 ms past its deadline (99 ms after the wake): one deadline
    // missed, and window 51 is due from the next 50 ms interval.
    test::FakeClock clock(kStart);
    clock.preemptions.resize(49, 0); // window 0 does no work: window 50 is the 50th work
    clock.preemptions.push_back(60 * kMs);
    const LoopResult r = runLoop(xConsumer(), clock, 60, 62);
    QCOMPARE(r.samples.size(), 60u);
    const Sample &late = r.samples[50];
    QCOMPARE(late.workDone, 50 * kMs);
    QCOMPARE(late.done - late.woke, 110 * kMs);
    QCOMPARE(late.missedDeadline, 1u);
    QCOMPARE(late.periodsSkipped, 0u);
    QCOMPARE(r.samples[51].periodStart, late.woke + 149 * kMs);
    QCOMPARE(r.samples[51].missedDeadline, 0u);
    QCOMPARE(r.stats.misses, 1u);
    QCOMPARE(r.stats.deadlinesMet, 59u);
    // Every burn was done, the late one too (interbench counts burns).
    QCOMPARE(r.stats.desiredCpuPct, 100.0);
    // A timer wake charges no lost period to the latency.
    QCOMPARE(latencyUs(late), 0);
}

void TestInterbenchLoop::xSkipsTheBurnOfAWindowAlreadyPast()
{
    // Window 3 wakes 150 ms late: past its deadline (99 ms after the wake it
    // slept to) before it began. No burn; one window lost (150 - 99 = 51 ms
    // into the next 97 ms interval).
    test::FakeClock clock(kStart);
    clock.lateWakeups = {0, 0, 0, 150 * kMs};
    const LoopResult r = runLoop(xConsumer(), clock, 10, 11);
    QCOMPARE(r.samples.size(), 10u);
    const Sample &late = r.samples[3];
    QCOMPARE(late.workDone, 0);
    QCOMPARE(late.missedDeadline, 1u);
    QCOMPARE(late.periodsSkipped, 0u);
    QCOMPARE(r.stats.misses, 1u);
    QCOMPARE(r.stats.desiredCpuPct, 100.0 * 9 / 10);
}

void TestInterbenchLoop::xWokenByTheTimekeeperIsChargedFromInterbenchsDeadline()
{
    // interbench measures X's latency from `deadline`, i - 1 ms after the
    // wake it slept to: window 5, woken 6 ms late by a prompt timekeeper
    // (the consumer ran 6 ms after the timekeeper), is charged 6 - 4 = 2 ms.
    test::FakeClock clock(kStart);
    ConsumerConfig x = xConsumer();
    x.wake = WakeMethod::Timekeeper;
    // Two reads a window (woken, done); window 0 does no work: one read.
    clock.lateReads.resize(1 + 4 * 2, 0);
    clock.lateReads.push_back(6 * kMs);
    const LoopResult r = runLoop(x, clock, 10, 11);
    QCOMPARE(r.samples.size(), 10u);
    const Sample &s = r.samples[5];
    QCOMPARE(s.woke - s.periodStart, 6 * kMs);
    QCOMPARE(s.excusedNs, 4 * kMs);
    QCOMPARE(latencyUs(s), 2000);
    QCOMPARE(r.stats.misses, 0u);
}

QTEST_GUILESS_MAIN(TestInterbenchLoop)
#include "tst_interbenchloop.moc"
