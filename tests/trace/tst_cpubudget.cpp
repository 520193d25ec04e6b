#include "cpubudget.h"

#include <QTest>

using namespace latprobe;

// lp-explain's share of a CPU, on a clock the test sets: whatever the reads
// cost, the recorder keeps to its share over a run and overshoots by at
// most one read.
class TestCpuBudget : public QObject
{
    Q_OBJECT

private slots:
    void startsFullAndRefillsAtItsShare()
    {
        CpuBudget budget(0.01, 0.05);
        QVERIFY(budget.allows(100.0));
        budget.spend(0.08); // one read past the bucket: 30 ms in debt
        QVERIFY(!budget.allows(100.0));
        QVERIFY(!budget.allows(102.9)); // 29 ms back in 2.9 s
        QVERIFY(budget.allows(103.1));
    }

    void anIdleStretchSavesNoMoreThanTheBucket()
    {
        CpuBudget budget(0.01, 0.05);
        QVERIFY(budget.allows(0.0));
        QVERIFY(budget.allows(3600.0)); // an hour idle: 50 ms, not 36 s
        budget.spend(0.06);
        QVERIFY(!budget.allows(3600.5));
    }

    void aLongRunKeepsToItsShare()
    {
        // A read of 40 ms whenever allowed, asked every 100 ms for ten
        // minutes (hackbench's back-to-back misses): spent at most the share
        // of the time plus the bucket and one read.
        const double share = 0.008, bucket = 0.05, read = 0.04;
        CpuBudget budget(share, bucket);
        double spent = 0;
        int reads = 0;
        const double runS = 600;
        for (double t = 0; t < runS; t += 0.1)
            if (budget.allows(t)) {
                budget.spend(read);
                spent += read;
                ++reads;
            }
        QVERIFY2(spent <= share * runS + bucket + read, qPrintable(QString::number(spent)));
        // And it is not starved: nearly its whole share was used.
        QVERIFY2(spent >= share * runS - read, qPrintable(QString::number(spent)));
        QVERIFY(reads > 100);
    }
};

QTEST_GUILESS_MAIN(TestCpuBudget)
#include "tst_cpubudget.moc"
