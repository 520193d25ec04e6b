#include "compare.h"

#include "enumnames.h"
#include "phasematch.h"
#include "report.h"
#include "sequentialdesign.h"
#include "texttable.h"
#include "textwrap.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace latprobe {

namespace {

constexpr EnumName<Verdict> kVerdictNames[] = {
    {Verdict::Better, "better"}, {Verdict::Worse, "worse"},
    {Verdict::NoChange, "~"},    {Verdict::TooFewSamples, "too few"},
    {Verdict::Small, "small"},   {Verdict::Undecided, "undecided"},
};

std::string runLabel(const Run &run)
{
    std::string sched = run.system.scheduler;
    if (sched.rfind("sched_ext:", 0) == 0)
        sched = sched.substr(10);
    if (run.version.rfind("cyclictest", 0) == 0)
        sched = "cyclictest";
    const std::string &release = run.system.kernelRelease;
    return sched.empty() || sched == "unknown" ? release : release + " (" + sched + ")";
}

// One run's samples of `row`'s metric of one consumer in one phase, a value
// per round or block.
std::vector<double> samplesOf(const CompareMetricRow &row, const Run &run, const PhaseSide &side,
                              const std::string &consumer, bool byRound)
{
    std::vector<double> samples;
    auto add = [&](const BlockStats &b) {
        if (const std::optional<double> v = row.sample(b))
            samples.push_back(*v);
    };
    for (size_t index : side.phases) {
        const PhaseResult &p = run.phases[index];
        const ConsumerStats *c = p.consumer(consumer);
        if (!c || c->samples == 0)
            continue;
        if (byRound || c->blocks.empty()) {
            add(roundAsBlock(*c, p.durationS));
            continue;
        }
        for (const BlockStats &b : c->blocks)
            if (b.samples > 0)
                add(b);
    }
    return samples;
}

std::string samplingOf(const Run &run, const PhaseSide &side, bool byRound)
{
    if (byRound)
        return fmt::format("{} rounds", side.phases.size());
    size_t blocks = 0;
    for (size_t index : side.phases) {
        const PhaseResult &p = run.phases[index];
        size_t most = 0;
        for (const ConsumerStats &c : p.consumers)
            most = std::max(most, c.blocks.size());
        blocks += most ? most : 1;
    }
    return fmt::format("{} block{} of 5 s", blocks, blocks == 1 ? "" : "s");
}

// The change of `b` against `a` by `statistic`; whether it is a ratio.
Interval changeOf(ChangeStatistic statistic, const std::vector<double> &a,
                  const std::vector<double> &b, bool &asRatio)
{
    switch (statistic) {
    case ChangeStatistic::LogShift: {
        // On a log scale the Hodges-Lehmann shift is a ratio.
        std::vector<double> la, lb;
        for (double x : a)
            la.push_back(std::log(std::max(1.0, x)));
        for (double y : b)
            lb.push_back(std::log(std::max(1.0, y)));
        const Interval shift = hodgesLehmannShift(la, lb);
        return {std::exp(shift.estimate), std::exp(shift.low), std::exp(shift.high)};
    }
    case ChangeStatistic::RatioOfMedians:
        if (asRatio)
            return bootstrapRatioOfMedians(a, b);
        return hodgesLehmannShift(a, b);
    case ChangeStatistic::Shift:
        return hodgesLehmannShift(a, b);
    }
    return {};
}

} // namespace

size_t samplesNeeded()
{
    size_t n = 1;
    while (smallestPossibleP(n, n) > kSignificance)
        ++n;
    return n;
}

std::string notEnoughToTell(size_t have, Sampling sampling)
{
    if (sampling == Sampling::Rounds)
        return fmt::format("not enough rounds to tell ({} of the {} needed)", have,
                           samplesNeeded());
    return fmt::format("not enough rounds to tell ({} blocks of 5 s a side of the {} needed: "
                       "use --rounds or longer phases)",
                       have, samplesNeeded());
}

