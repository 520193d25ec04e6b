// The plain-text report, as it is pasted into a mailing-list post: it fits
// 72 columns, its header says what machine, kernel and grant produced the
// numbers, and every figure in its tables is the figure in the stats.

#include "cyclictestimport.h"
#include "htmlreport.h"
#include "report.h"
#include "runfile.h"
#include "samplerun.h"
#include "topdelayers.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <fmt/format.h>

#include <functional>

using namespace latprobe;

namespace {

QStringList reportLines(const Run &run)
{
    return QString::fromStdString(formatTextReport(run)).split('\n');
}

// The lines before the first phase.
QString headerOf(const QStringList &lines)
{
    QStringList header;
    for (const QString &line : lines) {
        if (line.isEmpty())
            break;
        header << line;
    }
    return header.join('\n');
}

// cells[phase "1/2"][table "latency ms"/"deadlines"][row][column] = text;
// the loads tables ("loads", "cpu time") are filed under phase "loads".
using Cells = QMap<QString, QMap<QString, QMap<QString, QMap<QString, QString>>>>;

Cells parseTables(const QStringList &lines)
{
    Cells cells;
    QString phase;
    QString table;
    QStringList columns;
    for (const QString &line : lines) {
        if (line.startsWith("phase ")) {
            phase = line.section(' ', 1, 1);
            table.clear();
            continue;
        }
        if (line.isEmpty() || line.startsWith("WARNING") || line.startsWith("ERROR")) {
            table.clear();
            continue;
        }
        if (phase.isEmpty())
            continue;
        const QStringList tokens = line.split(' ', Qt::SkipEmptyParts);
        if (table.isEmpty()) {
            // A header: some column names hold a space.
            static const QStringList twoWords = {"latency ms", "ib rms", "per s", "cpu time"};
            columns.clear();
            for (const QString &t : tokens) {
                if (!columns.isEmpty() && twoWords.contains(columns.last() + ' ' + t))
                    columns.last() += ' ' + t;
                else
                    columns << t;
            }
            table = columns.first();
            if (table == "loads")
                phase = "loads";
            continue;
        }
        // Figures are single words from the right; the row's name may hold
        // spaces ("massive_intr x8").
        const qsizetype values = columns.size() - 1;
        if (tokens.size() <= values)
            continue; // callers check that what they need is there
        const QString name = tokens.mid(0, tokens.size() - values).join(' ');
        for (qsizetype c = 1; c < columns.size(); ++c)
            cells[phase][table][name][columns[c]] = tokens[tokens.size() - values + c - 1];
    }
    return cells;
}

using RunChange = std::function<void(Run &)>;

} // namespace

Q_DECLARE_METATYPE(RunChange)
Q_DECLARE_METATYPE(Run)

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void everyLineFitsAnEmail_data();
    void everyLineFitsAnEmail();
    void headerNamesMachineKernelAndGrant_data();
    void headerNamesMachineKernelAndGrant();
    void tableFiguresAreTheStats_data();
    void tableFiguresAreTheStats();
    void eachPhaseHasItsTitleAndTables();
    void partialRunSaysSo_data();
    void partialRunSaysSo();
    void droppedSamplesAreWarnedAboutInTheirPhase();
    void failedStartsAreWarnedAboutInTheirPhase();
    void legendSaysWhichIsSdAndWhichIsRms();
    void saysWhichConsumersATimekeeperWokeAndItsGrant();
    void jsonSummarySaysHowEachPeriodicConsumerWoke();
    void gamingReportsTheCpuItGot();
    void xIsDueByTheEndOfItsWindow();
    void topDelayersNameWhoDelayedEachPhase();
    void theWorstMissNamesItsTraceOrSaysItIsGone();
    void aLongTracePathIsNeverCut();
    void eachRoundShowsOnlyItsOwnDelayers();
    void recorderOffIsOneWarning();
    void aPausedStepSaysWhyItsMissesAreNotExplained();
    void htmlIsTheMarkdownPageWellFormed_data();
    void htmlIsTheMarkdownPageWellFormed();
    void htmlEscapesEveryNameFromTheRun();
};

void TestReport::everyLineFitsAnEmail_data()
{
    QTest::addColumn<RunChange>("change");
    QTest::newRow("massive_intr x8, 55 s (samplerun.h)") << RunChange([](Run &) {});
    QTest::newRow("kernel built from git") << RunChange([](Run &r) {
        r.system.kernelRelease = "6.19.0-rc3-00123-g0123456789ab";
        r.system.kernelVersion = "#42 SMP PREEMPT_DYNAMIC Thu Jan 15 22:03:11 CET 2026";
    });
    QTest::newRow("long phase and load names") << RunChange([](Run &r) {
        r.phases[1].name = "massive_intr x60 + compile -j24 + io_write 4 GiB (same session)";
    });
    // The loaded phase of a long run: counts as wide as they get.
    const auto longRun = [](uint64_t samples, uint64_t over1ms, uint64_t over5ms, uint64_t misses) {
        return RunChange([=](Run &r) {
            for (ConsumerStats &c : r.phases[1].consumers) {
                c.samples = samples;
                c.expected = samples;
                c.over1ms = over1ms;
                c.over5ms = over5ms;
                c.misses = c.hasDeadline ? misses : 0;
            }
        });
    };
    QTest::newRow("1 h run under load") << longRun(3600000, 41400, 1200, 12345);
    QTest::newRow("3 h soak under load") << longRun(10800000, 124000, 15300, 23456);
    QTest::newRow("24 h soak, a miss a second") << longRun(86400000, 1240000, 153000, 86400);
    QTest::newRow("VM with a 1.2 s host stall") << RunChange([](Run &r) {
        for (ConsumerStats &c : r.phases[1].consumers) {
            c.maxUs = 1234567;
            c.meanUs = 1234.5;
            c.stddevUs = 45678.9;
            c.ibLatencyRmsUs = 52345.6;
        }
    });
    QTest::newRow("a wandering loop speed, calibration unsettled") << RunChange([](Run &r) {
        for (LoopCalibration *l : {&r.consumers[0].loopSpeed, &r.consumers[0].workLoopSpeed,
                                   &r.consumers[0].endLoopSpeed}) {
            l->loopsPerMs = l->minLoopsPerMs = l->maxLoopsPerMs = 123456789;
            l->trials = 12345;
            l->settled = false;
        }
        r.consumers[0].endLoopSpeed.loopsPerMs /= 3;
        r.consumers[0].config.name = "audio-with-a-long-name";
    });
    QTest::newRow("empty run") << RunChange([](Run &r) {
        for (PhaseResult &p : r.phases)
            for (ConsumerStats &c : p.consumers)
                c = test::stats(c.name, c.hasDeadline);
    });
}

