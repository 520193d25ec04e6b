// interbench's Gaming on virtual time (emulate_game() in interbench.c): back
// to back burns, no deadline, latency = how much later than its work a burn
// ended, and the CPU it got = work / (work + latency) over all burns.

#include "collector.h"
#include "fakeclock.h"
#include "gameloop.h"
#include "presets.h"
#include "statsaccumulator.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <vector>

using namespace latprobe;

namespace {

constexpr int64_t kMs = 1000000;
constexpr int64_t kStart = 5000 * kMs;

struct LoopResult
{
    std::vector<Sample> samples;
    ConsumerStats stats;
};

LoopResult runGame(test::FakeClock &clock, uint64_t cycles)
{
    const ConsumerConfig gaming = gamingConsumer();
    SpscRing<Sample> ring(1 << 10);
    std::atomic<bool> stop{false};
    GameLoop loop(gaming, clock, ring);
    const uint64_t ran = loop.run(kStart, stop, cycles);
    LoopResult r;
    Collector collector({gaming}, kStart);
    ring.drain([&](const Sample &s) {
        r.samples.push_back(s);
        collector.add(0, s);
    });
    // The run ends some time after its last burn, as a real one does.
    const int64_t end = clock.now() + 50 * kMs;
    collector.finish(end);
    if (ran == cycles)
        r.stats = collector.phases(end).front().consumers.front();
    return r;
}

} // namespace

class TestGameLoop : public QObject
{
    Q_OBJECT

private slots:
    void burnsBackToBackWithAllTheCpu();
    void aPreemptionReducesTheCpuAchieved();
    void stopsWhenAsked();
    void aBurnCutShortCountsOnlyAtTheRunsEnd_data();
    void aBurnCutShortCountsOnlyAtTheRunsEnd();
};

void TestGameLoop::burnsBackToBackWithAllTheCpu()
{
    test::FakeClock clock(kStart);
    const LoopResult r = runGame(clock, 10);
    QCOMPARE(r.samples.size(), 10u);
    QCOMPARE(clock.sleeps, 1u); // only for the run's start
    for (size_t k = 0; k < r.samples.size(); ++k) {
        QCOMPARE(r.samples[k].workDone, 100 * kMs);
        QCOMPARE(r.samples[k].done, kStart + static_cast<int64_t>(k + 1) * 100 * kMs);
        QCOMPARE(latencyUs(r.samples[k]), 0);
    }
    QVERIFY(!r.stats.hasDeadline);
    QVERIFY(r.stats.hasCpuTarget);
    QCOMPARE(r.stats.misses, 0u);
    QCOMPARE(r.stats.desiredCpuPct, 100.0);
    QCOMPARE(r.stats.sampledPct, 100.0);
}

void TestGameLoop::aPreemptionReducesTheCpuAchieved()
{
    // Burn 3 is preempted 100 ms: it ends 100 ms late. interbench: achieved
    // 10 x 100 ms, missed 100 ms: 1000 / 1100 of the CPU.
    test::FakeClock clock(kStart);
    clock.preemptions = {0, 0, 0, 100 * kMs};
    const LoopResult r = runGame(clock, 10);
    QCOMPARE(r.samples.size(), 10u);
    QCOMPARE(latencyUs(r.samples[3]), 100000);
    QCOMPARE(latencyUs(r.samples[4]), 0);
    QCOMPARE(r.stats.maxUs, 100000);
    QCOMPARE(r.stats.misses, 0u);
    QCOMPARE(r.stats.desiredCpuPct, 100.0 * 1000 / 1100);
    // interbench's Latency +/- SD and Max columns: the mean, root mean
    // square and max of how late each burn ended.
    QCOMPARE(r.stats.ibLatencyMeanUs, 100000.0 / 10);
    QCOMPARE(r.stats.ibLatencyRmsUs, std::sqrt(100000.0 * 100000.0 / 10));
    QCOMPARE(r.stats.ibLatencyMaxUs, 100000);
    // Ten burns in the 1.1 s eleven would have taken with the whole CPU.
    QCOMPARE(r.stats.expected, 11u);
}

void TestGameLoop::stopsWhenAsked()
{
    test::FakeClock clock(kStart);
    SpscRing<Sample> ring(16);
    GameLoop loop(gamingConsumer(), clock, ring);
    std::atomic<bool> stop{true};
    QCOMPARE(loop.run(kStart, stop), 0u);
    QCOMPARE(clock.works, 0u);
}

namespace {
// Raises `stop` (and `runEnds`, if the run ends) during the third burn.
class StoppingClock final : public test::FakeClock
{
public:
    StoppingClock(std::atomic<bool> &stop, std::atomic<bool> &runEnds, bool endsRun)
        : FakeClock(kStart), m_stop(stop), m_runEnds(runEnds), m_endsRun(endsRun)
    {}
    int64_t work(int64_t ns) override
    {
        if (works == 2) {
            m_runEnds = m_endsRun;
            m_stop = true;
        }
        return FakeClock::work(ns);
    }

private:
    std::atomic<bool> &m_stop;
    std::atomic<bool> &m_runEnds;
    const bool m_endsRun;
};
} // namespace

void TestGameLoop::aBurnCutShortCountsOnlyAtTheRunsEnd_data()
{
    QTest::addColumn<bool>("runEnds");
    QTest::addColumn<size_t>("burns");
    // A pause (a scenario's next step): the burn's end falls in a phase
    // that did not ask for it.
    QTest::newRow("paused") << false << size_t{2};
    // The run's last burn: without it a short run under load may have none.
    QTest::newRow("run ends") << true << size_t{3};
}

void TestGameLoop::aBurnCutShortCountsOnlyAtTheRunsEnd()
{
    QFETCH(bool, runEnds);
    QFETCH(size_t, burns);
    std::atomic<bool> stop{false}, ended{false};
    StoppingClock clock(stop, ended, runEnds);
    SpscRing<Sample> ring(16);
    GameLoop loop(gamingConsumer(), clock, ring);
    loop.setRunEndFlag(&ended);
    loop.run(kStart, stop);
    QCOMPARE(clock.works, 3u);
    QCOMPARE(ring.drain([](const Sample &) {}), burns);
}

QTEST_GUILESS_MAIN(TestGameLoop)
#include "tst_gameloop.moc"