MetricComparison compareSamples(CompareMetric metric, const std::vector<double> &a,
                                const std::vector<double> &b, Sampling sampling, double level)
{
    const CompareMetricRow &row = metricRow(metric);
    MetricComparison m;
    m.metric = metric;
    // No sample of a side: nothing to show for it, not a zero.
    const double nothing = std::numeric_limits<double>::quiet_NaN();
    m.base = a.empty() ? nothing : median(a);
    m.value = b.empty() ? nothing : median(b);
    m.baseSamples = a.size();
    m.samples = b.size();
    // A ratio to a median of 0 is no ratio: the difference stands for it.
    m.asRatio = row.statistic == ChangeStatistic::LogShift ||
                (row.statistic == ChangeStatistic::RatioOfMedians && m.base > 0);
    m.sampling = sampling;
    const double minRatio = sampling == Sampling::Blocks ? row.minBlockRatio : row.minRatio;
    auto bigEnough = [&] {
        return m.asRatio ? (m.change.estimate >= minRatio || m.change.estimate <= 1 / minRatio) &&
                               std::abs(m.value - m.base) >= row.minChange
                         : std::abs(m.change.estimate) >= row.minChange;
    };
    if (a.empty() || b.empty() || smallestPossibleP(a.size(), b.size()) > kSignificance) {
        m.verdict = Verdict::TooFewSamples;
        const double estimate =
            m.asRatio ? (m.base > 0 ? m.value / m.base : nothing) : m.value - m.base;
        m.change = {estimate, nothing, nothing};
        m.large = std::isfinite(estimate) && bigEnough();
        return m;
    }
    m.p = mannWhitneyU(a, b).pTwoSided;
    m.change = changeOf(row.statistic, a, b, m.asRatio);
    m.large = bigEnough();
    const double none = m.asRatio ? 1.0 : 0.0;
    const bool excludesNone = m.change.low > none || m.change.high < none;
    const bool differ = m.p <= level && excludesNone;
    // Past the noise but under the minimum effect is neither "~" nor worth naming.
    if (excludesNone && !m.large)
        m.verdict = Verdict::Small;
    else if (differ) {
        const bool higher = m.change.estimate > none;
        m.verdict = row.higherIsBetter == higher ? Verdict::Better : Verdict::Worse;
    } else if (excludesNone) {
        // The interval and the test disagree: more rounds decide.
        m.verdict = Verdict::Undecided;
    }
    const bool withinMinimum = m.asRatio
                                   ? m.change.low > 1 / minRatio && m.change.high < minRatio
                                   : m.change.low > -row.minChange && m.change.high < row.minChange;
    m.decided = differ || withinMinimum;
    return m;
}