void TestReport::everyLineFitsAnEmail()
{
    QFETCH(RunChange, change);
    Run run = test::realisticRun();
    change(run);
    const QStringList lines = reportLines(run);
    QVERIFY(lines.size() > 20);
    QString widest;
    for (const QString &line : lines)
        if (line.size() > widest.size())
            widest = line;
    QVERIFY2(widest.size() <= static_cast<int>(kReportWidth),
             qPrintable(QString("%1 columns: %2").arg(widest.size()).arg(widest)));
    // Nothing but ASCII: the report goes into plain-text email.
    for (const QString &line : lines)
        for (QChar ch : line)
            QVERIFY2(ch.unicode() >= 0x20 && ch.unicode() < 0x7f, qPrintable(line));
}

void TestReport::headerNamesMachineKernelAndGrant_data()
{
    QTest::addColumn<RunChange>("change");
    QTest::addColumn<QStringList>("mustSay");
    QTest::addColumn<QStringList>("mustNotSay");

    const auto grant = [](SchedPolicy policy, int priority, int nice, int64_t slackNs,
                          const std::string &refusal) {
        return RunChange([=](Run &r) {
            for (ConsumerSetup &c : r.consumers) {
                c.grant.policy = policy;
                c.grant.priority = priority;
                c.grant.nice = nice;
                c.grant.timerSlackNs = slackNs;
                c.grant.refusal = refusal;
            }
        });
    };
    QTest::newRow("SCHED_OTHER nice 0, the kernel's slack")
        << grant(SchedPolicy::Other, 0, 0, 50000, "")
        << QStringList{"probe SCHED_OTHER nice 0", "timer slack 50 us", "HZ 250"}
        << QStringList{"WARNING"};
    QTest::newRow("SCHED_FIFO 80 granted")
        << grant(SchedPolicy::Fifo, 80, 0, 50000, "")
        << QStringList{"probe SCHED_FIFO prio 80", "timer slack 50 us"}
        << QStringList{"WARNING", "nice"};
    QTest::newRow("nice 10, slack 1.5 us asked for")
        << grant(SchedPolicy::Other, 0, 10, 1500, "")
        << QStringList{"probe SCHED_OTHER nice 10", "timer slack 1.5 us"} << QStringList{"WARNING"};
    QTest::newRow("SCHED_FIFO refused")
        << grant(SchedPolicy::Other, 0, 0, 50000,
                 "SCHED_FIFO priority 80 refused (Operation not permitted); running SCHED_OTHER")
        << QStringList{"probe SCHED_OTHER nice 0",
                       "WARNING: SCHED_FIFO priority 80 refused (Operation not permitted)"}
        << QStringList{};
    QTest::newRow("quiet noise check")
        << RunChange([](Run &r) { r.noise.verdict = "quiet"; }) << QStringList{"noise quiet"}
        << QStringList{"skipped", "compare p99"};
    QTest::newRow("noisy machine") << RunChange([](Run &r) {
        r.noise.verdict = "very noisy";
        r.noise.cpus = {{0, 500, 78.5, 9000}};
    }) << QStringList{"noise very noisy", "compare p99"}
                                   << QStringList{"skipped"};
    QTest::newRow("noise check not run")
        << RunChange([](Run &r) { r.noise = NoiseCheck{}; }) << QStringList{"noise check skipped"}
        << QStringList{"compare p99"};
    QTest::newRow("kernel built from git")
        << RunChange([](Run &r) { r.system.kernelRelease = "6.19.0-rc3-00123-g0123456789ab"; })
        << QStringList{"6.19.0-rc3-00123-g0123456789ab"} << QStringList{};
    // realisticRun()'s audio works loops; its speed held to -2 %.
    QTest::newRow("loop speed that held")
        << RunChange([](Run &) {})
        << QStringList{"loops/ms audio 1234500, spread 2.5 % (25 trials)\n"
                       "  in its work 1185000 (-4.0 %), at the end 1210000 (-2.0 %)"}
        << QStringList{"WARNING: audio", "unsettled", "loops/ms video"};
    QTest::newRow("loop speed that wandered by the end")
        << RunChange([](Run &r) { r.consumers[0].endLoopSpeed.loopsPerMs = 1000000; })
        << QStringList{"at the end 1000000 (-19.0 %)",
                       "WARNING: audio: loop speed changed -19 % during"}
        << QStringList{};
    QTest::newRow("loop slowed by the load, idle speed again at the end")
        << RunChange([](Run &r) { r.consumers[0].workLoopSpeed.loopsPerMs = 740700; })
        << QStringList{"in its work 740700 (-40.0 %)",
                       "WARNING: audio: loop speed changed -40 % during"}
        << QStringList{};
    // Issue 52: loop work met 83.8 % of video's deadlines, then 100 %, and
    // the report did not say its calibration was in doubt.
    QTest::newRow("calibration that spread too wide to trust")
        << RunChange([](Run &r) { r.consumers[0].loopSpeed.perCpu[1].minLoopsPerMs = 700000; })
        << QStringList{"spread 45.3 % (25 trials)",
                       "WARNING: audio: loop calibration not to be trusted (cpu 1 spread"}
        << QStringList{"cpu 0 spread"};
    QTest::newRow("calibration that never settled")
        << RunChange([](Run &r) { r.consumers[0].loopSpeed.settled = false; })
        << QStringList{"(25 trials, unsettled)"} << QStringList{"WARNING: audio"};
    QTest::newRow("run file before 1.3: one figure, no end") << RunChange([](Run &r) {
        LoopCalibration old;
        old.loopsPerMs = old.minLoopsPerMs = old.maxLoopsPerMs = 1234500;
        r.consumers[0].loopSpeed = old;
        r.consumers[0].workLoopSpeed = {};
        r.consumers[0].endLoopSpeed = {};
    }) << QStringList{"loops/ms audio 1234500 (best of 5 trials, an older latprobe)"}
                                                             << QStringList{"spread", "the end"};
    QTest::newRow("cpu-time work: no loop speed") << RunChange([](Run &r) {
        r.consumers[0].config.workMode = WorkMode::CpuTime;
        r.consumers[0].loopSpeed = {};
        r.consumers[0].workLoopSpeed = {};
        r.consumers[0].endLoopSpeed = {};
    }) << QStringList{} << QStringList{"loops/ms"};
    QTest::newRow("128 CPUs, sched_ext") << RunChange([](Run &r) {
        r.system.cpuCount = 128;
        r.system.scheduler = "sched_ext:rusty";
    }) << QStringList{"128 CPUs", "sched_ext:rusty"}
                                         << QStringList{};
}

