#include "report.h"

#include "scenario.h"
#include "texttable.h"
#include "textwrap.h"
#include "topdelayers.h"
#include "variantcompare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace latprobe {

namespace {

std::string ms(double us)
{
    return fmt::format("{:.3f}", us / 1000.0);
}

std::string fit(std::string line)
{
    if (line.size() > kReportWidth)
        line = line.substr(0, kReportWidth - 3) + "...";
    return line + "\n";
}

// The loop speed a consumer worked at, how settled, and whether it held.
std::string loopSpeedLines(const ConsumerSetup &c)
{
    const LoopCalibration &start = c.loopSpeed;
    if (!start.measured())
        return {};
    std::string line = fmt::format("loops/ms {} {:.0f}", c.config.name, start.loopsPerMs);
    if (start.trials == 0)
        line += " (best of 5 trials, an older latprobe)";
    else
        line += fmt::format(", spread {:.1f} % ({} trials{})", start.spreadPct(), start.trials,
                            start.settled ? "" : ", unsettled");
    std::string out = wrapText(line, kReportWidth, "  ");
    std::string later;
    for (auto [what, speed] :
         {std::pair{"in its work", &c.workLoopSpeed}, std::pair{"at the end", &c.endLoopSpeed}})
        if (speed->measured())
            later += fmt::format("{}{} {:.0f} ({:+.1f} %)", later.empty() ? "  " : ", ", what,
                                 speed->loopsPerMs, loopSpeedChangePct(start, *speed));
    if (!later.empty())
        out += wrapText(later, kReportWidth, "  ");
    if (start.perCpu.size() > 1)
        out += wrapText("  by CPU " + cpuSpeedsText(start), kReportWidth, "  ");
    for (const std::string &w :
         {loopTrustWarning(c.config.name, start),
          loopWanderWarning(c.config.name, start, c.workLoopSpeed, c.endLoopSpeed)})
        if (!w.empty())
            out += wrapText("WARNING: " + w, kReportWidth, "  ");
    return out;
}

// Which consumers a timekeeper woke (interbench's method), and what its
// thread was granted: their latency is not the others'. Nothing when every
// consumer woke on its own timer, the legend's definition.
std::string wakeLines(const Run &run)
{
    std::string woken;
    const ConsumerSetup *first = nullptr;
    for (const ConsumerSetup &c : run.consumers)
        if (c.config.wake == WakeMethod::Timekeeper) {
            woken += (woken.empty() ? "" : ", ") + c.config.name;
            if (!first)
                first = &c;
        }
    if (!first)
        return {};
    const ThreadGrant &g = first->timekeeperGrant;
    std::string line = fmt::format("wake timekeeper {}", toString(g.policy));
    if (g.policy == SchedPolicy::Fifo || g.policy == SchedPolicy::RoundRobin)
        line += fmt::format(" prio {}", g.priority);
    line += fmt::format(": {}; latency {}", woken, latencyDefinition(WakeMethod::Timekeeper));
    std::string out = wrapText(line, kReportWidth, "  ");
    if (!g.refusal.empty())
        out += wrapText("WARNING: timekeeper: " + g.refusal, kReportWidth, "  ");
    return out;
}

std::string header(const Run &run)
{
    const SystemInfo &s = run.system;
    std::string out;
    out += fit(fmt::format("latprobe {}  Linux {} {}  {} CPUs  HZ {}", run.version, s.kernelRelease,
                           s.machine, s.cpuCount, s.hz));
    out += fit(fmt::format("cpu {}", s.cpuModel));
    out += fit(fmt::format("sched {}  preempt {}  autogroup {}  virt {}", s.scheduler, s.preemption,
                           s.autogroup, s.virtualization));
    if (!run.consumers.empty()) {
        const ThreadGrant &g = run.consumers.front().grant;
        std::string probe = fmt::format("probe {}", toString(g.policy));
        if (g.policy == SchedPolicy::Fifo || g.policy == SchedPolicy::RoundRobin)
            probe += fmt::format(" prio {}", g.priority);
        else
            probe += fmt::format(" nice {}", g.nice);
        probe += fmt::format(", timer slack {} us", g.timerSlackNs / 1000.0);
        if (!run.requested.cpus.empty())
            probe += ", cpus " + formatCpuList(g.cpus);
        if (run.consumers.front().config.workMode == WorkMode::Loops)
            probe += ", work loop-calibrated";
        out += fit(probe);
        for (const ConsumerSetup &c : run.consumers)
            if (!c.grant.refusal.empty()) {
                out += fit("WARNING: " + c.grant.refusal);
                break;
            }
        for (const ConsumerSetup &c : run.consumers)
            out += loopSpeedLines(c);
        out += wakeLines(run);
    }
    if (!run.noise.ran)
        out += fit("noise check skipped");
    else {
        out += fit(fmt::format("noise {}", run.noise.summary()));
        if (!run.noise.trustMax())
            out += fit("  on a noisy machine the max may be the host's: compare p99");
    }
    if (!run.stopVerdict.empty()) {
        for (size_t i = 0; i < run.stopVerdict.size(); ++i)
            out += wrapText((i == 0 ? "" : "  ") + run.stopVerdict[i], kReportWidth, "      ");
    } else if (run.thresholdStep >= 0 && run.thresholdStep < static_cast<int>(run.phases.size())) {
        // A run file from before the stop condition said its own verdict.
        const int t = run.thresholdStep;
        out += fit(fmt::format("threshold: misses from phase {} ({})", t + 1, run.phases[t].name));
        if (t > 0)
            out += fit(fmt::format("usable up to: {}", run.phases[t - 1].name));
    }
    double total = 0;
    for (const PhaseResult &p : run.phases)
        total += p.durationS;
    const std::string scenario = run.scenario.empty() ? kPlainRunScenario : run.scenario;
    const std::string end = run.endReason + (run.partial ? " (partial)" : "");
    const std::string line =
        fmt::format("run {}  {:.1f} s  {}  {}", run.startTime, total, scenario, end);
    // A long scenario name gets a line of its own: cut, it would take how
    // the run ended with it.
    if (line.size() <= kReportWidth)
        out += fit(line);
    else
        out += fit(fmt::format("run {}  {:.1f} s  {}", run.startTime, total, end)) +
               fit("scenario " + scenario);
    return out;
}

std::string phaseTables(const PhaseResult &phase)
{
    TextTable latency({"latency ms", "min", "mean", "p50", "p90", "p99", "p99.9", "max", "sd"});
    TextTable deadlines(
        {"deadlines", "samples", "sampled%", ">1ms", ">5ms", "misses", "met%", "cpu%", "ib rms"});
    for (const ConsumerStats &c : phase.consumers) {
        latency.addRow({c.name, ms(c.minUs), ms(c.meanUs), ms(c.p50Us), ms(c.p90Us), ms(c.p99Us),
                        ms(c.p999Us), ms(c.maxUs), ms(c.stddevUs)});
        const bool d = c.hasDeadline;
        deadlines.addRow({c.name, fmt::format("{}", c.samples), fmt::format("{:.2f}", c.sampledPct),
                          fmt::format("{}", c.over1ms), fmt::format("{}", c.over5ms),
                          d ? fmt::format("{}", c.misses) : "-",
                          d ? fmt::format("{:.2f}", c.deadlinesMetPct) : "-",
                          c.hasCpuTarget ? fmt::format("{:.1f}", c.desiredCpuPct) : "-",
                          c.hasCpuTarget ? ms(c.ibLatencyRmsUs) : "-"});
    }
    return latency.render(kReportWidth) + "\n" + deadlines.render(kReportWidth);
}

// "SCHED_FIFO 10" as "FIFO 10", "SCHED_OTHER nice 0" as "nice 0": the
// table must fit an email beside the delayer's name.
std::string shortPolicy(const std::string &policy)
{
    if (policy.empty())
        return "-";
    std::string p = policy.rfind("SCHED_", 0) == 0 ? policy.substr(6) : policy;
    if (p.rfind("OTHER ", 0) == 0)
        p = p.substr(6);
    return p;
}

// Where a miss's saved trace is, and how to open it; or that it is gone.
std::string traceFileLine(const Run &run, const MissExplanation &x)
{
    const std::string path = traceFilePath(run, x);
    if (path.empty())
        return {};
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return wrapText(fmt::format("  its trace {} is missing (moved or deleted)", path),
                        kReportWidth, "    ");
    return commandLine("  its trace:", path, kReportWidth) +
           commandLine("  open it: ", "trace-cmd report " + path, kReportWidth) +
           commandLine("       or: ", "kernelshark " + path, kReportWidth);
}

// The explanations of the misses in `phase`: by its time span too, since
// its rounds, and other variants' turns, share its name.
std::vector<MissExplanation> explanationsIn(const Run &run, const PhaseResult &phase)
{
    std::vector<MissExplanation> mine;
    for (const MissExplanation &x : run.explanations)
        if (x.phase == phase.name && x.timeS >= phase.startS &&
            x.timeS < phase.startS + phase.durationS)
            mine.push_back(x);
    return mine;
}

// Who delayed the phase's explained misses, and its worst one in full: what
// a tester pastes into a bug report.
std::string delayerTables(const Run &run, const PhaseResult &phase)
{
    const std::vector<MissExplanation> mine = explanationsIn(run, phase);
    if (mine.empty() && !phase.traced && phase.misses() > 0)
        return "\n" + wrapText(fmt::format("none of its {} misses explained: the scenario step "
                                           "paused the flight recorder (\"trace\": false)",
                                           phase.misses()),
                               kReportWidth, "  ");
    if (mine.empty())
        return {};
    std::string out = "\n" + fit(fmt::format("top delayers ({} of {} misses explained)",
                                             mine.size(), phase.misses()));
    TextTable table({"delayer", "policy", "seen", "total ms", "worst ms"});
    std::string loads;
    for (const Delayer &d : topDelayers(mine, {phase.name}, 8)) {
        std::string name = delayerName(d);
        if (name.size() > 30)
            name = name.substr(0, 27) + "...";
        table.addRow({name, shortPolicy(d.policy), fmt::format("{}", d.seen),
                      fmt::format("{:.3f}", static_cast<double>(d.totalNs) / 1e6),
                      fmt::format("{:.3f}", static_cast<double>(d.worstNs) / 1e6)});
        if (!d.load.empty())
            loads += wrapText(fmt::format("  {}: {}", delayerName(d), describeLoad(d.load)),
                              kReportWidth, "    ");
    }
    out += table.render(kReportWidth) + loads;
    const MissExplanation &worst = *std::max_element(
        mine.begin(), mine.end(), [](const MissExplanation &a, const MissExplanation &b) {
            return a.delayNs() < b.delayNs();
        });
    return out + fit("worst explained miss:") + formatExplanation(worst, kReportWidth) +
           traceFileLine(run, worst);
}

// The recorder's line in the header: on and what it costs, or why not.
std::string traceLine(const TraceSummary &t)
{
    if (!t.on)
        return t.message.empty() ? std::string() : fit("WARNING: " + t.message);
    std::string line = fit(fmt::format("trace {} KiB x {} CPUs, {} reads, {} events, {:.3f} s CPU",
                                       t.bufferKbPerCpu, t.cpus, t.reads, t.events, t.cpuS));
    if (t.overBudget > 0)
        line += wrapText(fmt::format("  {} misses left unexplained: the recorder keeps to {:.1f} % "
                                     "of a CPU",
                                     t.overBudget, t.cpuBudgetPct),
                         kReportWidth, "    ");
    if (t.savingTraces)
        line += wrapText(fmt::format("  {} trace.dat files saved ({:.1f} MiB){}{}", t.tracesSaved,
                                     static_cast<double>(t.traceBytes) / (1 << 20),
                                     t.tracesOverCap > 0
                                         ? fmt::format(", {} windows left out at the cap "
                                                       "(--trace-max)",
                                                       t.tracesOverCap)
                                         : "",
                                     t.traceError.empty() ? "" : "; " + t.traceError),
                         kReportWidth, "    ");
    return line;
}

// Phase i's heading, tables and warnings, and who delayed its misses.
std::string phaseSection(const Run &run, size_t i)
{
    const PhaseResult &p = run.phases[i];
    std::string out = "\n";
    out += fit(
        fmt::format("phase {}/{}  {}  {:.1f} s", i + 1, run.phases.size(), p.name, p.durationS));
    if (!p.leftOut.empty())
        out += fit("LEFT OUT of the comparison: " + p.leftOut);
    out += phaseTables(p);
    uint64_t overflows = 0;
    for (const ConsumerStats &c : p.consumers)
        overflows += c.ringOverflows;
    if (overflows)
        out += fit(fmt::format("WARNING: {} samples dropped (collector fell behind)", overflows));
    for (const ConsumerStats &c : p.consumers)
        if (c.failures)
            out += fit(fmt::format("WARNING: {}: {} of {} failed outright (counted as misses)",
                                   c.name, c.failures, c.samples));
    return out + delayerTables(run, p);
}

// Each load's progress and fairness, then the same over the CPU time the
// kernel gave each worker, and the loads that failed.
std::string loadTables(const std::vector<LoadGroupResult> &groups)
{
    TextTable loads({"loads", "per s", "unit", "cpu%", "cv%", "max/min", "jain"});
    for (const LoadGroupResult &l : groups) {
        // A custom load counts no progress: no fairness to speak of.
        const bool counted = l.unit != "-";
        loads.addRow({l.label, counted ? fmt::format("{:.1f}", l.throughputPerS) : "-", l.unit,
                      fmt::format("{:.1f}", l.cpuSharePct),
                      counted ? fmt::format("{:.2f}", l.fairness.cvPct) : "-",
                      !counted                    ? "-"
                      : l.fairness.maxOverMin > 0 ? fmt::format("{:.2f}", l.fairness.maxOverMin)
                                                  : "inf",
                      counted ? fmt::format("{:.3f}", l.fairness.jain) : "-"});
    }
    TextTable cpu({"cpu time", "s/worker", "cv%", "max/min", "jain"});
    for (const LoadGroupResult &l : groups) {
        const Fairness &f = l.cpuFairness;
        const bool known = f.workers > 0;
        cpu.addRow({l.label, known ? fmt::format("{:.2f}", f.mean) : "-",
                    known ? fmt::format("{:.2f}", f.cvPct) : "-",
                    !known             ? "-"
                    : f.maxOverMin > 0 ? fmt::format("{:.2f}", f.maxOverMin)
                                       : "inf",
                    known ? fmt::format("{:.3f}", f.jain) : "-"});
    }
    std::string out = loads.render(kReportWidth) + "\n" + cpu.render(kReportWidth);
    for (const LoadGroupResult &l : groups)
        if (!l.error.empty())
            out += fit("ERROR: " + l.error);
    return out;
}

// A miss is a deadline passed: say each one, or a slow start's 1 ms
// latency beside 0 misses reads as a contradiction.
std::string deadlinesLine(const std::vector<ConsumerSetup> &consumers)
{
    std::string deadlines, windows;
    for (const ConsumerSetup &c : consumers) {
        if (!c.config.hasDeadline())
            continue;
        // X's burns are due by the end of a window whose length ramps.
        if (c.config.rampStepNs > 0)
            windows += (windows.empty() ? "" : ", ") + c.config.name;
        else
            deadlines +=
                fmt::format("{}{} {}", deadlines.empty() ? "" : ", ", c.config.name,
                            fmt::format("{:.3g} ms", static_cast<double>(c.config.slackNs) / 1e6));
    }
    if (deadlines.empty() && windows.empty())
        return {};
    std::string line = "deadlines:";
    if (!deadlines.empty())
        line += " " + deadlines + " after the period start" + (windows.empty() ? "." : ";");
    if (!windows.empty())
        line += " " + windows + " by the end of its window.";
    return line;
}

// What the columns mean, and what this run's consumers and loads add to it:
// a paragraph each, the first broken as the text report prints it.
std::vector<std::string> legendParagraphs(const Run &run)
{
    std::vector<std::string> out{"latency: wakeup - period start, us truncated (cyclictest);\n"
                                 "sampled% = periods measured of those due; >1ms, >5ms = samples\n"
                                 "later than that; misses: periods lost (interbench);\n"
                                 "met% = met/(met+missed); cpu% = work done/asked;\n"
                                 "sd is a true standard deviation; ib rms = interbench's \"SD\"\n"
                                 "of latency + lost periods."};
    bool timekeeper = false, gaming = false;
    for (const ConsumerSetup &c : run.consumers) {
        timekeeper = timekeeper || c.config.wake == WakeMethod::Timekeeper;
        gaming = gaming || c.config.kind == ConsumerKind::Continuous;
    }
    if (timekeeper)
        out.emplace_back("latency interbench (woken by a timekeeper): wakeup - period start - "
                         "the timekeeper's own oversleep, + a period per period lost.");
    if (gaming)
        out.emplace_back("gaming: burns back to back, no deadline; latency = how late a burn "
                         "ended, cpu% = burns/(burns + latency), interbench's Gaming.");
    if (std::string deadlines = deadlinesLine(run.consumers); !deadlines.empty())
        out.push_back(std::move(deadlines));
    if (!run.loads.empty())
        out.emplace_back("loads: cpu% of the machine; cv%, max/min and jain of per-worker "
                         "progress (loads) and of per-worker CPU time from the kernel (cpu "
                         "time). Uneven progress with even CPU time: the CPUs or the work "
                         "differ, not the scheduler's share.");
    return out;
}

std::string legend(const Run &run)
{
    std::string out;
    for (const std::string &p : legendParagraphs(run))
        out += p.find('\n') != std::string::npos ? p + "\n" : wrapText(p, kReportWidth, "  ");
    return out;
}

// The variants a run played, what each changed on the machine and whether
// it was put back: a failed restore says how to do it by hand.
std::string variantsSection(const Run &run)
{
    std::string out = "\nvariants, in turns (each against the first):\n";
    for (const VariantRecord &v : run.variants) {
        out += fit("  " + v.describe());
        for (const SettingRecord &c : v.changes) {
            out +=
                fit(fmt::format("    {}: {} -> {} -> {}", c.target.empty() ? c.setting : c.target,
                                c.before, c.applied, c.restored));
            if (!c.error.empty())
                out += fit("    NOT PUT BACK: " + c.error);
            if (!c.restoreBy.empty() && !c.error.empty())
                // Never cut: the command is copied as it stands.
                out += "      put it back by hand: " + c.restoreBy + "\n";
        }
    }
    // One line per round left out, as stderr said it during the run.
    std::vector<std::string> leftOut;
    for (const PhaseResult &p : run.phases)
        if (!p.leftOut.empty() &&
            std::find(leftOut.begin(), leftOut.end(), p.leftOut) == leftOut.end())
            leftOut.push_back(p.leftOut);
    for (const std::string &line : leftOut)
        out += line + "\n";
    return out;
}

// A variant run: its phases variant by variant, then every variant against
// the first and the headline a tester can post.
std::string variantPhases(const Run &run)
{
    std::string out = variantsSection(run);
    for (const VariantRecord &v : run.variants) {
        out += "\n" + fit("== variant " + v.describe());
        for (size_t i = 0; i < run.phases.size(); ++i)
            if (run.phases[i].variant == v.name)
                out += phaseSection(run, i);
    }
    return out;
}

std::string variantVerdict(const Run &run)
{
    const Comparison c = compareVariants(run);
    std::string out = "\n" + formatComparison(c) + "\n";
    for (const std::string &line : variantHeadlines(run, c))
        out += line + "\n"; // one line to paste, however long
    return out;
}

} // namespace

