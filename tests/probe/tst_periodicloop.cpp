// The deadline accounting of the measuring loop, with virtual time: every
// number a report shows for a periodic consumer (latency, skips, % met,
// % desired CPU, interbench's latency, sampled %) derived by hand for a
// scripted sequence of late wakeups and preemptions.

#include "collector.h"
#include "fakeclock.h"
#include "periodicloop.h"
#include "presets.h"
#include "statsaccumulator.h"

#include <QTest>

#include <fmt/format.h>

#include <fcntl.h>
#include <string>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <vector>

using namespace latprobe;

namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000000;
constexpr int64_t kStart = 5000 * kMs; // run start on the fake CLOCK_MONOTONIC

// Something goes wrong in cycle `cycle` (0-based): the wakeup comes
// `lateWakeNs` late and/or the work is held up `preemptNs`.
struct Disturbance
{
    int cycle = 0;
    int64_t lateWakeNs = 0;
    int64_t preemptNs = 0;
};
using Disturbances = std::vector<Disturbance>;

struct Expected
{
    uint64_t samples = 0;
    uint64_t periodsSkipped = 0;
    uint64_t misses = 0;
    uint64_t met = 0;
    double metPct = 100;
    uint64_t longestMissRun = 0;
    double cpuPct = 100;
    int64_t maxUs = 0;
    double meanUs = 0;
    uint64_t over1ms = 0;
    uint64_t over5ms = 0;
    double ibMeanUs = 0;
    double ibRmsUs = 0;
    int64_t ibMaxUs = 0;
};

// Audio with round numbers: 10 ms period, 1 ms of work, a 2-period buffer
// (slack 1 period), built by the same preset function as the real one.
ConsumerConfig audio10ms()
{
    return audioConsumerByPeriod(10 * kMs, 2, 10);
}

struct LoopResult
{
    std::vector<Sample> samples;
    ConsumerStats stats;
    std::vector<MissEvent> missLog;
    std::vector<SecondBucket> series;
};

// Runs `cycles` cycles of the real PeriodicLoop on a FakeClock and folds
// them through the real Collector over a phase of `periods` periods: it
// ends half a period after the last period start, as a real run ends some
// time after its last wakeup.
LoopResult runLoop(const ConsumerConfig &config, uint64_t cycles, const Disturbances &events,
                   int periods)
{
    const int64_t phaseEnd = kStart + periods * config.periodNs + config.periodNs / 2;
    test::FakeClock clock(kStart);
    for (const Disturbance &d : events) {
        if (clock.lateWakeups.size() <= static_cast<size_t>(d.cycle))
            clock.lateWakeups.resize(d.cycle + 1, 0);
        if (clock.preemptions.size() <= static_cast<size_t>(d.cycle))
            clock.preemptions.resize(d.cycle + 1, 0);
        clock.lateWakeups[d.cycle] += d.lateWakeNs;
        clock.preemptions[d.cycle] += d.preemptNs;
    }
    SpscRing<Sample> ring(1 << 16);
    PeriodicLoop loop(config, clock, ring);
    std::atomic<bool> stop{false};
    const uint64_t ran = loop.run(kStart, stop, cycles);

    LoopResult r;
    Collector collector({config}, kStart);
    ring.drain([&](const Sample &s) {
        r.samples.push_back(s);
        collector.add(0, s);
    });
    collector.finish(phaseEnd);
    if (ran != cycles || ring.overflows() != 0)
        return r; // caller sees the short sample vector
    r.stats = collector.phases(phaseEnd).front().consumers.front();
    r.missLog = collector.missLog();
    r.series = collector.series().front();
    return r;
}

} // namespace

Q_DECLARE_METATYPE(latprobe::ConsumerConfig)
Q_DECLARE_METATYPE(Disturbances)
Q_DECLARE_METATYPE(Expected)

