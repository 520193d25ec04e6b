#include "report.h"

#include "texttable.h"

#include <fmt/format.h>

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
    }
    if (run.noise.ran)
        out += fit(fmt::format("noise {}", run.noise.summary()));
    if (run.noise.ran && !run.noise.trustMax())
        out += fit("  on a noisy machine the max may be the host's: compare p99");
    else
        out += fit("noise check skipped");
    if (run.thresholdStep >= 0 && run.thresholdStep < static_cast<int>(run.phases.size())) {
        const int t = run.thresholdStep;
        out += fit(fmt::format("threshold: misses from phase {} ({})", t + 1, run.phases[t].name));
        if (t > 0)
            out += fit(fmt::format("usable up to: {}", run.phases[t - 1].name));
    }
    double total = 0;
    for (const PhaseResult &p : run.phases)
        total += p.durationS;
    out += fit(fmt::format("run {}  {:.1f} s  {}  {}{}", run.startTime, total,
                           run.scenario.empty() ? "run" : run.scenario, run.endReason,
                           run.partial ? " (partial)" : ""));
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
                          d ? fmt::format("{:.1f}", c.desiredCpuPct) : "-",
                          d ? ms(c.ibLatencyRmsUs) : "-"});
    }
    return latency.render() + "\n" + deadlines.render();
}

} // namespace

std::string formatTextReport(const Run &run)
{
    std::string out = header(run);
    for (size_t i = 0; i < run.phases.size(); ++i) {
        const PhaseResult &p = run.phases[i];
        out += "\n";
        out += fit(fmt::format("phase {}/{}  {}  {:.1f} s", i + 1, run.phases.size(), p.name,
                               p.durationS));
        out += phaseTables(p);
        uint64_t overflows = 0;
        for (const ConsumerStats &c : p.consumers)
            overflows += c.ringOverflows;
        if (overflows)
            out +=
                fit(fmt::format("WARNING: {} samples dropped (collector fell behind)", overflows));
    }
    if (!run.loads.empty()) {
        out += "\n";
        TextTable loads({"loads", "per s", "unit", "cpu%", "cv%", "max/min", "jain"});
        for (const LoadGroupResult &l : run.loads)
            loads.addRow(
                {l.label, fmt::format("{:.1f}", l.throughputPerS), l.unit,
                 fmt::format("{:.1f}", l.cpuSharePct), fmt::format("{:.2f}", l.fairness.cvPct),
                 l.fairness.maxOverMin > 0 ? fmt::format("{:.2f}", l.fairness.maxOverMin) : "inf",
                 fmt::format("{:.3f}", l.fairness.jain)});
        out += loads.render();
        for (const LoadGroupResult &l : run.loads)
            if (!l.error.empty())
                out += fit("ERROR: " + l.error);
    }
    out += "\n";
    out += fit("latency: wakeup - period start, us truncated (cyclictest);");
    out += fit("misses: periods lost (interbench); met% = met/(met+missed);");
    out += fit("cpu% = work done/asked; sd is a true standard deviation;");
    out += fit("ib rms = interbench's \"SD\" of latency + lost periods.");
    if (!run.loads.empty())
        out += fit("loads: cpu% of the machine; cv% and jain of per-worker progress.");
    return out;
}

} // namespace latprobe
