// The real probe on this machine: threads, clock_nanosleep, the collector
// thread. The test machine may be saturated by other work: the tests wait
// for states (so many samples, the stop flag seen), with generous bounds,
// and check what holds on any machine rather than how fast it is.

#include "presets.h"
#include "probe.h"
#include "realclock.h"
#include "statewait.h"
#include "sysinfo.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <sys/resource.h>

using namespace latprobe;

class TestProbe : public QObject
{
    Q_OBJECT

private slots:
    void wakeupConsumerTwoSecondsGetsItsSamples();
    void nextSecondPlusIsTheFirstAlignedInstant_data();
    void nextSecondPlusIsTheFirstAlignedInstant();
    void anAlignedProbeStartsOnItsSecondAndOffset();
    void aLongSleepEndsSoonAfterTheStopFlag();
    void stopDoesNotWaitOutTheDrainInterval();
    void aPausedConsumerRunsNoPeriodsUntilMeasuredAgain();
    void aPauseLiftedAtOnceStillRestartsThePeriods();
    void aResumedConsumerMeasuresOnANewThreadWithTheSameGrant();
    void interbenchsConsumersRunWokenByATimekeeper();
    void loopWorkKeepsItsSpeedAtStartInWorkAndAtEnd();
    void grantRecordsWhatTheKernelGave_data();
    void grantRecordsWhatTheKernelGave();
    void presetsHaveTheDocumentedNumbers_data();
    void presetsHaveTheDocumentedNumbers();
    void unknownPresetIsNotFound();
    void cpuListsParseAndFormat_data();
    void cpuListsParseAndFormat();
};

void TestProbe::wakeupConsumerTwoSecondsGetsItsSamples()
{
    // Measures until the consumer has 2000 samples, however long a busy
    // machine makes that take, rather than for a fixed 2 s.
    Probe probe(std::vector<ConsumerConfig>{wakeupConsumer(1000)}, ThreadParams{});
    const int64_t started = RealClock::monotonicNow();
    probe.start();
    QVERIFY(probe.running());
    Collector &collector = probe.collector();
    // Nothing is measured while latprobe's own start-up settles.
    QVERIFY(collector.runStart() >= started + Probe::kSettleNs);
    if (const int64_t now = RealClock::monotonicNow(); now < collector.runStart())
        QCOMPARE(collector.phases(now)[0].consumers[0].samples, 0u);
    QTRY_VERIFY_WITH_TIMEOUT(
        collector.phases(RealClock::monotonicNow())[0].consumers[0].samples >= 2000, kStateWaitMs);
    probe.stop();
    QVERIFY(!probe.running());

    const std::vector<PhaseResult> phases = collector.phases(RealClock::monotonicNow());
    QCOMPARE(phases.size(), 1u);
    const ConsumerStats w = phases[0].consumers.at(0);
    const QString summary = QString("%1 s: samples %2 of %3 (%4 %), p50 %5 us, p99 %6 us, "
                                    "max %7 us; loadavg %8")
                                .arg(phases[0].durationS)
                                .arg(w.samples)
                                .arg(w.expected)
                                .arg(w.sampledPct)
                                .arg(w.p50Us)
                                .arg(w.p99Us)
                                .arg(w.maxUs)
                                .arg(QString::fromStdString(readFirstLine("/proc/loadavg")));

    QCOMPARE(w.name, std::string("wakeup"));
    QVERIFY(!w.hasDeadline);
    QVERIFY2(w.samples >= 2000 && w.samples <= w.expected, qPrintable(summary));
    // One period expected per ms measured.
    const double expectedPerS = static_cast<double>(w.expected) / phases[0].durationS;
    QVERIFY2(expectedPerS > 990 && expectedPerS <= 1000.5, qPrintable(summary));

    // Every period lost is one a late wakeup skipped: a wakeup L us late
    // skips floor(L / 1000) periods (cyclictest's resync), whatever else
    // the machine runs. A loop that sleeps too long or miscounts breaks
    // this; a busy machine only makes wakeups later. Past the histogram's
    // limit only the bounds of a value are known; the periods after the
    // last sample (the stop) are bounded by its 100 ms bucket.
    uint64_t skippedLow = 0, skippedHigh = 0;
    for (const auto &[us, count] : w.histogram)
        if (us < static_cast<int64_t>(w.histogramLimitUs)) {
            skippedLow += count * static_cast<uint64_t>(us / 1000);
            skippedHigh += count * static_cast<uint64_t>(us / 1000);
        }
    skippedLow += w.histogramOverflow * (w.histogramLimitUs / 1000);
    skippedHigh += w.histogramOverflow * static_cast<uint64_t>(w.maxUs / 1000);
    const std::vector<FineBucket> fine = collector.fineSeries(0, 0);
    int64_t lastIndex = 0;
    for (const FineBucket &b : fine)
        if (b.maxUs >= 0)
            lastIndex = std::max(lastIndex, b.index);
    const auto tail = static_cast<uint64_t>(
        std::max<int64_t>(0, static_cast<int64_t>(phases[0].durationS * 1000) - lastIndex * 100));
    const uint64_t lost = w.expected - w.samples;
    const QString accounting = QString("%1 lost, %2..%3 skipped by late wakeups, up to %4 at the "
                                       "end; %5")
                                   .arg(lost)
                                   .arg(skippedLow)
                                   .arg(skippedHigh)
                                   .arg(tail)
                                   .arg(summary);
    qInfo("%s", qPrintable(accounting));
    // A few periods of slack: a wakeup exactly on a period's edge, the
    // period under way at the stop.
    QVERIFY2(lost + 3 >= skippedLow, qPrintable(accounting));
    QVERIFY2(lost <= skippedHigh + tail + 3, qPrintable(accounting));

    QVERIFY(w.minUs <= w.p50Us && w.p50Us <= w.p90Us && w.p90Us <= w.p99Us && w.p99Us <= w.p999Us &&
            w.p999Us <= w.maxUs);
    QVERIFY(w.meanUs >= static_cast<double>(w.minUs) && w.meanUs <= static_cast<double>(w.maxUs));
    QCOMPARE(w.misses, 0u);
    QCOMPARE(w.ringOverflows, 0u);
    QVERIFY(collector.missLog().empty());

    // The per-second series holds every sample once.
    const std::vector<std::vector<SecondBucket>> series = collector.series();
    uint64_t inSeries = 0;
    for (const SecondBucket &b : series.at(0))
        inSeries += b.samples;
    QCOMPARE(inSeries, w.samples);

    const ThreadGrant g = probe.setups().at(0).grant;
    QCOMPARE(g.policy, SchedPolicy::Other);
    QVERIFY2(g.refusal.empty(), g.refusal.c_str());
    QVERIFY(g.timerSlackNs > 0);
    QVERIFY(!g.cpus.empty());
}