class TestPeriodicLoop : public QObject
{
    Q_OBJECT

private slots:
    void deadlineAccounting_data();
    void deadlineAccounting();
    void resyncsToTheOriginalPeriodGridAfterAStall();
    void wakeupConsumerSkipsPastPeriodsLikeCyclictest();
    void aWakeupIsTimedAsTheSleepReturns();
    void latencyIsTruncatedToWholeMicroseconds_data();
    void latencyIsTruncatedToWholeMicroseconds();
    void missLogRecordsLatenessPastTheDeadline();
    void samplesGoToThePhaseTheirPeriodStartedIn();
    void phaseBegunBeforeAnyDrainKeepsItsBoundary();
    void fullySampledPhasesRead100Percent();
    void stopsWhenAskedBeforeTheFirstPeriod();
    void aMissIsMarkedInTheTraceWithItsOwnTimes();
};

void TestPeriodicLoop::deadlineAccounting_data()
{
    QTest::addColumn<ConsumerConfig>("config");
    QTest::addColumn<int>("periods"); // periods the phase covers, served or skipped
    QTest::addColumn<Disturbances>("events");
    QTest::addColumn<Expected>("expect");

    const ConsumerConfig audio = audio10ms();
    const ConsumerConfig video = videoConsumer(100, 40); // 10 ms frame, 4 ms work
    const ConsumerConfig audioDefault = audioConsumer(); // 5333333 ns, 266667 ns work
    const ConsumerConfig wakeup = wakeupConsumer(1000);

    Expected e;
    e.samples = 100;
    e.met = 100;
    QTest::newRow("on time: every deadline met") << audio << 100 << Disturbances{} << e;

    e = {};
    e.samples = 100;
    e.met = 100;
    e.maxUs = 8000;
    e.meanUs = 80;
    e.over1ms = 1;
    e.over5ms = 1;
    e.ibMeanUs = 80;
    e.ibRmsUs = 800; // sqrt(8000^2 / 100)
    e.ibMaxUs = 8000;
    QTest::newRow("woke 8 ms late, slack 10 ms: no skip")
        << audio << 100 << Disturbances{{10, 8 * kMs, 0}} << e;

    e = {};
    e.samples = 100;
    e.met = 100;
    e.maxUs = 9000;
    e.meanUs = 90;
    e.over1ms = 1;
    e.over5ms = 1;
    e.ibMeanUs = 90;
    e.ibRmsUs = 900;
    e.ibMaxUs = 9000;
    QTest::newRow("work done exactly at the deadline: met")
        << audio << 100 << Disturbances{{10, 9 * kMs, 0}} << e;

    // Done at 10.5 ms: a skip. The next period starts at 10 ms and is served
    // at 10.5 ms, 0.5 ms late but within its slack; then on time again.
    e = {};
    e.samples = 100;
    e.misses = 1;
    e.met = 99;
    e.metPct = 99;
    e.longestMissRun = 1;
    e.maxUs = 9500;
    e.meanUs = 100;
    e.over1ms = 1;
    e.over5ms = 1;
    e.ibMeanUs = 100;
    e.ibRmsUs = std::sqrt((9500.0 * 9500 + 500.0 * 500) / 100);
    e.ibMaxUs = 9500;
    QTest::newRow("woke 9.5 ms late, past the slack: one skip")
        << audio << 100 << Disturbances{{10, 9500 * kUs, 0}} << e;

    // Done at 45 ms: its own deadline and those of the 3 following periods
    // (20, 30, 40 ms) have passed; the period starting at 40 ms is due at 50
    // ms and is served at 45 ms (5 ms late). 97 cycles cover 100 periods.
    e = {};
    e.samples = 97;
    e.periodsSkipped = 3;
    e.misses = 4;
    e.met = 96;
    e.metPct = 96;
    e.longestMissRun = 4;
    e.cpuPct = 97;
    e.maxUs = 44000;
    e.meanUs = 49000.0 / 97;
    e.over1ms = 2;
    e.over5ms = 1; // 5000 us is not over 5 ms
    e.ibMeanUs = (74000.0 + 5000) / 97;
    e.ibRmsUs = std::sqrt((74000.0 * 74000 + 5000.0 * 5000) / 97);
    e.ibMaxUs = 74000;
    QTest::newRow("44 ms stall swallows 3 periods: 4 skips in one run")
        << audio << 100 << Disturbances{{10, 44 * kMs, 0}} << e;

    e = {};
    e.samples = 99;
    e.periodsSkipped = 1;
    e.misses = 2;
    e.met = 98;
    e.metPct = 98;
    e.longestMissRun = 2;
    e.cpuPct = 99;
    e.maxUs = 25000;
    e.meanUs = (25000.0 + 6000) / 99;
    e.over1ms = 2;
    e.over5ms = 2;
    e.ibMeanUs = (35000.0 + 6000) / 99;
    e.ibRmsUs = std::sqrt((35000.0 * 35000 + 6000.0 * 6000) / 99);
    e.ibMaxUs = 35000;
    QTest::newRow("stall in the very first period")
        << audio << 100 << Disturbances{{0, 25 * kMs, 0}} << e;

    // Cycle 11 is served at 10.5 ms + 9.5 ms = 20 ms (10 ms late), done at 21.
    e = {};
    e.samples = 100;
    e.misses = 2;
    e.met = 98;
    e.metPct = 98;
    e.longestMissRun = 2;
    e.maxUs = 10000;
    e.meanUs = 205;
    e.over1ms = 2; // 1000 us is not over 1 ms
    e.over5ms = 2;
    e.ibMeanUs = 205;
    e.ibRmsUs = std::sqrt((9500.0 * 9500 + 10000.0 * 10000 + 1000.0 * 1000) / 100);
    e.ibMaxUs = 10000;
    QTest::newRow("two skips in a row: miss run of 2")
        << audio << 100 << Disturbances{{10, 9500 * kUs, 0}, {11, 9500 * kUs, 0}} << e;

    e = {};
    e.samples = 100;
    e.misses = 2;
    e.met = 98;
    e.metPct = 98;
    e.longestMissRun = 1;
    e.maxUs = 9500;
    e.meanUs = 200;
    e.over1ms = 2;
    e.over5ms = 2;
    e.ibMeanUs = 200;
    e.ibRmsUs = std::sqrt(2 * (9500.0 * 9500 + 500.0 * 500) / 100);
    e.ibMaxUs = 9500;
    QTest::newRow("two separate skips: longest run stays 1")
        << audio << 100 << Disturbances{{10, 9500 * kUs, 0}, {50, 9500 * kUs, 0}} << e;

    // Preemption during the work is lateness of the work, not of the wakeup.
    e = {};
    e.samples = 100;
    e.misses = 1;
    e.met = 99;
    e.metPct = 99;
    e.longestMissRun = 1;
    e.maxUs = 500;
    e.meanUs = 5;
    e.ibMeanUs = 5;
    e.ibRmsUs = 50;
    e.ibMaxUs = 500;
    QTest::newRow("preempted mid-work past the deadline: skip, wakeup on time")
        << audio << 100 << Disturbances{{10, 0, 9500 * kUs}} << e;

    e = {};
    e.samples = 100;
    e.misses = 1;
    e.met = 99;
    e.metPct = 99;
    e.longestMissRun = 1;
    e.maxUs = 7000;
    e.meanUs = 80;
    e.over1ms = 1;
    e.over5ms = 1;
    e.ibMeanUs = 80;
    e.ibRmsUs = std::sqrt((7000.0 * 7000 + 1000.0 * 1000) / 100);
    e.ibMaxUs = 7000;
    QTest::newRow("video 100 fps: frame done 1 ms late is dropped")
        << video << 100 << Disturbances{{10, 7 * kMs, 0}} << e;

    e = {};
    e.samples = 100;
    e.met = 100;
    e.maxUs = 5000;
    e.meanUs = 50;
    e.over1ms = 1;
    e.ibMeanUs = 50;
    e.ibRmsUs = 500;
    e.ibMaxUs = 5000;
    QTest::newRow("default audio: 5.0 ms late fits its 5.33 ms buffer")
        << audioDefault << 100 << Disturbances{{10, 5 * kMs, 0}} << e;

    // Done at 5.366667 ms > 5.333333 ms; the next period is served 33 us late.
    e = {};
    e.samples = 100;
    e.misses = 1;
    e.met = 99;
    e.metPct = 99;
    e.longestMissRun = 1;
    e.maxUs = 5100;
    e.meanUs = 51.33;
    e.over1ms = 1;
    e.over5ms = 1;
    e.ibMeanUs = 51.33;
    e.ibRmsUs = std::sqrt((5100.0 * 5100 + 33.0 * 33) / 100);
    e.ibMaxUs = 5100;
    QTest::newRow("default audio: 5.1 ms late is a skip")
        << audioDefault << 100 << Disturbances{{10, 5100 * kUs, 0}} << e;

    // cyclictest: `while (now > next) next += interval`, nothing counted as
    // missed; latprobe counts the 3 skipped periods in sampled %.
    e = {};
    e.samples = 997;
    e.periodsSkipped = 3;
    e.maxUs = 3500;
    e.meanUs = 3500.0 / 997;
    e.over1ms = 1;
    QTest::newRow("wakeup: 3.5 ms stall skips 3 periods, no miss")
        << wakeup << 1000 << Disturbances{{100, 3500 * kUs, 0}} << e;

    e = {};
    e.samples = 1000;
    e.maxUs = 1000;
    e.meanUs = 1;
    QTest::newRow("wakeup: late exactly one period skips nothing")
        << wakeup << 1000 << Disturbances{{100, 1 * kMs, 0}} << e;

    e = {};
    e.samples = 100;
    e.maxUs = 1;
    e.meanUs = 0.01;
    QTest::newRow("wakeup: 1999 ns late reads as 1 us")
        << wakeup << 100 << Disturbances{{5, 1999, 0}} << e;
}

