#include "compare.h"
#include "report.h"

#include <QtTest>

using namespace latprobe;

namespace {

ConsumerStats stats(const std::string &name, uint64_t misses, int64_t p99, int64_t max)
{
    ConsumerStats s;
    s.name = name;
    s.hasDeadline = name != "wakeup";
    s.misses = misses;
    s.p99Us = p99;
    s.maxUs = max;
    s.deadlinesMetPct = 100.0 - static_cast<double>(misses) / 10.0;
    return s;
}

Run run(const std::string &scheduler,
        const std::vector<std::pair<std::string, std::vector<ConsumerStats>>> &phases)
{
    Run r;
    r.version = "0.1.0";
    r.scenario = "quick";
    r.system.kernelRelease = "6.18.44-fc-v782";
    r.system.scheduler = scheduler;
    for (auto &[name, consumers] : phases) {
        PhaseResult p;
        p.name = name;
        p.consumers = consumers;
        r.phases.push_back(p);
    }
    return r;
}

const CompareRow *row(const Comparison &c, const std::string &phase, const std::string &consumer,
                      size_t runIndex)
{
    for (const CompareRow &r : c.rows)
        if (r.phase == phase && r.consumer == consumer && r.run == runIndex)
            return &r;
    return nullptr;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void ratiosAgainstTheFirstRun()
    {
        const Run eevdf = run(
            "eevdf",
            {{"idle", {stats("audio", 0, 120, 900)}},
             {"massive_intr x8", {stats("audio", 12, 3960, 9970), stats("video", 2, 3940, 5120)}}});
        const Run lavd = run(
            "sched_ext:lavd",
            {{"idle", {stats("audio", 0, 60, 300)}},
             {"massive_intr x8", {stats("audio", 0, 440, 1200), stats("video", 0, 3940, 4000)}}});
        const Comparison c = compareRuns({eevdf, lavd}, {"a.json", "b.json"});
        QCOMPARE(c.runLabels, (std::vector<std::string>{"6.18.44 (eevdf)", "6.18.44 (lavd)"}));
        QVERIFY(c.warnings.empty());
        QCOMPARE(c.phases, (std::vector<std::string>{"idle", "massive_intr x8"}));
        QCOMPARE(c.phaseIndex, (std::vector<std::vector<int>>{{0, 0}, {1, 1}}));

        QCOMPARE(row(c, "massive_intr x8", "audio", 0)->ratio, 1.0);
        QCOMPARE(row(c, "massive_intr x8", "audio", 1)->ratio, 440.0 / 3960.0);
        QCOMPARE(row(c, "massive_intr x8", "audio", 1)->misses, uint64_t{0});
        QCOMPARE(row(c, "massive_intr x8", "video", 1)->ratio, 1.0);
        QCOMPARE(row(c, "idle", "audio", 1)->ratio, 0.5);

        const std::string table = formatComparison(c);
        QVERIFY(table.find("0.11") != std::string::npos); // the docs/DESIGN.md example's ratio
        for (const auto &line : QString::fromStdString(table).split('\n'))
            QVERIFY2(line.size() <= static_cast<int>(kReportWidth), qPrintable(line));
    }

    void warnsWhenScenariosDifferAndLinesUpByPosition()
    {
        Run a = run("eevdf", {{"idle", {stats("audio", 0, 100, 100)}},
                              {"burn x2", {stats("audio", 1, 200, 200)}}});
        Run b = run("eevdf", {{"quiet", {stats("audio", 0, 100, 100)}},
                              {"burn x4", {stats("audio", 3, 400, 400)}}});
        b.scenario = "ramp";
        const Comparison c = compareRuns({a, b}, {"/x/a.json", "/y/b.json"});
        QCOMPARE(c.warnings.size(), size_t{2});
        // Same kernel and scheduler: the file names tell the runs apart.
        QCOMPARE(c.runLabels, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(row(c, "burn x2", "audio", 1)->ratio, 2.0);
        QCOMPARE(c.phaseIndex, (std::vector<std::vector<int>>{{0, 0}, {1, 1}}));
    }

    void missingConsumerIsShownNotInvented()
    {
        const Run a =
            run("eevdf", {{"idle", {stats("audio", 0, 100, 100), stats("wakeup", 0, 50, 80)}}});
        const Run b = run("eevdf", {{"idle", {stats("wakeup", 0, 25, 30)}}});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        QVERIFY(!row(c, "idle", "audio", 1)->present);
        QCOMPARE(row(c, "idle", "wakeup", 1)->ratio, 0.5);
    }
};

QTEST_APPLESS_MAIN(TestCompare)
#include "tst_compare.moc"