std::string formatTextReport(const Run &run)
{
    std::string out = header(run) + traceLine(run.trace);
    if (hasVariants(run))
        out += variantPhases(run);
    else
        for (size_t i = 0; i < run.phases.size(); ++i)
            out += phaseSection(run, i);
    if (!run.loads.empty())
        out += "\n" + loadTables(run.loads);
    out += "\n" + legend(run);
    return hasVariants(run) ? out + variantVerdict(run) : out;
}

ReportPage reportPage(const Run &run)
{
    const SystemInfo &s = run.system;
    ReportPage page;
    page.title = fmt::format("latprobe {} on Linux {} {}", run.version, s.kernelRelease, s.machine);
    page.facts.push_back(fmt::format("CPU: {} x {} ({}), HZ {}, preempt {}, scheduler {}, "
                                     "autogroup {}",
                                     s.cpuCount, s.cpuModel, s.machine, s.hz, s.preemption,
                                     s.scheduler, s.autogroup));
    if (!run.consumers.empty()) {
        const ThreadGrant &g = run.consumers.front().grant;
        page.facts.push_back(fmt::format("probe: {} nice {}, timer slack {} us", toString(g.policy),
                                         g.nice, g.timerSlackNs / 1000.0));
    }
    for (const ConsumerSetup &c : run.consumers)
        if (c.config.wake == WakeMethod::Timekeeper)
            page.facts.push_back(fmt::format("{}: woken by a timekeeper ({}), latency {}",
                                             c.config.name, toString(c.timekeeperGrant.policy),
                                             latencyDefinition(c.config.wake)));
    page.facts.push_back(fmt::format("noise check: {}", run.noise.summary()));
    page.facts.push_back(fmt::format("run: {} {}, {}", run.startTime, run.scenario, run.endReason));
    for (size_t i = 0; i < run.phases.size(); ++i) {
        const PhaseResult &p = run.phases[i];
        PageSection &section = page.sections.emplace_back();
        section.heading = fmt::format("Phase {}/{}: {} ({:.1f} s)", i + 1, run.phases.size(),
                                      p.name, p.durationS);
        PageTable consumers{{"consumer", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", ">1ms",
                             ">5ms", "misses", "met %", "cpu %"},
                            {false, true, true, true, true, true, true, true, true, true, true},
                            {}};
        for (const ConsumerStats &c : p.consumers)
            consumers.rows.push_back(
                {c.name, ms(c.p50Us), ms(c.p90Us), ms(c.p99Us), ms(c.p999Us), ms(c.maxUs),
                 fmt::format("{}", c.over1ms), fmt::format("{}", c.over5ms),
                 c.hasDeadline ? fmt::format("{}", c.misses) : "-",
                 c.hasDeadline ? fmt::format("{:.2f}", c.deadlinesMetPct) : "-",
                 c.hasCpuTarget ? fmt::format("{:.1f}", c.desiredCpuPct) : "-"});
        section.blocks.push_back({"", std::move(consumers)});
        const std::vector<Delayer> delayers = topDelayers(explanationsIn(run, p), {p.name}, 8);
        if (delayers.empty())
            continue;
        PageTable table{{"delayer", "policy", "latprobe load", "seen", "total ms", "worst ms"},
                        {false, false, false, true, true, true},
                        {}};
        for (const Delayer &d : delayers)
            table.rows.push_back({delayerName(d), d.policy.empty() ? "-" : d.policy,
                                  d.load.empty() ? "-" : d.load, fmt::format("{}", d.seen),
                                  fmt::format("{:.3f}", static_cast<double>(d.totalNs) / 1e6),
                                  fmt::format("{:.3f}", static_cast<double>(d.worstNs) / 1e6)});
        section.blocks.push_back(
            {"Top delayers of the misses explained from the kernel's trace:", std::move(table)});
    }
    if (!run.loads.empty()) {
        PageTable loads{{"load", "per s", "unit", "cpu %", "progress CV %", "max/min", "Jain",
                         "CPU time CV %", "max/min", "Jain"},
                        {false, true, false, true, true, true, true, true, true, true},
                        {}};
        for (const LoadGroupResult &l : run.loads) {
            const Fairness &c = l.cpuFairness;
            const bool cpu = c.workers > 0;
            loads.rows.push_back(
                {l.label, fmt::format("{:.1f}", l.throughputPerS), l.unit,
                 fmt::format("{:.1f}", l.cpuSharePct), fmt::format("{:.2f}", l.fairness.cvPct),
                 fmt::format("{:.2f}", l.fairness.maxOverMin),
                 fmt::format("{:.3f}", l.fairness.jain), cpu ? fmt::format("{:.2f}", c.cvPct) : "-",
                 cpu ? fmt::format("{:.2f}", c.maxOverMin) : "-",
                 cpu ? fmt::format("{:.3f}", c.jain) : "-"});
        }
        page.sections.push_back({"Loads",
                                 {{"Fairness over each worker's progress, then over the CPU time "
                                   "the kernel gave it.",
                                   std::move(loads)}}});
    }
    PageSection &key = page.sections.emplace_back();
    key.heading = "Legend";
    for (std::string &p : legendParagraphs(run))
        key.blocks.push_back({std::move(p), {}});
    return page;
}

