// Loop calibration on a fake machine whose speed the test sets trial by
// trial: the speed kept is the typical one, not the fastest moment; trials
// go on until the speed has settled, and stop at the time bound when it
// never does; each CPU sizes its own work; a calibration whose trials spread
// wide, and a run whose end speed differs from its start, are warned about.

#include "loopcalibrator.h"
#include "realclock.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <sched.h>

using namespace latprobe;

namespace {

// A machine that runs trial `i` (0: the sizing one) at speed(i, t) loops per
// ms, t being the virtual time its trials have taken so far. A loop takes
// about a nanosecond on the CPUs latprobe runs on: 1e6 loops per ms.
struct FakeMachine
{
    std::function<double(int trial, int64_t t)> speed;
    int trials = 0;
    int64_t t = 0;
    int64_t longestTrialNs = 0;

    LoopCalibrator::Trial trial()
    {
        return [this](uint64_t loops) {
            const double perMs = speed(trials++, t);
            const auto ns = static_cast<int64_t>(static_cast<double>(loops) / perMs * 1e6);
            t += ns;
            longestTrialNs = std::max(longestTrialNs, ns);
            return ns;
        };
    }
};

LoopCalibration calibrate(FakeMachine &machine, LoopCalibrator::Limits limits = {})
{
    return LoopCalibrator(machine.trial(), limits).run();
}

bool near(double value, double expected, double pct = 0.5)
{
    return std::abs(value - expected) <= std::abs(expected) * pct / 100.0;
}

} // namespace

class TestLoopCalibrator : public QObject
{
    Q_OBJECT

private slots:
    void keepsTheMedianNotTheFastest();
    void aSteadyMachineSettlesInTwoRounds();
    void repeatsTrialsWhileTheSpeedStillRises();
    void aSpeedChangeMidwayGivesTheSettledSpeed();
    void neverSettlingStopsWithinTheTimeBound();
    void wanderWarningFiresPastTheStatedChange_data();
    void wanderWarningFiresPastTheStatedChange();
    void endCalibrationOnASlowerMachineIsWarnedAbout();
    void workOnEachCpuIsSizedByItsOwnSpeed();
    void aCalibrationThatSpreadsWideIsNotTrusted_data();
    void aCalibrationThatSpreadsWideIsNotTrusted();
    void everyUsableCpuIsMeasuredAndTheAffinityKept();
    void theWorkedSpeedLeavesOutWhatTheThreadDidAfterItsWork();
};

void TestLoopCalibrator::keepsTheMedianNotTheFastest()
{
    // Every five trials: three typical, one fast moment, one slow one. A
    // round holds whole cycles, so every round has the same median.
    FakeMachine machine{[](int i, int64_t) {
        static const double cycle[] = {1e6, 1e6, 1.5e6, 1e6, 0.9e6};
        return cycle[i % 5];
    }};
    const LoopCalibration c = calibrate(machine);
    QVERIFY(c.settled);
    QVERIFY2(near(c.loopsPerMs, 1e6), qPrintable(QString::number(c.loopsPerMs)));
    QVERIFY(near(c.maxLoopsPerMs, 1.5e6));
    QVERIFY(near(c.minLoopsPerMs, 0.9e6));
    QVERIFY(near(c.spreadPct(), 60));
}

void TestLoopCalibrator::aSteadyMachineSettlesInTwoRounds()
{
    FakeMachine machine{[](int, int64_t) { return 250000.0; }};
    const LoopCalibrator::Limits limits;
    const LoopCalibration c = calibrate(machine, limits);
    QVERIFY(c.settled);
    QVERIFY(near(c.loopsPerMs, 250000));
    QCOMPARE(c.spreadPct(), 0.0);
    // The sizing trial, then two rounds that agree.
    QCOMPARE(c.trials, 1 + 2 * limits.roundTrials);
    QCOMPARE(c.trials, machine.trials);
    QCOMPARE(c.spentNs, machine.t);
    // Each trial lasts about what it aims at, whatever the machine's speed.
    QVERIFY(near(static_cast<double>(machine.longestTrialNs), limits.trialNs, 1));
}

