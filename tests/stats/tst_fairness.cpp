// How evenly a group's workers progressed: mean, population stddev, CV,
// max/min and Jain's index, against values worked out by hand.

#include "fairness.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace latprobe;

Q_DECLARE_METATYPE(std::vector<double>)

class TestFairness : public QObject
{
    Q_OBJECT

private slots:
    void known_data();
    void known();
    void scaleDoesNotChangeFairness();
};

void TestFairness::known_data()
{
    QTest::addColumn<std::vector<double>>("work");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("stddev");
    QTest::addColumn<double>("cvPct");
    QTest::addColumn<double>("maxOverMin");
    QTest::addColumn<double>("jain");

    QTest::newRow("equal work") << std::vector<double>{5, 5, 5, 5} << 5.0 << 0.0 << 0.0 << 1.0
                                << 1.0;
    // One worker did everything: Jain's index is 1/n; max/min is 0 by
    // convention when a worker made no progress. mean 2.5, variance
    // (7.5^2 + 3 * 2.5^2) / 4 = 18.75.
    QTest::newRow("one took all") << std::vector<double>{10, 0, 0, 0} << 2.5 << 4.330127018922193
                                  << 173.20508075688772 << 0.0 << 0.25;
    QTest::newRow("one of five") << std::vector<double>{0, 0, 3, 0, 0} << 0.6 << 1.2 << 200.0 << 0.0
                                 << 0.2;
    // The textbook set: mean 5, population sd 2; sum 40, sum of squares
    // 232, Jain = 1600 / (8 * 232).
    QTest::newRow("textbook") << std::vector<double>{2, 4, 4, 4, 5, 5, 7, 9} << 5.0 << 2.0 << 40.0
                              << 4.5 << 1600.0 / 1856.0;
    // 1, 2, 3: variance 2/3; Jain = 36 / (3 * 14).
    QTest::newRow("1 2 3") << std::vector<double>{1, 2, 3} << 2.0 << 0.816496580927726
                           << 40.824829046386306 << 3.0 << 36.0 / 42.0;
    // massive_intr-like loop counts: sum 400, squares 40150 -> Jain
    // 160000 / 160600; deviations -10,5,0,5 -> variance 37.5.
    QTest::newRow("loop counts") << std::vector<double>{90, 105, 100, 105} << 100.0
                                 << 6.123724356957945 << 6.123724356957945 << 105.0 / 90.0
                                 << 160000.0 / 160600.0;
    QTest::newRow("single worker") << std::vector<double>{7} << 7.0 << 0.0 << 0.0 << 1.0 << 1.0;
    QTest::newRow("nobody worked") << std::vector<double>{0, 0} << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("no workers") << std::vector<double>{} << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
}

void TestFairness::known()
{
    QFETCH(std::vector<double>, work);
    QFETCH(double, mean);
    QFETCH(double, stddev);
    QFETCH(double, cvPct);
    QFETCH(double, maxOverMin);
    QFETCH(double, jain);

    const Fairness f = computeFairness(work);
    QCOMPARE(f.workers, static_cast<int>(work.size()));
    auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, b); };
    QVERIFY2(near(f.mean, mean), qPrintable(QString::number(f.mean, 'g', 17)));
    QVERIFY2(near(f.stddev, stddev), qPrintable(QString::number(f.stddev, 'g', 17)));
    QVERIFY2(near(f.cvPct, cvPct), qPrintable(QString::number(f.cvPct, 'g', 17)));
    QVERIFY2(near(f.maxOverMin, maxOverMin), qPrintable(QString::number(f.maxOverMin, 'g', 17)));
    QVERIFY2(near(f.jain, jain), qPrintable(QString::number(f.jain, 'g', 17)));
    if (!work.empty()) {
        QCOMPARE(f.min, *std::min_element(work.begin(), work.end()));
        QCOMPARE(f.max, *std::max_element(work.begin(), work.end()));
    }
}

void TestFairness::scaleDoesNotChangeFairness()
{
    // Loops or bytes, the same spread is the same fairness.
    const std::vector<double> loops{90, 105, 100, 105};
    std::vector<double> bytes;
    bytes.reserve(loops.size());
    for (double x : loops)
        bytes.push_back(x * 1048576);
    const Fairness a = computeFairness(loops), b = computeFairness(bytes);
    QVERIFY(std::abs(a.cvPct - b.cvPct) < 1e-9);
    QVERIFY(std::abs(a.jain - b.jain) < 1e-12);
    QVERIFY(std::abs(a.maxOverMin - b.maxOverMin) < 1e-12);
}

QTEST_GUILESS_MAIN(TestFairness)
#include "tst_fairness.moc"
