#include "variantcompare.h"

#include "untildecided.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace latprobe {

bool hasVariants(const Run &run)
{
    return run.variants.size() >= 2;
}

std::vector<Run> splitByVariant(const Run &run)
{
    std::vector<Run> parts;
    for (const VariantRecord &v : run.variants) {
        Run part = run;
        part.variants = {v};
        std::erase_if(part.phases, [&](const PhaseResult &p) {
            return p.variant != v.name || !p.leftOut.empty();
        });
        const auto inPart = [&part](double t) {
            return std::any_of(part.phases.begin(), part.phases.end(), [t](const PhaseResult &p) {
                return t >= p.startS && t < p.startS + p.durationS;
            });
        };
        std::erase_if(part.misses, [&](const MissEvent &m) { return !inPart(m.timeS); });
        std::erase_if(part.states, [&](const StateCapture &s) { return !inPart(s.timeS); });
        std::erase_if(part.explanations,
                      [&](const MissExplanation &x) { return !inPart(x.timeS); });
        parts.push_back(std::move(part));
    }
    return parts;
}

Comparison compareVariants(const Run &run)
{
    std::vector<std::string> names;
    for (const VariantRecord &v : run.variants)
        names.push_back(v.name);
    return compareRuns(splitByVariant(run), names, Compared::Variants);
}

std::vector<RoundValue> roundValues(const std::vector<Run> &variants, const PhaseComparison &phase,
                                    const std::string &consumer, CompareMetric metric)
{
    const CompareMetricRow &row = metricRow(metric);
    std::vector<RoundValue> out;
    for (size_t v = 0; v < variants.size() && v < phase.sides.size(); ++v)
        for (size_t index : phase.sides[v].phases) {
            const PhaseResult &p = variants[v].phases[index];
            const ConsumerStats *c = p.consumer(consumer);
            if (!c || c->samples == 0)
                continue;
            if (const std::optional<double> value = row.sample(roundAsBlock(*c, p.durationS)))
                out.push_back({p.round, v, *value});
        }
    return out;
}

namespace {

// What one consumer's rows say of a variant against the first.
struct ConsumerVerdict
{
    std::string consumer;
    std::vector<std::string> changes; // "misses/min x4.1 [2.8, 6.0]", once per metric
    std::vector<std::string> large;   // too few to judge, yet past the minimum effect
    std::vector<std::string> small;   // past the noise, under the minimum effect
    std::vector<CompareMetric> metrics;
    bool worse = false, better = false;
    bool judged = false;    // a metric had the samples to be judged
    bool undecided = false; // a judged metric could still differ (rounds until decided)
    bool open = false;      // a metric's interval and test disagree (Verdict::Undecided)
};

// Every consumer's verdict against the first; `have` and `sampling` say how
// many samples a side the metrics too few to judge had at most.
std::vector<ConsumerVerdict> verdictsOf(const Comparison &c, size_t variant, size_t &have,
                                        Sampling &sampling)
{
    std::vector<ConsumerVerdict> out;
    for (const PhaseComparison &p : c.phases) {
        if (!p.inEveryRun() || variant >= p.runs.size())
            continue;
        for (const ConsumerComparison &cc : p.runs[variant]) {
            if (!cc.present || !cc.refusal.empty())
                continue;
            auto it = std::find_if(out.begin(), out.end(), [&](const ConsumerVerdict &v) {
                return v.consumer == cc.consumer;
            });
            if (it == out.end()) {
                out.emplace_back().consumer = cc.consumer;
                it = out.end() - 1;
            }
            for (const MetricComparison &m : cc.metrics) {
                const bool tooFew = m.verdict == Verdict::TooFewSamples;
                it->judged |= !tooFew;
                it->undecided |= !tooFew && !m.decided;
                it->open |= m.verdict == Verdict::Undecided;
                if (tooFew) {
                    have = std::max(have, std::min(m.baseSamples, m.samples));
                    sampling = m.sampling;
                }
                const bool named = m.verdict == Verdict::Worse || m.verdict == Verdict::Better;
                const bool small = m.verdict == Verdict::Small;
                const bool open = tooFew || m.verdict == Verdict::Undecided;
                if (!named && !small && !(open && m.large))
                    continue;
                if (std::find(it->metrics.begin(), it->metrics.end(), m.metric) !=
                    it->metrics.end())
                    continue; // the first phase that shows it speaks for the metric
                it->metrics.push_back(m.metric);
                const std::string change =
                    fmt::format("{} {}", toString(m.metric), formatChange(m));
                if (!named) {
                    (small ? it->small : it->large).push_back(change);
                    continue;
                }
                it->changes.push_back(change);
                (m.verdict == Verdict::Worse ? it->worse : it->better) = true;
            }
        }
    }
    return out;
}

} // namespace

std::vector<std::string> variantHeadlines(const Run &run, const Comparison &comparison)
{
    std::vector<std::string> lines;
    for (size_t i = 1; i < run.variants.size(); ++i) {
        size_t have = 0;
        Sampling sampling = Sampling::Rounds;
        const std::vector<ConsumerVerdict> verdicts = verdictsOf(comparison, i, have, sampling);
        // Played until decided, "~" is a finding only where a row decided it.
        const bool untilDecided = run.untilDecided.maxRounds > 0;
        bool worse = false, better = false, allJudged = true, anyJudged = false;
        std::vector<std::string> changed, small, same, large;
        for (const ConsumerVerdict &v : verdicts) {
            worse |= v.worse;
            better |= v.better;
            allJudged &= v.judged && !(untilDecided && v.undecided) && !v.open;
            anyJudged |= v.judged;
            if (!v.changes.empty())
                changed.push_back(fmt::format("{} {}", v.consumer, fmt::join(v.changes, ", ")));
            else if (v.small.empty())
                same.push_back(v.consumer + (!v.judged ? " too few"
                                             : (untilDecided && v.undecided) || v.open
                                                 ? " undecided"
                                                 : " ~"));
            if (!v.small.empty())
                small.push_back(fmt::format("{} {}", v.consumer, fmt::join(v.small, ", ")));
            if (!v.large.empty())
                large.push_back(fmt::format("{} {}", v.consumer, fmt::join(v.large, ", ")));
        }
        // "No different" only where the test decided so; too few samples
        // leave it undecided, whatever the medians, and a change past the
        // noise but under its minimum effect is small.
        const bool onlySmall = !worse && !better && allJudged && !small.empty();
        const char *word = worse && better ? "mixed against"
                           : worse         ? "worse than"
                           : better        ? "better than"
                           : !allJudged    ? "undecided against"
                           : onlySmall     ? "small against"
                                           : "no different from";
        std::string parts = fmt::format("{}", fmt::join(changed, ", "));
        if (!small.empty())
            parts += fmt::format("{}{}",
                                 onlySmall       ? ""
                                 : parts.empty() ? "small: "
                                                 : "; small: ",
                                 fmt::join(small, ", "));
        if (!anyJudged)
            same = {notEnoughToTell(have, sampling)};
        if (!same.empty())
            parts += (parts.empty() ? "" : "; ") + fmt::format("{}", fmt::join(same, ", "));
        if (!large.empty())
            parts += fmt::format("; large but undecided: {}", fmt::join(large, ", "));
        if (verdicts.empty())
            parts = "no phase measured under both";
        lines.push_back(fmt::format("{} {} {}: {}", run.variants[i].describe(), word,
                                    run.variants[0].name, parts));
    }
    if (const std::string rounds = roundsOutcome(run, comparison); !rounds.empty())
        lines.push_back(rounds);
    return lines;
}

} // namespace latprobe
