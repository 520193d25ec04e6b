#include "collector.h"
#include "presets.h"

#include <QtTest>

using namespace latprobe;

namespace {
constexpr int64_t kStart = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

Sample sample(int64_t periodStart, int64_t lateNs, bool missed = false, uint32_t skipped = 0)
{
    Sample s;
    s.periodStart = periodStart;
    s.woke = periodStart + lateNs;
    s.done = s.woke;
    s.missedDeadline = missed;
    s.periodsSkipped = skipped;
    return s;
}
} // namespace

class TestCollector : public QObject
{
    Q_OBJECT

private slots:
    void samplesGoToThePhaseTheirPeriodStartedIn()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 1 * kMs, 50000));
        c.add(0, sample(kStart + 2 * kMs, 60000));
        c.beginPhase("burn x2", {"burn x2"}, kStart + 3 * kMs);
        // A straggler drained after the phase began still belongs to idle.
        c.add(0, sample(kStart + 2 * kMs + 500000, 70000));
        c.add(0, sample(kStart + 3 * kMs, 4000000));
        const auto phases = c.phases(kStart + 4 * kMs);
        QCOMPARE(phases.size(), size_t{2});
        QCOMPARE(phases[0].name, std::string("idle"));
        QCOMPARE(phases[0].consumers[0].samples, uint64_t{3});
        QCOMPARE(phases[1].consumers[0].samples, uint64_t{1});
        QCOMPARE(phases[1].consumers[0].over1ms, uint64_t{1});
        QCOMPARE(phases[1].loads, std::vector<std::string>{"burn x2"});
    }

    void aPhaseBegunAtTheRunStartNamesTheFirstPhase()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 1 * kMs, 10000));
        c.beginPhase("None", {}, kStart);
        const auto phases = c.phases(kStart + 2 * kMs);
        QCOMPARE(phases.size(), size_t{1});
        QCOMPARE(phases[0].name, std::string("None"));
        QCOMPARE(phases[0].consumers[0].samples, uint64_t{1});
    }

    void firstMissOfEachPhaseAsksForOneCapture()
    {
        Collector c({audioConsumer()}, kStart);
        const int64_t p = audioConsumer().periodNs;
        c.add(0, sample(kStart + p, 20 * kMs, true, 2));
        c.add(0, sample(kStart + 5 * p, 20 * kMs, true));
        auto requests = c.takeCaptureRequests();
        QCOMPARE(requests.size(), size_t{1});
        QCOMPARE(requests[0].consumer, std::string("audio"));
        QCOMPARE(requests[0].phase, std::string("idle"));
        QVERIFY(c.takeCaptureRequests().empty());
        c.beginPhase("massive_intr x8", {}, kStart + 10 * p);
        c.add(0, sample(kStart + 11 * p, 20 * kMs, true));
        requests = c.takeCaptureRequests();
        QCOMPARE(requests.size(), size_t{1});
        QCOMPARE(requests[0].phase, std::string("massive_intr x8"));
        QCOMPARE(c.missLog().size(), size_t{3});
        QCOMPARE(c.missLog()[0].periodsLost, uint32_t{3});
    }

    void liveSeriesHasTenthsAndSeconds()
    {
        Collector c({wakeupConsumer(1000)}, kStart);
        c.add(0, sample(kStart + 10 * kMs, 100000));
        c.add(0, sample(kStart + 150 * kMs, 300000));
        c.add(0, sample(kStart + 160 * kMs, 200000));
        c.add(0, sample(kStart + 1200 * kMs, 50000));
        const auto fine = c.fineSeries(0, 0);
        QCOMPARE(fine.size(), size_t{3});
        QCOMPARE(fine[0].maxUs, int64_t{100});
        QCOMPARE(fine[1].index, int64_t{1});
        QCOMPARE(fine[1].maxUs, int64_t{300});
        QCOMPARE(fine[2].index, int64_t{12});
        QCOMPARE(c.fineSeries(0, 2).size(), size_t{1});
        const auto seconds = c.series()[0];
        QCOMPARE(seconds.size(), size_t{2});
        QCOMPARE(seconds[0].maxUs, int64_t{300});
        QCOMPARE(seconds[0].samples, uint32_t{3});
    }
};

QTEST_APPLESS_MAIN(TestCollector)
#include "tst_collector.moc"