void TestPeriodicLoop::deadlineAccounting()
{
    QFETCH(ConsumerConfig, config);
    QFETCH(int, periods);
    QFETCH(Disturbances, events);
    QFETCH(Expected, expect);

    const LoopResult r = runLoop(config, expect.samples, events, periods);
    QCOMPARE(r.samples.size(), expect.samples);

    // Every cycle sits on the grid start + n * period, n >= 1, and the gap to
    // the next one is exactly the periods it skipped: served + skipped
    // periods cover the phase, none counted twice.
    uint64_t skipped = 0;
    int64_t expectedStart = kStart + config.periodNs;
    for (const Sample &s : r.samples) {
        QCOMPARE(s.periodStart, expectedStart);
        QVERIFY(s.woke >= s.periodStart);
        QVERIFY(s.done >= s.woke);
        expectedStart += config.periodNs * (1 + s.periodsSkipped);
        skipped += s.periodsSkipped;
    }
    QCOMPARE(r.samples.back().periodStart, kStart + periods * config.periodNs);
    QCOMPARE(skipped, expect.periodsSkipped);
    // ...and after whatever happened, the loop is back on time.
    for (size_t i = r.samples.size() - 5; i < r.samples.size(); ++i)
        QCOMPARE(r.samples[i].woke, r.samples[i].periodStart);

    const ConsumerStats &s = r.stats;
    QCOMPARE(s.samples, expect.samples);
    QCOMPARE(s.expected, static_cast<uint64_t>(periods));
    QCOMPARE(s.sampledPct, 100.0 * static_cast<double>(expect.samples) / periods);
    QCOMPARE(s.minUs, 0);
    QCOMPARE(s.maxUs, expect.maxUs);
    QCOMPARE(s.meanUs, expect.meanUs);
    QCOMPARE(s.over1ms, expect.over1ms);
    QCOMPARE(s.over5ms, expect.over5ms);
    QCOMPARE(s.misses, expect.misses);
    QCOMPARE(s.deadlinesMet, expect.met);
    QCOMPARE(s.deadlinesMetPct, expect.metPct);
    if (s.misses + s.deadlinesMet)
        QCOMPARE(s.deadlinesMetPct, 100.0 * s.deadlinesMet / (s.deadlinesMet + s.misses));
    QCOMPARE(s.longestMissRun, expect.longestMissRun);
    QCOMPARE(s.desiredCpuPct, expect.cpuPct);
    QCOMPARE(s.ibLatencyMeanUs, expect.ibMeanUs);
    QCOMPARE(s.ibLatencyRmsUs, expect.ibRmsUs);
    QCOMPARE(s.ibLatencyMaxUs, expect.ibMaxUs);
    QCOMPARE(s.ringOverflows, 0u);

    // The miss log and the per-second series tell the same story.
    uint64_t logged = 0;
    for (const MissEvent &m : r.missLog)
        logged += m.periodsLost;
    QCOMPARE(logged, expect.misses);
    uint64_t seriesSamples = 0, seriesMisses = 0;
    for (const SecondBucket &b : r.series) {
        seriesSamples += b.samples;
        seriesMisses += b.misses;
    }
    QCOMPARE(seriesSamples, expect.samples);
    QCOMPARE(seriesMisses, expect.misses);
}

