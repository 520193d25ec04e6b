// Comparisons a mailing list can trust: phases matched by what ran (never by
// position or name), rates instead of raw counts, each run's machine and
// settings side by side, and verdicts that say "~" unless a difference is
// both significant and large enough. Hand-made runs with known blocks.

#include "compare.h"
#include "cyclictestimport.h"
#include "phasematch.h"
#include "report.h"
#include "runfile.h"
#include "sequentialdesign.h"
#include "untildecided.h"
#include "variantcompare.h"

#include <QtTest>
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <random>

using namespace latprobe;

Q_DECLARE_METATYPE(CompareMetric)
Q_DECLARE_METATYPE(Verdict)

namespace {

// A consumer in a phase: `blocks` 5 s blocks whose p99 is drawn around
// `p99` (spread ±`spread` %), each with `missesPerBlock` misses.
ConsumerStats consumer(const std::string &name, int blocks, double p99, double spread = 5,
                       uint64_t missesPerBlock = 0, uint64_t seed = 1)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> jitter(1 - spread / 100, 1 + spread / 100);
    ConsumerStats s;
    s.name = name;
    s.hasDeadline = name != "wakeup";
    s.samples = 1000;
    for (int b = 0; b < blocks; ++b) {
        BlockStats block;
        block.startS = 5.0 * b;
        block.durationS = 5;
        block.samples = 1000;
        block.p99Us = static_cast<int64_t>(p99 * jitter(rng));
        block.p999Us = block.p99Us * 2;
        block.p50Us = block.p99Us / 4;
        block.misses = missesPerBlock;
        block.metPct = 100.0 - static_cast<double>(missesPerBlock) / 10;
        s.blocks.push_back(block);
        s.misses += missesPerBlock;
    }
    s.p99Us = static_cast<int64_t>(p99);
    s.p999Us = s.p99Us * 2;
    s.deadlinesMetPct = 100.0 - static_cast<double>(s.misses) / (10.0 * std::max(1, blocks));
    return s;
}

// Audio in `perBlock.size()` 5 s blocks with these misses each.
ConsumerStats audioMissing(const std::vector<uint64_t> &perBlock)
{
    ConsumerStats s = consumer("audio", static_cast<int>(perBlock.size()), 400);
    for (size_t b = 0; b < perBlock.size(); ++b) {
        s.blocks[b].misses = perBlock[b];
        s.misses += perBlock[b];
    }
    return s;
}

PhaseResult phase(const std::string &name, std::vector<std::string> loads, double seconds,
                  std::vector<ConsumerStats> consumers, int step = -1, int round = 0)
{
    PhaseResult p;
    p.name = name;
    p.loads = std::move(loads);
    p.durationS = seconds;
    p.step = step;
    p.round = round;
    p.consumers = std::move(consumers);
    return p;
}

Run run(const std::string &release, std::vector<PhaseResult> phases)
{
    Run r;
    r.version = "0.1.0";
    r.scenario = "run";
    r.system.kernelRelease = release;
    r.system.scheduler = "eevdf";
    for (const char *name : {"audio", "video", "wakeup"}) {
        ConsumerSetup s;
        s.config.name = name;
        s.config.periodNs = 5'333'333;
        r.consumers.push_back(s);
    }
    r.phases = std::move(phases);
    return r;
}

const PhaseComparison *findPhase(const Comparison &c, const std::string &name)
{
    for (const PhaseComparison &p : c.phases)
        if (p.name == name)
            return &p;
    return nullptr;
}

const MetricComparison *metric(const Comparison &c, const std::string &phaseName, size_t runIndex,
                               const std::string &consumerName, CompareMetric which)
{
    const PhaseComparison *p = findPhase(c, phaseName);
    if (!p)
        return nullptr;
    for (const ConsumerComparison &cc : p->runs[runIndex])
        if (cc.consumer == consumerName)
            for (const MetricComparison &m : cc.metrics)
                if (m.metric == which)
                    return &m;
    return nullptr;
}

// The lines of `text` that contain `what`.
QStringList linesWith(const std::string &text, const QString &what)
{
    return QString::fromStdString(text).split('\n').filter(what);
}

void fitsAnEmail(const std::string &text)
{
    for (const QString &line : QString::fromStdString(text).split('\n'))
        QVERIFY2(line.size() <= static_cast<int>(kReportWidth), qPrintable(line));
}

// An interval's end as printed: "+35", "0.81", "∞", "-∞".
double endOf(const QString &text)
{
    const QString t = text.trimmed();
    if (t.endsWith(QStringLiteral("∞")))
        return t.startsWith('-') ? -std::numeric_limits<double>::infinity()
                                 : std::numeric_limits<double>::infinity();
    return t.toDouble();
}