void TestReport::headerNamesMachineKernelAndGrant()
{
    QFETCH(RunChange, change);
    QFETCH(QStringList, mustSay);
    QFETCH(QStringList, mustNotSay);

    Run run = test::realisticRun();
    change(run);
    const QString header = headerOf(reportLines(run));

    // What every header says.
    QVERIFY2(header.startsWith(QString("latprobe %1 ").arg(kVersion)), qPrintable(header));
    QVERIFY2(header.contains(QString::fromStdString(run.system.kernelRelease)), qPrintable(header));
    QVERIFY2(header.contains(QString("%1 CPUs").arg(run.system.cpuCount)), qPrintable(header));
    QVERIFY2(header.contains(QString::fromStdString(run.system.cpuModel)), qPrintable(header));
    QVERIFY2(header.contains(QString::fromStdString(run.system.scheduler)), qPrintable(header));
    QVERIFY2(header.contains(QString::fromStdString(run.startTime)), qPrintable(header));
    QStringList wrong;
    for (const QString &text : mustSay)
        if (!header.contains(text))
            wrong << "missing: " + text;
    for (const QString &text : mustNotSay)
        if (header.contains(text))
            wrong << "should not say: " + text;
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join('\n') + "\n" + header));
}

void TestReport::tableFiguresAreTheStats_data()
{
    QTest::addColumn<QString>("phase");
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("consumer");
    QTest::addColumn<QString>("column");
    QTest::addColumn<QString>("text");

    const QString lat = "latency ms", dl = "deadlines";
    // Phase 2's audio row holds the figures set in figuresRun().
    QTest::newRow("p99 3960 us") << "2/2" << lat << "audio"
                                 << "p99"
                                 << "3.960";
    QTest::newRow("min 105 us") << "2/2" << lat << "audio"
                                << "min"
                                << "0.105";
    QTest::newRow("mean 157.4 us") << "2/2" << lat << "audio"
                                   << "mean"
                                   << "0.157";
    QTest::newRow("p50 120 us") << "2/2" << lat << "audio"
                                << "p50"
                                << "0.120";
    QTest::newRow("p90 1250 us") << "2/2" << lat << "audio"
                                 << "p90"
                                 << "1.250";
    QTest::newRow("p99.9 7020 us") << "2/2" << lat << "audio"
                                   << "p99.9"
                                   << "7.020";
    QTest::newRow("max 9970 us") << "2/2" << lat << "audio"
                                 << "max"
                                 << "9.970";
    QTest::newRow("sd 51 us") << "2/2" << lat << "audio"
                              << "sd"
                              << "0.051";
    QTest::newRow("samples") << "2/2" << dl << "audio"
                             << "samples"
                             << "10404";
    QTest::newRow("sampled %") << "2/2" << dl << "audio"
                               << "sampled%"
                               << "99.59";
    QTest::newRow("over 1 ms") << "2/2" << dl << "audio"
                               << ">1ms"
                               << "414";
    QTest::newRow("over 5 ms") << "2/2" << dl << "audio"
                               << ">5ms"
                               << "3";
    QTest::newRow("misses") << "2/2" << dl << "audio"
                            << "misses"
                            << "12";
    QTest::newRow("% met") << "2/2" << dl << "audio"
                           << "met%"
                           << "99.78";
    QTest::newRow("% desired CPU") << "2/2" << dl << "audio"
                                   << "cpu%"
                                   << "98.7";
    QTest::newRow("interbench rms") << "2/2" << dl << "audio"
                                    << "ib rms"
                                    << "0.118";
    QTest::newRow("video p99") << "2/2" << lat << "video"
                               << "p99"
                               << "3.940";
    QTest::newRow("video misses") << "2/2" << dl << "video"
                                  << "misses"
                                  << "2";
    QTest::newRow("idle phase audio p99") << "1/2" << lat << "audio"
                                          << "p99"
                                          << "0.901";
    QTest::newRow("wakeup: no misses column") << "2/2" << dl << "wakeup"
                                              << "misses"
                                              << "-";
    QTest::newRow("wakeup: no met%") << "2/2" << dl << "wakeup"
                                     << "met%"
                                     << "-";
    QTest::newRow("wakeup: no cpu%") << "2/2" << dl << "wakeup"
                                     << "cpu%"
                                     << "-";
    QTest::newRow("wakeup: no ib rms") << "2/2" << dl << "wakeup"
                                       << "ib rms"
                                       << "-";
    QTest::newRow("wakeup over 1 ms") << "2/2" << dl << "wakeup"
                                      << ">1ms"
                                      << "2700";
    QTest::newRow("wakeup max 12.5 s") << "2/2" << lat << "wakeup"
                                       << "max"
                                       << "12500.000";
    QTest::newRow("load throughput") << "loads"
                                     << "loads"
                                     << "massive_intr x8"
                                     << "per s"
                                     << "903.5";
    QTest::newRow("load unit") << "loads"
                               << "loads"
                               << "massive_intr x8"
                               << "unit"
                               << "loops";
    QTest::newRow("load cpu share") << "loads"
                                    << "loads"
                                    << "massive_intr x8"
                                    << "cpu%"
                                    << "33.2";
    QTest::newRow("load cv%") << "loads"
                              << "loads"
                              << "massive_intr x8"
                              << "cv%"
                              << "1.50";
    QTest::newRow("load max/min") << "loads"
                                  << "loads"
                                  << "massive_intr x8"
                                  << "max/min"
                                  << "1.05";
    QTest::newRow("load jain") << "loads"
                               << "loads"
                               << "massive_intr x8"
                               << "jain"
                               << "0.998";
    // Progress and CPU time side by side: which figure is which.
    QTest::newRow("cpu time per worker") << "loads"
                                         << "cpu time"
                                         << "massive_intr x8"
                                         << "s/worker"
                                         << "13.69";
    QTest::newRow("cpu time cv%") << "loads"
                                  << "cpu time"
                                  << "massive_intr x8"
                                  << "cv%"
                                  << "0.88";
    QTest::newRow("cpu time max/min") << "loads"
                                      << "cpu time"
                                      << "massive_intr x8"
                                      << "max/min"
                                      << "1.03";
    QTest::newRow("cpu time jain") << "loads"
                                   << "cpu time"
                                   << "massive_intr x8"
                                   << "jain"
                                   << "1.000";
    QTest::newRow("cpu time unknown (a file before 1.3)") << "loads"
                                                          << "cpu time"
                                                          << "compile -j24"
                                                          << "cv%"
                                                          << "-";
    QTest::newRow("load with a starved worker") << "loads"
                                                << "loads"
                                                << "compile -j24"
                                                << "max/min"
                                                << "inf";
}