namespace {

// Consumer settings that make two runs' numbers of it incomparable.
std::string settingsDiffer(const Run &a, const Run &b, const std::string &consumer,
                           const Comparison &c, size_t run)
{
    auto find = [&](const Run &r) -> const ConsumerConfig * {
        for (const ConsumerSetup &s : r.consumers)
            if (s.config.name == consumer)
                return &s.config;
        return nullptr;
    };
    const ConsumerConfig *x = find(a), *y = find(b);
    if (!x || !y)
        return {};
    auto ms = [](int64_t ns) { return fmt::format("{:.2f} ms", static_cast<double>(ns) / 1e6); };
    std::string why;
    auto differ = [&](const char *what, const std::string &u, const std::string &v) {
        if (u != v)
            why += fmt::format("{}{} {} vs {}", why.empty() ? "" : ", ", what, u, v);
    };
    differ("period", ms(x->periodNs), ms(y->periodNs));
    differ("work", ms(x->workNs), ms(y->workNs));
    differ("deadline", ms(x->slackNs), ms(y->slackNs));
    differ("work mode", describe(x->workMode), describe(y->workMode));
    // A timekeeper-woken consumer is not charged its timekeeper's oversleep.
    differ("wake", toString(x->wake), toString(y->wake));
    return why.empty() ? std::string()
                       : fmt::format("{}: not compared, {} and {} differ in {}", consumer, c.who(0),
                                     c.who(run), why);
}

// Every difference in what the runs ran on, beside the noise checks.
void describeRuns(const std::vector<Run> &runs, Comparison &c)
{
    for (size_t i = 0; i < runs.size(); ++i) {
        const NoiseCheck &n = runs[i].noise;
        // A variant's label is its name, already said.
        const std::string label = c.compared == Compared::Variants ? "" : c.runLabels[i] + "  ";
        c.notes.push_back(
            fmt::format("{}: {}noise check: {}", c.who(i), label, n.ran ? n.summary() : "not run"));
        if (n.ran && !n.trustMax())
            c.warnings.push_back(fmt::format(
                "{}'s machine was {}: differences may be the host's, not the {}", c.who(i),
                n.verdict, c.compared == Compared::Variants ? "setting's" : "kernel's"));
    }
    for (size_t i = 1; i < runs.size(); ++i)
        if (runs[i].scenario != runs[0].scenario)
            c.warnings.push_back(fmt::format("run {} played scenario \"{}\", run 1 \"{}\": only "
                                             "phases that ran the same loads are compared",
                                             i + 1, runs[i].scenario, runs[0].scenario));
    using Field = std::function<std::string(const Run &)>;
    auto grant = [](const Run &r) {
        if (r.consumers.empty())
            return std::string("?");
        const ThreadGrant &g = r.consumers.front().grant;
        return fmt::format(
            "{} {} {}, slack {} us", toString(g.policy),
            g.policy == SchedPolicy::Fifo || g.policy == SchedPolicy::RoundRobin ? "prio" : "nice",
            g.policy == SchedPolicy::Fifo || g.policy == SchedPolicy::RoundRobin ? g.priority
                                                                                 : g.nice,
            g.timerSlackNs / 1000);
    };
    const std::vector<std::pair<const char *, Field>> fields = {
        {"kernel", [](const Run &r) { return r.system.kernelRelease; }},
        {"scheduler", [](const Run &r) { return r.system.scheduler; }},
        {"HZ", [](const Run &r) { return r.system.hz; }},
        {"preemption", [](const Run &r) { return r.system.preemption; }},
        {"governor", [](const Run &r) { return r.system.governor; }},
        {"autogroup", [](const Run &r) { return r.system.autogroup; }},
        {"cpu",
         [](const Run &r) { return fmt::format("{} x {}", r.system.cpuCount, r.system.cpuModel); }},
        {"virtualization", [](const Run &r) { return r.system.virtualization; }},
        {"cmdline", [](const Run &r) { return r.system.cmdline; }},
        {"probe", grant},
    };
    for (const auto &[name, get] : fields) {
        std::vector<std::string> values;
        for (const Run &r : runs)
            values.push_back(get(r));
        if (std::all_of(values.begin(), values.end(),
                        [&](const std::string &v) { return v == values[0]; }))
            continue;
        c.notes.push_back(fmt::format("{} differs: {}", name, fmt::join(values, " | ")));
    }
}

std::string summaryOf(const std::string &who, const std::vector<ConsumerComparison> &consumers)
{
    std::vector<std::string> better, worse, small, undecided, same;
    // "Not enough" only when nothing could be judged: a p99.9 of short
    // blocks is "too few" in its row while the p99 beside it speaks.
    bool judged = false, any = false;
    size_t have = 0;
    Sampling sampling = Sampling::Rounds;
    for (const ConsumerComparison &cc : consumers) {
        if (!cc.present || !cc.refusal.empty())
            continue;
        bool named = false;
        for (const MetricComparison &m : cc.metrics) {
            any = true;
            judged = judged || m.verdict != Verdict::TooFewSamples;
            have = std::max(have, std::min(m.baseSamples, m.samples));
            sampling = m.sampling;
            const std::string what =
                fmt::format("{} {} {}", cc.consumer, toString(m.metric), formatChange(m));
            if (m.verdict == Verdict::Better)
                better.push_back(what), named = true;
            else if (m.verdict == Verdict::Worse)
                worse.push_back(what), named = true;
            else if (m.verdict == Verdict::Small)
                small.push_back(what), named = true;
            else if (m.verdict == Verdict::Undecided)
                undecided.push_back(what), named = true;
        }
        if (!named)
            same.push_back(cc.consumer);
    }
    if (!any)
        return fmt::format("{}: nothing to compare", who);
    if (!judged)
        return fmt::format("{}: {}", who, notEnoughToTell(have, sampling));
    auto join = [](const std::vector<std::string> &v, const char *sep) {
        std::string out;
        for (const std::string &s : v)
            out += (out.empty() ? "" : sep) + s;
        return out;
    };
    if (better.empty() && worse.empty() && small.empty() && undecided.empty())
        return fmt::format("{}: ~ no significant difference", who);
    std::string line = fmt::format("{} {}", who,
                                   !worse.empty() && !better.empty() ? "mixed"
                                   : !worse.empty()                  ? "worse"
                                   : !better.empty()                 ? "better"
                                   : !small.empty()                  ? "small"
                                                                     : "undecided");
    if (!worse.empty() && !better.empty())
        line += ": worse " + join(worse, ", ") + "; better " + join(better, ", ");
    else if (!worse.empty() || !better.empty())
        line += ": " + join(worse.empty() ? better : worse, ", ");
    if (!small.empty())
        line += (worse.empty() && better.empty() ? ": " : "; small: ") + join(small, ", ");
    if (!undecided.empty())
        line += (worse.empty() && better.empty() && small.empty() ? ": " : "; undecided: ") +
                join(undecided, ", ");
    if (!same.empty())
        line += "; " + join(same, ", ") + " ~";
    return line;
}

} // namespace

