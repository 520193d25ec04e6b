// Each enum's names read both ways from one table: a name written is the
// name read back, in every vocabulary the table carries.

#include "clock.h"
#include "enumnames.h"
#include "threadparams.h"

#include <QTest>

#include <sched.h>

using namespace latprobe;

Q_DECLARE_METATYPE(SchedPolicy)

namespace {
enum class Colour { Red, Green };
constexpr EnumName<Colour> kColours[] = {{Colour::Red, "red"}, {Colour::Green, "green"}};
} // namespace

class TestEnumNames : public QObject
{
    Q_OBJECT

private slots:
    void aTableReadsBothWays()
    {
        QCOMPARE(enumName(kColours, Colour::Green), "green");
        QCOMPARE(enumFromName(kColours, "red"), std::optional(Colour::Red));
        QCOMPARE(enumFromName(kColours, "Red"), std::nullopt);
        QCOMPARE(enumFromName(kColours, "gree"), std::nullopt);
        QCOMPARE(enumName(kColours, static_cast<Colour>(7)), "?");
        QCOMPARE(enumName(kColours, static_cast<Colour>(7), "red"), "red");
    }

    void policyNamesRoundTrip_data()
    {
        QTest::addColumn<SchedPolicy>("policy");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("option");
        QTest::addColumn<int>("kernel");
        QTest::newRow("other") << SchedPolicy::Other << "SCHED_OTHER"
                               << "other" << SCHED_OTHER;
        QTest::newRow("fifo") << SchedPolicy::Fifo << "SCHED_FIFO"
                              << "fifo" << SCHED_FIFO;
        QTest::newRow("rr") << SchedPolicy::RoundRobin << "SCHED_RR"
                            << "rr" << SCHED_RR;
        QTest::newRow("batch") << SchedPolicy::Batch << "SCHED_BATCH"
                               << "batch" << SCHED_BATCH;
        QTest::newRow("idle") << SchedPolicy::Idle << "SCHED_IDLE"
                              << "idle" << SCHED_IDLE;
    }

    void policyNamesRoundTrip()
    {
        QFETCH(SchedPolicy, policy);
        QFETCH(QString, name);
        QFETCH(QString, option);
        QFETCH(int, kernel);
        QCOMPARE(QString::fromLatin1(toString(policy)), name);
        QCOMPARE(policyFromName(name.toStdString()), std::optional(policy));
        SchedPolicy parsed = policy == SchedPolicy::Other ? SchedPolicy::Idle : SchedPolicy::Other;
        QVERIFY(parsePolicy(option.toStdString(), parsed));
        QCOMPARE(parsed, policy);
        QCOMPARE(policyFromKernel(kernel), policy);
        QCOMPARE(policyFromKernel(kernel | SCHED_RESET_ON_FORK), policy);
    }

    // Each vocabulary is its own: a run file's word is no option, and back.
    void policyVocabulariesDoNotMix()
    {
        SchedPolicy p = SchedPolicy::Idle;
        QVERIFY(!parsePolicy("SCHED_FIFO", p));
        QCOMPARE(p, SchedPolicy::Idle);
        QCOMPARE(policyFromName("fifo"), std::nullopt);
        QCOMPARE(policyFromKernel(SCHED_DEADLINE), SchedPolicy::Other);
    }

    void workModeNamesRoundTrip()
    {
        for (WorkMode m : {WorkMode::CpuTime, WorkMode::Loops})
            QCOMPARE(workModeFromName(toString(m)), std::optional(m));
        QCOMPARE(toString(WorkMode::CpuTime), "cpu-time");
        QCOMPARE(describe(WorkMode::Loops), "loops (calibrated)");
        QCOMPARE(workModeFromName("cpu"), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestEnumNames)
#include "tst_enumnames.moc"
