// `latprobe report --format interbench`: a run laid out as interbench's log
// is, so that a tester can put the two side by side: a block per consumer
// with interbench's title and header, a row per load it was measured
// against (the phase's name without its "<Consumer>: " prefix), and the
// figures in interbench's number formats; no deadline column where the
// consumer has no deadline (Gaming), µs for real-time consumers.

#include "interbenchreport.h"
#include "presets.h"

#include <QRegularExpression>
#include <QStringList>
#include <QTest>

using namespace latprobe;

namespace {

ConsumerStats measured(const std::string &name, double meanUs, double rmsUs, int64_t maxUs,
                       double cpuPct, double metPct)
{
    ConsumerStats s;
    s.name = name;
    s.samples = 400;
    s.ibLatencyMeanUs = meanUs;
    s.ibLatencyRmsUs = rmsUs;
    s.ibLatencyMaxUs = maxUs;
    s.desiredCpuPct = cpuPct;
    s.deadlinesMetPct = metPct;
    return s;
}

PhaseResult phase(const std::string &name, std::vector<ConsumerStats> consumers)
{
    PhaseResult p;
    p.name = name;
    p.consumers = std::move(consumers);
    return p;
}

// Audio and a no-deadline consumer named "gaming", each measured alone
// against None and Burn, as the interbench scenario plays them.
Run interbenchRun()
{
    Run run;
    run.version = "0.2.0";
    run.system.kernelRelease = "6.18.44";
    ConsumerSetup audio, gaming;
    audio.config = audioConsumerByPeriod(50'000'000, 2, 5);
    audio.config.name = "audio";
    gaming.config = wakeupConsumer(100'000); // no deadline, as Gaming has none
    gaming.config.name = "gaming";
    run.consumers = {audio, gaming};
    run.phases = {
        phase("Audio: None", {measured("audio", 40, 60, 100, 100, 100)}),
        phase("Audio: Burn", {measured("audio", 7260, 9840, 20100, 99.2, 99.42)}),
        phase("Gaming: None", {measured("gaming", 10, 20, 3000, 100, 100)}),
        phase("Gaming: Burn", {measured("gaming", 12300, 15000, 48000, 52.4, 100)}),
    };
    return run;
}

QStringList reportLines(const Run &run)
{
    return QString::fromStdString(formatInterbenchReport(run)).split('\n');
}

} // namespace

class TestInterbenchReport : public QObject
{
    Q_OBJECT

private slots:
    void eachConsumerHasInterbenchsTitleHeaderAndARowPerLoad()
    {
        const QStringList lines = reportLines(interbenchRun());
        const int audio = lines.indexOf(
            "--- Benchmarking simulated cpu of Audio in the presence of simulated ---");
        QVERIFY2(audio >= 0, qPrintable(lines.join('\n')));
        QCOMPARE(lines[audio + 1],
                 "Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU  % Deadlines Met");
        // interbench's "%6.1f +/- %-8.1f%6.1f\t\t%4.3g\t%11.3g", in ms.
        QCOMPARE(lines[audio + 2], "None\t   0.0 +/- 0.1        0.1\t\t 100\t        100");
        QCOMPARE(lines[audio + 3], "Burn\t   7.3 +/- 9.8       20.1\t\t99.2\t       99.4");
        QCOMPARE(lines[audio + 4], "");
    }

    void aConsumerWithoutDeadlinesHasNoDeadlineColumn()
    {
        const QStringList lines = reportLines(interbenchRun());
        const int gaming = lines.indexOf(
            "--- Benchmarking simulated cpu of Gaming in the presence of simulated ---");
        QVERIFY(gaming >= 0);
        QCOMPARE(lines[gaming + 1], "Load\tLatency +/- SD (ms)  Max Latency   % Desired CPU");
        QCOMPARE(lines[gaming + 3], "Burn\t  12.3 +/- 15.0      48.0\t\t52.4");
    }

    void aPhaseThatDidNotMeasureAConsumerIsNotItsRow()
    {
        // The Audio block lists Audio's two loads only, not Gaming's phases.
        const QStringList lines = reportLines(interbenchRun());
        const int audio = lines.indexOf(
            "--- Benchmarking simulated cpu of Audio in the presence of simulated ---");
        QCOMPARE(lines.mid(audio + 2, 3).filter("Gaming").size(), 0);
        QCOMPARE(lines.filter(QRegularExpression("^(None|Burn)\t")).size(), 4);
    }

    void realTimeConsumersAreInMicroseconds()
    {
        Run run = interbenchRun();
        run.consumers[0].grant.policy = SchedPolicy::Fifo;
        const QStringList lines = reportLines(run);
        const int audio = lines.indexOf("--- Benchmarking simulated cpu of Audio real time in "
                                        "the presence of simulated ---");
        QVERIFY2(audio >= 0, qPrintable(lines.join('\n')));
        QVERIFY(lines[audio + 1].startsWith("Load\tLatency +/- SD (us)"));
        QCOMPARE(lines[audio + 2], "None\t  40.0 +/- 60.0     100.0\t\t 100\t        100");
    }
};

QTEST_GUILESS_MAIN(TestInterbenchReport)
#include "tst_interbenchreport.moc"