void TestProbe::grantRecordsWhatTheKernelGave_data()
{
    QTest::addColumn<int>("policy");
    QTest::addColumn<int>("priority");
    QTest::addColumn<int>("nice");
    QTest::addColumn<qint64>("slackNs");
    QTest::addColumn<QString>("cpus");

    QTest::newRow("timer slack 1 us") << int(SchedPolicy::Other) << 0 << 0 << qint64(1000) << "";
    QTest::newRow("nice 5") << int(SchedPolicy::Other) << 0 << 5 << qint64(-1) << "";
    QTest::newRow("pinned to CPU 0") << int(SchedPolicy::Other) << 0 << 0 << qint64(-1) << "0";
    QTest::newRow("SCHED_FIFO 10") << int(SchedPolicy::Fifo) << 10 << 0 << qint64(-1) << "";
}

void TestProbe::grantRecordsWhatTheKernelGave()
{
    QFETCH(int, policy);
    QFETCH(int, priority);
    QFETCH(int, nice);
    QFETCH(qint64, slackNs);
    QFETCH(QString, cpus);

    ThreadParams params;
    params.policy = static_cast<SchedPolicy>(policy);
    params.priority = priority;
    params.nice = nice;
    params.timerSlackNs = slackNs;
    QVERIFY(cpus.isEmpty() || parseCpuList(cpus.toStdString(), params.cpus));

    Probe probe({wakeupConsumer(1000)}, params);
    probe.start();
    QTRY_VERIFY_WITH_TIMEOUT(
        probe.collector().phases(RealClock::monotonicNow())[0].consumers[0].samples > 100,
        kStateWaitMs);
    probe.stop();
    const ThreadGrant g = probe.setups().at(0).grant;

    if (!g.refusal.empty()) {
        // Refused (e.g. real-time without CAP_SYS_NICE): it says what, and
        // the grant is what the thread really got.
        qInfo("refused: %s", g.refusal.c_str());
        QVERIFY2(g.refusal.find(toString(params.policy)) != std::string::npos ||
                     params.policy == SchedPolicy::Other,
                 g.refusal.c_str());
        QCOMPARE(g.policy, SchedPolicy::Other);
    } else {
        QCOMPARE(g.policy, params.policy);
        QCOMPARE(g.priority, priority);
        // Nice 0 asks for no change: the thread keeps the nice the test
        // inherited, 19 under `nice -n 19 ctest` as CI runs on a shared VM.
        QCOMPARE(g.nice, nice != 0 ? nice : getpriority(PRIO_PROCESS, 0));
        if (slackNs > 0)
            QCOMPARE(g.timerSlackNs, slackNs);
        if (!params.cpus.empty())
            QCOMPARE(g.cpus, params.cpus);
    }
    QVERIFY(probe.collector().phases(RealClock::monotonicNow())[0].consumers[0].samples > 100);
}

