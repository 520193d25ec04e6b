// The time plots on hand-made samples: what they redraw and when. A replot
// repaints the whole plot, so one is asked for only when the window moved or
// what it shows changed; an idle misses plot moves with the seconds.

#include "collector.h"
#include "latencyplot.h"
#include "livedata.h"
#include "missesplot.h"
#include "presets.h"

#include <QTest>

using namespace latprobe;

namespace {

constexpr int64_t kStart = 1'000'000'000; // the run's start on the fake clock
constexpr int64_t kMs = 1'000'000;

Sample sample(int64_t tMs, double lateMs, bool missed = false)
{
    Sample s;
    s.periodStart = kStart + tMs * kMs;
    s.woke = s.periodStart + static_cast<int64_t>(lateMs * kMs);
    s.done = s.woke;
    s.missedDeadline = missed;
    return s;
}

// Runs the replots that were queued.
void drawQueued()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

} // namespace

class TestTimePlots : public QObject
{
    Q_OBJECT

private slots:
    void idleMissesPlotRedrawsOnceASecond();
    void aMissRedrawsTheMissesPlotAtOnce();
    void latencyPlotMovesWithEveryNewBucket();
};

void TestTimePlots::idleMissesPlotRedrawsOnceASecond()
{
    const std::vector<ConsumerConfig> configs{audioConsumer()};
    Collector collector(configs, kStart);
    LiveData data(collector);
    MissesPlot plot(configs);
    plot.resize(500, 300);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    for (int t = 0; t < 70'000; t += 100)
        collector.add(0, sample(t, 0.5));
    data.pollFine(kStart + 70'050 * kMs);
    plot.refresh(data);
    drawQueued();
    const int first = plot.replotCount();
    QVERIFY(first > 0);
    // Four more ticks of the same second, no miss: nothing to redraw.
    for (int t = 70'100; t < 70'900; t += 200) {
        collector.add(0, sample(t, 0.5));
        data.pollFine(kStart + (t + 50) * kMs);
        plot.refresh(data);
        drawQueued();
    }
    QCOMPARE(plot.replotCount(), first);
    // The next second moves the window.
    collector.add(0, sample(71'000, 0.5));
    data.pollFine(kStart + 71'050 * kMs);
    plot.refresh(data);
    drawQueued();
    QCOMPARE(plot.replotCount(), first + 1);
}

void TestTimePlots::aMissRedrawsTheMissesPlotAtOnce()
{
    const std::vector<ConsumerConfig> configs{audioConsumer()};
    Collector collector(configs, kStart);
    LiveData data(collector);
    MissesPlot plot(configs);
    plot.resize(500, 300);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    for (int t = 0; t < 70'000; t += 100)
        collector.add(0, sample(t, 0.5));
    data.pollFine(kStart + 70'050 * kMs);
    plot.refresh(data);
    drawQueued();
    const int before = plot.replotCount();
    // A skip within the same second: its bar shows on this tick.
    collector.add(0, sample(70'100, 30, true));
    collector.add(0, sample(70'200, 0.5));
    data.pollFine(kStart + 70'250 * kMs);
    plot.refresh(data);
    drawQueued();
    QCOMPARE(plot.replotCount(), before + 1);
}

void TestTimePlots::latencyPlotMovesWithEveryNewBucket()
{
    const std::vector<ConsumerConfig> configs{audioConsumer(), wakeupConsumer()};
    Collector collector(configs, kStart);
    LiveData data(collector);
    LatencyPlot plot(configs);
    plot.resize(800, 300);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    for (int t = 0; t < 70'000; t += 100)
        collector.add(0, sample(t, 0.5));
    data.pollFine(kStart + 70'050 * kMs);
    plot.refresh(data);
    drawQueued();
    int replots = plot.replotCount();
    // Every 200 ms tick with new samples slides the plot and draws them.
    for (int t = 70'100; t < 71'100; t += 200) {
        collector.add(0, sample(t, 0.5));
        collector.add(0, sample(t + 100, 0.7));
        data.pollFine(kStart + (t + 150) * kMs);
        plot.refresh(data);
        drawQueued();
        QCOMPARE(plot.replotCount(), ++replots);
    }
    QVERIFY(plot.pointCount(0) <= 620); // never more points than pixels
    // The same moment again (a screenshot's poll): nothing new to draw.
    plot.refresh(data);
    drawQueued();
    QCOMPARE(plot.replotCount(), replots);
}

QTEST_MAIN(TestTimePlots)
#include "tst_timeplots.moc"