const char *toString(Verdict verdict)
{
    return enumName(kVerdictNames, verdict);
}

std::string Comparison::who(size_t run) const
{
    if (compared == Compared::Variants && run < runLabels.size())
        return runLabels[run];
    return fmt::format("run {}", run + 1);
}

bool PhaseComparison::inEveryRun() const
{
    return std::all_of(sides.begin(), sides.end(), [](const PhaseSide &s) { return s.present; });
}

std::string minimumEffect(CompareMetric metric, Sampling sampling)
{
    const CompareMetricRow &row = metricRow(metric);
    std::string least;
    if (row.statistic != ChangeStatistic::Shift)
        least =
            fmt::format("x{:g}", sampling == Sampling::Blocks ? row.minBlockRatio : row.minRatio);
    if (row.minChange > 0)
        least +=
            fmt::format("{}{:g}{}", least.empty() ? "" : " and ", row.minChange, row.changeUnit);
    return fmt::format("{} {} with {}", row.name, least,
                       sampling == Sampling::Blocks ? "5 s blocks" : "rounds");
}

std::vector<std::string> verdictLegend(const Comparison &c)
{
    std::vector<std::string> least;
    bool undecided = false;
    for (const PhaseComparison &p : c.phases)
        for (const std::vector<ConsumerComparison> &run : p.runs)
            for (const ConsumerComparison &cc : run)
                for (const MetricComparison &m : cc.metrics) {
                    undecided |= m.verdict == Verdict::Undecided;
                    if (m.verdict == Verdict::Small) {
                        std::string text = minimumEffect(m.metric, m.sampling);
                        if (std::find(least.begin(), least.end(), text) == least.end())
                            least.push_back(std::move(text));
                    }
                }
    std::vector<std::string> legend;
    if (!least.empty())
        legend.push_back(fmt::format("small: past the noise (the interval excludes no change), "
                                     "but under the least change worth naming: {}",
                                     fmt::join(least, ", ")));
    if (undecided)
        legend.push_back("undecided: the interval excludes no change, but the Mann-Whitney test "
                         "does not find the sides different at its level; more rounds decide");
    return legend;
}

namespace {

// "[a, b]"; an end the samples do not bound is open: "[a, ∞)", "(-∞, b]".
std::string intervalText(const Interval &i, const std::function<std::string(double)> &end)
{
    return (std::isfinite(i.low) ? "[" + end(i.low) : "(-∞") + ", " +
           (std::isfinite(i.high) ? end(i.high) + "]" : "∞)");
}

} // namespace

