// What the GUI counts, on hand-made samples: sparse histogram arithmetic,
// "since reset" and "last 10 s" from the collector's 100 ms buckets, and the
// windowed p99 from cumulative histogram snapshots. No probe threads, no
// widgets but the counter panel: a collector is fed directly, and read as
// the session reads its own (RunNumbers).

#include "collector.h"
#include "collectornumbers.h"
#include "countercard.h"
#include "counterpanel.h"
#include "livedata.h"
#include "presets.h"
#include "sparsehistogram.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace latprobe;

Q_DECLARE_METATYPE(latprobe::SparseHistogram)

namespace {

constexpr int64_t kStart = 1'000'000'000; // the run's start on the fake clock
constexpr int64_t kMs = 1'000'000;

// A cycle of `consumer` that began at `t` ms and ran `lateMs` late;
// `lost` periods lost (deadline missed + skipped).
Sample sample(int64_t tMs, double lateMs, uint32_t skipped = 0, bool missed = false)
{
    Sample s;
    s.periodStart = kStart + tMs * kMs;
    s.woke = s.periodStart + static_cast<int64_t>(lateMs * kMs);
    s.done = s.woke;
    s.periodsSkipped = skipped;
    s.missedDeadline = missed;
    return s;
}

} // namespace

class TestLiveData : public QObject
{
    Q_OBJECT

private slots:
    void sparseArithmetic_data();
    void sparseArithmetic();
    void percentileIsNearestRank_data();
    void percentileIsNearestRank();
    void countsSinceResetAndLastWindow();
    void resetStartsAtItsBoundary();
    void windowP99ComesFromSnapshots();
    void theWindowHoldsTenSecondsNotTheRun();
    void onlyNewBucketsAreFetched();
    void finishedPhasesAreFoldedOnceAndKeepNoHistogram();
    void gamingCpuSinceResetIsTheShareItGot();
    void xAndGamingGetCardsThatSayWhatTheyAre();
};

void TestLiveData::sparseArithmetic_data()
{
    QTest::addColumn<SparseHistogram>("a");
    QTest::addColumn<SparseHistogram>("b");
    QTest::addColumn<SparseHistogram>("sum");
    QTest::addColumn<SparseHistogram>("difference");
    QTest::newRow("empty") << SparseHistogram{} << SparseHistogram{} << SparseHistogram{}
                           << SparseHistogram{};
    QTest::newRow("disjoint") << SparseHistogram{{1, 2}, {5, 1}} << SparseHistogram{{3, 4}}
                              << SparseHistogram{{1, 2}, {3, 4}, {5, 1}}
                              << SparseHistogram{{1, 2}, {5, 1}};
    QTest::newRow("overlap") << SparseHistogram{{1, 2}, {3, 5}, {9, 1}}
                             << SparseHistogram{{3, 4}, {9, 1}}
                             << SparseHistogram{{1, 2}, {3, 9}, {9, 2}}
                             << SparseHistogram{{1, 2}, {3, 1}};
    // A later snapshot minus an earlier one of the same cumulative histogram.
    QTest::newRow("snapshot") << SparseHistogram{{10, 100}, {200, 3}, {150000, 1}}
                              << SparseHistogram{{10, 60}, {200, 3}}
                              << SparseHistogram{{10, 160}, {200, 6}, {150000, 1}}
                              << SparseHistogram{{10, 40}, {150000, 1}};
}

void TestLiveData::sparseArithmetic()
{
    QFETCH(SparseHistogram, a);
    QFETCH(SparseHistogram, b);
    QFETCH(SparseHistogram, sum);
    QFETCH(SparseHistogram, difference);
    SparseHistogram out;
    addSparse(a, b, out);
    QVERIFY(out == sum);
    subtractSparse(a, b, out);
    QVERIFY(out == difference);
}

