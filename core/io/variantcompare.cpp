#include "variantcompare.h"

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
    return compareRuns(splitByVariant(run), names);
}

namespace {

// What one consumer's rows say of a variant against the first.
struct ConsumerVerdict
{
    std::string consumer;
    std::vector<std::string> changes; // "misses/min x4.1 [2.8, 6.0]", once per metric
    std::vector<CompareMetric> metrics;
    bool worse = false, better = false;
};

std::vector<ConsumerVerdict> verdictsOf(const Comparison &c, size_t variant)
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
            if (it == out.end())
                it = out.insert(out.end(), ConsumerVerdict{cc.consumer, {}, {}, false, false});
            for (const MetricComparison &m : cc.metrics) {
                if (m.verdict != Verdict::Worse && m.verdict != Verdict::Better)
                    continue;
                if (std::find(it->metrics.begin(), it->metrics.end(), m.metric) !=
                    it->metrics.end())
                    continue; // the first phase that shows it speaks for the metric
                it->metrics.push_back(m.metric);
                it->changes.push_back(fmt::format("{} {}", toString(m.metric), formatChange(m)));
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
        const std::vector<ConsumerVerdict> verdicts = verdictsOf(comparison, i);
        bool worse = false, better = false;
        std::vector<std::string> changed, same;
        for (const ConsumerVerdict &v : verdicts) {
            worse |= v.worse;
            better |= v.better;
            if (v.changes.empty())
                same.push_back(v.consumer + " ~");
            else
                changed.push_back(fmt::format("{} {}", v.consumer, fmt::join(v.changes, ", ")));
        }
        const char *word = worse && better ? "mixed against"
                           : worse         ? "worse than"
                           : better        ? "better than"
                                           : "no different from";
        std::string parts = fmt::format("{}", fmt::join(changed, ", "));
        if (!same.empty())
            parts += (parts.empty() ? "" : "; ") + fmt::format("{}", fmt::join(same, ", "));
        if (verdicts.empty())
            parts = "no phase measured under both";
        lines.push_back(fmt::format("{} {} {}: {}", run.variants[i].describe(), word,
                                    run.variants[0].name, parts));
    }
    return lines;
}

} // namespace latprobe