void TestProbe::presetsHaveTheDocumentedNumbers_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qint64>("audioPeriod");
    QTest::addColumn<qint64>("audioWork");
    QTest::addColumn<qint64>("videoPeriod");
    QTest::addColumn<qint64>("videoWork");

    // 256 frames @ 48 kHz = 5.33 ms, 5 %; 60 Hz = 16.67 ms, 40 %.
    QTest::newRow("default") << "default" << qint64(5333333) << qint64(266667) << qint64(16666667)
                             << qint64(6666667);
    QTest::newRow("desktop: 1024 frames")
        << "desktop" << qint64(21333333) << qint64(1066667) << qint64(16666667) << qint64(6666667);
    QTest::newRow("pro: 64 frames")
        << "pro" << qint64(1333333) << qint64(66667) << qint64(16666667) << qint64(6666667);
    QTest::newRow("interbench: 50 ms / 5 %") << "interbench" << qint64(50000000) << qint64(2500000)
                                             << qint64(16666667) << qint64(6666667);
}

void TestProbe::presetsHaveTheDocumentedNumbers()
{
    QFETCH(QString, preset);
    QFETCH(qint64, audioPeriod);
    QFETCH(qint64, audioWork);
    QFETCH(qint64, videoPeriod);
    QFETCH(qint64, videoWork);

    const Preset *p = findPreset(preset.toStdString());
    QVERIFY(p);
    QCOMPARE(p->name, preset.toStdString());
    QVERIFY(!p->description.empty());
    // The four run by default, then interbench's X and Gaming on request.
    QCOMPARE(p->consumers.size(), 6u);
    for (const ConsumerConfig &c : p->consumers)
        QCOMPARE(c.role, consumerRole(c.name));
    const ConsumerConfig &audio = p->consumers[0], &video = p->consumers[1],
                         &wakeup = p->consumers[2], &start = p->consumers[3], &x = p->consumers[4],
                         &gaming = p->consumers[5];
    for (const ConsumerConfig &c : {audio, video, wakeup})
        QCOMPARE(c.kind, ConsumerKind::Periodic);
    QCOMPARE(audio.name, std::string("audio"));
    QCOMPARE(audio.periodNs, audioPeriod);
    QCOMPARE(audio.workNs, audioWork);
    QCOMPARE(audio.slackNs, audioPeriod); // a 2-period buffer: one period of slack
    QCOMPARE(audio.missName, std::string("skips"));
    QCOMPARE(video.name, std::string("video"));
    QCOMPARE(video.periodNs, videoPeriod);
    QCOMPARE(video.workNs, videoWork);
    QCOMPARE(video.slackNs, videoPeriod); // due by the next frame
    QCOMPARE(video.missName, std::string("dropped frames"));
    QCOMPARE(wakeup.name, std::string("wakeup"));
    QCOMPARE(wakeup.periodNs, 1000000);
    QCOMPARE(wakeup.workNs, 0);
    QVERIFY(!wakeup.hasDeadline());
    // A process started every second, slow past 100 ms.
    QCOMPARE(start.name, std::string("start"));
    QCOMPARE(start.kind, ConsumerKind::ProcessStart);
    QCOMPARE(start.periodNs, 1000000000);
    QCOMPARE(start.slackNs, 100000000);
    // emulate_x(): 0..100 ms burns in 100 ms windows; emulate_game(): 100 ms
    // burns back to back, no deadline.
    QCOMPARE(x.name, std::string("x"));
    QCOMPARE(x.periodNs, 100000000);
    QCOMPARE(x.rampStepNs, 1000000);
    QVERIFY(x.hasDeadline());
    QCOMPARE(gaming.name, std::string("gaming"));
    QCOMPARE(gaming.kind, ConsumerKind::Continuous);
    QCOMPARE(gaming.workNs, 100000000);
    QVERIFY(!gaming.hasDeadline());
    // interbench's preset wakes the periodic ones as interbench does.
    const WakeMethod wake = preset == "interbench" ? WakeMethod::Timekeeper : WakeMethod::Timer;
    for (const ConsumerConfig &c : {audio, video, wakeup, x})
        QCOMPARE(c.wake, wake);
}

