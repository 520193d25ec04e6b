// The time plots on hand-made samples: what they redraw and when. A replot
// repaints the whole plot, so one is asked for only when the window moved or
// what it shows changed; an idle misses plot moves with the seconds.

#include "collector.h"
#include "collectornumbers.h"
#include "latencyplot.h"
#include "livedata.h"
#include "missesplot.h"
#include "presets.h"
#include "steadytext.h"

#include <QTest>

#include <utility>
#include <vector>

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

// A plot on screen, fed by a collector of its own on the fake clock, as the
// window's ticks feed it: samples in, a poll, a refresh, the queued draw.
template <typename Plot> struct ShownPlot
{
    std::vector<ConsumerConfig> configs;
    Collector collector;
    CollectorNumbers numbers{collector};
    LiveData data;
    Plot plot;

    ShownPlot(std::vector<ConsumerConfig> consumers, int width)
        : configs(std::move(consumers)), collector(configs, kStart), data(numbers), plot(configs)
    {
        plot.resize(width, 300);
        plot.show();
    }
    // The window's tick at `nowMs` into the run.
    void tick(int64_t nowMs)
    {
        data.pollFine(kStart + nowMs * kMs);
        plot.refresh(data);
        drawQueued();
    }
    // On screen, with 70 s of samples 0.5 ms late drawn.
    bool shownWith70s()
    {
        if (!QTest::qWaitForWindowExposed(&plot))
            return false;
        for (int t = 0; t < 70'000; t += 100)
            collector.add(0, sample(t, 0.5));
        tick(70'050);
        return plot.replotCount() > 0;
    }
};

} // namespace

class TestTimePlots : public QObject
{
    Q_OBJECT

private slots:
    void idleMissesPlotRedrawsOnceASecond();
    void aMissRedrawsTheMissesPlotAtOnce();
    void latencyPlotMovesWithEveryNewBucket();
    void titleAndLegendAreMeasuredOnlyWhenTheyChange();
};

void TestTimePlots::idleMissesPlotRedrawsOnceASecond()
{
    ShownPlot<MissesPlot> shown({audioConsumer()}, 500);
    QVERIFY(shown.shownWith70s());
    const int first = shown.plot.replotCount();
    // Four more ticks of the same second, no miss: nothing to redraw.
    for (int t = 70'100; t < 70'900; t += 200) {
        shown.collector.add(0, sample(t, 0.5));
        shown.tick(t + 50);
    }
    QCOMPARE(shown.plot.replotCount(), first);
    // The next second moves the window.
    shown.collector.add(0, sample(71'000, 0.5));
    shown.tick(71'050);
    QCOMPARE(shown.plot.replotCount(), first + 1);
}

void TestTimePlots::aMissRedrawsTheMissesPlotAtOnce()
{
    ShownPlot<MissesPlot> shown({audioConsumer()}, 500);
    QVERIFY(shown.shownWith70s());
    const int before = shown.plot.replotCount();
    // A skip within the same second: its bar shows on this tick.
    shown.collector.add(0, sample(70'100, 30, true));
    shown.collector.add(0, sample(70'200, 0.5));
    shown.tick(70'250);
    QCOMPARE(shown.plot.replotCount(), before + 1);
}

void TestTimePlots::latencyPlotMovesWithEveryNewBucket()
{
    ShownPlot<LatencyPlot> shown({audioConsumer(), wakeupConsumer()}, 800);
    QVERIFY(shown.shownWith70s());
    int replots = shown.plot.replotCount();
    // Every 200 ms tick with new samples slides the plot and draws them.
    for (int t = 70'100; t < 71'100; t += 200) {
        shown.collector.add(0, sample(t, 0.5));
        shown.collector.add(0, sample(t + 100, 0.7));
        shown.tick(t + 150);
        QCOMPARE(shown.plot.replotCount(), ++replots);
    }
    QVERIFY(shown.plot.pointCount(0) <= 620); // never more points than pixels
    // The same moment again (a screenshot's poll): nothing new to draw.
    shown.plot.refresh(shown.data);
    drawQueued();
    QCOMPARE(shown.plot.replotCount(), replots);
}

void TestTimePlots::titleAndLegendAreMeasuredOnlyWhenTheyChange()
{
    ShownPlot<LatencyPlot> shown({audioConsumer(), wakeupConsumer()}, 800);
    QVERIFY(shown.shownWith70s());
    QCustomPlot *p = shown.plot.plot();
    auto *title = dynamic_cast<SteadyTitle *>(p->plotLayout()->element(0, 0));
    QVERIFY(title);
    std::vector<SteadyLegendItem *> entries;
    for (int i = 0; i < p->legend->itemCount(); ++i)
        if (auto *e = dynamic_cast<SteadyLegendItem *>(p->legend->item(i)))
            entries.push_back(e);
    QCOMPARE(static_cast<int>(entries.size()), p->legend->itemCount());
    QCOMPARE(entries.size(), size_t{2});
    QCOMPARE(entries[0]->plottable()->name(), QStringLiteral("audio")); // the order kept
    const int titleMeasured = title->measurements();
    const int entryMeasured = entries[1]->measurements();
    QVERIFY(titleMeasured >= 1 && entryMeasured >= 1);
    const int replots = shown.plot.replotCount();
    for (int t = 70'100; t < 71'100; t += 200) {
        shown.collector.add(0, sample(t, 0.5));
        shown.tick(t + 150);
    }
    QCOMPARE(shown.plot.replotCount(), replots + 5);
    QCOMPARE(title->measurements(), titleMeasured);
    QCOMPARE(entries[1]->measurements(), entryMeasured);
    // A new name and a new title are measured anew, and laid out at their size.
    const QCPLayoutElement *entry = entries[1];
    const int narrow = entry->minimumOuterSizeHint().width();
    entries[1]->plottable()->setName(QStringLiteral("wakeup, a much longer name"));
    shown.plot.setTitle(shown.plot.title() + QStringLiteral(" with more words"));
    shown.plot.requestReplot();
    drawQueued();
    QVERIFY(entries[1]->measurements() > entryMeasured);
    QVERIFY(title->measurements() > titleMeasured);
    QVERIFY(entry->minimumOuterSizeHint().width() > narrow);
}

QTEST_MAIN(TestTimePlots)
#include "tst_timeplots.moc"