void TestReport::tableFiguresAreTheStats()
{
    QFETCH(QString, phase);
    QFETCH(QString, table);
    QFETCH(QString, consumer);
    QFETCH(QString, column);
    QFETCH(QString, text);

    Run run = test::realisticRun();
    ConsumerStats &a = run.phases[1].consumers[0];
    a.minUs = 105;
    a.meanUs = 157.4;
    a.p50Us = 120;
    a.p90Us = 1250;
    a.p99Us = 3960;
    a.p999Us = 7020;
    a.maxUs = 9970;
    a.stddevUs = 51.0;
    a.samples = 10404;
    a.sampledPct = 99.59;
    a.over1ms = 414;
    a.over5ms = 3;
    a.misses = 12;
    a.deadlinesMetPct = 99.78;
    a.desiredCpuPct = 98.7;
    a.ibLatencyRmsUs = 118.4;
    ConsumerStats &w = run.phases[1].consumers[2];
    w.over1ms = 2700;
    w.maxUs = 12500000;
    Fairness &f = run.loads[0].fairness;
    f.cvPct = 1.5;
    f.maxOverMin = 1.05;
    f.jain = 0.998;

    const Cells cells = parseTables(reportLines(run));
    QVERIFY2(cells.contains(phase), qPrintable(phase));
    QVERIFY2(cells[phase].contains(table), qPrintable(table));
    QVERIFY2(cells[phase][table].contains(consumer), qPrintable(consumer));
    QVERIFY2(cells[phase][table][consumer].contains(column), qPrintable(column));
    QCOMPARE(cells[phase][table][consumer][column], text);
}