std::string formatChange(const MetricComparison &m)
{
    // One bounded end is an interval: a ratio of miss rates over a baseline
    // with many blocks of no miss has none above, since the bootstrap's
    // resamples of it whose median is 0 divide by zero.
    const bool bounded = (std::isfinite(m.change.low) || std::isfinite(m.change.high)) &&
                         m.verdict != Verdict::TooFewSamples;
    auto withInterval = [&](const std::string &estimate,
                            const std::function<std::string(double)> &end) {
        return bounded ? estimate + " " + intervalText(m.change, end) : estimate;
    };
    const CompareMetricRow &row = metricRow(m.metric);
    if (m.asRatio && row.ratioText == RatioText::Percent) {
        auto pct = [](double r) { return fmt::format("{:+.0f}", 100 * (r - 1)); };
        if (!std::isfinite(m.change.estimate))
            return "-";
        return withInterval(pct(m.change.estimate) + " %", pct);
    }
    if (m.asRatio) {
        auto x = [](double r) {
            return std::isfinite(r) ? fmt::format("{:.{}f}", r, r < 10 ? 2 : 1) : "inf";
        };
        return withInterval("x" + x(m.change.estimate), x);
    }
    auto signed2 = [](double v) { return fmt::format("{:+.2f}", v); };
    return withInterval(signed2(m.change.estimate) + row.changeUnit, signed2);
}

namespace {

// Each run's label; two runs of one kernel are told apart by file name.
std::vector<std::string> labelRuns(const std::vector<Run> &runs,
                                   const std::vector<std::string> &fileNames)
{
    std::vector<std::string> labels;
    for (size_t i = 0; i < runs.size(); ++i) {
        std::string label = runLabel(runs[i]);
        for (size_t k = 0; k < runs.size(); ++k)
            if (k != i && runLabel(runs[k]) == label && i < fileNames.size()) {
                std::string file = fileNames[i].substr(fileNames[i].rfind('/') + 1);
                if (file.size() > 5 && file.substr(file.size() - 5) == ".json")
                    file.resize(file.size() - 5);
                label = file;
                break;
            }
        labels.push_back(label);
    }
    return labels;
}

// Every identity of every run, in the order each first appears, with each
// run's side of it.
std::vector<PhaseComparison> matchPhases(const std::vector<Run> &runs)
{
    std::vector<PhaseComparison> phases;
    std::vector<std::vector<PhaseGroup>> groups;
    for (const Run &r : runs)
        groups.push_back(groupPhases(r));
    for (size_t ri = 0; ri < runs.size(); ++ri)
        for (const PhaseGroup &g : groups[ri]) {
            if (std::any_of(phases.begin(), phases.end(),
                            [&](const PhaseComparison &p) { return p.key == g.key; }))
                continue;
            PhaseComparison p;
            p.key = g.key;
            p.name = g.name;
            for (size_t k = 0; k < runs.size(); ++k) {
                PhaseSide side;
                for (const PhaseGroup &other : groups[k])
                    if (other.key == g.key) {
                        side.present = true;
                        side.phases = other.phases;
                        for (size_t index : other.phases)
                            side.durationS += runs[k].phases[index].durationS;
                    }
                p.sides.push_back(std::move(side));
            }
            phases.push_back(std::move(p));
        }
    return phases;
}

// Run `ri`'s consumer `s` in phase `p` against run 1's: its metrics, or
// why it is not compared.
ConsumerComparison compareConsumer(const std::vector<Run> &runs, const Comparison &c,
                                   const PhaseComparison &p, size_t ri, const ConsumerStats &s,
                                   bool byRound)
{
    const PhaseSide &base = p.sides[0];
    const PhaseSide &side = p.sides[ri];
    ConsumerComparison cc;
    cc.consumer = s.name;
    cc.hasDeadline = s.hasDeadline;
    const bool inBase = base.present && runs[0].phases[base.phases.front()].consumer(s.name);
    cc.present = ri == 0 || inBase;
    if (ri > 0 && inBase)
        cc.refusal = settingsDiffer(runs[0], runs[ri], s.name, c, ri);
    if (!cc.present || !cc.refusal.empty())
        return cc;
    const bool baseByRound = byRound || (ri == 0 && base.phases.size() >= kMinRoundsAsSamples);
    const Sampling sampling = byRound ? Sampling::Rounds : Sampling::Blocks;
    const int untilDecided = runs[0].untilDecided.maxRounds;
    for (const CompareMetricRow &row : compareMetrics()) {
        if (!row.measures(s))
            continue;
        const std::vector<double> a = samplesOf(row, runs[0], base, s.name, baseByRound);
        const std::vector<double> b = ri == 0 ? a : samplesOf(row, runs[ri], side, s.name, byRound);
        // Rounds played until decided were looked at after each: the level
        // is the design's at this look, not kSignificance.
        const double level =
            untilDecided > 0 && byRound
                ? sequentialDesign(kMinRoundsAsSamples, static_cast<size_t>(untilDecided),
                                   kSignificance)
                      .levelAt(std::min(a.size(), b.size()))
                : kSignificance;
        cc.metrics.push_back(compareSamples(row.value, a, b, sampling, level));
    }
    return cc;
}

// Every run's side of `p` against run 1's; a refusal is also a warning of `c`.
void comparePhase(const std::vector<Run> &runs, PhaseComparison &p, Comparison &c)
{
    const PhaseSide &base = p.sides[0];
    p.runs.resize(runs.size());
    p.summaries.resize(runs.size());
    p.delayers.resize(runs.size());
    for (size_t ri = 0; ri < runs.size(); ++ri) {
        PhaseSide &side = p.sides[ri];
        if (!side.present)
            continue;
        std::vector<std::string> names;
        for (size_t index : side.phases)
            names.push_back(runs[ri].phases[index].name);
        p.delayers[ri] = topDelayers(runs[ri].explanations, names, kCompareDelayers);
        // Rounds are the samples when both sides have enough of them.
        const bool byRound = base.present && base.phases.size() >= kMinRoundsAsSamples &&
                             side.phases.size() >= kMinRoundsAsSamples;
        side.sampling = samplingOf(runs[ri], side, byRound);
        // The consumers of this side, in its first phase's order.
        for (const ConsumerStats &s : runs[ri].phases[side.phases.front()].consumers) {
            ConsumerComparison cc = compareConsumer(runs, c, p, ri, s, byRound);
            if (!cc.refusal.empty() &&
                std::find(c.warnings.begin(), c.warnings.end(), cc.refusal) == c.warnings.end())
                c.warnings.push_back(cc.refusal);
            p.runs[ri].push_back(std::move(cc));
        }
        if (ri > 0 && base.present)
            p.summaries[ri] = summaryOf(c.who(ri), p.runs[ri]);
    }
}

} // namespace

