// The Compare window on synthetic run files: the table of `latprobe
// compare`, a curve per run × phase, bad files as a message, Copy as text,
// the screenshot's caption. No probe runs here.

#include "cdfplot.h"
#include "compare.h"
#include "comparewindow.h"
#include "messagebanner.h"
#include "ratioplot.h"
#include "roundplot.h"
#include "runfile.h"
#include "variantcompare.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace latprobe;

namespace {

// `n` samples spread over [lowUs, highUs], with p99 at `p99Us`.
ConsumerStats consumer(const std::string &name, int64_t lowUs, int64_t p99Us, int64_t highUs,
                       uint64_t misses)
{
    ConsumerStats s;
    s.name = name;
    s.hasDeadline = name != "wakeup";
    s.samples = 1000;
    s.p50Us = lowUs;
    s.p99Us = p99Us;
    s.maxUs = highUs;
    s.misses = misses;
    s.deadlinesMetPct = 100.0 - static_cast<double>(misses) / 10.0;
    s.histogram = {{lowUs, 900}, {(lowUs + p99Us) / 2, 90}, {p99Us, 9}, {highUs, 1}};
    // Eight 5 s blocks around that p99: samples for the verdicts.
    for (int b = 0; b < 8; ++b) {
        BlockStats block;
        block.durationS = 5;
        block.samples = 125;
        block.p99Us = p99Us + p99Us * (b % 3) / 100;
        block.p999Us = highUs;
        block.metPct = s.deadlinesMetPct;
        s.blocks.push_back(block);
    }
    return s;
}

Run makeRun(const std::string &scheduler, const std::string &scenario, int64_t scale)
{
    Run r;
    r.version = "0.1.0";
    r.scenario = scenario;
    r.endReason = "completed";
    r.system.kernelRelease = "6.18.44-test";
    r.system.scheduler = scheduler;
    r.system.cpuCount = 2;
    const char *names[] = {"idle", "massive_intr x8"};
    for (int i = 0; i < 2; ++i) {
        PhaseResult p;
        p.name = names[i];
        p.startS = 10.0 * i;
        p.durationS = 40;
        if (i == 1)
            p.loads = {"massive_intr:8"};
        const int64_t k = scale * (i + 1);
        p.consumers = {consumer("audio", 50 * k, 1000 * k, 3000 * k, static_cast<uint64_t>(i)),
                       consumer("wakeup", 20 * k, 400 * k, 900 * k, 0)};
        r.phases.push_back(p);
    }
    return r;
}

// An A/B of two rounds, A B B A: idle and burn x4 under each variant, test's
// p99 under the load twice base's in every round, while both rounds drift
// (round 2 a fifth slower under both).
Run makeAbRun()
{
    Run r = makeRun("eevdf", "ab", 1);
    r.phases.clear();
    r.variants = {{"base", {}, {}}, {"test", {"load_nice=19"}, {}}};
    const char *order[2][2] = {{"base", "test"}, {"test", "base"}};
    double t = 0;
    for (int round = 1; round <= 2; ++round)
        for (const char *variant : order[round - 1])
            for (int step = 0; step < 2; ++step) {
                PhaseResult p;
                p.name = step == 0 ? "idle" : "burn x4";
                p.loads =
                    step == 0 ? std::vector<std::string>{} : std::vector<std::string>{"burn:4"};
                p.step = step;
                p.round = round;
                p.variant = variant;
                p.startS = t;
                p.durationS = 5;
                t += 5;
                const int64_t k = (step + 1) * (variant == std::string("test") && step ? 2 : 1) *
                                  (round == 2 ? 6 : 5);
                p.consumers = {consumer("audio", 10 * k, 200 * k, 600 * k, 0),
                               consumer("wakeup", 4 * k, 80 * k, 180 * k, 0)};
                r.phases.push_back(p);
            }
    return r;
}

} // namespace

class TestCompareWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_a = m_dir.filePath(QStringLiteral("a.json"));
        m_b = m_dir.filePath(QStringLiteral("b.json"));
        writeRunFile(makeRun("eevdf", "quick", 1), m_a.toStdString());
        writeRunFile(makeRun("sched_ext:lavd", "quick", 3), m_b.toStdString());
    }

    void showsTheTableAndACurvePerRunAndPhase()
    {
        CompareWindow w;
        w.resize(1100, 760);
        w.show();
        QCOMPARE(w.openFiles({m_a, m_b}), 2);
        QVERIFY(w.banner()->isHidden());
        QVERIFY(!w.warningLabel()->isVisibleTo(&w));

        // The table: run 2's p99 is twice run 1's in every phase: worse,
        // +100 %, coloured; the metrics that did not change are "~".
        QTableWidget *t = w.table();
        QCOMPARE(t->rowCount(), 2 * (5 + 3)); // phases × (audio's 5 metrics + wakeup's 3)
        int worse = 0, medians = 0;
        for (int row = 0; row < t->rowCount(); ++row) {
            // A metric is a row of compare's table, shown without a word of its own here.
            if (t->item(row, 2)->text() == QStringLiteral("p50 ms"))
                ++medians;
            QCOMPARE(t->item(row, 3)->text(), QStringLiteral("6.18.44-test (lavd)"));
            if (t->item(row, 2)->text() == QStringLiteral("p99 ms")) {
                QVERIFY2(t->item(row, 6)->text().startsWith(QStringLiteral("+200 % [")),
                         qPrintable(t->item(row, 6)->text()));
                QCOMPARE(t->item(row, 7)->text(), QStringLiteral("worse"));
                ++worse;
            }
            if (t->item(row, 7)->text() == QStringLiteral("~"))
                QVERIFY(t->item(row, 7)->foreground() != t->item(0, 7)->foreground());
        }
        QCOMPARE(worse, 4);
        QCOMPARE(medians, 4);
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("idle"));
        QVERIFY(w.summaryLabel()->text().contains(QStringLiteral("run 2 worse")));
        QVERIFY(w.ratioPlot()->pointCount() > 0);

        // wakeup is chosen first: every run has it, cyclictest's too.
        QCOMPARE(w.consumerBox()->currentText(), QStringLiteral("wakeup"));
        QCOMPARE(w.cdfPlot()->curveCount(), 4);
        QVERIFY(w.cdfPlot()->curveNames().contains(
            QStringLiteral("6.18.44-test (lavd) · massive_intr x8")));
        for (int i = 0; i < w.cdfPlot()->curveCount(); ++i)
            QVERIFY(w.cdfPlot()->pointCount(i) >= 3);

        w.setPhase(QStringLiteral("idle"));
        QCOMPARE(w.cdfPlot()->curveNames(), (QStringList{QStringLiteral("6.18.44-test (eevdf)"),
                                                         QStringLiteral("6.18.44-test (lavd)")}));
        w.setConsumer(QStringLiteral("audio"));
        QCOMPARE(w.cdfPlot()->curveCount(), 2);
    }

    // The window's A/B ends in this window: its variants side by side, as
    // `latprobe compare --format md RUN.json` shows them, and round by round.
    void anAbRunShowsItsVariantsSideBySide()
    {
        const Run run = makeAbRun();
        CompareWindow w;
        w.resize(1100, 760);
        w.show();
        w.addRun(run, "ab");
        const Comparison c = compareVariants(run);

        // A column per variant, each holding its own values.
        QTableWidget *t = w.table();
        QCOMPARE(t->horizontalHeaderItem(4)->text(), QStringLiteral("base"));
        QCOMPARE(t->horizontalHeaderItem(5)->text(), QStringLiteral("test"));
        QVERIFY(t->rowCount() > 0);
        int p99s = 0;
        for (int row = 0; row < t->rowCount(); ++row) {
            QCOMPARE(t->item(row, 3)->text(), QStringLiteral("test"));
            QVERIFY2(!t->item(row, 5)->text().isEmpty(), qPrintable(t->item(row, 2)->text()));
            if (t->item(row, 0)->text() == QStringLiteral("burn x4") &&
                t->item(row, 1)->text() == QStringLiteral("audio") &&
                t->item(row, 2)->text() == QStringLiteral("p99 ms")) {
                const std::vector<MetricComparison> &ms = c.phases.at(1).runs.at(1).at(0).metrics;
                const MetricComparison &m = *std::find_if(
                    ms.begin(), ms.end(), [](auto &x) { return x.metric == CompareMetric::P99; });
                QCOMPARE(t->item(row, 4)->text(),
                         QString::fromStdString(formatValue(m.metric, m.base)));
                QCOMPARE(t->item(row, 5)->text(),
                         QString::fromStdString(formatValue(m.metric, m.value)));
                ++p99s;
            }
        }
        QCOMPARE(p99s, 1);

        // Every variant's curves; the changes against the first, undecided
        // with 2 rounds yet drawn.
        w.setConsumer(QStringLiteral("audio"));
        w.setPhase(QStringLiteral("burn x4"));
        QCOMPARE(w.cdfPlot()->curveNames(),
                 (QStringList{QStringLiteral("base"), QStringLiteral("test")}));
        QVERIFY(w.ratioPlot()->pointCount() > 0);

        // Round by round: A and B of each round, joined.
        RoundPlot *rounds = w.roundPlot();
        QVERIFY(rounds->isVisible());
        QCOMPARE(rounds->pointsInRound(1), 2);
        QCOMPARE(rounds->pointsInRound(2), 2);
        QCOMPARE(rounds->joinCount(), 2);
        w.setPhase(QString());
        QCOMPARE(w.cdfPlot()->curveCount(), 4);
        QCOMPARE(rounds->pointsInRound(1), 4); // two phases
        QCOMPARE(rounds->joinCount(), 4);

        // The caption names the variants and the verdict.
        const QString caption = w.screenshotCaptionText();
        QVERIFY2(caption.contains(
                     QStringLiteral("A/B: base (as the system is) against test (load_nice=19)")),
                 qPrintable(caption));
        QCOMPARE(w.headlines().size(), size_t(1));
        QVERIFY2(caption.contains(QString::fromStdString(w.headlines()[0])), qPrintable(caption));

        // A plain comparison of runs shows no round plot.
        w.clearRuns();
        QCOMPARE(w.openFiles({m_a, m_b}), 2);
        QVERIFY(!rounds->isVisible());
    }

    void anOpenIntervalRunsOffThePlot()
    {
        // x165 [72.1, inf): the bar has no upper end to draw, so it runs off
        // the right edge, as the table prints it open; a bounded one stays.
        RatioPlot plot;
        plot.resize(600, 300);
        const double inf = std::numeric_limits<double>::infinity();
        plot.setPoints({{QStringLiteral("audio misses/min"), 1, 165, 72.1, inf, true},
                        {QStringLiteral("video p99"), 1, 1.2, 1.1, 1.3, true}});
        QVERIFY(plot.barRunsOffToTheRight(0));
        QVERIFY(!plot.barRunsOffToTheRight(1));
    }

    void copyAsTextIsTheCliTable()
    {
        CompareWindow w;
        QCOMPARE(w.openFiles({m_a, m_b}), 2);
        QGuiApplication::clipboard()->clear();
        w.copyAction()->trigger();
        const QString text = QGuiApplication::clipboard()->text();
        const Comparison c =
            compareRuns({readRunFile(m_a.toStdString()), readRunFile(m_b.toStdString())},
                        {m_a.toStdString(), m_b.toStdString()});
        QCOMPARE(text, QString::fromStdString(formatComparison(c)));
        QVERIFY(text.contains(QStringLiteral("+200 %")));
        QVERIFY(text.contains(QStringLiteral("=> run 2 worse")));
        QVERIFY(text.contains(QStringLiteral("6.18.44-test (eevdf)")));
    }

    void differentScenariosWarn()
    {
        const QString ramp = m_dir.filePath(QStringLiteral("ramp.json"));
        writeRunFile(makeRun("eevdf", "ramp", 3), ramp.toStdString());
        CompareWindow w;
        w.show();
        QCOMPARE(w.openFiles({m_a, ramp}), 2);
        QVERIFY(w.warningLabel()->isVisible());
        QVERIFY(w.warningLabel()->text().contains(QStringLiteral("scenario")));
    }

    void badFilesGiveAMessageNotACrash_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("says");
        QTest::newRow("not json") << QByteArray("{ this is not json") << QStringLiteral("JSON");
        QTest::newRow("wrong version")
            << QByteArray(R"({"file_version": "9.0"})") << QStringLiteral("file_version");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("bad.json");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("bad.json");
    }

    void badFilesGiveAMessageNotACrash()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, says);
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        f.close();

        CompareWindow w;
        w.show();
        QCOMPARE(w.openFiles({m_a, bad, m_dir.filePath(QStringLiteral("missing.json"))}), 1);
        QVERIFY(w.banner()->isVisible());
        QCOMPARE(w.banner()->kind(), MessageBanner::Error);
        const QString message = w.banner()->text();
        QVERIFY2(message.contains(says), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("missing.json")), qPrintable(message));
        QCOMPARE(w.runCount(), 1); // the good file stays
        QCOMPARE(w.cdfPlot()->curveCount(), 2);
    }

    void screenshotCarriesTheRunsInItsCaption()
    {
        CompareWindow w;
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({m_a, m_b});
        int caption = 0;
        const QImage image = w.screenshotImage(&caption);
        QVERIFY(caption > 10);
        QCOMPARE(image.height(), w.height() + caption);
        const QString path = w.saveScreenshot(m_dir.path());
        QVERIFY(QFileInfo(path).size() > 1000);
    }

private:
    QTemporaryDir m_dir;
    QString m_a, m_b;
};

QTEST_MAIN(TestCompareWindow)
#include "tst_comparewindow.moc"
