#include "untildecided.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace latprobe {

namespace {

// Enough to say where the doubt is, short enough for a progress line.
constexpr size_t kUndecidedNamed = 3;

} // namespace

RoundsLook lookAtRounds(const Comparison &variants)
{
    RoundsLook look;
    look.looked = true;
    size_t undecided = 0;
    for (const PhaseComparison &p : variants.phases) {
        if (!p.inEveryRun())
            continue;
        for (size_t ri = 1; ri < p.runs.size(); ++ri)
            for (const ConsumerComparison &cc : p.runs[ri]) {
                if (!cc.present || !cc.refusal.empty())
                    continue;
                for (const MetricComparison &m : cc.metrics) {
                    if (m.sampling != Sampling::Rounds) {
                        look.looked = false; // too few rounds yet to be samples
                        continue;
                    }
                    if (m.verdict == Verdict::TooFewSamples)
                        continue; // no round of it can be judged: not a row to wait for
                    ++look.judged;
                    if (m.decided) {
                        ++look.decided;
                    } else if (undecided++ < kUndecidedNamed) {
                        look.undecided.push_back(
                            fmt::format("{} {} in {}", cc.consumer, toString(m.metric), p.name));
                    }
                }
            }
    }
    if (undecided > kUndecidedNamed)
        look.undecided.push_back(fmt::format("{} more", undecided - kUndecidedNamed));
    return look;
}

std::string roundsOutcome(const Run &run, const Comparison &variants)
{
    const Run::UntilDecided &u = run.untilDecided;
    if (u.maxRounds <= 0)
        return {};
    if (u.decided)
        return fmt::format("decided after {} of at most {} rounds", u.played, u.maxRounds);
    const RoundsLook look = lookAtRounds(variants);
    const std::string which = look.undecided.empty()
                                  ? std::string()
                                  : fmt::format(": {}", fmt::join(look.undecided, ", "));
    if (u.played < u.maxRounds)
        return fmt::format("undecided after {} of at most {} rounds (the run ended early){}",
                           u.played, u.maxRounds, which);
    return fmt::format("undecided after {} rounds{}", u.played, which);
}

std::string describeLook(const RoundsLook &look, int nextLookRound)
{
    if (!look.looked)
        return fmt::format("first look after round {}", nextLookRound);
    return fmt::format("{} of {} rows decided, next look after round {}", look.decided, look.judged,
                       nextLookRound);
}

} // namespace latprobe