void TestPeriodicLoop::resyncsToTheOriginalPeriodGridAfterAStall()
{
    const ConsumerConfig audio = audio10ms();
    const int64_t p = audio.periodNs;
    const LoopResult r = runLoop(audio, 30, {{10, 44 * kMs, 0}}, 33);
    QCOMPARE(r.samples.size(), 30u);

    const Sample &stalled = r.samples[10];
    QCOMPARE(stalled.periodStart, kStart + 11 * p);
    QCOMPARE(stalled.woke - stalled.periodStart, 44 * kMs);
    QCOMPARE(stalled.missedDeadline, 1u);
    QCOMPARE(stalled.periodsSkipped, 3u);

    // Periods 12..14 were lost; period 15 is served at once, 5 ms late.
    const Sample &catchUp = r.samples[11];
    QCOMPARE(catchUp.periodStart, kStart + 15 * p);
    QCOMPARE(catchUp.woke - catchUp.periodStart, 5 * kMs);
    QCOMPARE(catchUp.missedDeadline, 0u);
    QCOMPARE(catchUp.periodsSkipped, 0u);

    for (size_t i = 12; i < r.samples.size(); ++i) {
        QCOMPARE(r.samples[i].periodStart, kStart + static_cast<int64_t>(i + 4) * p);
        QCOMPARE(r.samples[i].woke, r.samples[i].periodStart);
        QCOMPARE(r.samples[i].missedDeadline, 0u);
    }
}