void TestReport::eachPhaseHasItsTitleAndTables()
{
    const Run run = test::realisticRun();
    const QStringList lines = reportLines(run);
    QVERIFY(lines.contains("phase 1/2  idle  10.2 s"));
    QVERIFY(lines.contains("phase 2/2  massive_intr x8 (own session)  55.5 s"));
    const Cells cells = parseTables(lines);
    QCOMPARE(cells.keys(), (QStringList{"1/2", "2/2", "loads"}));
    QCOMPARE(cells["loads"]["loads"].keys(), (QStringList{"compile -j24", "massive_intr x8"}));
    // The loaded phase's misses were explained: it has a delayers table too.
    QCOMPARE(cells["1/2"].keys(), (QStringList{"deadlines", "latency ms"}));
    // (parseTables takes its title line, "top delayers (...)", for its header.)
    QCOMPARE(cells["2/2"].keys(), (QStringList{"deadlines", "latency ms", "top"}));
    for (const QString &phase : QStringList{"1/2", "2/2"}) {
        for (const QString &table : QStringList{"deadlines", "latency ms"})
            QCOMPARE(cells[phase][table].keys(), (QStringList{"audio", "video", "wakeup"}));
    }
}

void TestReport::partialRunSaysSo_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::newRow("plain run") << "run";
    QTest::newRow("named scenario") << "massive_intr ramp";
    QTest::newRow("scenario with a long name")
        << "massive_intr ramp 1 to 64 workers, then compile -j8 beside it";
}

void TestReport::partialRunSaysSo()
{
    QFETCH(QString, scenario);
    Run run = test::realisticRun();
    run.scenario = scenario.toStdString();
    QString header = headerOf(reportLines(run));
    QVERIFY2(header.contains("completed"), qPrintable(header));
    QVERIFY2(!header.contains("partial"), qPrintable(header));

    run.partial = true;
    run.endReason = "interrupted";
    header = headerOf(reportLines(run));
    QVERIFY2(header.contains("interrupted (partial)"), qPrintable(header));
    QVERIFY2(header.contains(scenario), qPrintable(header));
}

void TestReport::droppedSamplesAreWarnedAboutInTheirPhase()
{
    // realisticRun() drops 0 + 1 + 2 samples in the idle phase only.
    const QStringList lines = reportLines(test::realisticRun());
    const qsizetype warning = lines.indexOf("WARNING: 3 samples dropped (collector fell behind)");
    QVERIFY(warning > 0);
    QVERIFY(warning > lines.indexOf(QRegularExpression("^phase 1/2.*")));
    QVERIFY(warning < lines.indexOf(QRegularExpression("^phase 2/2.*")));
    QCOMPARE(lines.filter("samples dropped").size(), 1);
}

void TestReport::failedStartsAreWarnedAboutInTheirPhase()
{
    // A start that failed outright (say, latprobe's binary was replaced
    // mid-run) is a miss with no latency: the report must say which it was.
    Run run = test::realisticRun();
    ConsumerStats start = test::stats("start", true);
    start.samples = 55;
    start.misses = 7;
    start.failures = 5;
    run.phases[1].consumers.push_back(start);
    const QStringList lines = reportLines(run);
    const qsizetype warning =
        lines.indexOf("WARNING: start: 5 of 55 failed outright (counted as misses)");
    QVERIFY2(warning > lines.indexOf(QRegularExpression("^phase 2/2.*")),
             qPrintable(lines.join('\n')));
    QCOMPARE(lines.filter("failed outright").size(), 1);
}

void TestReport::legendSaysWhichIsSdAndWhichIsRms()
{
    const QString report = reportLines(test::realisticRun()).join('\n');
    QVERIFY(report.contains("sd is a true standard deviation"));
    QVERIFY(report.contains("ib rms = interbench's \"SD\""));
    // Every column a newcomer asked about, and each consumer's deadline.
    QVERIFY(report.contains("sampled% = periods measured of those due"));
    QVERIFY(report.contains(">1ms, >5ms = samples"));
    Run withStart = test::realisticRun();
    ConsumerSetup start;
    start.config = startConsumer();
    withStart.consumers.push_back(start);
    const QString all = reportLines(withStart).join(' ');
    QVERIFY2(all.contains("deadlines: audio") && all.contains("video 16.7 ms") &&
                 all.contains("start 100 ms"),
             qPrintable(all));
    // Which fairness is the workers' progress and which the kernel's CPU
    // time, and what it means when they disagree.
    const QString legend = all.simplified();
    QVERIFY2(legend.contains("of per-worker progress (loads)") &&
                 legend.contains("of per-worker CPU time from the kernel (cpu time)") &&
                 legend.contains("not the scheduler's share"),
             qPrintable(legend));
}

void TestReport::saysWhichConsumersATimekeeperWokeAndItsGrant()
{
    // A timer wake is the legend's latency; interbench's is another one.
    const QString plain = reportLines(test::realisticRun()).join('\n');
    QVERIFY(!plain.contains("timekeeper"));
    Run run = test::realisticRun();
    for (size_t i : {0, 1}) {
        run.consumers[i].config.wake = WakeMethod::Timekeeper;
        run.consumers[i].timekeeperGrant.refusal =
            "SCHED_FIFO priority 96 refused (Operation not permitted); running SCHED_OTHER";
    }
    const QStringList lines = reportLines(run);
    const QString header = headerOf(lines);
    QVERIFY2(header.contains("wake timekeeper SCHED_OTHER: audio, video; latency interbench"),
             qPrintable(header));
    QVERIFY2(header.contains("WARNING: timekeeper: SCHED_FIFO priority 96 refused"),
             qPrintable(header));
    const QString all = lines.join(' ').simplified();
    QVERIFY2(all.contains("latency interbench (woken by a timekeeper): wakeup - period start - "
                          "the timekeeper's own oversleep, + a period per period lost."),
             qPrintable(all));
    for (const QString &line : lines)
        QVERIFY2(line.size() <= 72, qPrintable(line));
}