void TestProbe::nextSecondPlusIsTheFirstAlignedInstant_data()
{
    QTest::addColumn<qint64>("earliest");
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<qint64>("expected");
    constexpr qint64 s = 1'000'000'000;
    QTest::newRow("before the offset in its second")
        << 7 * s + 100 << qint64{250'000} << 7 * s + 250'000;
    QTest::newRow("past the offset: the next second")
        << 7 * s + 300'000 << qint64{250'000} << 8 * s + 250'000;
    QTest::newRow("exactly on it") << 7 * s + 250'000 << qint64{250'000} << 7 * s + 250'000;
    QTest::newRow("offset 0, on a second") << 7 * s << qint64{0} << 7 * s;
    QTest::newRow("offset 0, just past a second") << 7 * s + 1 << qint64{0} << 8 * s;
    QTest::newRow("largest offset") << 7 * s + 1 << s - 1 << 8 * s - 1;
}

void TestProbe::nextSecondPlusIsTheFirstAlignedInstant()
{
    QFETCH(qint64, earliest);
    QFETCH(qint64, offset);
    QFETCH(qint64, expected);
    QCOMPARE(Probe::nextSecondPlus(earliest, offset), expected);
}

void TestProbe::anAlignedProbeStartsOnItsSecondAndOffset()
{
    // What `latprobe run --align-us 250` and `cyclictest --secaligned=250`
    // share: the periods start 250 us past a whole second, after the settle.
    Probe probe(std::vector<ConsumerConfig>{wakeupConsumer(1000)}, ThreadParams{});
    probe.alignToSecond(250'000);
    const int64_t started = RealClock::monotonicNow();
    probe.start();
    const int64_t returned = RealClock::monotonicNow();
    const int64_t runStart = probe.collector().runStart();
    probe.stop();
    QCOMPARE(runStart % 1'000'000'000, int64_t{250'000});
    // The first such instant after the settle, wherever in start() (which a
    // busy machine may stretch) the settle was counted from.
    QVERIFY(runStart >= started + Probe::kSettleNs);
    QVERIFY(runStart < returned + Probe::kSettleNs + 1'000'000'000);
}

void TestProbe::aLongSleepEndsSoonAfterTheStopFlag()
{
    // A consumer with a long period must not hold up stop() for that long:
    // long sleeps are sliced to look at the flag, the first one as every
    // later one. The sleep is long enough that ending at its end cannot be
    // mistaken for a busy machine's late wakeup after the flag.
    constexpr int64_t kSleepNs = 60'000'000'000;
    RealClock clock;
    std::atomic<bool> stop{false};
    clock.setAbortFlag(&stop);
    for (int sleep = 0; sleep < 2; ++sleep) {
        stop = false;
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            stop = true;
        });
        const int64_t before = RealClock::monotonicNow();
        const int64_t woke = clock.sleepUntil(before + kSleepNs);
        stopper.join();
        QVERIFY2(woke - before < kSleepNs / 2, qPrintable(QString::number(woke - before)));
        QVERIFY(woke >= before + 50'000'000);
    }
}