void TestLoopCalibrator::repeatsTrialsWhileTheSpeedStillRises()
{
    // A CPU coming up to speed: +3 % a trial for 40 trials, then steady.
    FakeMachine machine{[](int i, int64_t) { return 1e6 * std::pow(1.03, std::min(i, 40)); }};
    const LoopCalibration c = calibrate(machine);
    QVERIFY(c.settled);
    QVERIFY2(c.trials > 40, qPrintable(QString::number(c.trials)));
    const double top = 1e6 * std::pow(1.03, 40);
    QVERIFY2(near(c.loopsPerMs, top), qPrintable(QString("%1 vs %2").arg(c.loopsPerMs).arg(top)));
}

void TestLoopCalibrator::aSpeedChangeMidwayGivesTheSettledSpeed()
{
    // A VM whose host gets busy six tenths into the first round: twice as
    // fast before as after. That round's median is the speed that no longer
    // holds; it does not settle anything.
    const LoopCalibrator::Limits limits;
    const int64_t change = limits.roundTrials * limits.trialNs * 6 / 10;
    FakeMachine machine{[change](int, int64_t t) { return t < change ? 2e6 : 1e6; }};
    const LoopCalibration c = calibrate(machine, limits);
    QVERIFY(c.settled);
    QVERIFY2(near(c.loopsPerMs, 1e6), qPrintable(QString::number(c.loopsPerMs)));
    QVERIFY(near(c.maxLoopsPerMs, 1e6)); // no fast trial among those kept
    QVERIFY(c.trials > 1 + 2 * limits.roundTrials);
}