void TestPeriodicLoop::wakeupConsumerSkipsPastPeriodsLikeCyclictest()
{
    // cyclictest.c: next += interval; while (now > next) next += interval;
    const ConsumerConfig wakeup = wakeupConsumer(1000);
    const int64_t p = wakeup.periodNs;
    const int64_t late = 3500 * kUs;
    const LoopResult r = runLoop(wakeup, 20, {{5, late, 0}}, 23);
    QCOMPARE(r.samples.size(), 20u);

    int64_t next = kStart + 6 * p; // cycle 5's period
    const int64_t now = next + late;
    next += p;
    int skippedByCyclictest = 0;
    while (now > next) {
        next += p;
        ++skippedByCyclictest;
    }
    QCOMPARE(r.samples[5].periodsSkipped, static_cast<uint32_t>(skippedByCyclictest));
    QCOMPARE(r.samples[5].missedDeadline, 0u);
    QCOMPARE(r.samples[6].periodStart, next);
    QCOMPARE(r.samples[6].woke, next);
    QCOMPARE(r.stats.misses, 0u);
    QCOMPARE(r.stats.longestMissRun, 0u);
    QVERIFY(r.missLog.empty());
    QVERIFY(!r.stats.hasDeadline);
    QCOMPARE(r.stats.sampledPct, 100.0 * 20 / 23);
}