void TestProbe::aPausedConsumerRunsNoPeriodsUntilMeasuredAgain()
{
    // Two 1 ms wakeup consumers; "b" paused while "a" is measured alone, as
    // the interbench scenario measures one consumer at a time. While "a"
    // runs 200 more periods, "b" runs none (however busy the machine, the
    // two are scheduled alike); measured again, "b" runs again.
    ConsumerConfig a = wakeupConsumer(1000), b = wakeupConsumer(1000);
    a.name = "a";
    b.name = "b";
    Probe probe({a, b}, ThreadParams{});
    probe.start();
    SpscRing<Sample> &ringA = probe.externalRing(0), &ringB = probe.externalRing(1);
    QTRY_VERIFY_WITH_TIMEOUT(ringB.pushed() > 10, kStateWaitMs);

    probe.measureOnly({"a"});
    // It ends the period it is in, then pauses: seen as no push for 100 of a's.
    uint64_t bAtPause = ringB.pushed();
    const auto bStillFor100OfA = [&] {
        const uint64_t fromA = ringA.pushed();
        bAtPause = ringB.pushed();
        // Bounded: a stalled `a` fails the wait below instead of hanging.
        const QDeadlineTimer aStalled(kStateWaitMs);
        while (ringA.pushed() < fromA + 100 && !aStalled.hasExpired())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return ringA.pushed() >= fromA + 100 && ringB.pushed() == bAtPause;
    };
    QTRY_VERIFY_WITH_TIMEOUT(bStillFor100OfA(), kStateWaitMs);
    const uint64_t aAtPause = ringA.pushed();
    QTRY_VERIFY_WITH_TIMEOUT(ringA.pushed() >= aAtPause + 200, kStateWaitMs);
    QCOMPARE(ringB.pushed(), bAtPause);

    probe.measureOnly({});
    QTRY_VERIFY_WITH_TIMEOUT(ringB.pushed() > bAtPause + 10, kStateWaitMs);
    probe.stop();
}

void TestProbe::aPauseLiftedAtOnceStillRestartsThePeriods()
{
    // A scenario that restarts its consumers pauses them all while a step's
    // loads start, and measures them again at once when the loads start
    // quickly: each still begins its periods afresh (interbench's X begins
    // its ramp at 0 ms), even one whose period was not over in between.
    ConsumerConfig a = wakeupConsumer(1000), b = wakeupConsumer(300'000);
    a.name = "a";
    b.name = "b";
    Probe probe({a, b}, ThreadParams{});
    probe.start();
    QTRY_VERIFY_WITH_TIMEOUT(probe.externalRing(0).pushed() > 10, kStateWaitMs);
    QCOMPARE(probe.periodStarts(0), uint64_t(1));
    QCOMPARE(probe.periodStarts(1), uint64_t(1));

    probe.pauseAll();
    probe.measureOnly({});
    QTRY_VERIFY_WITH_TIMEOUT(probe.periodStarts(0) == 2 && probe.periodStarts(1) == 2,
                             kStateWaitMs);
    // Once each: measured on, neither starts again.
    const uint64_t aAfter = probe.externalRing(0).pushed();
    QTRY_VERIFY_WITH_TIMEOUT(probe.externalRing(0).pushed() > aAfter + 50, kStateWaitMs);
    QCOMPARE(probe.periodStarts(0), uint64_t(2));
    probe.stop();
}

namespace {

struct ThreadView
{
    QString comm, cpus;
    int nice = 99;
    bool exists = false;
};

ThreadView viewThread(int tid)
{
    ThreadView v;
    const QString dir = QStringLiteral("/proc/self/task/%1/").arg(tid);
    QFile comm(dir + "comm"), stat(dir + "stat"), status(dir + "status");
    if (!comm.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly) ||
        !status.open(QIODevice::ReadOnly))
        return v;
    v.exists = true;
    v.comm = QString::fromLatin1(comm.readAll()).trimmed();
    // After the ")" that ends the name: state is field 3, nice field 19.
    const QString afterName = QString::fromLatin1(stat.readAll()).section(')', -1);
    v.nice = afterName.split(' ', Qt::SkipEmptyParts).value(16).toInt();
    for (const QString &line : QString::fromLatin1(status.readAll()).split('\n'))
        if (line.startsWith("Cpus_allowed_list:"))
            v.cpus = line.section(':', 1).trimmed();
    return v;
}

} // namespace

