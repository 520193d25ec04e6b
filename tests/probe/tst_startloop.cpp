#include "collector.h"
#include "fakeclock.h"
#include "presets.h"
#include "startloop.h"

#include <QtTest>

using namespace latprobe;

namespace {

// Starts nothing: each start takes the next (first instruction, exit)
// delays in virtual time, or fails when told to.
class FakeStarter final : public ProcessStarter
{
public:
    explicit FakeStarter(test::FakeClock &clock) : m_clock(clock) {}

    bool start(int64_t &firstInstruction, int64_t &exited) override
    {
        if (delays.empty())
            return false;
        const auto [first, exit] = delays.front();
        delays.pop_front();
        if (first < 0)
            return false;
        firstInstruction = m_clock.now() + first;
        m_clock.advance(exit);
        exited = m_clock.now();
        return true;
    }

    std::deque<std::pair<int64_t, int64_t>> delays;

private:
    test::FakeClock &m_clock;
};

constexpr int64_t kMs = 1000000;

} // namespace

class TestStartLoop : public QObject
{
    Q_OBJECT

private slots:
    void slowStartsAreCounted_data()
    {
        QTest::addColumn<QList<qint64>>("firstMs");
        QTest::addColumn<QList<qint64>>("exitMs");
        QTest::addColumn<int>("slowStarts");
        QTest::addColumn<int>("p99Us");
        QTest::newRow("all quick") << QList<qint64>{1, 1, 2} << QList<qint64>{3, 3, 4} << 0 << 2000;
        QTest::newRow("one exit past 100 ms")
            << QList<qint64>{1, 40, 1} << QList<qint64>{3, 150, 3} << 1 << 40000;
        QTest::newRow("exactly at the deadline is on time")
            << QList<qint64>{5} << QList<qint64>{100} << 0 << 5000;
        QTest::newRow("the seed's 10 s killall")
            << QList<qint64>{9000, 1} << QList<qint64>{10000, 2} << 1 << 9000000;
        QTest::newRow("a failed start counts as slow")
            << QList<qint64>{-1, 1} << QList<qint64>{0, 2} << 1 << 1000;
    }

    void slowStartsAreCounted()
    {
        QFETCH(QList<qint64>, firstMs);
        QFETCH(QList<qint64>, exitMs);
        QFETCH(int, slowStarts);
        QFETCH(int, p99Us);
        test::FakeClock clock;
        FakeStarter starter(clock);
        for (int i = 0; i < firstMs.size(); ++i)
            starter.delays.emplace_back(firstMs[i] * kMs, exitMs[i] * kMs);
        const ConsumerConfig config = startConsumer(1000, 100);
        Collector collector({config}, clock.now());
        StartLoop loop(config, clock, starter, collector.ring(0));
        std::atomic<bool> stop{false};
        QCOMPARE(loop.run(clock.now(), stop, firstMs.size()), uint64_t(firstMs.size()));
        collector.drain();
        const ConsumerStats s = collector.phases(clock.now()).back().consumers[0];
        QCOMPARE(s.samples, uint64_t(firstMs.size()));
        QCOMPARE(s.misses, uint64_t(slowStarts));
        QCOMPARE(s.failures, uint64_t(std::count(firstMs.begin(), firstMs.end(), -1)));
        if (firstMs.front() >= 0)
            QCOMPARE(s.p99Us, int64_t(p99Us));
    }

    void aSlowStartSkipsButDoesNotCountTheSwallowedSeconds()
    {
        test::FakeClock clock;
        FakeStarter starter(clock);
        starter.delays = {{1 * kMs, 3500 * kMs}, {1 * kMs, 2 * kMs}};
        const ConsumerConfig config = startConsumer(1000, 100);
        Collector collector({config}, clock.now());
        StartLoop loop(config, clock, starter, collector.ring(0));
        std::atomic<bool> stop{false};
        const int64_t t0 = clock.now();
        loop.run(t0, stop, 2);
        collector.drain();
        const ConsumerStats s = collector.phases(clock.now()).back().consumers[0];
        QCOMPARE(s.misses, uint64_t{1});
        // The second start waited for the next whole period after the stall.
        QCOMPARE(clock.now(), t0 + 5000 * kMs + 2 * kMs);
    }
};

QTEST_APPLESS_MAIN(TestStartLoop)
#include "tst_startloop.moc"
