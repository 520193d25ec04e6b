// The comparison's statistics on fixed data: Mann-Whitney U against
// textbook values (and scipy 1.10's mannwhitneyu for the same samples), the
// Hodges-Lehmann interval worked by hand, and the bootstrap's interval
// fixed by its seed.

#include "significance.h"

#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace latprobe;
using Values = std::vector<double>;
Q_DECLARE_METATYPE(Values)

class TestSignificance : public QObject
{
    Q_OBJECT

private slots:
    void mannWhitneyU_data();
    void mannWhitneyU();
    void smallestPossibleP_data();
    void smallestPossibleP();
    void hodgesLehmannWorkedByHand();
    void hodgesLehmannNeedsEnoughSamplesForAnInterval();
    void bootstrapIsFixedByItsSeed();
    void bootstrapCoversAKnownRatio();
    void medianOfEvenAndOdd();
};

void TestSignificance::mannWhitneyU_data()
{
    QTest::addColumn<Values>("a");
    QTest::addColumn<Values>("b");
    QTest::addColumn<double>("u");
    QTest::addColumn<double>("p");
    QTest::addColumn<bool>("exact");
    // Wikipedia's "Mann-Whitney U test": the tortoise and the hare's places.
    QTest::newRow("tortoise and hare") << Values{1, 7, 8, 9, 10, 11} << Values{2, 3, 4, 5, 6, 12}
                                       << 11.0 << 0.30952380952380953 << true;
    QTest::newRow("4 against 5") << Values{19, 22, 16, 29, 24} << Values{20, 11, 17, 12} << 3.0
                                 << 0.1111111111111111 << true;
    QTest::newRow("all above: the least p of 4 against 4")
        << Values{1.1, 2.2, 3.3, 4.4} << Values{5.5, 6.6, 7.7, 8.8} << 16.0 << 0.02857142857142857
        << true;
    QTest::newRow("ties: normal approximation, corrected")
        << Values{1, 2, 2, 3, 4, 5, 5, 6} << Values{3, 4, 5, 5, 6, 7, 8, 8, 9} << 59.5
        << 0.025496068631499585 << false;
    QTest::newRow("the same values: no evidence")
        << Values{3, 3, 3} << Values{3, 3, 3} << 4.5 << 1.0 << false;
}

void TestSignificance::mannWhitneyU()
{
    QFETCH(Values, a);
    QFETCH(Values, b);
    QFETCH(double, u);
    QFETCH(double, p);
    QFETCH(bool, exact);
    const MannWhitney r = latprobe::mannWhitneyU(a, b);
    QCOMPARE(r.u, u);
    QVERIFY2(std::abs(r.pTwoSided - p) < 1e-9, qPrintable(QString::number(r.pTwoSided, 'g', 17)));
    QCOMPARE(r.exact, exact);
    // Symmetric: swapping the samples gives the other U and the same p.
    const MannWhitney s = latprobe::mannWhitneyU(b, a);
    QCOMPARE(s.u, static_cast<double>(a.size() * b.size()) - u);
    QVERIFY(std::abs(s.pTwoSided - r.pTwoSided) < 1e-12);
}

void TestSignificance::smallestPossibleP_data()
{
    QTest::addColumn<int>("n1");
    QTest::addColumn<int>("n2");
    QTest::addColumn<double>("p");
    QTest::newRow("3 rounds each cannot show a difference at 5 %") << 3 << 3 << 0.1;
    QTest::newRow("4 rounds each can") << 4 << 4 << 0.02857142857142857;
    QTest::newRow("1 against 20") << 1 << 20 << 2.0 / 21;
    QTest::newRow("none") << 0 << 5 << 1.0;
}

void TestSignificance::smallestPossibleP()
{
    QFETCH(int, n1);
    QFETCH(int, n2);
    QFETCH(double, p);
    QVERIFY(std::abs(latprobe::smallestPossibleP(n1, n2) - p) < 1e-12);
}

void TestSignificance::hodgesLehmannWorkedByHand()
{
    // b - a takes 1..9 with 1, 2, 3, 4, 5, 4, 3, 2, 1 ways: median 5. For 5
    // against 5 at 95 %, P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252, so
    // C = 3: the 3rd smallest difference (2) and the 3rd largest (8).
    const Values a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
    const Interval r = hodgesLehmannShift(a, b);
    QCOMPARE(r.estimate, 5.0);
    QCOMPARE(r.low, 2.0);
    QCOMPARE(r.high, 8.0);
}

void TestSignificance::hodgesLehmannNeedsEnoughSamplesForAnInterval()
{
    // 2 against 2: even the extremes have P(U <= 0) = 1/6 > 0.025.
    const Interval r = hodgesLehmannShift(Values{1, 2}, Values{3, 4});
    QCOMPARE(r.estimate, 2.0);
    QVERIFY(std::isinf(r.low) && r.low < 0);
    QVERIFY(std::isinf(r.high) && r.high > 0);
}

void TestSignificance::bootstrapIsFixedByItsSeed()
{
    const Values a{210, 190, 250, 230, 205, 260, 198, 240};
    const Values b{420, 380, 510, 470, 390, 530, 405, 450};
    const Interval r = bootstrapRatioOfMedians(a, b, 0.95, 2000, 1);
    const Interval again = bootstrapRatioOfMedians(a, b, 0.95, 2000, 1);
    QCOMPARE(r.estimate, 435.0 / 220.0);
    QCOMPARE(r.low, again.low);
    QCOMPARE(r.high, again.high);
    // What an independent Python reimplementation (its own mt19937_64, the
    // same draws and percentiles) gives for this seed.
    QCOMPARE(QString::number(r.low, 'f', 4), QStringLiteral("1.6800"));
    QCOMPARE(QString::number(r.high, 'f', 4), QStringLiteral("2.3737"));
    const Interval other = bootstrapRatioOfMedians(a, b, 0.95, 2000, 2);
    QVERIFY(other.low != r.low || other.high != r.high);
}

void TestSignificance::bootstrapCoversAKnownRatio()
{
    // b's values are twice a's in distribution: 95 % intervals from 200
    // independent pairs of samples hold 2 about 95 % of the time.
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> latency(5.0, 0.3);
    int covered = 0;
    for (int trial = 0; trial < 200; ++trial) {
        Values a(12), b(12);
        for (double &x : a)
            x = latency(rng);
        for (double &y : b)
            y = 2 * latency(rng);
        const Interval r = bootstrapRatioOfMedians(a, b, 0.95, 500, trial + 1);
        covered += r.low <= 2 && 2 <= r.high;
    }
    QVERIFY2(covered >= 176 && covered <= 200, qPrintable(QString::number(covered)));
}

void TestSignificance::medianOfEvenAndOdd()
{
    QCOMPARE(median(Values{3, 1, 2}), 2.0);
    QCOMPARE(median(Values{4, 1, 3, 2}), 2.5);
    QCOMPARE(median(Values{}), 0.0);
}

QTEST_GUILESS_MAIN(TestSignificance)
#include "tst_significance.moc"