void TestReport::jsonSummarySaysHowEachPeriodicConsumerWoke()
{
    Run run = test::realisticRun();
    run.consumers[0].config.wake = WakeMethod::Timekeeper;
    const QJsonObject j =
        QJsonDocument::fromJson(QByteArray::fromStdString(formatJsonSummary(run))).object();
    const QJsonArray consumers = j["phases"].toArray()[1].toObject()["consumers"].toArray();
    QCOMPARE(consumers[0].toObject()["wake"].toString(), QStringLiteral("timekeeper"));
    QCOMPARE(consumers[0].toObject()["latency"].toString(), QStringLiteral("interbench"));
    QCOMPARE(consumers[2].toObject()["wake"].toString(), QStringLiteral("timer"));
    QCOMPARE(consumers[2].toObject()["latency"].toString(), QStringLiteral("wake"));
}

void TestReport::gamingReportsTheCpuItGot()
{
    Run run = test::realisticRun();
    ConsumerSetup gaming;
    gaming.config = gamingConsumer();
    run.consumers.push_back(gaming);
    for (PhaseResult &p : run.phases) {
        ConsumerStats g = test::stats("gaming", false);
        g.hasCpuTarget = true;
        g.desiredCpuPct = 62.5;
        g.ibLatencyRmsUs = 37500; // interbench's "SD" of how late its burns ended
        p.consumers.push_back(g);
    }
    const QStringList lines = reportLines(run);
    const QStringList rows = lines.filter(QRegularExpression("^gaming .* 62\\.5 +37\\.500$"));
    QCOMPARE(rows.size(), 2);
    QVERIFY(lines.join(' ').simplified().contains("cpu% = burns/(burns + latency)"));
}

void TestReport::xIsDueByTheEndOfItsWindow()
{
    Run run = test::realisticRun();
    ConsumerSetup x;
    x.config = xConsumer();
    run.consumers.push_back(x);
    const QString all = reportLines(run).join(' ').simplified();
    QVERIFY2(all.contains("after the period start; x by the end of its window."), qPrintable(all));
}

void TestReport::topDelayersNameWhoDelayedEachPhase()
{
    const Run run = test::realisticRun();
    const QString report = QString::fromStdString(formatTextReport(run));
    // Only the loaded phase had misses explained.
    const QString loaded = report.section("phase 2/2", 1);
    QVERIFY(!report.section("phase 2/2", 0, 0).contains("top delayers"));
    QVERIFY2(loaded.contains("top delayers (2 of 14 misses explained)"), qPrintable(loaded));
    // The worker that delayed both, summed and at its worst, with its group.
    QStringList row;
    for (const QString &line : loaded.split('\n'))
        if (line.startsWith("latprobe:massiv[4242]"))
            row = line.split(QRegularExpression("\\s{2,}"));
    QCOMPARE(row.value(row.size() - 3), QString("1"));
    QCOMPARE(row.value(row.size() - 2), QString("9.500"));
    QCOMPARE(row.value(row.size() - 1), QString("9.500"));
    QVERIFY(loaded.contains(QRegularExpression("^latprobe:massiv\\[4242\\]\\s+nice 0\\s+1\\s",
                                               QRegularExpression::MultilineOption)));
    QVERIFY(
        loaded.contains("  latprobe:massiv[4242]: latprobe load massive_intr x8 (own session)\n"));
    // Another of the probe's threads is named as such, not as a load.
    MissExplanation byProbe;
    byProbe.consumer = "audio";
    byProbe.shares.push_back({DelayShare::Kind::Task, "lp-video", 4300, 120, "SCHED_OTHER nice 0",
                              "(probe)", 2'000'000});
    const std::string chain = formatExplanation(byProbe, 200);
    QVERIFY2(chain.find("lp-video[4300], SCHED_OTHER nice 0, latprobe's own consumer\n") !=
                 std::string::npos,
             chain.c_str());
    QVERIFY2(loaded.contains(QRegularExpression("^idle\\s+-\\s+2\\s+0\\.200\\s+0\\.100$",
                                                QRegularExpression::MultilineOption)),
             qPrintable(loaded));
    // Its worst miss in full, as a tester pastes it.
    QVERIFY(loaded.contains("worst explained miss:\naudio miss at 12.500 s"));
    // The smallest shares of a window summed in one line (the other miss's).
    QVERIFY(!loaded.contains("others, each less"));
    QVERIFY2(QString::fromStdString(formatExplanation(run.explanations[1], 72))
                 .contains("  0.230 ms 14 others, each less\n"),
             formatExplanation(run.explanations[1], 72).c_str());
    // Wrapped at 72 columns: read as one line.
    QVERIFY(loaded.simplified().contains(
        "wait ended: tick-bound: preempt=lazy (latprobe:massiv[4242] had the CPU)"));
    QVERIFY(report.contains("trace 4096 KiB x 24 CPUs, 3 reads, 48213 events, 0.125 s CPU"));
    // Misses the recorder's CPU share left unexplained are counted, not hidden.
    QVERIFY2(report.simplified().contains(
                 "5 misses left unexplained: the recorder keeps to 0.8 % of a CPU"),
             qPrintable(report));
    // The screenshot caption's line says the same in one line, the largest
    // delayers first; a phase with no miss explained has none.
    QCOMPARE(delayersLine(run.explanations, run.phases[1].name, 14, 2),
             std::string("who delayed massive_intr x8 (own session): latprobe:massiv[4242] 9.5 ms, "
                         "latprobe:massiv[4243] 4.0 ms (2 of 14 misses explained)"));
    QCOMPARE(delayersLine(run.explanations, run.phases[0].name, 0), std::string());
    // The Markdown page has the same table.
    const QString md = QString::fromStdString(formatMarkdownReport(run));
    QVERIFY2(md.contains("| latprobe:massiv[4242] | SCHED_OTHER nice 0 | massive_intr x8 (own "
                         "session) | 1 | 9.500 | 9.500 |"),
             qPrintable(md));
}

