// The rounds-until-decided design (--rounds auto): the 5 % holds over all
// the looks, where a plain test after every round would not keep it.
#include "sequentialdesign.h"
#include "significance.h"

#include <QTest>

using namespace latprobe;

class TestSequentialDesign : public QObject
{
    Q_OBJECT

private slots:
    void spendingGrowsToAlphaAtTheLastLook();
    void falseAlarmsStayWithinAlphaOverAllLooks();
    void aPlainTestAtEveryLookWouldNotKeepIt();
    void aCompleteSeparationIsDecidedAtTheFirstLook();
    void noLookBeforeTheFirst();
};

void TestSequentialDesign::spendingGrowsToAlphaAtTheLastLook()
{
    QCOMPARE(pocockSpending(0, 0.05), 0.0);
    QVERIFY(std::abs(pocockSpending(1, 0.05) - 0.05) < 1e-12);
    double before = 0;
    for (int k = 1; k <= 12; ++k) {
        const double spent = pocockSpending(k / 12.0, 0.05);
        QVERIFY(spent > before);
        before = spent;
    }
    // Pocock-type spends early: more than half the alpha by half the rounds.
    QVERIFY(pocockSpending(0.5, 0.05) > 0.025);
}

// Sequences other than the ones the design was found on (another seed):
// the rate at which rows that do not differ cross a boundary at any of the
// 8 looks of auto:12 stays at 5 %, within three standard errors.
void TestSequentialDesign::falseAlarmsStayWithinAlphaOverAllLooks()
{
    const SequentialDesign &design = sequentialDesign(5, 12, 0.05);
    QCOMPARE(design.nominalP.size(), size_t{8});
    const size_t trials = 40000;
    const double rate = simulatedFalseAlarmRate(design, trials, 20261206);
    const double se = std::sqrt(0.05 * 0.95 / trials);
    QString levels;
    for (double level : design.nominalP)
        levels += QString::number(level, 'g', 3) + QLatin1Char(' ');
    qInfo("auto:12: false alarms %.4f over all looks; nominal p at rounds 5..12: %s", rate,
          qPrintable(levels));
    QVERIFY2(rate <= 0.05 + 3 * se, qPrintable(QString::number(rate)));
    // It spends the alpha it has: a design that never rejected would pass the line above.
    QVERIFY2(rate >= 0.035, qPrintable(QString::number(rate)));
    for (double level : design.nominalP)
        QVERIFY2(level < 0.05, qPrintable(QString::number(level)));
}

void TestSequentialDesign::aPlainTestAtEveryLookWouldNotKeepIt()
{
    const double rate = simulatedFalseAlarmRateRepeatedTest(5, 12, 0.05, 40000, 20261206);
    qInfo("auto:12 tested at 5 %% at every look: false alarms %.4f", rate);
    QVERIFY2(rate > 0.08, qPrintable(QString::number(rate)));
}

void TestSequentialDesign::aCompleteSeparationIsDecidedAtTheFirstLook()
{
    const SequentialDesign &design = sequentialDesign(5, 12, 0.05);
    // Every round of B above every round of A: the smallest p 5 rounds can give.
    const std::vector<double> a{1, 2, 3, 4, 5}, b{11, 12, 13, 14, 15};
    const double p = mannWhitneyU(a, b).pTwoSided;
    QVERIFY2(p <= design.levelAt(5),
             qPrintable(QString("p %1 level %2").arg(p).arg(design.levelAt(5))));
    // One round out of place is not enough yet.
    const std::vector<double> mixed{1, 2, 3, 4, 12}, b2{5, 11, 13, 14, 15};
    QVERIFY(mannWhitneyU(mixed, b2).pTwoSided > design.levelAt(5));
}

void TestSequentialDesign::noLookBeforeTheFirst()
{
    const SequentialDesign &design = sequentialDesign(5, 12, 0.05);
    QCOMPARE(design.levelAt(4), 0.0);
    QVERIFY(design.levelAt(12) > 0);
    QCOMPARE(&sequentialDesign(5, 12, 0.05), &design); // found once a process
}

QTEST_GUILESS_MAIN(TestSequentialDesign)
#include "tst_sequentialdesign.moc"