void TestPeriodicLoop::aWakeupIsTimedAsTheSleepReturns()
{
    // After a sleep the probe's own code runs cold: whatever it does before
    // reading the clock would count as the kernel's latency. cyclictest
    // reads the clock first thing; so does the loop.
    test::FakeClock clock(kStart);
    clock.readCostNs = 3 * kUs;
    clock.lateWakeups = {40 * kUs, 0, 250 * kUs};
    const ConsumerConfig wakeup = wakeupConsumer(1000);
    SpscRing<Sample> ring(16);
    std::atomic<bool> stop{false};
    PeriodicLoop(wakeup, clock, ring).run(kStart, stop, 3);
    std::vector<int64_t> latencies;
    ring.drain([&](const Sample &s) { latencies.push_back(latencyUs(s)); });
    QCOMPARE(latencies, (std::vector<int64_t>{40, 0, 250}));
}

void TestPeriodicLoop::latencyIsTruncatedToWholeMicroseconds_data()
{
    QTest::addColumn<qint64>("lateNs");
    QTest::addColumn<qint64>("us");
    QTest::newRow("on time") << qint64(0) << qint64(0);
    QTest::newRow("999 ns") << qint64(999) << qint64(0);
    QTest::newRow("1000 ns") << qint64(1000) << qint64(1);
    QTest::newRow("1999 ns") << qint64(1999) << qint64(1);
    QTest::newRow("2000 ns") << qint64(2000) << qint64(2);
    QTest::newRow("1.000999 ms") << qint64(1000999) << qint64(1000);
    QTest::newRow("early wakeup counts as 0") << qint64(-500) << qint64(0);
}

void TestPeriodicLoop::latencyIsTruncatedToWholeMicroseconds()
{
    QFETCH(qint64, lateNs);
    QFETCH(qint64, us);

    Sample s;
    s.periodStart = kStart;
    s.woke = kStart + lateNs;
    QCOMPARE(latencyUs(s), us);

    StatsAccumulator acc(wakeupConsumer(1000));
    acc.add(s);
    const ConsumerStats stats = acc.result(kStart - kMs, kStart + 1, kStart - kMs);
    QCOMPARE(stats.maxUs, us);
    QCOMPARE(stats.minUs, us);
    QCOMPARE(stats.p50Us, us);
    QCOMPARE(stats.meanUs, static_cast<double>(us));
}

void TestPeriodicLoop::missLogRecordsLatenessPastTheDeadline()
{
    const ConsumerConfig audio = audio10ms();
    const LoopResult r = runLoop(audio, 97, {{10, 44 * kMs, 0}}, 100);
    QCOMPARE(r.missLog.size(), 1u);
    const MissEvent &m = r.missLog.front();
    QCOMPARE(m.consumer, std::string("audio"));
    QCOMPARE(m.periodsLost, 4u);
    // Done at 45 ms after its period started, due at 10 ms.
    QCOMPARE(m.latenessUs, 35000);
    QCOMPARE(m.phase, std::string("idle"));
    const double doneS = static_cast<double>(11 * audio.periodNs + 45 * kMs) / 1e9;
    QCOMPARE(m.timeS, doneS);
}