void TestProbe::aResumedConsumerMeasuresOnANewThreadWithTheSameGrant()
{
    // interbench forks a new benchmark process for each load; latprobe
    // measures each stretch between pauses on a new thread, which must run
    // as the consumer was granted (here nice 3 on CPU 0) and be the one its
    // samples and the flight recorder name.
    ThreadParams params;
    params.nice = 3;
    params.cpus = {0};
    Probe probe({wakeupConsumer(1000)}, params);
    probe.start();
    QTRY_VERIFY_WITH_TIMEOUT(probe.externalRing(0).pushed() > 10, kStateWaitMs);
    const int first = probe.measuringTid(0);
    QVERIFY(first > 0);
    const ThreadView before = viewThread(first);
    QCOMPARE(before.comm, QStringLiteral("lp-wakeup"));
    QCOMPARE(before.nice, 3);
    QCOMPARE(before.cpus, QStringLiteral("0"));

    probe.pauseAll();
    QTRY_COMPARE_WITH_TIMEOUT(probe.measuringTid(0), 0, kStateWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!viewThread(first).exists, kStateWaitMs); // it ended
    probe.measureOnly({});
    QTRY_VERIFY_WITH_TIMEOUT(probe.measuringTid(0) > 0, kStateWaitMs);
    const int second = probe.measuringTid(0);
    QVERIFY(second != first);
    const ThreadView after = viewThread(second);
    QCOMPARE(after.comm, QStringLiteral("lp-wakeup"));
    QCOMPARE(after.nice, 3);
    QCOMPARE(after.cpus, QStringLiteral("0"));
    const uint64_t resumed = probe.externalRing(0).pushed();
    QTRY_VERIFY_WITH_TIMEOUT(probe.externalRing(0).pushed() > resumed + 10, kStateWaitMs);
    probe.stop();
}

void TestProbe::stopDoesNotWaitOutTheDrainInterval()
{
    // A headless run drains every 250 ms; stop() wakes the drain thread
    // rather than waiting for it, here with an interval of 2 minutes: even
    // a saturated machine stops in far less.
    constexpr int64_t kIntervalNs = 120'000'000'000;
    Probe probe(std::vector<ConsumerConfig>{wakeupConsumer(1000)}, ThreadParams{});
    probe.setDrainInterval(kIntervalNs);
    probe.start();
    std::this_thread::sleep_until(std::chrono::steady_clock::time_point(
        std::chrono::nanoseconds(probe.collector().runStart() + 200'000'000)));
    const int64_t before = RealClock::monotonicNow();
    probe.stop();
    const int64_t took = RealClock::monotonicNow() - before;
    QVERIFY2(took < kIntervalNs / 2, qPrintable(QString::number(took)));
    // ...and the samples since the last drain (none ran) are still counted.
    const ConsumerStats w = probe.collector().phases(RealClock::monotonicNow())[0].consumers[0];
    QVERIFY2(w.samples > 0 && w.samples <= w.expected,
             qPrintable(QString("%1 of %2").arg(w.samples).arg(w.expected)));
}

void TestProbe::interbenchsConsumersRunWokenByATimekeeper()
{
    // The real threads: audio woken by its timekeeper, X and Gaming burning.
    // Each gets samples (waited for, however busy the machine), the
    // timekeeper's grant is recorded, and stop() ends them all.
    ConsumerConfig audio = audioConsumerByPeriod(10'000'000, 2, 5);
    audio.wake = WakeMethod::Timekeeper;
    Probe probe(std::vector<ConsumerConfig>{audio, xConsumer(), gamingConsumer()}, ThreadParams{});
    probe.start();
    const ThreadGrant tk = probe.setups()[0].timekeeperGrant;
    QVERIFY2((tk.policy == SchedPolicy::Fifo && tk.priority == 96) ||
                 (tk.policy == SchedPolicy::Other && !tk.refusal.empty()),
             tk.refusal.c_str());
    auto samples = [&](size_t c) {
        return probe.collector().phases(RealClock::monotonicNow())[0].consumers[c].samples;
    };
    QTRY_VERIFY_WITH_TIMEOUT(samples(0) >= 20 && samples(1) >= 3 && samples(2) >= 3, kStateWaitMs);
    probe.stop();
    QVERIFY(!probe.running());
    const ConsumerStats g = probe.collector().phases(RealClock::monotonicNow())[0].consumers[2];
    QVERIFY(g.hasCpuTarget && g.desiredCpuPct > 0 && g.desiredCpuPct <= 100);
}