void TestLoopCalibrator::neverSettlingStopsWithinTheTimeBound()
{
    // Every other round 10 % faster: two successive medians never agree.
    LoopCalibrator::Limits limits;
    const int round = limits.roundTrials;
    FakeMachine machine{[round](int i, int64_t) { return (i / round) % 2 ? 1.1e6 : 1e6; }};
    limits.budgetNs = 300'000'000;
    const LoopCalibration c = calibrate(machine, limits);
    QVERIFY(!c.settled);
    QVERIFY2(c.spentNs <= limits.budgetNs, qPrintable(QString::number(c.spentNs)));
    QCOMPARE(c.spentNs, machine.t);
    // It used the time it had, not a few trials of it.
    QVERIFY(c.spentNs > limits.budgetNs - 2 * limits.trialNs);
    QVERIFY2(c.trials > 5 * limits.roundTrials, qPrintable(QString::number(c.trials)));
    // Its answer is still the machine's speed, between the two.
    QVERIFY(c.loopsPerMs >= 1e6 && c.loopsPerMs <= 1.1e6);
    QVERIFY(near(c.minLoopsPerMs, 1e6) && near(c.maxLoopsPerMs, 1.1e6));

    // The default bound: a second of trials at most.
    FakeMachine again{machine.speed};
    const LoopCalibration d = calibrate(again);
    QVERIFY(!d.settled);
    QVERIFY(d.spentNs <= 1'000'000'000);
}

void TestLoopCalibrator::wanderWarningFiresPastTheStatedChange_data()
{
    QTest::addColumn<double>("start");
    QTest::addColumn<double>("work"); // what the run's work ran at; 0: not measured
    QTest::addColumn<double>("end");  // 0: not measured
    QTest::addColumn<QString>("warning");

    const QString tail = " loops/ms): its loop work was not the time asked";
    QTest::newRow("same speed") << 1e6 << 1e6 << 1e6 << "";
    QTest::newRow("5 % slower: the spread of a quiet VM") << 1e6 << 0.97e6 << 0.95e6 << "";
    QTest::newRow("just inside the stated change")
        << 1e6 << 1e6 << 1e6 * (1 - kLoopWanderPct * 0.99 / 100) << "";
    QTest::newRow("15 % slower at the end")
        << 1e6 << 1e6 << 0.85e6
        << "video: loop speed changed -15 % during the run (1000000 at the start, 1000000 in its "
           "work, 850000 at the end" +
               tail;
    QTest::newRow("20 % faster at the end")
        << 1e6 << 1e6 << 1.2e6
        << "video: loop speed changed +20 % during the run (1000000 at the start, 1000000 in its "
           "work, 1200000 at the end" +
               tail;
    // The load slowed the loop; idle again at the end, it ran as fast as at
    // the start.
    QTest::newRow("40 % slower in the work, same at the end")
        << 1e6 << 0.6e6 << 1e6
        << "video: loop speed changed -40 % during the run (1000000 at the start, 600000 in its "
           "work, 1000000 at the end" +
               tail;
    QTest::newRow("the larger of two changes is said")
        << 1e6 << 0.8e6 << 1.3e6
        << "video: loop speed changed +30 % during the run (1000000 at the start, 800000 in its "
           "work, 1300000 at the end" +
               tail;
    QTest::newRow("interrupted before the loop ran: nothing after the start")
        << 1e6 << 0.0 << 0.0 << "";
    QTest::newRow("cpu-time work: nothing measured") << 0.0 << 0.0 << 0.0 << "";
}

void TestLoopCalibrator::wanderWarningFiresPastTheStatedChange()
{
    QFETCH(double, start);
    QFETCH(double, work);
    QFETCH(double, end);
    QFETCH(QString, warning);
    LoopCalibration a, w, b;
    a.loopsPerMs = start;
    w.loopsPerMs = work;
    b.loopsPerMs = end;
    QCOMPARE(QString::fromStdString(loopWanderWarning("video", a, w, b)), warning);
}

void TestLoopCalibrator::endCalibrationOnASlowerMachineIsWarnedAbout()
{
    // The same calibration at the start of a run and at its end, the host
    // having slowed the VM by a third in between.
    double speed = 1.5e6;
    FakeMachine machine{[&speed](int, int64_t) { return speed; }};
    const LoopCalibration start = calibrate(machine);
    speed = 1e6;
    const LoopCalibration end = calibrate(machine);
    QVERIFY(near(loopSpeedChangePct(start, end), -33.3, 1));
    const std::string warning = loopWanderWarning("audio", start, {}, end);
    QVERIFY2(QString::fromStdString(warning).startsWith("audio: loop speed changed -33 %"),
             warning.c_str());
    // And none when it held.
    speed = 1.5e6;
    QCOMPARE(loopWanderWarning("audio", start, {}, calibrate(machine)), std::string());
}

void TestLoopCalibrator::workOnEachCpuIsSizedByItsOwnSpeed()
{
    // This VM's vCPUs ran the loop at 2.26 and 3.25 M/ms in the same minute.
    // Work sized at their average lasted, for video beside burn x2, which
    // stays on one CPU a whole run, 25 % more or less than asked: it met
    // 83.8 % of its deadlines, then 100 %. Each CPU sizes its own work.
    FakeMachine slow{[](int, int64_t) { return 2.0e6; }};
    FakeMachine fast{[](int, int64_t) { return 4.0e6; }};
    const LoopCalibration c = combineCpuSpeeds({{0, calibrate(slow)}, {1, calibrate(fast)}});
    QVERIFY(near(c.loopsPerMsOn(0), 2.0e6));
    QVERIFY(near(c.loopsPerMsOn(1), 4.0e6));
    // A CPU not measured (past the 8 measured) works at the harmonic mean,
    // at which work lasts the time asked on average over the CPUs.
    QVERIFY(near(c.loopsPerMsOn(9), 2.0e6 * 4.0e6 * 2 / (2.0e6 + 4.0e6)));
    QCOMPARE(c.loopsPerMsOn(9), c.loopsPerMs);
    QCOMPARE(c.perCpu.size(), size_t{2});
    QCOMPARE(c.perCpu[1].cpu, 1);
    QVERIFY(near(c.minLoopsPerMs, 2.0e6) && near(c.maxLoopsPerMs, 4.0e6));
    QCOMPARE(c.trials, slow.trials + fast.trials);
    QCOMPARE(c.perCpu[0].trials, slow.trials);
    QCOMPARE(c.spentNs, slow.t + fast.t);
    QVERIFY(c.settled);
    // Their gap is no spread: each is steady.
    QCOMPARE(c.spreadPct(), 0.0);
    QCOMPARE(loopTrustWarning("video", c), std::string());
    QCOMPARE(cpuSpeedsText(c),
             std::string("cpu 0 2000000 (spread 0 %), cpu 1 4000000 (spread 0 %)"));
    // One CPU: its own calibration, no per-CPU list.
    FakeMachine alone{[](int, int64_t) { return 3.0e6; }};
    const LoopCalibration one = combineCpuSpeeds({{5, calibrate(alone)}});
    QVERIFY(near(one.loopsPerMsOn(5), 3.0e6));
    QVERIFY(one.perCpu.empty());
}

void TestLoopCalibrator::aCalibrationThatSpreadsWideIsNotTrusted_data()
{
    QTest::addColumn<double>("slowest"); // of cpu 1's trials, against its typical 2 M/ms
    QTest::addColumn<bool>("trusted");
    QTest::newRow("a quiet vCPU: 10 %") << 1.8e6 << true;
    QTest::newRow("just inside the bound")
        << 2.0e6 * (1 - kLoopTrustSpreadPct * 0.99 / 100) << true;
    QTest::newRow("beside a busy host thread: 1.2 to 2 M/ms (40 %)") << 1.2e6 << false;
}

void TestLoopCalibrator::aCalibrationThatSpreadsWideIsNotTrusted()
{
    // cpu 0 steady; cpu 1 slowed every fifth trial: its median holds, its
    // spread does not. The trials are the test's, not the machine's, so a
    // busy test machine changes nothing.
    QFETCH(double, slowest);
    QFETCH(bool, trusted);
    FakeMachine steady{[](int, int64_t) { return 3.0e6; }};
    FakeMachine wobbly{[slowest](int i, int64_t) { return i % 5 == 4 ? slowest : 2.0e6; }};
    const LoopCalibration c = combineCpuSpeeds({{0, calibrate(steady)}, {1, calibrate(wobbly)}});
    QVERIFY(c.settled);
    QVERIFY(near(c.loopsPerMsOn(1), 2.0e6));
    QVERIFY(near(c.spreadPct(), (2.0e6 - slowest) / 2.0e6 * 100));
    const std::string warning = loopTrustWarning("video", c);
    if (trusted) {
        QCOMPARE(warning, std::string());
        return;
    }
    QCOMPARE(warning, std::string("video: loop calibration not to be trusted (cpu 1 spread 40 %, "
                                  "over 25 %): its loop work need not last the time asked, nor "
                                  "as in another run; --work-mode cpu does not depend on it"));
    // On one CPU alone, the same.
    FakeMachine again{wobbly.speed};
    const std::string alone = loopTrustWarning("audio", calibrate(again));
    QVERIFY2(QString::fromStdString(alone).startsWith(
                 "audio: loop calibration not to be trusted (spread 40 %, over 25 %)"),
             alone.c_str());
}

void TestLoopCalibrator::everyUsableCpuIsMeasuredAndTheAffinityKept()
{
    // The real measure pins the thread to each CPU it may use in turn, then
    // gives it back all of them.
    cpu_set_t before;
    QCOMPARE(sched_getaffinity(0, sizeof before, &before), 0);
    const int usable = CPU_COUNT(&before);
    const LoopCalibration c = RealClock::measureLoopSpeed();
    QVERIFY(c.measured());
    if (usable < 2) {
        QVERIFY(c.perCpu.empty());
    } else {
        QCOMPARE(c.perCpu.size(), static_cast<size_t>(std::min(usable, 8)));
        for (const LoopCalibration::OnCpu &cpu : c.perCpu) {
            QVERIFY(CPU_ISSET(cpu.cpu, &before));
            QVERIFY(cpu.loopsPerMs > 0);
        }
    }
    cpu_set_t after;
    QCOMPARE(sched_getaffinity(0, sizeof after, &after), 0);
    QVERIFY(CPU_EQUAL(&before, &after));
}

void TestLoopCalibrator::theWorkedSpeedLeavesOutWhatTheThreadDidAfterItsWork()
{
    // A work's CPU time is read as the next one begins. A consumer paused
    // between two steps polls for its resume meanwhile; settled before
    // that, its last work is timed as the work alone. Unsettled, 40 ms of
    // polling after 2 ms of loops read as a speed 21 times too slow.
    RealClock clock(WorkMode::Loops);
    const LoopCalibration calibrated = clock.calibrate();
    QVERIFY(calibrated.measured());
    clock.work(2'000'000);
    clock.settleWork();
    const int64_t until = RealClock::threadCpuNow() + 40'000'000;
    while (RealClock::threadCpuNow() < until) {
    }
    const LoopCalibration worked = clock.workedLoopSpeed();
    QCOMPARE(worked.trials, 1);
    QVERIFY2(worked.loopsPerMs > calibrated.loopsPerMs / 3,
             qPrintable(QString("worked at %1 loops/ms, calibrated %2")
                            .arg(worked.loopsPerMs)
                            .arg(calibrated.loopsPerMs)));
}

QTEST_GUILESS_MAIN(TestLoopCalibrator)
#include "tst_loopcalibrator.moc"