void TestPeriodicLoop::samplesGoToThePhaseTheirPeriodStartedIn()
{
    const ConsumerConfig audio = audio10ms();
    const int64_t p = audio.periodNs;
    test::FakeClock clock(kStart);
    clock.lateWakeups.resize(71, 0);
    clock.lateWakeups[70] = 9500 * kUs; // a skip in period 71, in the loaded phase
    SpscRing<Sample> ring(1024);
    PeriodicLoop loop(audio, clock, ring);
    std::atomic<bool> stop{false};
    QCOMPARE(loop.run(kStart, stop, 100), 100u);
    std::vector<Sample> samples;
    ring.drain([&](const Sample &s) { samples.push_back(s); });

    // As in a live run: the phase begins while the collector has drained
    // only part of what came before it (here all but periods 48..50).
    Collector collector({audio}, kStart);
    const int64_t boundary = kStart + 50 * p + p / 2;
    for (size_t i = 0; i < 47; ++i)
        collector.add(0, samples[i]);
    collector.beginPhase("massive_intr x8", {"massive_intr x8"}, boundary);
    for (size_t i = 47; i < samples.size(); ++i)
        collector.add(0, samples[i]);
    const int64_t end = kStart + 100 * p + p / 2;
    collector.finish(end);

    const std::vector<PhaseResult> phases = collector.phases(end);
    QCOMPARE(phases.size(), 2u);
    QCOMPARE(phases[0].name, std::string("idle"));
    QCOMPARE(phases[1].name, std::string("massive_intr x8"));
    QCOMPARE(phases[1].loads, std::vector<std::string>{"massive_intr x8"});
    QCOMPARE(phases[0].consumers[0].samples, 50u);
    QCOMPARE(phases[1].consumers[0].samples, 50u);
    QCOMPARE(phases[0].consumers[0].misses, 0u);
    QCOMPARE(phases[1].consumers[0].misses, 1u);
    QCOMPARE(phases[0].durationS, 0.505);
    QCOMPARE(phases[1].startS, 0.505);
    QCOMPARE(phases[1].durationS, 0.5);
    QCOMPARE(collector.missLog().front().phase, std::string("massive_intr x8"));
}

void TestPeriodicLoop::phaseBegunBeforeAnyDrainKeepsItsBoundary()
{
    // The collector drains every 50 ms: a phase can begin before a single
    // sample of the one before it left the ring. Those samples still belong
    // to the earlier phase (collector.h: "Samples whose period starts at or
    // after `at` belong to the new phase").
    const ConsumerConfig audio = audio10ms();
    const int64_t p = audio.periodNs;
    Collector collector({audio}, kStart);
    for (int n = 1; n <= 3; ++n) {
        Sample s;
        s.periodStart = s.woke = kStart + n * p;
        s.done = s.woke + audio.workNs;
        s.workDone = audio.workNs;
        QVERIFY(collector.ring(0).push(s));
    }
    collector.beginPhase("burn x2", {"burn x2"}, kStart + 3 * p + p / 2);
    collector.finish(kStart + 4 * p);
    const std::vector<PhaseResult> phases = collector.phases(0);
    QCOMPARE(phases.size(), 2u);
    QCOMPARE(phases[0].name, std::string("idle"));
    QCOMPARE(phases[0].consumers[0].samples, 3u);
    QCOMPARE(phases[1].consumers[0].samples, 0u);
}

void TestPeriodicLoop::fullySampledPhasesRead100Percent()
{
    // Phase boundaries fall anywhere between two period starts: a phase of
    // 49.7 periods holds 49 or 50 of them. None was lost, so every phase is
    // 100 % sampled, no more, no less.
    const ConsumerConfig audio = audio10ms();
    const int64_t p = audio.periodNs;
    Collector collector({audio}, kStart);
    const int64_t a = kStart + 50 * p + p / 2, b = kStart + 100 * p + p / 5;
    for (int n = 1; n <= 120; ++n) {
        Sample s;
        s.periodStart = s.woke = kStart + n * p;
        s.done = s.woke + audio.workNs;
        s.workDone = audio.workNs;
        if (n == 51)
            collector.beginPhase("loaded", {}, a);
        if (n == 101)
            collector.beginPhase("after", {}, b);
        collector.add(0, s);
    }
    collector.finish(kStart + 120 * p + audio.workNs);

    const std::vector<PhaseResult> phases = collector.phases(0);
    QCOMPARE(phases.size(), 3u);
    const uint64_t samples[] = {50, 50, 20}; // period starts 1..50, 51..100, 101..120
    for (size_t i = 0; i < phases.size(); ++i) {
        const ConsumerStats &c = phases[i].consumers[0];
        QCOMPARE(c.samples, samples[i]);
        QCOMPARE(c.expected, samples[i]);
        QCOMPARE(c.sampledPct, 100.0);
    }
}