void TestReport::theWorstMissNamesItsTraceOrSaysItIsGone()
{
    // `--save-trace`: the worst miss's trace.dat beside the run file, named
    // from it, read back from the file as written.
    QTemporaryDir dir;
    Run saved = test::realisticRun();
    for (MissExplanation &x : saved.explanations)
        x.traceFile = "run.trace-" + std::to_string(&x - saved.explanations.data() + 1) + ".dat";
    saved.trace.savingTraces = true;
    saved.trace.tracesSaved = 2;
    saved.trace.traceBytes = 3 << 20;
    saved.trace.tracesOverCap = 1;
    const std::string runPath = dir.filePath("run.json").toStdString();
    writeRunFile(saved, runPath);
    const Run run = readRunFile(runPath);
    QCOMPARE(run.explanations.front().traceFile, std::string("run.trace-1.dat"));
    const QString trace = dir.filePath("run.trace-1.dat");

    // Gone (moved, deleted): one line says so.
    QString report = QString::fromStdString(formatTextReport(run));
    QCOMPARE(report.count("is missing"), 1);
    QVERIFY2(report.simplified().contains(
                 QString("its trace %1 is missing (moved or deleted)").arg(trace)),
             qPrintable(report));
    QVERIFY2(report.simplified().contains("2 trace.dat files saved (3.0 MiB), 1 windows left out "
                                          "at the cap (--trace-max)"),
             qPrintable(report));

    // There: where it is, and the two commands that open it.
    QFile file(trace);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    report = QString::fromStdString(formatTextReport(run));
    QVERIFY(!report.contains("is missing"));
    QVERIFY2(
        report.simplified().contains(
            QString("its trace: %1 open it: trace-cmd report %1 or: kernelshark %1").arg(trace)),
        qPrintable(report));
}

void TestReport::recorderOffIsOneWarning()
{
    Run run = test::realisticRun();
    run.trace = {};
    run.trace.message = "flight recorder off: no write access to /sys/kernel/tracing/instances";
    run.explanations.clear();
    const QString report = QString::fromStdString(formatTextReport(run));
    QCOMPARE(report.count("flight recorder off"), 1);
    QVERIFY(report.contains("WARNING: flight recorder off: no write access"));
    QVERIFY(!report.contains("top delayers"));
}

void TestReport::aPausedStepSaysWhyItsMissesAreNotExplained()
{
    Run run = test::realisticRun();
    PhaseResult &paused = run.phases[1];
    paused.traced = false;
    std::erase_if(run.explanations,
                  [&](const MissExplanation &x) { return x.phase == paused.name; });
    const QString loaded =
        QString::fromStdString(formatTextReport(run)).section("phase 2/2", 1).simplified();
    QVERIFY2(loaded.contains("none of its 14 misses explained: the scenario step paused the "
                             "flight recorder (\"trace\": false)"),
             qPrintable(loaded));
    QVERIFY(!loaded.contains("top delayers"));
    // Traced, the same phase without explanations says nothing of the recorder.
    paused.traced = true;
    QVERIFY(!QString::fromStdString(formatTextReport(run)).contains("paused the flight recorder"));
}

void TestReport::aLongTracePathIsNeverCut()
{
    // A run library deep in a home directory: the commands that open the
    // trace must paste whole, however long.
    QTemporaryDir top;
    QDir(top.path()).mkpath("a-rather-long-folder-name/for-the-runs-of-the-latprobe-a-b-tests");
    const QString dir =
        top.filePath("a-rather-long-folder-name/for-the-runs-of-the-latprobe-a-b-tests");
    Run saved = test::realisticRun();
    for (MissExplanation &x : saved.explanations)
        x.traceFile = "run.trace-" + std::to_string(&x - saved.explanations.data() + 1) + ".dat";
    const std::string runPath = (dir + "/run.json").toStdString();
    writeRunFile(saved, runPath);
    const Run run = readRunFile(runPath);
    const QString trace = dir + "/" + QString::fromStdString(run.explanations.front().traceFile);
    QVERIFY(trace.size() > 72);
    QFile file(trace);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const QStringList lines = QString::fromStdString(formatTextReport(run)).split('\n');
    for (const QString &command :
         {QString(trace), "trace-cmd report " + trace, "kernelshark " + trace})
        QVERIFY2(std::any_of(lines.begin(), lines.end(),
                             [&](const QString &l) { return l.trimmed() == command; }),
                 qPrintable(lines.join('\n')));
}