Comparison compareRuns(const std::vector<Run> &runs, const std::vector<std::string> &fileNames,
                       Compared compared)
{
    Comparison c;
    c.compared = compared;
    if (runs.empty())
        return c;
    c.runLabels = compared == Compared::Variants ? fileNames : labelRuns(runs, fileNames);
    describeRuns(runs, c);
    c.phases = matchPhases(runs);
    for (PhaseComparison &p : c.phases)
        comparePhase(runs, p, c);
    return c;
}

namespace {

std::string sidesText(const Comparison &c, const PhaseComparison &p)
{
    std::vector<std::string> sides;
    for (size_t i = 0; i < p.sides.size(); ++i) {
        const PhaseSide &s = p.sides[i];
        sides.push_back(
            fmt::format("{} {}", c.who(i),
                        s.present ? fmt::format("{:.1f} s, {}", s.durationS, s.sampling) : "-"));
    }
    return fmt::format("{}", fmt::join(sides, "; "));
}

// One run's consumers against the first run's, a metric a row; its values
// alone when there is one run.
std::string metricsTable(const Comparison &c, const std::vector<ConsumerComparison> &run, size_t ri)
{
    const bool single = c.runLabels.size() == 1;
    TextTable t = single
                      ? TextTable({"consumer", "metric", "median"})
                      : TextTable({"consumer", "metric", c.who(0), c.who(ri), "change", "verdict"});
    for (const ConsumerComparison &cc : run) {
        if (!cc.refusal.empty()) {
            t.addRow(single ? std::vector<std::string>{cc.consumer, "not compared", ""}
                            : std::vector<std::string>{cc.consumer, "not compared", "", "",
                                                       "settings", "-"});
            continue;
        }
        if (!cc.present) {
            t.addRow(single
                         ? std::vector<std::string>{cc.consumer, "-", "-"}
                         : std::vector<std::string>{cc.consumer, "only here", "-", "-", "-", "-"});
            continue;
        }
        bool first = true;
        for (const MetricComparison &m : cc.metrics) {
            const std::string name = first ? cc.consumer : "";
            first = false;
            if (single)
                t.addRow({name, metricTitle(m.metric), formatValue(m.metric, m.value)});
            else
                t.addRow({name, metricTitle(m.metric), formatValue(m.metric, m.base),
                          formatValue(m.metric, m.value), formatChange(m), toString(m.verdict)});
        }
    }
    return t.render(kReportWidth);
}

// Who delayed each run's explained misses in the phase, side by side; ""
// when none was explained.
std::string delayersTable(const Comparison &c, const PhaseComparison &p)
{
    if (std::none_of(p.delayers.begin(), p.delayers.end(),
                     [](const std::vector<Delayer> &d) { return !d.empty(); }))
        return {};
    const bool variants = c.compared == Compared::Variants;
    TextTable t({"top delayers", variants ? "variant" : "run", "seen", "total ms", "worst ms"});
    for (size_t ri = 0; ri < p.delayers.size(); ++ri)
        for (const Delayer &d : p.delayers[ri])
            t.addRow({delayerName(d), variants ? c.runLabels[ri] : fmt::format("{}", ri + 1),
                      fmt::format("{}", d.seen),
                      fmt::format("{:.3f}", static_cast<double>(d.totalNs) / 1e6),
                      fmt::format("{:.3f}", static_cast<double>(d.worstNs) / 1e6)});
    return t.render(kReportWidth);
}

} // namespace

