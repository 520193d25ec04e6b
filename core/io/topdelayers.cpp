#include "topdelayers.h"

#include "textwrap.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace latprobe {

namespace {

std::string ms(int64_t ns)
{
    return fmt::format("{:.3f}", static_cast<double>(ns) / 1e6);
}

} // namespace

std::vector<Delayer> topDelayers(const std::vector<MissExplanation> &explanations,
                                 const std::vector<std::string> &phases, size_t limit)
{
    std::map<std::tuple<int, int, std::string>, Delayer> byWho;
    for (const MissExplanation &x : explanations) {
        if (std::find(phases.begin(), phases.end(), x.phase) == phases.end())
            continue;
        for (const DelayShare &s : x.shares) {
            Delayer &d = byWho[{static_cast<int>(s.kind), s.pid, s.name}];
            if (d.seen == 0) {
                d.kind = s.kind;
                d.name = s.name;
                d.pid = s.pid;
                d.policy = s.policy;
                d.load = s.load;
            }
            ++d.seen;
            d.totalNs += s.ns;
            d.worstNs = std::max(d.worstNs, s.ns);
        }
    }
    std::vector<Delayer> out;
    for (auto &[key, d] : byWho)
        out.push_back(std::move(d));
    std::stable_sort(out.begin(), out.end(),
                     [](const Delayer &a, const Delayer &b) { return a.totalNs > b.totalNs; });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::string delayerName(const Delayer &d)
{
    switch (d.kind) {
    case DelayShare::Kind::Task:
        return fmt::format("{}[{}]", d.name, d.pid);
    case DelayShare::Kind::Irq:
    case DelayShare::Kind::Softirq:
        return fmt::format("{} {}", toString(d.kind), d.name);
    case DelayShare::Kind::Idle:
        return toString(d.kind);
    }
    return d.name;
}

std::string describeLoad(const std::string &load)
{
    return load == "(probe)" ? "latprobe's own consumer" : "latprobe load " + load;
}

std::string delayersLine(const std::vector<MissExplanation> &explanations, const std::string &phase,
                         uint64_t misses, size_t limit)
{
    const auto explained =
        std::count_if(explanations.begin(), explanations.end(),
                      [&](const MissExplanation &x) { return x.phase == phase; });
    if (explained == 0)
        return {};
    std::vector<std::string> who;
    for (const Delayer &d : topDelayers(explanations, {phase}, limit))
        who.push_back(
            fmt::format("{} {:.1f} ms", delayerName(d), static_cast<double>(d.totalNs) / 1e6));
    return fmt::format("who delayed {}: {} ({} of {} misses explained)", phase,
                       fmt::join(who, ", "), explained,
                       std::max<uint64_t>(misses, static_cast<uint64_t>(explained)));
}

std::string formatExplanation(const MissExplanation &x, size_t width)
{
    std::string out =
        wrapText(fmt::format("{} miss at {:.3f} s ({}), tid {}, cpu {}: {} ms from "
                             "period start to work done",
                             x.consumer, x.timeS, x.phase, x.tid, x.cpu, ms(x.windowNs)),
                 width, "  ");
    std::string split = fmt::format("timer {}", ms(x.timerNs));
    if (x.expiryNs >= 0)
        split += fmt::format(" (expired +{})", ms(x.expiryNs));
    split += fmt::format(", irq {}, waited {}, ran {}", ms(x.irqNs), ms(x.waitNs), ms(x.selfNs));
    if (x.unknownNs > 0)
        split += fmt::format(", unknown {}", ms(x.unknownNs));
    if (x.migrations > 0)
        split += fmt::format(", {} migration{}", x.migrations, x.migrations == 1 ? "" : "s");
    out += wrapText("  " + split + " (ms)", width, "    ");
    for (const DelayShare &s : x.shares) {
        Delayer d;
        d.kind = s.kind, d.name = s.name, d.pid = s.pid;
        std::string line = fmt::format("  {} ms {}", ms(s.ns), delayerName(d));
        if (!s.policy.empty())
            line += ", " + s.policy.str();
        if (!s.load.empty())
            line += ", " + describeLoad(s.load);
        out += wrapText(line, width, "    ");
    }
    if (x.otherShares > 0)
        out += wrapText(
            fmt::format("  {} ms {} others, each less", ms(x.otherSharesNs), x.otherShares), width,
            "    ");
    if (!x.waitEnd.empty())
        out += wrapText("  wait ended: " + x.waitEnd.str() +
                            (x.waitEndTask.empty() ? "" : " (" + x.waitEndTask + " had the CPU)"),
                        width, "    ");
    if (!x.note.empty())
        out += wrapText("  note: " + x.note, width, "    ");
    return out;
}

} // namespace latprobe