void TestReport::eachRoundShowsOnlyItsOwnDelayers()
{
    // Round 2 of the loaded step, after round 1: the sample's explained
    // misses all fell in round 1, so round 2 has no delayers of them.
    Run run = test::realisticRun();
    PhaseResult round2 = run.phases[1];
    round2.round = 2;
    round2.startS = run.phases[1].startS + run.phases[1].durationS;
    run.phases.push_back(round2);
    const QString text = QString::fromStdString(formatTextReport(run));
    const QString table = QString("top delayers (%1 of %2 misses explained)")
                              .arg(run.explanations.size())
                              .arg(run.phases[1].misses());
    QCOMPARE(text.count(table), 1);
    QCOMPARE(text.count("top delayers ("), 1);
    QCOMPARE(text.count("worst explained miss:"), 1);
    const QString md = QString::fromStdString(formatMarkdownReport(run));
    QCOMPARE(md.count("Top delayers of the misses explained"), 1);
}

namespace {

// Every element's text of an HTML page read as XML, by tag ("h2", "td",
// ...); an error when the page is not well-formed.
struct HtmlPage
{
    QMap<QString, QStringList> text;
    QString error;
};

HtmlPage readHtml(const std::string &html)
{
    HtmlPage page;
    QXmlStreamReader xml(QByteArray::fromStdString(html));
    QStringList open;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement())
            open << xml.name().toString();
        else if (xml.isEndElement())
            open.removeLast();
        else if (xml.isCharacters() && !xml.isWhitespace() && !open.isEmpty())
            page.text[open.last()] << xml.text().toString();
    }
    if (xml.hasError())
        page.error = QStringLiteral("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
    return page;
}

} // namespace

void TestReport::htmlIsTheMarkdownPageWellFormed_data()
{
    QTest::addColumn<Run>("run");
    QTest::newRow("a run with loads and delayers") << test::realisticRun();
    QTest::newRow("cyclictest's idle run")
        << readAnyRunFile(FIXTURES_DIR "/cyclictest-2.4-idle.json");
}

void TestReport::htmlIsTheMarkdownPageWellFormed()
{
    QFETCH(Run, run);
    const std::string html = formatHtmlReport(run);
    const HtmlPage page = readHtml(html);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error + "\n" + QString::fromStdString(html)));
    QVERIFY(html.rfind("<!DOCTYPE html>\n", 0) == 0);
    // Self-contained: no script, nothing fetched.
    for (const char *outside : {"<script", "src=", "href=", "url(", "@import"})
        QVERIFY2(html.find(outside) == std::string::npos, outside);
    QVERIFY2(page.text["title"].value(0).contains(QString::fromStdString(run.system.kernelRelease)),
             qPrintable(page.text["title"].join('|')));
    // The Markdown page's sections: every phase, the loads, the legend.
    QStringList headings;
    for (size_t i = 0; i < run.phases.size(); ++i)
        headings << QStringLiteral("Phase %1/%2: %3 (%4 s)")
                        .arg(i + 1)
                        .arg(run.phases.size())
                        .arg(
                            QString::fromStdString(run.phases[i].name),
                            QString::fromStdString(fmt::format("{:.1f}", run.phases[i].durationS)));
    if (!run.loads.empty())
        headings << "Loads";
    headings << "Legend";
    QCOMPARE(page.text["h2"], headings);
    // Every consumer of every phase has its row; the figures are the md's.
    const QString md = QString::fromStdString(formatMarkdownReport(run));
    const QStringList cells = page.text["td"];
    for (const PhaseResult &p : run.phases)
        for (const ConsumerStats &c : p.consumers) {
            QVERIFY2(cells.contains(QString::fromStdString(c.name)), c.name.c_str());
            const QString p99 = QString::number(static_cast<double>(c.p99Us) / 1000, 'f', 3);
            QVERIFY(cells.contains(p99));
            QVERIFY(md.contains(QStringLiteral("| %1 |").arg(p99)));
        }
    // A row for each of the Markdown page's, heads included.
    QCOMPARE(QString::fromStdString(html).count("<tr>"),
             md.split('\n').filter(QRegularExpression("^\\| ")).size());
    QVERIFY(page.text["p"].join(' ').contains("sd is a true standard deviation"));
}

void TestReport::htmlEscapesEveryNameFromTheRun()
{
    const std::string evil = "<b>&\"x";
    Run run = test::realisticRun();
    run.scenario = evil;
    run.phases[1].name = evil;
    for (MissExplanation &x : run.explanations)
        x.phase = evil;
    run.loads[0].label = "custom:cmd=" + evil;
    const std::string html = formatHtmlReport(run);
    QVERIFY2(html.find(evil) == std::string::npos, html.c_str());
    QVERIFY2(html.find("&lt;b&gt;&amp;&quot;x") != std::string::npos, html.c_str());
    const HtmlPage page = readHtml(html);
    QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
    // Read back, each is the name as it was.
    QVERIFY(page.text["li"].join('\n').contains(
        QString::fromStdString("run: " + run.startTime + " " + evil)));
    QVERIFY(page.text["h2"].contains(
        QStringLiteral("Phase 2/2: %1 (%2 s)")
            .arg(QString::fromStdString(evil),
                 QString::fromStdString(fmt::format("{:.1f}", run.phases[1].durationS)))));
    QVERIFY(page.text["td"].contains(QString::fromStdString(run.loads[0].label)));
    // Its delayers are still found under the phase so named.
    QVERIFY(page.text["p"].join(' ').contains("Top delayers"));
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