void TestProbe::loopWorkKeepsItsSpeedAtStartInWorkAndAtEnd()
{
    // What the report needs of loop work, on whatever machine: a settled
    // (or time-bounded) calibration before the go, the speed of every
    // period's work, and a calibration after the loop. A consumer with no
    // work has nothing to calibrate.
    ConsumerConfig video = videoConsumer(60, 40);
    ConsumerConfig wakeup = wakeupConsumer(1000);
    video.workMode = wakeup.workMode = WorkMode::Loops;
    Probe probe(std::vector<ConsumerConfig>{video, wakeup}, ThreadParams{});
    probe.start();
    const LoopCalibration start = probe.setups()[0].loopSpeed;
    QVERIFY(start.measured());
    QVERIFY(start.trials >= 1 + 2 * LoopCalibrator::Limits{}.roundTrials);
    QVERIFY(start.minLoopsPerMs <= start.loopsPerMs && start.loopsPerMs <= start.maxLoopsPerMs);
    QVERIFY(!probe.setups()[0].endLoopSpeed.measured()); // not before the end
    QTRY_VERIFY_WITH_TIMEOUT(
        probe.collector().phases(RealClock::monotonicNow())[0].consumers[0].samples >= 20,
        kStateWaitMs);
    probe.stop();

    const ConsumerSetup v = probe.setups()[0];
    QCOMPARE(v.loopSpeed.loopsPerMs, start.loopsPerMs);
    QVERIFY2(v.workLoopSpeed.trials >= 20, qPrintable(QString::number(v.workLoopSpeed.trials)));
    QVERIFY(v.workLoopSpeed.minLoopsPerMs <= v.workLoopSpeed.loopsPerMs &&
            v.workLoopSpeed.loopsPerMs <= v.workLoopSpeed.maxLoopsPerMs);
    QVERIFY(v.endLoopSpeed.measured());
    const ConsumerSetup w = probe.setups()[1];
    QVERIFY(!w.loopSpeed.measured() && !w.workLoopSpeed.measured() && !w.endLoopSpeed.measured());
}

void TestProbe::unknownPresetIsNotFound()
{
    QVERIFY(!findPreset("nope"));
    QVERIFY(!findPreset(""));
    QVERIFY(!findPreset("Default"));
}

void TestProbe::cpuListsParseAndFormat_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QList<int>>("cpus");
    QTest::addColumn<QString>("formatted");

    QTest::newRow("one CPU") << "0" << true << QList<int>{0} << "0";
    QTest::newRow("list and range") << "0,2-3" << true << QList<int>{0, 2, 3} << "0,2-3";
    QTest::newRow("range") << "4-7" << true << QList<int>{4, 5, 6, 7} << "4-7";
    QTest::newRow("adjacent singles join")
        << "1,2,3,5" << true << QList<int>{1, 2, 3, 5} << "1-3,5";
    QTest::newRow("not a number") << "x" << false << QList<int>{} << "";
    QTest::newRow("empty") << "" << false << QList<int>{} << "";
    QTest::newRow("backwards range") << "3-1" << false << QList<int>{} << "";
    QTest::newRow("negative") << "-1" << false << QList<int>{} << "";
    QTest::newRow("empty item") << "0,,1" << false << QList<int>{} << "";
    QTest::newRow("trailing junk") << "1x" << false << QList<int>{} << "";
    QTest::newRow("past CPU_SETSIZE") << "99999" << false << QList<int>{} << "";
}

void TestProbe::cpuListsParseAndFormat()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QList<int>, cpus);
    QFETCH(QString, formatted);

    std::vector<int> parsed;
    QCOMPARE(parseCpuList(text.toStdString(), parsed), valid);
    if (!valid)
        return;
    QCOMPARE(QList<int>(parsed.begin(), parsed.end()), cpus);
    QCOMPARE(QString::fromStdString(formatCpuList(parsed)), formatted);
}

QTEST_GUILESS_MAIN(TestProbe)
#include "tst_probe.moc"