std::string formatComparison(const Comparison &c)
{
    std::string out = fmt::format("compare: {} {}{}{}\n", c.runLabels.size(),
                                  c.compared == Compared::Variants ? "variant" : "run",
                                  c.runLabels.size() == 1 ? "" : "s",
                                  c.runLabels.size() > 1 ? ", each against " + c.who(0) : "");
    auto fit = [](const std::string &line) { return wrapText(line, kReportWidth); };
    for (const std::string &n : c.notes)
        out += fit(n);
    for (const std::string &w : c.warnings)
        out += fit("WARNING: " + w);
    std::vector<const PhaseComparison *> partial;
    for (const PhaseComparison &p : c.phases) {
        if (c.runLabels.size() > 1 && !p.inEveryRun()) {
            partial.push_back(&p);
            continue;
        }
        out += "\n" + fit("phase " + p.name);
        out += fit("  " + sidesText(c, p));
        for (size_t ri = c.runLabels.size() > 1 ? 1 : 0; ri < p.runs.size(); ++ri) {
            if (c.runLabels.size() > 2)
                out += fit(fmt::format("{} against {}", c.who(ri), c.who(0)));
            out += metricsTable(c, p.runs[ri], ri);
            if (!p.summaries[ri].empty())
                out += fit("=> " + p.summaries[ri]);
        }
        out += delayersTable(c, p);
    }
    if (!partial.empty()) {
        out += "\nphases only some runs have (not compared):\n";
        for (const PhaseComparison *p : partial) {
            std::vector<std::string> in;
            for (size_t i = 0; i < p->sides.size(); ++i)
                if (p->sides[i].present)
                    in.push_back(c.who(i));
            out += fit(fmt::format("  {} ({})", p->name, fmt::join(in, ", ")));
        }
    }
    const std::vector<std::string> legend = verdictLegend(c);
    if (!legend.empty())
        out += "\n";
    for (const std::string &line : legend)
        out += fit(line);
    return out;
}

namespace {

// A "|" in a label (a file name) would end its cell.
std::string markdownCell(const std::string &text)
{
    std::string cell;
    for (char ch : text)
        cell += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return cell;
}

// Run `ri`'s rows of `p` against run 1's, each value column headed by its
// run's label.
std::string markdownTable(const Comparison &c, const PhaseComparison &p, size_t ri)
{
    std::string out = fmt::format("| run | consumer | metric | {} | {} | change | verdict |\n"
                                  "|---|---|---|---:|---:|---|---|\n",
                                  markdownCell(c.runLabels[0]), markdownCell(c.runLabels[ri]));
    for (const ConsumerComparison &cc : p.runs[ri])
        for (const MetricComparison &m : cc.metrics)
            out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", ri + 1, cc.consumer,
                               metricTitle(m.metric), formatValue(m.metric, m.base),
                               formatValue(m.metric, m.value), ri ? formatChange(m) : "",
                               ri ? toString(m.verdict) : "");
    return out;
}

} // namespace