// The lines of `text` (a text or Markdown table) that print "~" beside an
// interval that excludes no change (1 for an "x" ratio, else 0: a % or a
// difference).
QStringList tildesBesideAClearInterval(const std::string &text)
{
    static const QRegularExpression tilde(
        QStringLiteral("(x?)[-+0-9.]+(?: %| pt|/min)? [\\[(]([^,]*), ([^\\])]*)[\\])]"
                       "(?: +| \\| )~(?: \\||$)"));
    QStringList wrong;
    for (const QString &line : QString::fromStdString(text).split('\n')) {
        const QRegularExpressionMatch m = tilde.match(line);
        if (!m.hasMatch())
            continue;
        const double none = m.captured(1) == QStringLiteral("x") ? 1 : 0;
        if (endOf(m.captured(2)) > none || endOf(m.captured(3)) < none)
            wrong << line;
    }
    return wrong;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void signaturesIgnoreOrderAndReadOldLabels()
    {
        QCOMPARE(loadSignature({}), std::string("idle"));
        QCOMPARE(loadSignature({"massive_intr:8", "burn:2"}),
                 loadSignature({"burn:2", "massive_intr:8"}));
        QCOMPARE(loadSignature({"burn x2"}), loadSignature({"burn:2"}));
        QVERIFY(loadSignature({"burn:2:session=same"}) != loadSignature({"burn:2"}));
    }

    // The case: a window session against a CLI run.
    void aWindowSessionAgainstACliRunMatchesByWhatRan()
    {
        const Run window =
            run("6.18.44",
                {phase("idle", {}, 30, {consumer("video", 6, 500)}),
                 phase("massive_intr x8", {"massive_intr:8"}, 30, {consumer("video", 6, 900)}),
                 phase("massive_intr x8 + burn x2", {"massive_intr:8", "burn:2"}, 30,
                       {consumer("video", 6, 1200)}),
                 phase("burn x2", {"burn:2"}, 30, {consumer("video", 6, 800, 5, 0, 3)}),
                 phase("idle", {}, 30, {consumer("video", 6, 500)})});
        const Run cli = run(
            "6.18.44", {phase("idle", {}, 5, {consumer("video", 1, 480)}),
                        phase("burn x2", {"burn:2"}, 15, {consumer("video", 3, 820, 5, 0, 4)})});
        const Comparison c = compareRuns({window, cli}, {"window.json", "cli.json"});
        const PhaseComparison *burn = findPhase(c, "burn x2");
        QVERIFY(burn);
        QVERIFY(burn->inEveryRun());
        QCOMPARE(burn->sides[0].phases, std::vector<size_t>{3});
        QCOMPARE(burn->sides[1].phases, std::vector<size_t>{1});
        const MetricComparison *p99 = metric(c, "burn x2", 1, "video", CompareMetric::P99);
        QVERIFY(p99);
        QVERIFY2(std::abs(p99->value - 820) < 60, qPrintable(QString::number(p99->value)));
        QVERIFY(!findPhase(c, "massive_intr x8")->inEveryRun());
        // The second idle is a phase of its own, named apart, only run 1's.
        const PhaseComparison *idle2 = findPhase(c, "idle 2");
        QVERIFY(idle2);
        QVERIFY(!idle2->inEveryRun());
        QVERIFY(findPhase(c, "idle")->inEveryRun());

        const std::string text = formatComparison(c);
        fitsAnEmail(text);
        QVERIFY(text.find("phases only some runs have") != std::string::npos);
        QVERIFY(text.find("massive_intr x8 (run 1)") != std::string::npos);
        // Each phase printed once.
        QCOMPARE(QString::fromStdString(text).count("\nphase burn x2\n"), 1);
    }

    void differentOrdersMatchTheSamePhases()
    {
        const Run a =
            run("6.18.44", {phase("idle", {}, 10, {consumer("audio", 2, 100)}),
                            phase("burn x2", {"burn:2"}, 10, {consumer("audio", 2, 300)})});
        const Run b = run("6.18.44", {phase("burn x2", {"burn:2"}, 10, {consumer("audio", 2, 310)}),
                                      phase("idle", {}, 10, {consumer("audio", 2, 105)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        QCOMPARE(c.phases.size(), size_t{2});
        QCOMPARE(findPhase(c, "idle")->sides[1].phases, std::vector<size_t>{1});
        QCOMPARE(findPhase(c, "burn x2")->sides[1].phases, std::vector<size_t>{0});
    }

    void topDelayersStandSideBySide()
    {
        auto explained = [](const std::string &phaseName, const std::string &who, int pid,
                            int64_t ns) {
            MissExplanation x;
            x.phase = phaseName;
            x.consumer = "audio";
            x.windowNs = ns + 100'000;
            DelayShare s;
            s.name = who;
            s.pid = pid;
            s.ns = ns;
            x.shares = {s};
            return x;
        };
        Run a = run("6.18.44", {phase("idle", {}, 10, {consumer("audio", 2, 100)}),
                                phase("burn x2", {"burn:2"}, 10, {consumer("audio", 2, 300)})});
        Run b = run("6.19.0", {phase("idle", {}, 10, {consumer("audio", 2, 100)}),
                               phase("burn x2", {"burn:2"}, 10, {consumer("audio", 2, 310)})});
        a.explanations = {explained("burn x2", "latprobe:burn", 4242, 4'000'000),
                          explained("burn x2", "latprobe:burn", 4242, 3'000'000)};
        b.explanations = {explained("burn x2", "kworker/0:1", 11, 2'500'000)};
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const PhaseComparison *burn = findPhase(c, "burn x2");
        QVERIFY(burn);
        QCOMPARE(burn->delayers.size(), size_t{2});
        QCOMPARE(burn->delayers[0].front().seen, 2);
        QCOMPARE(burn->delayers[0].front().totalNs, int64_t{7'000'000});
        QCOMPARE(burn->delayers[1].front().name, std::string("kworker/0:1"));
        QVERIFY(findPhase(c, "idle")->delayers[0].empty());
        const std::string text = formatComparison(c);
        fitsAnEmail(text);
        const QString t = QString::fromStdString(text);
        QCOMPARE(t.count("top delayers"), 1);
        QVERIFY2(t.contains(
                     QRegularExpression("latprobe:burn\\[4242\\]\\s+1\\s+2\\s+7\\.000\\s+4\\.000")),
                 qPrintable(t));
        QVERIFY2(t.contains(QRegularExpression("kworker/0:1\\[11\\]\\s+2\\s+1\\s+2\\.500")),
                 qPrintable(t));
    }

    void aSingleRunListsEveryPhaseOnce()
    {
        const Run a =
            run("6.18.44",
                {phase("idle", {}, 10, {consumer("audio", 2, 100)}),
                 phase("burn x2", {"burn:2"}, 10, {consumer("audio", 2, 300)}),
                 phase("idle", {}, 10, {consumer("audio", 2, 100)}),
                 phase("massive_intr x8", {"massive_intr:8"}, 10, {consumer("audio", 2, 900)}),
                 phase("idle", {}, 10, {consumer("audio", 2, 120)})});
        const std::string text = formatComparison(compareRuns({a}, {"a.json"}));
        fitsAnEmail(text);
        for (const char *name : {"idle", "burn x2", "idle 2", "massive_intr x8", "idle 3"})
            QCOMPARE(QString::fromStdString(text).count(QString("\nphase %1\n").arg(name)), 1);
    }

    void missesAreRatesAndDurationsAreShown()
    {
        // 34 skips in 52 s against 12 in 5 s: 39.2 against 144 a minute.
        ConsumerStats longIdle = consumer("audio", 0, 100);
        longIdle.misses = 34;
        ConsumerStats shortIdle = consumer("audio", 0, 100);
        shortIdle.misses = 12;
        const Comparison c = compareRuns({run("6.18.44", {phase("idle", {}, 52, {longIdle})}),
                                          run("6.18.44", {phase("idle", {}, 5, {shortIdle})})},
                                         {"a.json", "b.json"});
        const MetricComparison *m = metric(c, "idle", 1, "audio", CompareMetric::MissesPerMin);
        QVERIFY(m);
        QCOMPARE(QString::number(m->base, 'f', 1), QStringLiteral("39.2"));
        QCOMPARE(QString::number(m->value, 'f', 1), QStringLiteral("144.0"));
        // One phase each, no blocks: one sample a side can show nothing.
        QCOMPARE(m->verdict, Verdict::TooFewSamples);
        const std::string text = formatComparison(c);
        QVERIFY(text.find("52.0 s") != std::string::npos);
        QVERIFY(text.find("not enough rounds") != std::string::npos);
    }

    void aRealDifferenceIsWorseWithItsInterval()
    {
        // 12 blocks of p99 ~400 us against ~800 us: twice as late.
        const Run a = run(
            "6.18.44", {phase("burn x2", {"burn:2"}, 60, {consumer("audio", 12, 400, 5, 1, 1)})});
        const Run b =
            run("6.19.0-rc1-bore",
                {phase("burn x2", {"burn:2"}, 60, {consumer("audio", 12, 800, 5, 8, 2)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        QCOMPARE(c.runLabels,
                 (std::vector<std::string>{"6.18.44 (eevdf)", "6.19.0-rc1-bore (eevdf)"}));
        const MetricComparison *p99 = metric(c, "burn x2", 1, "audio", CompareMetric::P99);
        QCOMPARE(p99->verdict, Verdict::Worse);
        QVERIFY(p99->p < 0.001);
        QVERIFY(p99->change.low > 1.8 && p99->change.high < 2.2);
        QVERIFY(p99->change.low <= p99->change.estimate &&
                p99->change.estimate <= p99->change.high);
        const MetricComparison *misses =
            metric(c, "burn x2", 1, "audio", CompareMetric::MissesPerMin);
        QCOMPARE(misses->verdict, Verdict::Worse);
        QCOMPARE(misses->change.estimate, 8.0);
        const MetricComparison *met = metric(c, "burn x2", 1, "audio", CompareMetric::MetPct);
        QCOMPARE(met->verdict, Verdict::Worse);
        const std::string summary = findPhase(c, "burn x2")->summaries[1];
        QVERIFY2(summary.rfind("run 2 worse: audio p99 +", 0) == 0, summary.c_str());
        QVERIFY2(summary.find("misses/min x8.00") != std::string::npos, summary.c_str());
        fitsAnEmail(formatComparison(c));
        // The same the other way round is better.
        const Comparison back = compareRuns({b, a}, {"b.json", "a.json"});
        QCOMPARE(metric(back, "burn x2", 1, "audio", CompareMetric::P99)->verdict, Verdict::Better);
    }

    void theSameSettingsTwiceAreNoChange()
    {
        const Run a = run(
            "6.18.44", {phase("burn x2", {"burn:2"}, 60, {consumer("audio", 12, 400, 20, 0, 11)})});
        const Run b = run(
            "6.18.44", {phase("burn x2", {"burn:2"}, 60, {consumer("audio", 12, 400, 20, 0, 12)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        for (const ConsumerComparison &cc : findPhase(c, "burn x2")->runs[1])
            for (const MetricComparison &m : cc.metrics)
                QCOMPARE(m.verdict, Verdict::NoChange);
        QVERIFY(findPhase(c, "burn x2")->summaries[1].find("~ no significant difference") !=
                std::string::npos);
    }

    void aSignificantButSmallChangeIsSmall()
    {
        // +5 %, tightly measured: real, but under the x2 worth naming with
        // blocks: not "~" (was), not worse either.
        const Run a = run("6.18.44", {phase("idle", {}, 60, {consumer("wakeup", 12, 400, 0.5)})});
        const Run b = run("6.18.44", {phase("idle", {}, 60, {consumer("wakeup", 12, 420, 0.5)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const MetricComparison *p99 = metric(c, "idle", 1, "wakeup", CompareMetric::P99);
        QVERIFY(p99->p < 0.01);
        QCOMPARE(p99->verdict, Verdict::Small);
    }

    void roundsAreTheSamplesWhenThereAreEnough()
    {
        std::vector<PhaseResult> aPhases, bPhases;
        for (int r = 1; r <= 5; ++r) {
            aPhases.push_back(phase("idle", {}, 10, {consumer("wakeup", 2, 100)}, 0, r));
            aPhases.push_back(
                phase("burn x2", {"burn:2"}, 10, {consumer("wakeup", 2, 300 + r)}, 1, r));
            bPhases.push_back(phase("idle", {}, 10, {consumer("wakeup", 2, 100)}, 0, r));
            bPhases.push_back(
                phase("burn x2", {"burn:2"}, 10, {consumer("wakeup", 2, 600 + r)}, 1, r));
        }
        const Comparison c =
            compareRuns({run("6.18.44", aPhases), run("6.18.44", bPhases)}, {"a.json", "b.json"});
        QCOMPARE(c.phases.size(), size_t{2}); // rounds of one phase, not ten phases
        const PhaseComparison *burn = findPhase(c, "burn x2");
        QCOMPARE(burn->sides[0].sampling, std::string("5 rounds"));
        QCOMPARE(burn->sides[0].durationS, 50.0);
        const MetricComparison *p99 = metric(c, "burn x2", 1, "wakeup", CompareMetric::P99);
        QCOMPARE(p99->samples, size_t{5});
        QCOMPARE(p99->verdict, Verdict::Worse);
    }

    void oneRunABlockSideNamesOnlyADoublingOfAPercentile()
    {
        // x1.5 in every block, tightly: as rounds it is worse; as blocks of a
        // single run a side it is what a VM's host moves between runs.
        const Run a = run("6.18.44", {phase("idle", {}, 60, {consumer("wakeup", 12, 400, 2)})});
        const Run b = run("6.18.44", {phase("idle", {}, 60, {consumer("wakeup", 12, 600, 2)})});
        const Comparison blocks = compareRuns({a, b}, {"a.json", "b.json"});
        const MetricComparison *p99 = metric(blocks, "idle", 1, "wakeup", CompareMetric::P99);
        QVERIFY(p99->p < 0.01);
        QCOMPARE(p99->verdict, Verdict::Small);
        const Run c = run("6.18.44", {phase("idle", {}, 60, {consumer("wakeup", 12, 900, 2)})});
        const Comparison doubled = compareRuns({a, c}, {"a.json", "c.json"});
        QCOMPARE(metric(doubled, "idle", 1, "wakeup", CompareMetric::P99)->verdict, Verdict::Worse);
        QCOMPARE(compareSamples(CompareMetric::P99, {400, 401, 402, 403, 404},
                                {600, 601, 602, 603, 604}, Sampling::Rounds)
                     .verdict,
                 Verdict::Worse);
    }

    void aBlockTooSmallForAPercentileIsNoSampleOfIt()
    {
        // 125 latencies a block: a p99 is there, a p99.9 would be the max.
        PhaseResult p = phase("idle", {}, 60, {consumer("video", 12, 400)});
        for (BlockStats &b : p.consumers[0].blocks)
            b.samples = 125;
        const Run a = run("6.18.44", {p});
        const Comparison c = compareRuns({a, a}, {"a.json", "b.json"});
        QCOMPARE(metric(c, "idle", 1, "video", CompareMetric::P99)->samples, size_t{12});
        QCOMPARE(metric(c, "idle", 1, "video", CompareMetric::P999)->samples, size_t{0});
        QCOMPARE(metric(c, "idle", 1, "video", CompareMetric::P999)->verdict,
                 Verdict::TooFewSamples);
        // The summary still speaks for what could be judged.
        QVERIFY2(findPhase(c, "idle")->summaries[1].find("~ no significant difference") !=
                     std::string::npos,
                 findPhase(c, "idle")->summaries[1].c_str());
    }

    void differentConsumerSettingsRefuseTheirRows()
    {
        Run a =
            run("6.18.44",
                {phase("idle", {}, 60, {consumer("audio", 12, 400), consumer("wakeup", 12, 50)})});
        Run b = a;
        b.consumers[0].config.periodNs = 21'333'333;
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const PhaseComparison *idle = findPhase(c, "idle");
        QVERIFY(idle->runs[1][0].refusal.find("audio: not compared") == 0);
        QVERIFY(idle->runs[1][0].metrics.empty());
        QVERIFY(idle->runs[1][1].refusal.empty());
        QVERIFY(!c.warnings.empty());
        QVERIFY(c.warnings[0].find("period 5.33 ms vs 21.33 ms") != std::string::npos);
    }

    void gamingIsComparedByTheCpuItGot()
    {
        // No deadline: Gaming is compared by its CPU, 12 blocks of ~90 %
        // against ~60 %, and has no misses or met% to compare.
        auto gaming = [](double cpu, uint64_t seed) {
            ConsumerStats g = consumer("gaming", 12, 400, 5, 0, seed);
            g.hasDeadline = false;
            g.hasCpuTarget = true;
            std::mt19937_64 rng(seed);
            std::uniform_real_distribution<double> jitter(-1, 1);
            for (BlockStats &b : g.blocks)
                b.cpuPct = cpu + jitter(rng);
            g.desiredCpuPct = cpu;
            return g;
        };
        const Run a = run("6.18.44", {phase("burn x2", {"burn:2"}, 60, {gaming(90, 1)})});
        const Run b = run("6.19.0", {phase("burn x2", {"burn:2"}, 60, {gaming(60, 2)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const MetricComparison *cpu = metric(c, "burn x2", 1, "gaming", CompareMetric::CpuPct);
        QVERIFY(cpu);
        QCOMPARE(cpu->verdict, Verdict::Worse);
        QVERIFY(cpu->change.estimate < -25 && cpu->change.estimate > -35);
        QVERIFY(!metric(c, "burn x2", 1, "gaming", CompareMetric::MetPct));
        QVERIFY(!metric(c, "burn x2", 1, "gaming", CompareMetric::MissesPerMin));
        const std::string text = formatComparison(c);
        QVERIFY2(text.find("cpu%") != std::string::npos, text.c_str());
        fitsAnEmail(text);
        const Comparison back = compareRuns({b, a}, {"b.json", "a.json"});
        QCOMPARE(metric(back, "burn x2", 1, "gaming", CompareMetric::CpuPct)->verdict,
                 Verdict::Better);
    }

    void aTimekeeperWakeIsNotComparedWithATimerWake()
    {
        // interbench's latency leaves out what latprobe's charges: the two
        // are different measures of the same consumer.
        Run a =
            run("6.18.44",
                {phase("idle", {}, 60, {consumer("audio", 12, 400), consumer("wakeup", 12, 50)})});
        Run b = a;
        b.consumers[0].config.wake = WakeMethod::Timekeeper;
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const PhaseComparison *idle = findPhase(c, "idle");
        QVERIFY(idle->runs[1][0].refusal.find("audio: not compared") == 0);
        QVERIFY(idle->runs[1][1].refusal.empty());
        QVERIFY(c.warnings[0].find("wake timer vs timekeeper") != std::string::npos);
    }

    void whatElseDiffersAndNoiseAreSaidAbove()
    {
        Run a = run("6.18.44", {phase("idle", {}, 10, {consumer("wakeup", 2, 50)})});
        Run b = a;
        b.system.kernelRelease = "6.19.0-rc1-bore";
        b.system.hz = "1000";
        a.system.hz = "250";
        b.noise.ran = true;
        b.noise.verdict = "very noisy";
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const std::string text = formatComparison(c);
        QVERIFY(text.find("kernel differs: 6.18.44 | 6.19.0-rc1-bore") != std::string::npos);
        QVERIFY(text.find("HZ differs: 250 | 1000") != std::string::npos);
        QVERIFY(text.find("WARNING: run 2's machine was very noisy") != std::string::npos);
        QVERIFY(text.find("preemption differs") == std::string::npos);
    }

    void everyFormatCarriesTheVerdicts()
    {
        const Run a = run(
            "6.18.44", {phase("burn x2", {"burn:2"}, 60, {consumer("audio", 12, 400, 5, 1, 1)})});
        const Run b = run(
            "6.19.0", {phase("burn x2", {"burn:2"}, 60, {consumer("audio", 12, 800, 5, 8, 2)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        QVERIFY(formatComparisonMarkdown(c).find("| 2 | audio | p99 ms |") != std::string::npos);
        QVERIFY(formatComparisonCsv(c).find("\"burn x2\",2,\"6.19.0 (eevdf)\",\"audio\",\"p99\"") !=
                std::string::npos);
        const auto json =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatComparisonJson(c)));
        QVERIFY(json.isObject());
        const auto phase0 = json["phases"][0];
        QCOMPARE(phase0["name"].toString(), QStringLiteral("burn x2"));
        QCOMPARE(phase0["runs"][1]["consumers"][0]["metrics"][0]["verdict"].toString(),
                 QStringLiteral("worse"));
    }

    // The case: two window runs, idle, their 5 s blocks the samples:
    // video p99 0.192 against 0.357 ms, +87 % with an interval clear of no
    // change, under the x2 that blocks need. Was "~" beside "[+35, +142]",
    // which says "no difference beyond the noise".
    void aChangePastTheNoiseUnderItsMinimumIsSmallInEveryFormat()
    {
        QCOMPARE(tildesBesideAClearInterval("video  p99 ms  0.192  0.357  +87 % [+35, +142]  ~"),
                 QStringList{"video  p99 ms  0.192  0.357  +87 % [+35, +142]  ~"});
        const Run a = run("6.18.44", {phase("idle", {}, 60,
                                            {consumer("video", 12, 192, 12, 0, 1),
                                             consumer("wakeup", 12, 50, 5, 0, 3)})});
        const Run b = run("6.18.44", {phase("idle", {}, 60,
                                            {consumer("video", 12, 357, 12, 0, 2),
                                             consumer("wakeup", 12, 50, 5, 0, 4)})});
        const Comparison c = compareRuns({a, b}, {"a.json", "b.json"});
        const MetricComparison *p99 = metric(c, "idle", 1, "video", CompareMetric::P99);
        QVERIFY(p99);
        QCOMPARE(p99->sampling, Sampling::Blocks);
        QVERIFY2(p99->change.low > 1.2 && p99->change.estimate < kMinBlockLatencyRatio,
                 qPrintable(QString::fromStdString(formatChange(*p99))));
        QCOMPARE(p99->verdict, Verdict::Small);

        const std::string text = formatComparison(c);
        fitsAnEmail(text);
        QVERIFY2(tildesBesideAClearInterval(text).isEmpty(), text.c_str());
        const QStringList row = linesWith(text, "video ").filter("p99 ms");
        QVERIFY2(row.size() == 1, text.c_str());
        QVERIFY2(row[0].contains(QRegularExpression("\\+\\d+ % \\[\\+\\d+, \\+\\d+\\] +small$")),
                 text.c_str());
        // Neither "no significant difference" nor "worse": small, with the change.
        QVERIFY2(text.find("=> run 2 small: video p99 +") != std::string::npos, text.c_str());
        QVERIFY2(text.find("; wakeup ~\n") != std::string::npos, text.c_str());
        // The legend says what small means for the rows that are: x2 with blocks.
        QVERIFY2(QString::fromStdString(text).simplified().contains(
                     "small: past the noise (the interval excludes no change), but under the "
                     "least change worth naming: p99 x2 with 5 s blocks"),
                 text.c_str());

        const std::string md = formatComparisonMarkdown(c);
        QVERIFY2(tildesBesideAClearInterval(md).isEmpty(), md.c_str());
        QVERIFY2(QString::fromStdString(md).contains(
                     QRegularExpression("\\| 2 \\| video \\| p99 ms \\| 0\\.1\\d\\d \\| "
                                        "0\\.3\\d\\d \\| [^|]+\\] \\| small \\|")),
                 md.c_str());
        QVERIFY2(md.find("p99 x2 with 5 s blocks") != std::string::npos, md.c_str());

        // csv and json: every "~" row's interval holds no change, and the
        // rows that do not are "small".
        int small = 0;
        const QStringList csv = QString::fromStdString(formatComparisonCsv(c)).split('\n');
        size_t line = 1;
        for (const PhaseComparison &p : c.phases)
            for (size_t ri = 0; ri < p.runs.size(); ++ri)
                for (const ConsumerComparison &cc : p.runs[ri])
                    for (const MetricComparison &m : cc.metrics) {
                        const QStringList f = csv.at(static_cast<qsizetype>(line++)).split(',');
                        const double none = m.asRatio ? 1 : 0;
                        const bool clear = f[8].toDouble() > none || f[9].toDouble() < none;
                        QVERIFY2(!(clear && f[11] == "\"~\""), qPrintable(f.join(',')));
                        small += f[11] == "\"small\"";
                    }
        QCOMPARE(small, 3); // video p99, p99.9 and p50: each +87 %
        const auto json =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatComparisonJson(c)));
        small = 0;
        for (const QJsonValue consumer : json["phases"][0]["runs"][1]["consumers"].toArray())
            for (const QJsonValue m : consumer["metrics"].toArray()) {
                const double none = m["as_ratio"].toBool() ? 1 : 0;
                const bool clear = (m["low"].isDouble() && m["low"].toDouble() > none) ||
                                   (m["high"].isDouble() && m["high"].toDouble() < none);
                QVERIFY2(!(clear && m["verdict"] == QStringLiteral("~")),
                         QJsonDocument(m.toObject()).toJson().constData());
                small += m["verdict"] == QStringLiteral("small");
            }
        QCOMPARE(small, 3);
    }

    void anOpenEndIsPrintedOpen_data()
    {
        QTest::addColumn<CompareMetric>("metric");
        QTest::addColumn<bool>("asRatio");
        QTest::addColumn<double>("estimate");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<Verdict>("verdict");
        QTest::addColumn<QString>("printed");
        const double inf = std::numeric_limits<double>::infinity();
        const double nan = std::numeric_limits<double>::quiet_NaN();
        // Regression: an end the samples cannot bound took the whole interval
        // with it, "x165.0 worse", as if it had none.
        QTest::newRow("miss ratio open above (was: no interval)")
            << CompareMetric::MissesPerMin << true << 165.0 << 72.142857 << inf << Verdict::Worse
            << QStringLiteral("x165.0 [72.1, ∞)");
        QTest::newRow("percentile ratio open above (was: no interval)")
            << CompareMetric::P99 << true << 2.0 << 1.5 << inf << Verdict::Worse
            << QStringLiteral("+100 % [+50, ∞)");
        QTest::newRow("difference open above (was: no interval)")
            << CompareMetric::MissesPerMin << false << 3.0 << 1.0 << inf << Verdict::Worse
            << QStringLiteral("+3.00/min [+1.00, ∞)");
        QTest::newRow("difference open below (was: no interval)")
            << CompareMetric::MetPct << false << -2.5 << -inf << -1.0 << Verdict::Worse
            << QStringLiteral("-2.50 pt (-∞, -1.00]");
        QTest::newRow("both ends bounded")
            << CompareMetric::MissesPerMin << true << 8.0 << 6.5 << 9.25 << Verdict::Worse
            << QStringLiteral("x8.00 [6.50, 9.25]");
        QTest::newRow("no end bounded: no interval")
            << CompareMetric::MetPct << false << 0.3 << -inf << inf << Verdict::NoChange
            << QStringLiteral("+0.30 pt");
        QTest::newRow("too few: no interval") << CompareMetric::P99 << true << 1.2 << nan << nan
                                              << Verdict::TooFewSamples << QStringLiteral("+20 %");
    }

    void anOpenEndIsPrintedOpen()
    {
        QFETCH(CompareMetric, metric);
        QFETCH(bool, asRatio);
        QFETCH(double, estimate);
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(Verdict, verdict);
        QFETCH(QString, printed);
        MetricComparison m;
        m.metric = metric;
        m.asRatio = asRatio;
        m.change = {estimate, low, high};
        m.verdict = verdict;
        QCOMPARE(QString::fromStdString(formatChange(m)), printed);
    }

    // The case, autogroup off against on: audio misses at 18 a minute
    // against 2970, in six 5 s blocks a side. Half the baseline's blocks miss
    // nothing, so many of the bootstrap's resamples have a median of zero and
    // divide by it: the interval has no upper end.
    void anOpenIntervalInEveryFormat()
    {
        const Run on =
            run("6.18.44", {phase("burn x2", {"burn:2"}, 30, {audioMissing({0, 0, 1, 2, 3, 4})})});
        const Run off =
            run("6.18.44",
                {phase("burn x2", {"burn:2"}, 30, {audioMissing({240, 250, 260, 245, 255, 230})})});
        const Comparison c = compareRuns({on, off}, {"on.json", "off.json"});
        const MetricComparison *m = metric(c, "burn x2", 1, "audio", CompareMetric::MissesPerMin);
        QVERIFY(m);
        QCOMPARE(m->verdict, Verdict::Worse);
        QCOMPARE(m->change.estimate, 165.0);
        QVERIFY(std::isfinite(m->change.low) && std::isinf(m->change.high));

        const std::string text = formatComparison(c);
        fitsAnEmail(text);
        const QStringList row = linesWith(text, "  misses/min"); // the table's, not the verdict's
        QCOMPARE(row.size(), 1);
        QVERIFY2(row[0].contains(QRegularExpression(
                     "misses/min +18\\.00 +2970\\.00 +x165\\.0 \\[72\\.1, ∞\\) +worse$")),
                 text.c_str());
        // The ∞ is one column: the verdicts still line up.
        QCOMPARE(row[0].size(), linesWith(text, "p99 ms")[0].size());
        QVERIFY2(text.find("=> run 2 worse: audio misses/min x165.0 [72.1, ∞)\n") !=
                     std::string::npos,
                 text.c_str());
        QVERIFY(formatComparisonMarkdown(c).find(
                    "| 2 | audio | misses/min | 18.00 | 2970.00 | x165.0 [72.1, ∞) | worse |") !=
                std::string::npos);
        // csv and json stay numbers a reader parses: an open end is an
        // infinity (csv) or null (json), the bounded end its value.
        QVERIFY2(linesWith(formatComparisonCsv(c), "\"off\",\"audio\",\"misses/min\"")[0].contains(
                     QRegularExpression(",18,2970,165,72\\.14\\d*,inf,")),
                 formatComparisonCsv(c).c_str());
        QJsonParseError error;
        const auto json =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatComparisonJson(c)), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const auto misses = json["phases"][0]["runs"][1]["consumers"][0]["metrics"][2];
        QCOMPARE(misses["metric"].toString(), QStringLiteral("misses/min"));
        QVERIFY(misses["low"].isDouble());
        QVERIFY(misses["high"].isNull());
    }

    // The median latency, a metric of one row, on a real run: cyclictest's
    // idle run (tests/fixtures) as five rounds a side, the second's p50
    // scaled by `factor` in every round and its p99 left as it was.
    void theMedianIsComparedOnARealRun_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<Verdict>("verdict");
        QTest::addColumn<QString>("row"); // the text table's
        QTest::newRow("half as long again: worse")
            << 1.5 << Verdict::Worse
            << QStringLiteral("p50 ms  0.118  0.177  +50 % [+47, +54]    worse");
        QTest::newRow("two thirds: better")
            << 1 / 1.5 << Verdict::Better
            << QStringLiteral("p50 ms  0.118  0.079  -33 % [-35, -32]   better");
        // Significant, but under a tenth: not a change worth naming, and not
        // "~" beside an interval clear of no change (was).
        QTest::newRow("5 %: small (was: ~)")
            << 1.05 << Verdict::Small
            << QStringLiteral("p50 ms  0.118  0.124  +5 % [+3, +8]    small");
        QTest::newRow("the same: ~")
            << 1.0 << Verdict::NoChange
            << QStringLiteral("p50 ms  0.118  0.118  +0 % [-2, +3]        ~");
    }

    void theMedianIsComparedOnARealRun()
    {
        QFETCH(double, factor);
        QFETCH(Verdict, verdict);
        QFETCH(QString, row);
        const Run real = readAnyRunFile(FIXTURES_DIR "/cyclictest-2.4-idle.json");
        auto rounds = [&real](double p50Factor) {
            Run r = real;
            r.phases.clear();
            for (int round = 1; round <= 5; ++round) {
                PhaseResult p = real.phases.at(0);
                p.round = round;
                ConsumerStats &w = p.consumers.at(0);
                w.p50Us = std::lround(static_cast<double>(w.p50Us + round) * p50Factor);
                w.p99Us += round;
                r.phases.push_back(p);
            }
            return r;
        };
        const Comparison c = compareRuns({rounds(1), rounds(factor)}, {"a.json", "b.json"});
        const std::string phaseName = real.phases.at(0).name;
        const MetricComparison *p50 = metric(c, phaseName, 1, "wakeup", CompareMetric::P50);
        QVERIFY(p50);
        QCOMPARE(p50->samples, size_t{5});
        QCOMPARE(p50->verdict, verdict);
        QVERIFY2(std::abs(p50->change.estimate - factor) < 0.05,
                 qPrintable(QString::number(p50->change.estimate)));
        QCOMPARE(metric(c, phaseName, 1, "wakeup", CompareMetric::P99)->verdict, Verdict::NoChange);

        const std::string text = formatComparison(c);
        fitsAnEmail(text);
        const QStringList rows = linesWith(text, "p50 ms");
        QCOMPARE(rows.size(), 1);
        QVERIFY2(rows[0].endsWith(row), text.c_str());
        if (verdict != Verdict::NoChange)
            QVERIFY2(text.find("=> run 2 " + std::string(toString(verdict)) + ": wakeup p50 ") !=
                         std::string::npos,
                     text.c_str());
        QVERIFY(QString::fromStdString(formatComparisonMarkdown(c))
                    .contains(QRegularExpression("\\| 2 \\| wakeup \\| p50 ms \\| [0-9.]+ \\| "
                                                 "[0-9.]+ \\| [^|]+ \\| " +
                                                 QRegularExpression::escape(toString(verdict)))));
        const auto json =
            QJsonDocument::fromJson(QByteArray::fromStdString(formatComparisonJson(c)));
        const auto metrics = json["phases"][0]["runs"][1]["consumers"][0]["metrics"].toArray();
        QVERIFY(std::any_of(metrics.begin(), metrics.end(), [&](const QJsonValue &m) {
            return m["metric"] == QStringLiteral("p50") &&
                   m["verdict"] == QString::fromLatin1(toString(verdict));
        }));
    }

    void markdownHeadsEachValueColumnWithItsRun_data()
    {
        QTest::addColumn<QStringList>("kernels");
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("headed"); // each run's label as its column's head
        // Regression: the second value column was headed "run", whichever run
        // it held.
        QTest::newRow("two runs (was: \"run\")")
            << QStringList{"6.18.44", "6.19.0"} << QStringList{"a.json", "b.json"}
            << QStringList{"6.18.44 (eevdf)", "6.19.0 (eevdf)"};
        QTest::newRow("three runs (was: one \"run\" column for both)")
            << QStringList{"6.18.44", "6.19.0", "6.20.0"}
            << QStringList{"a.json", "b.json", "c.json"}
            << QStringList{"6.18.44 (eevdf)", "6.19.0 (eevdf)", "6.20.0 (eevdf)"};
        QTest::newRow("four runs (was: one \"run\" column for all three)")
            << QStringList{"6.18.44", "6.19.0", "6.20.0", "6.21.0"}
            << QStringList{"a.json", "b.json", "c.json", "d.json"}
            << QStringList{"6.18.44 (eevdf)", "6.19.0 (eevdf)", "6.20.0 (eevdf)", "6.21.0 (eevdf)"};
        QTest::newRow("one kernel twice, told apart by file")
            << QStringList{"6.18.44", "6.18.44"}
            << QStringList{"runs/autogroup-on.json", "runs/autogroup-off.json"}
            << QStringList{"autogroup-on", "autogroup-off"};
        QTest::newRow("a pipe in a file name stays in its cell")
            << QStringList{"6.18.44", "6.18.44"} << QStringList{"on|burn.json", "off.json"}
            << QStringList{"on\\|burn", "off"};
        QTest::newRow("one run: both columns are its own")
            << QStringList{"6.18.44"} << QStringList{"a.json"} << QStringList{"6.18.44 (eevdf)"};
    }

    void markdownHeadsEachValueColumnWithItsRun()
    {
        QFETCH(QStringList, kernels);
        QFETCH(QStringList, files);
        QFETCH(QStringList, headed);
        std::vector<Run> runs;
        std::vector<std::string> names;
        for (qsizetype i = 0; i < kernels.size(); ++i) {
            runs.push_back(
                run(kernels[i].toStdString(),
                    {phase("burn x2", {"burn:2"}, 60,
                           {consumer("audio", 12, 400.0 * static_cast<double>(i + 1))})}));
            names.push_back(files[i].toStdString());
        }
        const QString md =
            QString::fromStdString(formatComparisonMarkdown(compareRuns(runs, names)));
        // A table per run against run 1, as in the text: a column holds one run.
        for (qsizetype ri = runs.size() > 1 ? 1 : 0; ri < headed.size(); ++ri) {
            const QString head = QStringLiteral("| run | consumer | metric | %1 | %2 | change | "
                                                "verdict |\n|---|---|---|---:|---:|---|---|\n")
                                     .arg(headed[0], headed[ri]);
            QCOMPARE(md.count(head), 1);
            // Right under its head come this run's rows, and only its.
            const QStringList rows = md.mid(md.indexOf(head) + head.size())
                                         .section(QStringLiteral("\n\n"), 0, 0)
                                         .split('\n', Qt::SkipEmptyParts);
            QCOMPARE(rows.size(), 5); // p99, p99.9, misses/min, met%, p50
            for (const QString &row : rows)
                QVERIFY2(row.startsWith(QStringLiteral("| %1 | audio |").arg(ri + 1)),
                         qPrintable(md));
        }
        QVERIFY2(!md.contains(QStringLiteral(" | run |")), qPrintable(md));
    }

    void eachRunIsListedOnceWithItsNoiseCheck_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("runs");
        // Regression: md listed each run twice, by its label and again with
        // its noise check.
        QTest::newRow("md, two runs (was: twice)") << QStringLiteral("md") << 2;
        QTest::newRow("md, three runs (was: twice)") << QStringLiteral("md") << 3;
        QTest::newRow("md, one run (was: twice)") << QStringLiteral("md") << 1;
        QTest::newRow("text, two runs") << QStringLiteral("text") << 2;
        QTest::newRow("text, three runs") << QStringLiteral("text") << 3;
    }

    void eachRunIsListedOnceWithItsNoiseCheck()
    {
        QFETCH(QString, format);
        QFETCH(int, runs);
        std::vector<Run> all;
        std::vector<std::string> files;
        for (int i = 0; i < runs; ++i) {
            Run r = run("6." + std::to_string(18 + i) + ".0",
                        {phase("idle", {}, 10, {consumer("wakeup", 2, 50)})});
            // Run 2 had its machine checked; the others did not.
            if (i == 1) {
                r.noise.ran = true;
                r.noise.verdict = "quiet";
            }
            all.push_back(r);
            files.push_back(std::to_string(i + 1) + ".json");
        }
        const Comparison c = compareRuns(all, files);
        const std::string out = format == "md" ? formatComparisonMarkdown(c) : formatComparison(c);
        for (int i = 0; i < runs; ++i) {
            // "run 2: 6.19.0 (eevdf)  noise check: quiet", not the verdict "run 2: ~ ..."
            const QRegularExpression listed(QStringLiteral("^(- )?run %1: 6\\.").arg(i + 1));
            const QStringList lines = QString::fromStdString(out).split('\n').filter(listed);
            QVERIFY2(lines.size() == 1, out.c_str());
            QVERIFY2(lines[0].contains(QStringLiteral("6.%1.0 (eevdf)").arg(18 + i)), out.c_str());
            QVERIFY2(lines[0].contains(i == 1 ? QStringLiteral("noise check: quiet")
                                              : QStringLiteral("noise check: not run")),
                     out.c_str());
        }
    }
};

namespace {

// A run that played "on" and "off" in turns, six rounds of idle and burn
// each; under off, audio misses ten times as often under burn (or
// `offMisses` a block) and the wakeup p99 is the same (or `offWakeup` times
// it).
Run variantRun(int rounds = 6, int blocks = 2, uint64_t offMisses = 40, double offWakeup = 1)
{
    std::vector<PhaseResult> phases;
    double t = 0;
    for (int r = 1; r <= rounds; ++r)
        for (const char *variant : r % 2 ? std::vector{"on", "off"} : std::vector{"off", "on"}) {
            const bool off = std::string(variant) == "off";
            const auto seed = static_cast<uint64_t>(r * 10 + off);
            const double wake = off ? offWakeup : 1;
            for (int step = 0; step < 2; ++step) {
                const double seconds = 5.0 * blocks;
                PhaseResult p =
                    step == 0 ? phase("idle", {}, seconds,
                                      {consumer("audio", blocks, 300, 5, 0, seed),
                                       consumer("wakeup", blocks, 100 * wake, 5, 0, seed)},
                                      0, r)
                              : phase("burn x4", {"burn:4"}, seconds,
                                      {consumer("audio", blocks, 900, 5, off ? offMisses : 4, seed),
                                       consumer("wakeup", blocks, 400 * wake, 5, 0, seed)},
                                      1, r);
                p.startS = t;
                p.variant = variant;
                t += seconds;
                phases.push_back(p);
            }
        }
    Run v = run("6.18.44", phases);
    SettingRecord autogroup;
    autogroup.setting = "autogroup=0";
    autogroup.target = "/proc/sys/kernel/sched_autogroup_enabled";
    autogroup.before = "1";
    autogroup.applied = "0";
    autogroup.restored = "1";
    v.variants = {{"on", {"autogroup=1"}, {}}, {"off", {"autogroup=0"}, {autogroup}}};
    return v;
}

} // namespace

class TestVariants : public QObject
{
    Q_OBJECT
private slots:
    void eachVariantIsARunOfItsOwn()
    {
        const std::vector<Run> parts = splitByVariant(variantRun());
        QCOMPARE(parts.size(), size_t{2});
        for (const Run &part : parts) {
            QCOMPARE(part.phases.size(), size_t{12}); // 6 rounds of 2 steps
            for (const PhaseResult &p : part.phases)
                QCOMPARE(p.variant, part.variants.front().name);
        }
    }

    void variantsAreComparedRoundByRound()
    {
        const Run v = variantRun();
        const Comparison c = compareVariants(v);
        QCOMPARE(c.runLabels, (std::vector<std::string>{"on", "off"}));
        const MetricComparison *misses =
            metric(c, "burn x4", 1, "audio", CompareMetric::MissesPerMin);
        QVERIFY(misses);
        QCOMPARE(misses->samples, size_t{6}); // the rounds, not the blocks
        QCOMPARE(misses->verdict, Verdict::Worse);
        QCOMPARE(metric(c, "burn x4", 1, "wakeup", CompareMetric::P99)->verdict, Verdict::NoChange);
    }

    void theHeadlineSaysWhichIsWorseAndByHowMuch()
    {
        const Run v = variantRun();
        const std::vector<std::string> lines = variantHeadlines(v, compareVariants(v));
        QCOMPARE(lines.size(), size_t{1});
        const QString line = QString::fromStdString(lines[0]);
        QVERIFY2(line.startsWith(QStringLiteral("off (autogroup=0) worse than on: audio "
                                                "misses/min x10.0 [")),
                 qPrintable(line));
        QVERIFY2(line.endsWith(QStringLiteral("; wakeup ~")), qPrintable(line));
    }

    void tooFewRoundsAreUndecidedNeverNoDifferent()
    {
        // Two rounds of one 5 s block a phase: 2 samples a side, too few for
        // any verdict, though audio misses ten times as often under off.
        const Run v = variantRun(2, 1);
        const Comparison c = compareVariants(v);
        const MetricComparison *misses =
            metric(c, "burn x4", 1, "audio", CompareMetric::MissesPerMin);
        QVERIFY(misses);
        QCOMPARE(misses->verdict, Verdict::TooFewSamples);
        QCOMPARE(misses->samples, size_t{2});
        const QString line = QString::fromStdString(variantHeadlines(v, c).at(0));
        QVERIFY2(!line.contains("no different"), qPrintable(line));
        QVERIFY2(line.startsWith("off (autogroup=0) undecided against on: " +
                                 QString::fromStdString(notEnoughToTell(2, misses->sampling))),
                 qPrintable(line));
        QVERIFY2(line.contains("; large but undecided: audio misses/min " +
                               QString::fromStdString(formatChange(*misses))),
                 qPrintable(line));
        // The report's last line is that headline.
        const QString report = QString::fromStdString(formatTextReport(v));
        QVERIFY2(report.trimmed().endsWith(line), qPrintable(report));
    }

    // --rounds auto looks after every round: a look's level is the
    // sequential design's, lower than 5 %, and a row is decided only when
    // the sides differ at it or its interval rules out a change worth naming.
    void aLookJudgesAtTheDesignsLevel()
    {
        const std::vector<double> a{100, 110, 120, 130, 140, 150};
        const std::vector<double> b{125, 145, 300, 310, 320, 330}; // U 32 of 36: p 0.026
        const MetricComparison fixed = compareSamples(CompareMetric::P99, a, b);
        QCOMPARE(fixed.verdict, Verdict::Worse);
        QVERIFY(fixed.decided);
        const double level = sequentialDesign(kMinRoundsAsSamples, 12, kSignificance).levelAt(6);
        QVERIFY(level < fixed.p);
        const MetricComparison look =
            compareSamples(CompareMetric::P99, a, b, Sampling::Rounds, level);
        // Its interval excludes no change: never "~" beside it, but undecided.
        QVERIFY(look.change.low > 1);
        QCOMPARE(look.verdict, Verdict::Undecided);
        QVERIFY(!look.decided);
        QCOMPARE(std::string(toString(look.verdict)), std::string("undecided"));
        QVERIFY(look.large); // still a change worth naming, if the next rounds confirm it

        // Alike to a few percent: the interval rules out +-10 %, a finding.
        const std::vector<double> same{100, 101, 102, 100, 101, 102};
        const std::vector<double> close{101, 102, 100, 102, 101, 100};
        QVERIFY(compareSamples(CompareMetric::P99, same, close, Sampling::Rounds, level).decided);
        // Alike in the median but spread by half: it could still differ.
        const std::vector<double> wide{100, 150, 125, 100, 150, 125};
        const MetricComparison open =
            compareSamples(CompareMetric::P99, same, wide, Sampling::Rounds, level);
        QCOMPARE(open.verdict, Verdict::NoChange);
        QVERIFY(!open.decided);
    }

    void roundsPlayedUntilDecidedSayHowTheyEnded()
    {
        Run v = variantRun();
        v.untilDecided = {12, 6, true};
        std::vector<std::string> lines = variantHeadlines(v, compareVariants(v));
        QCOMPARE(lines.back(), std::string("decided after 6 of at most 12 rounds"));
        QVERIFY(lookAtRounds(compareVariants(v)).allDecided());
        // Under off, wakeup's p99 under burn swings by half round to round:
        // its median is on's, but six rounds cannot rule out a change.
        for (PhaseResult &p : v.phases)
            if (p.variant == "off" && p.name == "burn x4")
                for (ConsumerStats &c : p.consumers)
                    if (c.name == "wakeup")
                        c.p99Us = p.round % 2 ? 280 : 560;
        v.untilDecided = {6, 6, false};
        const Comparison c = compareVariants(v);
        const RoundsLook look = lookAtRounds(c);
        QVERIFY(look.looked && !look.allDecided());
        lines = variantHeadlines(v, c);
        QCOMPARE(lines.back(), std::string("undecided after 6 rounds: wakeup p99 in burn x4"));
        const std::string text = formatComparison(c);
        QVERIFY2(tildesBesideAClearInterval(text).isEmpty(), text.c_str());
        QVERIFY2(lines.front().find("; wakeup undecided") != std::string::npos,
                 lines.front().c_str());
        // A fixed number of rounds adds no such line.
        v.untilDecided = {};
        QCOMPARE(variantHeadlines(v, compareVariants(v)).size(), size_t{1});
        // The run file keeps how it ended.
        v.untilDecided = {12, 7, true};
        const Run back = runFromJson(runToJson(v), "v.json");
        QCOMPARE(back.untilDecided.maxRounds, 12);
        QCOMPARE(back.untilDecided.played, 7);
        QVERIFY(back.untilDecided.decided);
    }

    // A change past the noise but under its minimum effect is neither "no
    // different" nor worse: wakeup +5 % in every round, under the 10 %.
    void aSmallChangeIsSaidSmallInTheHeadline_data()
    {
        QTest::addColumn<uint64_t>("offMisses");
        QTest::addColumn<QString>("starts");
        QTest::addColumn<QString>("has");
        QTest::newRow("small alone (was: no different from on)")
            << uint64_t{4}
            << QStringLiteral("off (autogroup=0) small against on: wakeup p99 +5 % [")
            << QStringLiteral("; audio ~");
        QTest::newRow("beside a worse (was: wakeup ~)")
            << uint64_t{40}
            << QStringLiteral("off (autogroup=0) worse than on: audio misses/min x10.0 [")
            << QStringLiteral("; small: wakeup p99 +5 % [");
    }

    void aSmallChangeIsSaidSmallInTheHeadline()
    {
        QFETCH(uint64_t, offMisses);
        QFETCH(QString, starts);
        QFETCH(QString, has);
        const Run v = variantRun(6, 2, offMisses, 1.05);
        const Comparison c = compareVariants(v);
        QCOMPARE(metric(c, "burn x4", 1, "wakeup", CompareMetric::P99)->verdict, Verdict::Small);
        const QString line = QString::fromStdString(variantHeadlines(v, c).at(0));
        QVERIFY2(line.startsWith(starts), qPrintable(line));
        QVERIFY2(line.contains(has), qPrintable(line));
        QVERIFY2(!line.contains("no different") && !line.contains("wakeup ~"), qPrintable(line));
        // The report's comparison says what small means with rounds.
        QVERIFY2(QString::fromStdString(formatTextReport(v))
                     .simplified()
                     .contains("least change worth naming: p99 x1.1 with rounds"),
                 qPrintable(line));
    }

    void theNeededSamplesAreTheFewestTheTestCanDecideWith()
    {
        const size_t n = samplesNeeded();
        QVERIFY(smallestPossibleP(n, n) <= kSignificance);
        QVERIFY(smallestPossibleP(n - 1, n - 1) > kSignificance);
        QVERIFY(notEnoughToTell(2, Sampling::Rounds) ==
                fmt::format("not enough rounds to tell (2 of the {} needed)", n));
    }

    void variantsAreNamedAndTheHostsNoiseIsNotTheSettings()
    {
        Run v = variantRun();
        v.noise.ran = true;
        v.noise.verdict = "noisy";
        const std::string text = formatComparison(compareVariants(v));
        QVERIFY2(text.find("compare: 2 variants, each against on\n") != std::string::npos,
                 text.c_str());
        QVERIFY2(QString::fromStdString(text).simplified().contains(
                     "WARNING: on's machine was noisy: differences may be the host's, not the "
                     "setting's"),
                 text.c_str());
        QVERIFY2(text.find("not the kernel's") == std::string::npos, text.c_str());
        QVERIFY2(text.find("run 1") == std::string::npos && text.find("run 2") == std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("=> off worse: audio misses/min") != std::string::npos, text.c_str());
        QRegularExpression header(QStringLiteral("consumer +metric +on +off +change +verdict"));
        QVERIFY2(QString::fromStdString(text).contains(header), text.c_str());
    }

    void theReportShowsEachVariantThenTheVerdict()
    {
        const std::string text = formatTextReport(variantRun());
        const size_t on = text.find("== variant on (autogroup=1)");
        const size_t off = text.find("== variant off (autogroup=0)");
        const size_t verdict = text.find("off (autogroup=0) worse than on: audio");
        QVERIFY2(on != std::string::npos && off != std::string::npos, text.c_str());
        QVERIFY2(on < off && off < verdict && verdict != std::string::npos, text.c_str());
        QVERIFY2(text.find("/proc/sys/kernel/sched_autogroup_enabled: 1 -> 0 -> 1") !=
                     std::string::npos,
                 text.c_str());
    }

    void aFailedRestoreSaysHowToPutItBack()
    {
        Run v = variantRun();
        SettingRecord &c = v.variants[1].changes[0];
        c.restored = "0";
        c.error = "write refused";
        c.restoreBy = "echo 1 > /proc/sys/kernel/sched_autogroup_enabled";
        const std::string text = formatTextReport(v);
        QVERIFY2(text.find("NOT PUT BACK: write refused\n      put it back by hand: echo 1 > "
                           "/proc/sys/kernel/sched_autogroup_enabled\n") != std::string::npos,
                 text.c_str());
    }

    void aRunFileKeepsTheVariants()
    {
        const Run v = variantRun();
        const Run back = runFromJson(runToJson(v), "v.json");
        QCOMPARE(back.variants.size(), size_t{2});
        QCOMPARE(back.variants[1].describe(), std::string("off (autogroup=0)"));
        QCOMPARE(back.variants[1].changes[0].before, std::string("1"));
        QCOMPARE(back.variants[1].changes[0].restored, std::string("1"));
        QCOMPARE(back.phases[1].variant, std::string("on"));
        QCOMPARE(back.phases[2].variant, std::string("off"));
    }

    void aRoundLeftOutIsNoVariantsSample()
    {
        // Round 3's scheduler exited under "off": the round goes for both,
        // so the rounds that remain are pairs.
        Run v = variantRun();
        const std::string why = "round 3: scx_fake exited mid-round (state: disabled); round "
                                "left out";
        for (PhaseResult &p : v.phases)
            if (p.round == 3)
                p.leftOut = why;
        for (const Run &part : splitByVariant(v)) {
            QCOMPARE(part.phases.size(), size_t{10});
            for (const PhaseResult &p : part.phases)
                QVERIFY(p.round != 3);
        }
        const Comparison c = compareVariants(v);
        const MetricComparison *misses =
            metric(c, "burn x4", 1, "audio", CompareMetric::MissesPerMin);
        QVERIFY(misses);
        QCOMPARE(misses->samples, size_t{5});
        const Run back = runFromJson(runToJson(v), "v.json");
        QCOMPARE(back.phases[8].leftOut, why); // round 3 begins at the 9th
        QCOMPARE(back.phases[0].leftOut, std::string());
        // The report says it once, and marks each phase it left out.
        const QString text = QString::fromStdString(formatTextReport(v));
        QCOMPARE(text.split('\n').count(QString::fromStdString(why)), 1);
        QCOMPARE(text.count("LEFT OUT of the comparison: round 3"), 4);
    }

    void aPhaseOfAVariantTheRunLacksIsRefused()
    {
        Run v = variantRun();
        v.phases[3].variant = "lavd";
        QVERIFY_THROWS_EXCEPTION(RunFileError, runFromJson(runToJson(v), "v.json"));
    }
};

int main(int argc, char **argv)
{
    TestCompare compare;
    TestVariants variants;
    return QTest::qExec(&compare, argc, argv) | QTest::qExec(&variants, argc, argv);
}
#include "tst_compare.moc"
