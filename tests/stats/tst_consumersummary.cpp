// A consumer's one summary figure (ConsumerTraits::summary) over phases: the
// column the window's phase table, the run library and `latprobe runs`
// show for it, decided by its row in the consumer table, not by its name.

#include "consumersummary.h"

#include <QTest>

#include <algorithm>

using namespace latprobe;

namespace {

ConsumerStats consumer(const std::string &name, uint64_t misses, int64_t p99Us,
                       uint64_t samples = 1000)
{
    ConsumerStats c;
    c.name = name;
    c.misses = misses;
    c.p99Us = p99Us;
    c.samples = samples;
    return c;
}

PhaseResult phase(std::vector<ConsumerStats> consumers)
{
    PhaseResult p;
    p.name = "phase";
    p.consumers = std::move(consumers);
    return p;
}

const ConsumerSummary *column(const std::vector<ConsumerSummary> &all, const std::string &name)
{
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const ConsumerSummary &c) { return c.traits->name == name; });
    return it == all.end() ? nullptr : &*it;
}

} // namespace

class TestConsumerSummary : public QObject
{
    Q_OBJECT

private slots:
    void aColumnPerTableRowWithAFigureInTheTablesOrder()
    {
        const std::vector<ConsumerSummary> columns = summarizeConsumers(PhaseResult{});
        size_t count = 0;
        const ConsumerTraits *table = consumerTable(count);
        std::vector<std::string_view> expected;
        for (size_t i = 0; i < count; ++i)
            if (table[i].summary != SummaryFigure::None)
                expected.push_back(table[i].name);
        QCOMPARE(columns.size(), expected.size());
        for (size_t i = 0; i < columns.size(); ++i) {
            QCOMPARE(columns[i].traits->name, expected[i]);
            QVERIFY2(!columns[i].traits->column.empty(), expected[i].data());
            QVERIFY2(!columns[i].traits->columnTip.empty(), expected[i].data());
            QVERIFY(!columns[i].measured);
            QCOMPARE(QString::fromStdString(columns[i].text()), QStringLiteral("–"));
        }
        // interbench's X and Gaming have no summary figure of their own.
        QVERIFY(!column(columns, "x"));
        QVERIFY(!column(columns, "gaming"));
        QVERIFY(column(columns, "audio") && column(columns, "wakeup"));
    }

    void missesSumAndTheWorstP99Counts_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        // Phase 1: audio 3 misses, wakeup p99 420 us; phase 2: audio 4,
        // an imported "wakeup#2" at 1500 us, a wakeup with no sample.
        QTest::newRow("misses summed") << "audio"
                                       << "7" << 7.0;
        QTest::newRow("the worst phase's p99, imported names as their role") << "wakeup"
                                                                             << "1.500" << 1500.0;
        QTest::newRow("not measured") << "video"
                                      << "–" << -1.0;
        QTest::newRow("measured, none missed") << "start"
                                               << "0" << 0.0;
    }

    void missesSumAndTheWorstP99Counts()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(double, value);
        const std::vector<PhaseResult> phases = {
            phase({consumer("audio", 3, 900), consumer("wakeup", 0, 420),
                   consumer("start", 0, 20'000)}),
            phase({consumer("audio", 4, 1200), consumer("wakeup#2", 0, 1500),
                   consumer("wakeup", 0, 99'000, 0)}),
        };
        const std::vector<ConsumerSummary> columns = summarizeConsumers(phases);
        const ConsumerSummary *c = column(columns, name.toStdString());
        QVERIFY(c);
        QCOMPARE(QString::fromStdString(c->text()), text);
        QCOMPARE(c->value(), value);
    }

    void onePhaseAlone()
    {
        const std::vector<ConsumerSummary> one =
            summarizeConsumers(phase({consumer("video", 2, 5000)}));
        QCOMPARE(column(one, "video")->misses, uint64_t(2));
        QVERIFY(!column(one, "audio")->measured);
    }
};

QTEST_GUILESS_MAIN(TestConsumerSummary)
#include "tst_consumersummary.moc"