void TestLiveData::percentileIsNearestRank_data()
{
    QTest::addColumn<SparseHistogram>("h");
    QTest::addColumn<double>("q");
    QTest::addColumn<qlonglong>("expected");
    QTest::newRow("empty") << SparseHistogram{} << 0.99 << qlonglong(-1);
    QTest::newRow("one") << SparseHistogram{{7, 1}} << 0.99 << qlonglong(7);
    // 100 samples: rank ceil(0.99 * 100) = 99 lands in the 98 + 1 bucket.
    QTest::newRow("p99 of 100") << SparseHistogram{{10, 98}, {20, 1}, {30, 1}} << 0.99
                                << qlonglong(20);
    QTest::newRow("p50") << SparseHistogram{{10, 50}, {20, 50}} << 0.5 << qlonglong(10);
    QTest::newRow("max") << SparseHistogram{{10, 50}, {20, 50}} << 1.0 << qlonglong(20);
}

void TestLiveData::percentileIsNearestRank()
{
    QFETCH(SparseHistogram, h);
    QFETCH(double, q);
    QFETCH(qlonglong, expected);
    QCOMPARE(sparsePercentile(h, q), expected);
}

void TestLiveData::countsSinceResetAndLastWindow()
{
    const std::vector<ConsumerConfig> configs{audioConsumer(), wakeupConsumer()};
    Collector collector(configs, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    // Audio: misses at 1 s (2 lost) and 25 s (1 lost); latencies 0.2 and 12 ms.
    collector.add(0, sample(1000, 0.2));
    collector.add(0, sample(1005, 11.0, 1, true));
    collector.add(0, sample(25000, 12.0, 0, true));
    collector.add(0, sample(25100, 0.3));
    data.pollFine(kStart + 25'200 * kMs);
    QCOMPARE(data.missesSinceReset(0), 3u);
    QCOMPARE(data.missesLastWindow(0), 1u); // the 1 s miss is older than 10 s
    QCOMPARE(data.maxSinceResetUs(0), 12000);
    QCOMPARE(data.maxLastWindowUs(0), 12000);
    QCOMPARE(data.missesSinceReset(1), 0u); // no deadline: never a miss
    QCOMPARE(data.maxSinceResetUs(1), -1);  // no sample at all

    // The newest bucket may still grow: polling again must not count twice.
    collector.add(0, sample(25150, 0.1, 0, true));
    data.pollFine(kStart + 25'300 * kMs);
    QCOMPARE(data.missesSinceReset(0), 4u);
    data.pollFine(kStart + 25'400 * kMs);
    QCOMPARE(data.missesSinceReset(0), 4u);
    // 40 s later the window is empty, the totals stay.
    data.pollFine(kStart + 65'000 * kMs);
    QCOMPARE(data.missesLastWindow(0), 0u);
    QCOMPARE(data.maxLastWindowUs(0), -1);
    QCOMPARE(data.missesSinceReset(0), 4u);
}

void TestLiveData::resetStartsAtItsBoundary()
{
    Collector collector({audioConsumer()}, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    collector.add(0, sample(1000, 11.0, 0, true));
    data.pollFine(kStart + 2'040 * kMs);
    QCOMPARE(data.missesSinceReset(0), 1u);

    const int64_t at = data.resetBoundary(kStart + 2'040 * kMs);
    QCOMPARE(at, kStart + 2'100 * kMs); // the next 100 ms boundary
    collector.beginPhase("idle", {}, at);
    data.reset(at);
    QCOMPARE(data.missesSinceReset(0), 0u);
    QCOMPARE(data.missesLastWindow(0), 0u); // "last 10 s" never reaches before a reset
    QCOMPARE(data.maxSinceResetUs(0), -1);

    collector.add(0, sample(2050, 11.0, 0, true)); // before the boundary: old phase
    collector.add(0, sample(2200, 11.0, 2, true)); // after it: 3 lost
    collector.add(0, sample(2300, 0.1));
    data.pollFine(kStart + 2'400 * kMs);
    QCOMPARE(data.missesSinceReset(0), 3u);
    data.pollPhases(kStart + 2'400 * kMs);
    QCOMPARE(data.phases().size(), 2u);
    QCOMPARE(data.phases().back().consumers[0].misses, 3u); // the counters and the phase agree
}

void TestLiveData::windowP99ComesFromSnapshots()
{
    Collector collector({wakeupConsumer()}, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    data.setHistogramConsumer(0);
    // Second by second, as the GUI polls: 100 wakeups a second, 0.1 ms late;
    // in the first 10 s two of each hundred are 5 ms late.
    for (int second = 0; second < 21; ++second) {
        for (int i = 0; i < 100; ++i)
            collector.add(0,
                          sample(second * 1000 + i * 10, second < 10 && i % 50 == 0 ? 5.0 : 0.1));
        data.pollPhases(kStart + (second + 1) * 1000 * kMs);
        if (second == 9)
            QCOMPARE(data.p99SinceResetUs(), 5000); // 20 of 1000: rank 990 is 5 ms
    }
    // The window (11-21 s) has forgotten the 5 ms wakeups; since the reset,
    // 20 of 2100 are not enough for p99 either.
    QCOMPARE(data.p99LastWindowUs(), 100);
    QCOMPARE(data.p99SinceResetUs(), 100);
    QCOMPARE(sparseCount(data.windowHistogram()), 1000u);
    QCOMPARE(sparseCount(data.phaseHistogram()), 2100u);
}

void TestLiveData::theWindowHoldsTenSecondsNotTheRun()
{
    // Ten minutes, a phase a minute, in which every second brings 20
    // latencies never seen before: the histogram since the reset grows past
    // 11,000 buckets, what "last 10 s" holds stays the window's, and both
    // percentiles span the phases.
    Collector collector({wakeupConsumer()}, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    data.setHistogramConsumer(0);
    std::vector<int64_t> all;
    for (int second = 0; second < 600; ++second) {
        if (second > 0 && second % 60 == 0)
            collector.beginPhase("step " + std::to_string(second / 60), {},
                                 kStart + second * 1000 * kMs);
        for (int i = 0; i < 100; ++i) {
            const Sample s =
                sample(second * 1000 + i * 10, i < 20 ? 1.0 + (second * 20 + i) / 1000.0 : 0.1);
            collector.add(0, s);
            all.push_back(latencyUs(s));
        }
        data.pollPhases(kStart + (second + 1) * 1000 * kMs);
        if (second == 65) // 6 s of "step 1" and 4 of "idle"'s end
            QCOMPARE(sparseCount(data.windowHistogram()), 1000u);
    }
    QCOMPARE(data.phases().size(), 10u);
    QCOMPARE(sparseCount(data.windowHistogram()), 1000u);
    std::sort(all.begin(), all.end());
    QCOMPARE(data.p99SinceResetUs(), all[static_cast<size_t>(std::ceil(0.99 * all.size())) - 1]);
    QVERIFY(data.p99LastWindowUs() > 10'000); // its 200 new latencies are 12.8-13 ms
    size_t distinct = 0;
    for (size_t k = 0; k < all.size(); ++k)
        distinct += k == 0 || all[k] != all[k - 1];
    QVERIFY2(distinct > 11'000, qPrintable(QString::number(distinct)));
    QVERIFY2(data.windowBucketsHeld() <= 10 * 21,
             qPrintable(QString::number(data.windowBucketsHeld())));
}

void TestLiveData::onlyNewBucketsAreFetched()
{
    Collector collector({audioConsumer()}, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    for (int i = 0; i < 100; ++i)
        collector.add(0, sample(i * 100, 0.5));
    data.pollFine(kStart + 10'000 * kMs);
    QCOMPARE(data.recent(0).size(), 100u);
    collector.add(0, sample(10'000, 0.5));
    data.pollFine(kStart + 10'100 * kMs);
    QCOMPARE(data.recent(0).size(), 101u);
    QCOMPARE(data.recent(0).back().index, 100);
    // The plots keep 70 s at most.
    for (int i = 101; i < 1000; ++i)
        collector.add(0, sample(i * 100, 0.5));
    data.pollFine(kStart + 100'000 * kMs);
    QCOMPARE(data.recent(0).size(), LiveData::kKeptBuckets);
}

void TestLiveData::finishedPhasesAreFoldedOnceAndKeepNoHistogram()
{
    Collector collector({wakeupConsumer()}, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    data.setHistogramConsumer(0);
    // Ten phases of 1 s, 100 wakeups each: the first 9.5 ms late, each next
    // one a ms less, the last (still open) 0.5 ms.
    for (int phase = 0; phase < 10; ++phase) {
        if (phase > 0)
            collector.beginPhase("phase " + std::to_string(phase), {}, kStart + phase * 1000 * kMs);
        for (int i = 0; i < 100; ++i)
            collector.add(0, sample(phase * 1000 + i * 10, 9 - phase + 0.5));
        data.pollPhases(kStart + (phase + 1) * 1000 * kMs - kMs);
    }
    QCOMPARE(data.phases().size(), 10u);
    // Since the start every wakeup counts: rank 990 of 1000 is in the
    // first phase, folded long ago (without it, p99 would be 0.5 ms).
    QVERIFY2(data.p99SinceResetUs() >= 9000 && data.p99SinceResetUs() <= 10000,
             qPrintable(QString::number(data.p99SinceResetUs())));
    QCOMPARE(sparseCount(data.phaseHistogram()), 100u);
    // Only the open phase holds a histogram: memory stays flat however
    // many phases a run has.
    for (size_t i = 0; i + 1 < data.phases().size(); ++i)
        QVERIFY(data.phases()[i].consumers[0].histogram.empty());
    QVERIFY(!data.phases().back().consumers[0].histogram.empty());
    QCOMPARE(data.phases()[3].consumers[0].samples, 100u); // the figures stay
}

namespace {

// A 100 ms gaming burn that began at `tMs` and ended `lateMs` later than
// its work would have taken with the whole CPU.
Sample burn(int64_t tMs, int64_t lateMs)
{
    Sample s;
    s.periodStart = kStart + (tMs + 100) * kMs;
    s.woke = s.done = s.periodStart + lateMs * kMs;
    s.workDone = 100 * kMs;
    return s;
}

} // namespace

void TestLiveData::gamingCpuSinceResetIsTheShareItGot()
{
    Collector collector({gamingConsumer()}, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    data.pollPhases(kStart + 50 * kMs);
    QCOMPARE(data.cpuSinceResetPct(0), -1.0);
    // Before the reset: starved, 100 ms burns that took 400 ms.
    collector.add(0, burn(0, 300));
    const int64_t at = data.resetBoundary(kStart + 450 * kMs);
    collector.beginPhase("idle", {}, at);
    data.reset(at);
    // After it: one burn on time, one 100 ms late: 200 of 300 ms.
    collector.add(0, burn(500, 0));
    collector.add(0, burn(600, 100));
    data.pollPhases(kStart + 900 * kMs);
    QCOMPARE(data.phases().size(), 2u);
    QCOMPARE(data.phases().front().consumers[0].desiredCpuPct, 25.0);
    QCOMPARE(data.cpuSinceResetPct(0), 100.0 * 200 / 300);
}

void TestLiveData::xAndGamingGetCardsThatSayWhatTheyAre()
{
    // From the consumer table, like every other card: X counts late
    // windows, gaming shows the CPU it got.
    const std::vector<ConsumerConfig> consumers = {audioConsumer(), xConsumer(), gamingConsumer(),
                                                   wakeupConsumer()};
    CounterPanel panel(consumers);
    CounterCard *x = panel.card(QStringLiteral("x"));
    CounterCard *gaming = panel.card(QStringLiteral("gaming"));
    QVERIFY(x && gaming);
    QCOMPARE(x->title(), QStringLiteral("X late windows"));
    QCOMPARE(gaming->title(), QStringLiteral("Gaming CPU"));
    QVERIFY2(x->toolTip().contains("interbench's X"), qPrintable(x->toolTip()));
    QVERIFY2(gaming->toolTip().contains("interbench's Gaming"), qPrintable(gaming->toolTip()));

    Collector collector(consumers, kStart);
    const CollectorNumbers numbers(collector);
    LiveData data(numbers);
    collector.add(2, burn(0, 0));
    collector.add(2, burn(100, 100));
    data.pollFine(kStart + 400 * kMs);
    data.pollPhases(kStart + 400 * kMs);
    panel.refresh(data);
    QCOMPARE(gaming->valueText(), QStringLiteral("66.7 %"));
    QCOMPARE(gaming->windowText(), QStringLiteral("last 10 s: late 100.0 ms"));
    QCOMPARE(x->valueText(), QStringLiteral("0"));
}

QTEST_MAIN(TestLiveData)
#include "tst_livedata.moc"