std::string formatMarkdownReport(const Run &run)
{
    const ReportPage page = reportPage(run);
    std::string out = "# " + page.title + "\n\n";
    for (const std::string &fact : page.facts)
        out += "- " + fact + "\n";
    for (const PageSection &section : page.sections) {
        out += "\n## " + section.heading + "\n\n";
        for (size_t b = 0; b < section.blocks.size(); ++b) {
            const PageBlock &block = section.blocks[b];
            if (b > 0)
                out += "\n";
            if (!block.text.empty())
                out += block.text + "\n" + (block.table.head.empty() ? "" : "\n");
            if (block.table.head.empty())
                continue;
            const PageTable &t = block.table;
            out += fmt::format("| {} |\n|", fmt::join(t.head, " | "));
            for (bool numeric : t.numeric)
                out += numeric ? "--:|" : "---|";
            out += "\n";
            for (const std::vector<std::string> &row : t.rows)
                out += fmt::format("| {} |\n", fmt::join(row, " | "));
        }
    }
    return out;
}

std::string formatCsvReport(const Run &run)
{
    auto quote = [](const std::string &text) {
        std::string q = "\"";
        for (char c : text)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    std::string out = "kernel,scheduler,phase,consumer,samples,sampled_pct,min_us,mean_us,p50_us,"
                      "p90_us,p99_us,p999_us,max_us,stddev_us,over_1ms,over_5ms,misses,"
                      "deadlines_met_pct,desired_cpu_pct,ib_rms_us\n";
    for (const PhaseResult &p : run.phases)
        for (const ConsumerStats &c : p.consumers)
            out += fmt::format(
                "{},{},{},{},{},{:.3f},{},{:.3f},{},{},{},{},{},{:.3f},{},{},{},{:.3f},"
                "{:.3f},{:.3f}\n",
                quote(run.system.kernelRelease), quote(run.system.scheduler), quote(p.name),
                quote(c.name), c.samples, c.sampledPct, c.minUs, c.meanUs, c.p50Us, c.p90Us,
                c.p99Us, c.p999Us, c.maxUs, c.stddevUs, c.over1ms, c.over5ms, c.misses,
                c.deadlinesMetPct, c.desiredCpuPct, c.ibLatencyRmsUs);
    return out;
}

std::string formatJsonSummary(const Run &run)
{
    using nlohmann::json;
    json phases = json::array();
    for (const PhaseResult &p : run.phases) {
        json consumers = json::array();
        for (const ConsumerStats &c : p.consumers) {
            consumers.push_back({{"name", c.name},
                                 {"samples", c.samples},
                                 {"sampled_pct", c.sampledPct},
                                 {"p50_us", c.p50Us},
                                 {"p90_us", c.p90Us},
                                 {"p99_us", c.p99Us},
                                 {"p999_us", c.p999Us},
                                 {"max_us", c.maxUs},
                                 {"over_1ms", c.over1ms},
                                 {"over_5ms", c.over5ms},
                                 {"misses", c.misses},
                                 {"deadlines_met_pct", c.deadlinesMetPct}});
            // How a periodic consumer woke, and so which latency these are.
            for (const ConsumerSetup &setup : run.consumers)
                if (setup.config.name == c.name && setup.config.kind == ConsumerKind::Periodic) {
                    consumers.back()["wake"] = toString(setup.config.wake);
                    consumers.back()["latency"] = latencyDefinition(setup.config.wake);
                }
        }
        phases.push_back({{"name", p.name}, {"duration_s", p.durationS}, {"consumers", consumers}});
    }
    json loads = json::array();
    for (const LoadGroupResult &l : run.loads)
        loads.push_back({{"label", l.label},
                         {"throughput_per_s", l.throughputPerS},
                         {"cpu_share_pct", l.cpuSharePct},
                         {"cv_pct", l.fairness.cvPct},
                         {"max_over_min", l.fairness.maxOverMin},
                         {"jain", l.fairness.jain},
                         {"cpu_cv_pct", l.cpuFairness.cvPct},
                         {"cpu_max_over_min", l.cpuFairness.maxOverMin},
                         {"cpu_jain", l.cpuFairness.jain}});
    json j = {{"latprobe", run.version},
              {"kernel", run.system.kernelRelease},
              {"scheduler", run.system.scheduler},
              {"scenario", run.scenario},
              {"end_reason", run.endReason},
              {"noise", run.noise.ran ? run.noise.verdict : "not run"},
              {"phases", phases},
              {"loads", loads}};
    return j.dump(2) + "\n";
}

} // namespace latprobe
