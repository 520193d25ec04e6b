// A load group's workers in the panel (issue 45): a bar each up to a few
// dozen; above, how their progress and CPU time spread, min, median and
// max marked, the slowest and the fastest named (pid) when hovered. The
// fairness figures beside them are the same either way. Offscreen, on
// hand-made figures: no process starts.

#include "loadgroupview.h"
#include "workerbars.h"
#include "workerdistribution.h"

#include <QLabel>
#include <QTest>

#include <cmath>
#include <limits>

using namespace latprobe;

namespace {

// `n` massive_intr workers: worker i has pid 1000 + i, 100 + i % 50 loops
// and as many centiseconds of CPU time, except worker 7, the slowest (40
// loops), and worker n - 3, the fastest (400 loops, 2 s of CPU time).
GroupStatus group(int n)
{
    GroupStatus g;
    g.id = 1;
    std::string error;
    parseLoadSpec("massive_intr:" + std::to_string(n), g.spec, error);
    g.unit = "loops";
    g.sampledAt = 1;
    for (int i = 0; i < n; ++i) {
        WorkerStatus w;
        w.pid = 1000 + i;
        w.state = WorkerState::Running;
        w.progress = static_cast<uint64_t>(100 + i % 50);
        if (i == 7)
            w.progress = 40;
        if (i == n - 3)
            w.progress = 400;
        w.cpuNs = static_cast<int64_t>(w.progress) * 10'000'000;
        g.workers.push_back(w);
    }
    g.fairness.cvPct = 8.5;
    g.fairness.jain = 0.987;
    return g;
}

} // namespace

class TestWorkerDistribution : public QObject
{
    Q_OBJECT

private slots:
    void spread_data();
    void spread();
    void aFewDozenWorkersAreBars();
    void moreAreADistribution();
    void theEndsNameTheSlowestAndTheFastest();
};

void TestWorkerDistribution::spread_data()
{
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<int>("bins");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("lowest");
    QTest::addColumn<int>("highest");
    QTest::addColumn<std::vector<int>>("counts");

    const double none = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("spread over the bins") << std::vector<double>{5, 1, 3, 2, 4} << 4 << 1.0 << 3.0
                                          << 5.0 << 1 << 0 << std::vector<int>{1, 1, 1, 2};
    QTest::newRow("all equal: one full bin") << std::vector<double>{7, 7, 7} << 3 << 7.0 << 7.0
                                             << 7.0 << 0 << 2 << std::vector<int>{0, 0, 3};
    // A worker whose CPU time is unknown (gone) is no value at all.
    QTest::newRow("unknowns left out") << std::vector<double>{none, 2, none, 4} << 2 << 2.0 << 2.0
                                       << 4.0 << 1 << 3 << std::vector<int>{1, 1};
    QTest::newRow("nothing known")
        << std::vector<double>{none} << 2 << 0.0 << 0.0 << 0.0 << -1 << -1 << std::vector<int>{};
}

void TestWorkerDistribution::spread()
{
    QFETCH(std::vector<double>, values);
    QFETCH(int, bins);
    const WorkerSpread s = spreadOf(values, bins);
    QTEST(s.min, "min");
    QTEST(s.median, "median");
    QTEST(s.max, "max");
    QTEST(s.lowest, "lowest");
    QTEST(s.highest, "highest");
    QTEST(s.bins, "counts");
}

void TestWorkerDistribution::aFewDozenWorkersAreBars()
{
    LoadGroupView view(group(static_cast<int>(LoadGroupView::kMaxBars)));
    view.resize(500, view.sizeHint().height());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.bars()->isVisible());
    QVERIFY(!view.distribution()->isVisible());
}

void TestWorkerDistribution::moreAreADistribution()
{
    GroupStatus g = group(1000);
    LoadGroupView view(g);
    view.resize(500, view.sizeHint().height());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.bars()->isVisible());
    WorkerDistribution *d = view.distribution();
    QVERIFY(d->isVisible());
    QCOMPARE(d->progressSpread().count, 1000);
    QCOMPARE(d->progressSpread().min, 40.0);
    QCOMPARE(d->progressSpread().max, 400.0);
    QCOMPARE(d->progressSpread().median, 124.0);
    QCOMPARE(d->cpuSpread().max, 4.0);
    const QString caption = d->progressCaption();
    for (const char *part : {"min 40", "median 124", "max 400", "loops"})
        QVERIFY2(caption.contains(QLatin1String(part)), qPrintable(caption));
    QVERIFY2(d->cpuCaption().contains(QStringLiteral("max 4.00")), qPrintable(d->cpuCaption()));
    // Every bin's count adds up to the group.
    int sum = 0;
    for (int b : d->progressSpread().bins)
        sum += b;
    QCOMPARE(sum, 1000);
    // The fairness figures are there, as with bars.
    bool cv = false;
    for (QLabel *l : view.findChildren<QLabel *>())
        cv |= l->text().contains(QStringLiteral("Progress CV 8.5 %"));
    QVERIFY(cv);

    // Back under the bars' limit, and the same sample is not drawn twice.
    GroupStatus few = group(10);
    few.sampledAt = 2;
    view.setStatus(few);
    QVERIFY(view.bars()->isVisible());
    QVERIFY(!d->isVisible());
    if (qEnvironmentVariableIsSet("LATPROBE_TEST_GRAB")) {
        view.setStatus(g);
        view.grab().save(qEnvironmentVariable("LATPROBE_TEST_GRAB"));
    }
}

void TestWorkerDistribution::theEndsNameTheSlowestAndTheFastest()
{
    WorkerDistribution d;
    d.resize(400, d.sizeHint().height());
    d.setWorkers(group(1000).workers, QStringLiteral("loops"));
    const int y = 5; // within the progress strip
    const QString slowest = d.toolTipAt(QPoint(2, y));
    QVERIFY2(slowest.contains(QStringLiteral("slowest")) &&
                 slowest.contains(QStringLiteral("pid 1007")),
             qPrintable(slowest));
    QVERIFY2(slowest.contains(QStringLiteral("40 loops")), qPrintable(slowest));
    const QString fastest = d.toolTipAt(QPoint(397, y));
    QVERIFY2(fastest.contains(QStringLiteral("fastest")) &&
                 fastest.contains(QStringLiteral("pid 1997")),
             qPrintable(fastest));
    // A bin in between: how many workers it holds.
    const QString bin = d.toolTipAt(QPoint(60, y));
    QVERIFY2(bin.contains(QStringLiteral("worker")) && bin.contains(QStringLiteral("loops")),
             qPrintable(bin));
    // The CPU time strip, below: the one with the least and the most.
    const int cpuY = d.sizeHint().height() - d.fontMetrics().height() - 10;
    QVERIFY2(d.toolTipAt(QPoint(397, cpuY)).contains(QStringLiteral("most CPU time")),
             qPrintable(d.toolTipAt(QPoint(397, cpuY))));
    QVERIFY(d.toolTipAt(QPoint(2, cpuY)).contains(QStringLiteral("pid 1007")));
}

QTEST_MAIN(TestWorkerDistribution)
#include "tst_workerdistribution.moc"