std::string formatComparisonMarkdown(const Comparison &c)
{
    std::string out = "# latprobe compare\n\n";
    // The notes name each run, with its noise check, as the text's do.
    for (const std::string &n : c.notes)
        out += "- " + n + "\n";
    for (const std::string &w : c.warnings)
        out += "- **warning:** " + w + "\n";
    for (const PhaseComparison &p : c.phases) {
        out += fmt::format("\n## {}\n\n{}\n\n", p.name, sidesText(c, p));
        if (!p.inEveryRun() && c.runLabels.size() > 1) {
            out += "Only some runs have this phase: not compared.\n";
            continue;
        }
        // A table per run against run 1, as in the text: a column holds one run's values.
        const size_t first = c.runLabels.size() > 1 ? 1 : 0;
        for (size_t ri = first; ri < p.runs.size(); ++ri) {
            out += (ri > first ? "\n" : "") + markdownTable(c, p, ri);
            if (!p.summaries[ri].empty())
                out += "\n" + p.summaries[ri] + "\n";
        }
    }
    for (const std::string &line : verdictLegend(c))
        out += "\n" + line + "\n";
    return out;
}

std::string formatComparisonCsv(const Comparison &c)
{
    std::string out = "phase,run,label,consumer,metric,base,value,change,low,high,p,verdict,"
                      "base_samples,samples\n";
    auto quote = [](const std::string &s) {
        std::string q = "\"";
        for (char ch : s)
            q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        return q + "\"";
    };
    for (const PhaseComparison &p : c.phases)
        for (size_t ri = 0; ri < p.runs.size(); ++ri)
            for (const ConsumerComparison &cc : p.runs[ri])
                for (const MetricComparison &m : cc.metrics)
                    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", quote(p.name),
                                       ri + 1, quote(c.runLabels[ri]), quote(cc.consumer),
                                       quote(toString(m.metric)), m.base, m.value,
                                       m.change.estimate, m.change.low, m.change.high, m.p,
                                       quote(toString(m.verdict)), m.baseSamples, m.samples);
    return out;
}

std::string formatComparisonJson(const Comparison &c)
{
    using nlohmann::json;
    auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
    json phases = json::array();
    for (const PhaseComparison &p : c.phases) {
        json sides = json::array();
        for (size_t ri = 0; ri < p.sides.size(); ++ri) {
            const PhaseSide &s = p.sides[ri];
            json consumers = json::array();
            if (ri < p.runs.size())
                for (const ConsumerComparison &cc : p.runs[ri]) {
                    json metrics = json::array();
                    for (const MetricComparison &m : cc.metrics)
                        metrics.push_back({{"metric", toString(m.metric)},
                                           {"base", num(m.base)},
                                           {"value", num(m.value)},
                                           {"as_ratio", m.asRatio},
                                           {"change", num(m.change.estimate)},
                                           {"low", num(m.change.low)},
                                           {"high", num(m.change.high)},
                                           {"p", num(m.p)},
                                           {"verdict", toString(m.verdict)},
                                           {"base_samples", m.baseSamples},
                                           {"samples", m.samples}});
                    consumers.push_back(
                        {{"consumer", cc.consumer}, {"refusal", cc.refusal}, {"metrics", metrics}});
                }
            sides.push_back(
                {{"present", s.present},
                 {"duration_s", s.durationS},
                 {"sampling", s.sampling},
                 {"consumers", consumers},
                 {"summary", p.summaries[ri].empty() ? json(nullptr) : json(p.summaries[ri])}});
        }
        phases.push_back({{"name", p.name}, {"key", p.key}, {"runs", sides}});
    }
    json out = {
        {"runs", c.runLabels}, {"notes", c.notes}, {"warnings", c.warnings}, {"phases", phases}};
    return out.dump(1) + "\n";
}

} // namespace latprobe