void TestPeriodicLoop::stopsWhenAskedBeforeTheFirstPeriod()
{
    test::FakeClock clock(kStart);
    SpscRing<Sample> ring(16);
    PeriodicLoop loop(audio10ms(), clock, ring);
    std::atomic<bool> stop{true};
    QCOMPARE(loop.run(kStart, stop), 0u);
    QCOMPARE(clock.sleeps, 0u);
    QCOMPARE(ring.drain([](const Sample &) {}), 0u);
}

void TestPeriodicLoop::aMissIsMarkedInTheTraceWithItsOwnTimes()
{
    // The recorder's trace_marker is a pipe here: what the measuring thread
    // writes on a miss is what the trace would hold.
    int pipeFds[2];
    QVERIFY(pipe2(pipeFds, O_NONBLOCK | O_CLOEXEC) == 0);
    std::atomic<int> markerFd{-1};
    const MissMarker marker(markerFd, "audio");
    auto run = [&](int fd) {
        markerFd = fd;
        test::FakeClock clock(kStart);
        clock.lateWakeups = {0, 0, 25 * kMs}; // cycle 2 wakes 25 ms late: a miss
        SpscRing<Sample> ring(1 << 10);
        PeriodicLoop loop(audio10ms(), clock, ring);
        loop.markMisses(&marker);
        std::atomic<bool> stop{false};
        loop.run(kStart, stop, 10);
        std::vector<Sample> missed;
        ring.drain([&](const Sample &s) {
            if (s.missedDeadline)
                missed.push_back(s);
        });
        return missed;
    };
    auto readPipe = [&] {
        std::string text(4096, '\0');
        const ssize_t n = read(pipeFds[0], text.data(), text.size());
        text.resize(n > 0 ? static_cast<size_t>(n) : 0);
        return text;
    };

    // Off (no recorder): the miss is counted, nothing is written.
    QCOMPARE(run(-1).size(), size_t{1});
    QCOMPARE(readPipe(), std::string());

    const std::vector<Sample> missed = run(pipeFds[1]);
    QCOMPARE(missed.size(), size_t{1});
    const Sample &s = missed.front();
    const std::string line = readPipe();
    // One line for the one miss, its times from the sample: the window
    // (period start to work done) in ms, the start and wake relative to the
    // work done, and all three in seconds of CLOCK_MONOTONIC, as the
    // recorder's "mono" clock stamps the switches beside it.
    char expected[MissMarker::kMaxLine];
    const size_t n = MissMarker::format(expected, sizeof expected, "audio", s);
    QCOMPARE(line, std::string(expected, n));
    const int64_t windowUs = (s.done - s.periodStart) / 1000;
    const std::string window = fmt::format("{}.{:03}", windowUs / 1000, windowUs % 1000);
    QVERIFY2(line.rfind("latprobe: audio miss " + window + " ms, period start -" + window + " ms",
                        0) == 0,
             line.c_str());
    QVERIFY2(line.find(fmt::format("start {}.{:09} ", s.periodStart / 1'000'000'000,
                                   s.periodStart % 1'000'000'000)) != std::string::npos,
             line.c_str());
    QVERIFY2(line.find(fmt::format("done {}.{:09}]", s.done / 1'000'000'000,
                                   s.done % 1'000'000'000)) != std::string::npos,
             line.c_str());
    close(pipeFds[0]);
    close(pipeFds[1]);
}

QTEST_GUILESS_MAIN(TestPeriodicLoop)
#include "tst_periodicloop.moc"
