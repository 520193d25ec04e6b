#include "compare.h"

#include "report.h"
#include "texttable.h"

#include <algorithm>
#include <fmt/format.h>

namespace latprobe {

namespace {

std::string runLabel(const Run &run)
{
    // "6.18.44-fc-v782" -> "6.18.44": the local suffix rarely tells kernels apart.
    std::string release = run.system.kernelRelease.substr(0, run.system.kernelRelease.find('-'));
    std::string sched = run.system.scheduler;
    if (sched.rfind("sched_ext:", 0) == 0)
        sched = sched.substr(10);
    if (run.version.rfind("cyclictest", 0) == 0)
        sched = "cyclictest";
    return sched.empty() || sched == "unknown" ? release : release + " (" + sched + ")";
}

const PhaseResult *findPhase(const Run &run, const std::string &name, size_t index, bool byPosition)
{
    if (byPosition)
        return index < run.phases.size() ? &run.phases[index] : nullptr;
    for (const PhaseResult &p : run.phases)
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace

Comparison compareRuns(const std::vector<Run> &runs, const std::vector<std::string> &fileNames)
{
    Comparison c;
    if (runs.empty())
        return c;
    for (size_t i = 0; i < runs.size(); ++i) {
        std::string label = runLabel(runs[i]);
        // Two runs of one kernel: tell them apart by file name.
        for (size_t k = 0; k < runs.size(); ++k)
            if (k != i && runLabel(runs[k]) == label && i < fileNames.size()) {
                std::string file = fileNames[i].substr(fileNames[i].rfind('/') + 1);
                if (file.size() > 5 && file.substr(file.size() - 5) == ".json")
                    file.resize(file.size() - 5);
                label = file;
                break;
            }
        c.runLabels.push_back(label.substr(0, 22));
    }
    for (size_t i = 1; i < runs.size(); ++i)
        if (runs[i].scenario != runs[0].scenario)
            c.warnings.push_back(fmt::format("run {} played scenario \"{}\", run 1 \"{}\": phases "
                                             "may not match",
                                             i + 1, runs[i].scenario, runs[0].scenario));

    // Phases line up by name when every run has the first run's names;
    // otherwise (e.g. renamed steps) by position.
    bool byPosition = false;
    for (const Run &r : runs)
        for (const PhaseResult &p : runs[0].phases)
            if (!findPhase(r, p.name, 0, false))
                byPosition = true;
    if (byPosition && runs.size() > 1)
        c.warnings.emplace_back("phase names differ: phases lined up by position");

    size_t phaseCount = 0;
    for (const Run &r : runs)
        phaseCount = std::max(phaseCount, r.phases.size());
    for (size_t pi = 0; pi < (byPosition ? phaseCount : runs[0].phases.size()); ++pi) {
        const std::string name =
            pi < runs[0].phases.size() ? runs[0].phases[pi].name : fmt::format("phase {}", pi + 1);
        c.phases.push_back(name);
        std::vector<int> &indices = c.phaseIndex.emplace_back();
        for (const Run &r : runs) {
            const PhaseResult *p = findPhase(r, name, pi, byPosition);
            indices.push_back(p ? static_cast<int>(p - r.phases.data()) : -1);
        }
        std::vector<std::string> consumers;
        for (const Run &r : runs)
            if (const PhaseResult *p = findPhase(r, name, pi, byPosition))
                for (const ConsumerStats &s : p->consumers)
                    if (std::find(consumers.begin(), consumers.end(), s.name) == consumers.end())
                        consumers.push_back(s.name);
        for (const std::string &consumer : consumers) {
            int64_t baseP99 = -1;
            for (size_t ri = 0; ri < runs.size(); ++ri) {
                CompareRow row;
                row.phase = name;
                row.consumer = consumer;
                row.run = ri;
                if (const PhaseResult *p = findPhase(runs[ri], name, pi, byPosition))
                    for (const ConsumerStats &s : p->consumers)
                        if (s.name == consumer) {
                            row.present = true;
                            row.misses = s.misses;
                            row.hasDeadline = s.hasDeadline;
                            row.p99Us = s.p99Us;
                            row.maxUs = s.maxUs;
                            row.metPct = s.deadlinesMetPct;
                        }
                if (ri == 0)
                    baseP99 = row.present ? row.p99Us : -1;
                if (row.present && baseP99 > 0)
                    row.ratio = static_cast<double>(row.p99Us) / static_cast<double>(baseP99);
                c.rows.push_back(row);
            }
        }
    }
    return c;
}

std::string formatComparison(const Comparison &c)
{
    std::string out =
        fmt::format("compare: {} runs, p99 ratio against run 1\n", c.runLabels.size());
    for (size_t i = 0; i < c.runLabels.size(); ++i)
        out += fmt::format("  run {}: {}\n", i + 1, c.runLabels[i]);
    for (const std::string &w : c.warnings)
        out += "WARNING: " + w + "\n";
    for (const std::string &phase : c.phases) {
        out += "\nphase " + phase.substr(0, kReportWidth - 6) + "\n";
        TextTable t({"consumer", "run", "misses", "p99 ms", "max ms", "met%", "ratio"});
        std::string last;
        for (const CompareRow &r : c.rows) {
            if (r.phase != phase)
                continue;
            const std::string consumer = r.consumer == last ? "" : r.consumer;
            last = r.consumer;
            if (!r.present) {
                t.addRow({consumer, c.runLabels[r.run], "-", "-", "-", "-", "-"});
                continue;
            }
            t.addRow(
                {consumer, c.runLabels[r.run], r.hasDeadline ? fmt::format("{}", r.misses) : "-",
                 fmt::format("{:.3f}", r.p99Us / 1000.0), fmt::format("{:.3f}", r.maxUs / 1000.0),
                 r.hasDeadline ? fmt::format("{:.2f}", r.metPct) : "-",
                 r.ratio > 0 ? fmt::format("{:.2f}", r.ratio) : "-"});
        }
        out += t.render(kReportWidth);
    }
    return out;
}

} // namespace latprobe
