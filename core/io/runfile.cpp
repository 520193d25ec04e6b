#include "runfile.h"

#include "enumnames.h"
#include "jsonreader.h"
#include "textfile.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <utility>

#include <fmt/format.h>

namespace latprobe {

using nlohmann::json;

namespace {

// The run file's word for each kind of consumer.
constexpr EnumName<ConsumerKind> kConsumerKinds[] = {
    {ConsumerKind::Periodic, "periodic"},
    {ConsumerKind::ProcessStart, "process-start"},
    {ConsumerKind::External, "external"},
    {ConsumerKind::Continuous, "continuous"},
};

json toJson(const ThreadParams &p)
{
    return {{"policy", toString(p.policy)},
            {"priority", p.priority},
            {"nice", p.nice},
            {"cpus", formatCpuList(p.cpus)},
            {"timer_slack_ns", p.timerSlackNs}};
}

json toJson(const LoopCalibration &l)
{
    json out = {{"loops_per_ms", l.loopsPerMs},
                {"min_loops_per_ms", l.minLoopsPerMs},
                {"max_loops_per_ms", l.maxLoopsPerMs},
                {"spread_pct", l.spreadPct()},
                {"trials", l.trials},
                {"spent_ns", l.spentNs},
                {"settled", l.settled}};
    // 1.6: each CPU's own speed, when more than one was measured.
    if (!l.perCpu.empty()) {
        json cpus = json::array();
        for (const LoopCalibration::OnCpu &c : l.perCpu)
            cpus.push_back({{"cpu", c.cpu}, {"loops_per_ms", c.loopsPerMs}});
        out["per_cpu"] = std::move(cpus);
    }
    return out;
}

// spread_pct is written for other tools; it follows from the rest.
LoopCalibration loopSpeedFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    LoopCalibration l;
    l.loopsPerMs = r.get<double>(j, path, "loops_per_ms");
    l.minLoopsPerMs = r.get<double>(j, path, "min_loops_per_ms");
    l.maxLoopsPerMs = r.get<double>(j, path, "max_loops_per_ms");
    l.trials = r.get<int>(j, path, "trials");
    l.spentNs = r.get<int64_t>(j, path, "spent_ns");
    l.settled = r.get<bool>(j, path, "settled");
    if (j.contains("per_cpu")) {
        const json &cpus = j["per_cpu"];
        if (!cpus.is_array())
            r.fail(path + ".per_cpu", "must be an array");
        for (size_t i = 0; i < cpus.size(); ++i) {
            const std::string at = fmt::format("{}.per_cpu[{}]", path, i);
            l.perCpu.push_back(
                {r.get<int>(cpus[i], at, "cpu"), r.get<double>(cpus[i], at, "loops_per_ms")});
        }
    }
    return l;
}

json toJson(const ThreadGrant &g)
{
    return {{"policy", toString(g.policy)},
            {"priority", g.priority},
            {"nice", g.nice},
            {"cpus", formatCpuList(g.cpus)},
            {"timer_slack_ns", g.timerSlackNs},
            {"refusal", g.refusal}};
}

ThreadGrant grantFromJson(const JsonReader &r, const json &g, const std::string &path);

json toJson(const ConsumerSetup &s)
{
    const ConsumerConfig &c = s.config;
    json out = {{"name", c.name},
                {"kind", enumName(kConsumerKinds, c.kind, "periodic")},
                {"period_ns", c.periodNs},
                {"work_ns", c.workNs},
                {"slack_ns", c.slackNs},
                {"miss_name", c.missName},
                {"work_mode", toString(c.workMode)},
                // What readers before 1.3 take as the speed worked at.
                {"loops_per_us", s.loopSpeed.loopsPerMs / 1000.0},
                {"granted", toJson(s.grant)}};
    // 1.4: what woke a periodic consumer, and so which latency it was
    // charged. The others are not woken at a period's start: no such word.
    if (c.kind == ConsumerKind::Periodic) {
        out["wake"] = toString(c.wake);
        out["latency"] = latencyDefinition(c.wake);
    }
    if (c.rampStepNs > 0)
        out["ramp_step_ns"] = c.rampStepNs;
    if (c.wake == WakeMethod::Timekeeper)
        out["timekeeper_granted"] = toJson(s.timekeeperGrant);
    if (s.loopSpeed.measured())
        out["loop_speed"] = toJson(s.loopSpeed);
    if (s.workLoopSpeed.measured())
        out["work_loop_speed"] = toJson(s.workLoopSpeed);
    if (s.endLoopSpeed.measured())
        out["end_loop_speed"] = toJson(s.endLoopSpeed);
    return out;
}

// Compact rows, a phase can hold hundreds: [start_s, duration_s, samples,
// misses, p50_us, p99_us, p999_us, met_pct].
json blocksToJson(const std::vector<BlockStats> &blocks)
{
    json out = json::array();
    for (const BlockStats &b : blocks)
        out.push_back(
            {b.startS, b.durationS, b.samples, b.misses, b.p50Us, b.p99Us, b.p999Us, b.metPct});
    return out;
}

std::vector<BlockStats> blocksFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    std::vector<BlockStats> out;
    if (!j.contains("blocks"))
        return out; // before 1.2
    const json &rows = r.array(j, path, "blocks");
    for (size_t i = 0; i < rows.size(); ++i) {
        const std::string where = fmt::format("{}.blocks[{}]", path, i);
        const json &row = rows[i];
        if (!row.is_array() || row.size() != 8)
            r.fail(where, "expected [start_s, duration_s, samples, misses, p50_us, p99_us, "
                          "p999_us, met_pct]");
        BlockStats b;
        b.startS = r.value<double>(row[0], where);
        b.durationS = r.value<double>(row[1], where);
        b.samples = r.value<uint64_t>(row[2], where);
        b.misses = r.value<uint64_t>(row[3], where);
        b.p50Us = r.value<int64_t>(row[4], where);
        b.p99Us = r.value<int64_t>(row[5], where);
        b.p999Us = r.value<int64_t>(row[6], where);
        b.metPct = r.value<double>(row[7], where);
        if (b.durationS <= 0)
            r.fail(where, "a block lasts more than 0 s");
        out.push_back(b);
    }
    return out;
}

json toJson(const ConsumerStats &s)
{
    json hist = json::array();
    for (const auto &[us, n] : s.histogram)
        hist.push_back({us, n});
    json out = {{"name", s.name},
                {"has_deadline", s.hasDeadline},
                {"has_cpu_target", s.hasCpuTarget},
                {"samples", s.samples},
                {"expected", s.expected},
                {"sampled_pct", s.sampledPct},
                {"min_us", s.minUs},
                {"mean_us", s.meanUs},
                {"p50_us", s.p50Us},
                {"p90_us", s.p90Us},
                {"p99_us", s.p99Us},
                {"p999_us", s.p999Us},
                {"max_us", s.maxUs},
                {"stddev_us", s.stddevUs},
                {"over_1ms", s.over1ms},
                {"over_5ms", s.over5ms},
                {"misses", s.misses},
                {"deadlines_met", s.deadlinesMet},
                {"deadlines_met_pct", s.deadlinesMetPct},
                {"desired_cpu_pct", s.desiredCpuPct},
                {"longest_miss_run", s.longestMissRun},
                {"ib_latency_mean_us", s.ibLatencyMeanUs},
                {"ib_latency_rms_us", s.ibLatencyRmsUs},
                {"ib_latency_max_us", s.ibLatencyMaxUs},
                {"ring_overflows", s.ringOverflows},
                {"failures", s.failures},
                {"blocks", blocksToJson(s.blocks)},
                {"histogram",
                 {{"bucket_us", 1},
                  {"limit_us", s.histogramLimitUs},
                  {"overflow", s.histogramOverflow},
                  {"counts", hist}}}};
    // 1.4: gaming's comparable figure is the CPU it got, block by block; a
    // column of its own beside the rows, which older readers take as 8 long.
    if (s.hasCpuTarget && !s.hasDeadline) {
        json cpu = json::array();
        for (const BlockStats &b : s.blocks)
            cpu.push_back(b.cpuPct);
        out["block_cpu_pct"] = cpu;
    }
    return out;
}

json fairnessToJson(const Fairness &f)
{
    return {{"workers", f.workers},
            {"mean", f.mean},
            {"min", f.min},
            {"max", f.max},
            {"stddev", f.stddev},
            {"cv_pct", f.cvPct},
            {"max_over_min", f.maxOverMin},
            {"jain", f.jain}};
}

Fairness fairnessFromJson(const JsonReader &r, const json &f, const std::string &path)
{
    Fairness out;
    out.workers = r.get<int>(f, path, "workers");
    out.mean = r.get<double>(f, path, "mean");
    out.min = r.get<double>(f, path, "min");
    out.max = r.get<double>(f, path, "max");
    out.stddev = r.get<double>(f, path, "stddev");
    out.cvPct = r.get<double>(f, path, "cv_pct");
    out.maxOverMin = r.get<double>(f, path, "max_over_min");
    out.jain = r.get<double>(f, path, "jain");
    return out;
}

ConsumerStats statsFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    ConsumerStats s;
    s.name = r.get<std::string>(j, path, "name");
    s.hasDeadline = r.get<bool>(j, path, "has_deadline");
    // Before 1.4 only deadline consumers asked for CPU.
    s.hasCpuTarget =
        j.contains("has_cpu_target") ? r.get<bool>(j, path, "has_cpu_target") : s.hasDeadline;
    s.samples = r.get<uint64_t>(j, path, "samples");
    s.expected = r.get<uint64_t>(j, path, "expected");
    s.sampledPct = r.get<double>(j, path, "sampled_pct");
    s.minUs = r.get<int64_t>(j, path, "min_us");
    s.meanUs = r.get<double>(j, path, "mean_us");
    s.p50Us = r.get<int64_t>(j, path, "p50_us");
    s.p90Us = r.get<int64_t>(j, path, "p90_us");
    s.p99Us = r.get<int64_t>(j, path, "p99_us");
    s.p999Us = r.get<int64_t>(j, path, "p999_us");
    s.maxUs = r.get<int64_t>(j, path, "max_us");
    s.stddevUs = r.get<double>(j, path, "stddev_us");
    s.over1ms = r.get<uint64_t>(j, path, "over_1ms");
    s.over5ms = r.get<uint64_t>(j, path, "over_5ms");
    s.misses = r.get<uint64_t>(j, path, "misses");
    s.deadlinesMet = r.get<uint64_t>(j, path, "deadlines_met");
    s.deadlinesMetPct = r.get<double>(j, path, "deadlines_met_pct");
    s.desiredCpuPct = r.get<double>(j, path, "desired_cpu_pct");
    s.longestMissRun = r.get<uint64_t>(j, path, "longest_miss_run");
    s.ibLatencyMeanUs = r.get<double>(j, path, "ib_latency_mean_us");
    s.ibLatencyRmsUs = r.get<double>(j, path, "ib_latency_rms_us");
    s.ibLatencyMaxUs = r.get<int64_t>(j, path, "ib_latency_max_us");
    s.ringOverflows = r.get<uint64_t>(j, path, "ring_overflows");
    // Optional: files written before it was counted have none.
    s.failures = r.get<uint64_t>(j, path, "failures", 0);
    s.blocks = blocksFromJson(r, j, path);
    if (j.contains("block_cpu_pct")) {
        const json &cpu = r.array(j, path, "block_cpu_pct");
        if (cpu.size() != s.blocks.size())
            r.fail(path + ".block_cpu_pct", "expected one per block");
        for (size_t i = 0; i < cpu.size(); ++i)
            s.blocks[i].cpuPct = r.value<double>(cpu[i], path + ".block_cpu_pct");
    }
    const std::string hpath = path + ".histogram";
    const json &h = r.field(j, path, "histogram");
    s.histogramLimitUs = r.get<uint32_t>(h, hpath, "limit_us");
    s.histogramOverflow = r.get<uint64_t>(h, hpath, "overflow");
    const json &counts = r.array(h, hpath, "counts");
    for (size_t i = 0; i < counts.size(); ++i) {
        const json &pair = counts[i];
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
            !pair[1].is_number_integer() || pair[0].get<int64_t>() < 0 ||
            pair[1].get<int64_t>() < 0)
            r.fail(fmt::format("{}.counts[{}]", hpath, i), "expected [µs, count]");
        s.histogram.emplace_back(pair[0].get<int64_t>(), pair[1].get<uint64_t>());
    }
    return s;
}

ThreadParams paramsFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    ThreadParams p;
    const std::string policy = r.get<std::string>(j, path, "policy");
    const std::optional<SchedPolicy> named = policyFromName(policy);
    if (!named)
        r.fail(path + ".policy", "unknown policy \"" + policy + "\"");
    p.policy = *named;
    p.priority = r.get<int>(j, path, "priority");
    p.nice = r.get<int>(j, path, "nice");
    const std::string cpus = r.get<std::string>(j, path, "cpus");
    if (!cpus.empty() && !parseCpuList(cpus, p.cpus))
        r.fail(path + ".cpus", "not a CPU list");
    p.timerSlackNs = r.get<int64_t>(j, path, "timer_slack_ns");
    return p;
}

ThreadGrant grantFromJson(const JsonReader &r, const json &g, const std::string &path)
{
    const ThreadParams granted = paramsFromJson(r, g, path);
    ThreadGrant grant;
    grant.policy = granted.policy;
    grant.priority = granted.priority;
    grant.nice = granted.nice;
    grant.cpus = granted.cpus;
    grant.timerSlackNs = granted.timerSlackNs;
    grant.refusal = r.get<std::string>(g, path, "refusal");
    return grant;
}

json toJson(const PhaseResult &p)
{
    json stats = json::array();
    for (const ConsumerStats &s : p.consumers)
        stats.push_back(toJson(s));
    return {{"name", p.name},     {"start_s", p.startS}, {"duration_s", p.durationS},
            {"loads", p.loads},   {"step", p.step},      {"round", p.round},
            {"traced", p.traced}, {"consumers", stats}};
}

json toJson(const MissEvent &m)
{
    return {{"t_s", m.timeS},
            {"consumer", m.consumer},
            {"lateness_us", m.latenessUs},
            {"periods_lost", m.periodsLost},
            {"phase", m.phase}};
}

json toJson(const StateCapture &s)
{
    json top = json::array();
    for (const TopProcess &p : s.top)
        top.push_back({{"pid", p.pid}, {"comm", p.comm}, {"cpu_pct", p.cpuPct}});
    return {{"t_s", s.timeS},
            {"phase", s.phase},
            {"reason", s.reason},
            {"sched_debug", s.schedDebug},
            {"sched_debug_source", s.schedDebugSource},
            {"schedstat", s.schedstat},
            {"loadavg", s.loadavg},
            {"top", top}};
}

// The run's top level, with the arrays that grow with the run (phases, the
// miss log, state captures) left empty: writeRunJson() writes those an
// element at a time.
json runHead(const Run &run)
{
    const SystemInfo &sys = run.system;
    json consumers = json::array();
    for (const ConsumerSetup &s : run.consumers)
        consumers.push_back(toJson(s));
    json series = json::object();
    for (size_t i = 0; i < run.series.size() && i < run.consumers.size(); ++i) {
        json maxUs = json::array(), misses = json::array(), samples = json::array();
        for (const SecondBucket &b : run.series[i]) {
            maxUs.push_back(b.maxUs);
            misses.push_back(b.misses);
            samples.push_back(b.samples);
        }
        series[run.consumers[i].config.name] = {
            {"max_us", maxUs}, {"misses", misses}, {"samples", samples}};
    }
    json loads = json::array();
    for (const LoadGroupResult &l : run.loads) {
        loads.push_back({{"label", l.label},
                         {"spec", l.spec},
                         {"unit", l.unit},
                         {"start_s", l.startS},
                         {"stop_s", l.stopS},
                         {"throughput_per_s", l.throughputPerS},
                         {"cpu_share_pct", l.cpuSharePct},
                         {"per_worker", l.perWorker},
                         {"per_worker_cpu_s", l.perWorkerCpuS},
                         {"error", l.error},
                         {"fairness", fairnessToJson(l.fairness)},
                         {"cpu_fairness", fairnessToJson(l.cpuFairness)}});
        // A run read from a file before 1.3 has no CPU times: written
        // without them, it reads back as it was read (the fuzzer's find).
        if (l.perWorkerCpuS.empty() && !l.perWorker.empty())
            loads.back().erase("per_worker_cpu_s");
    }
    const NoiseCheck &n = run.noise;
    json noiseCpus = json::array();
    for (const CpuNoise &c : n.cpus)
        noiseCpus.push_back({{"cpu", c.cpu},
                             {"gaps_per_s", c.gapsPerS},
                             {"lost_pct", c.lostPct},
                             {"max_gap_us", c.maxGapUs}});
    json explanations = json::array();
    for (const MissExplanation &x : run.explanations) {
        json shares = json::array();
        for (const DelayShare &d : x.shares)
            shares.push_back({{"kind", toString(d.kind)},
                              {"name", d.name},
                              {"pid", d.pid},
                              {"prio", d.prio},
                              {"policy", d.policy},
                              {"load", d.load},
                              {"ns", d.ns}});
        explanations.push_back({{"t_s", x.timeS},
                                {"consumer", x.consumer},
                                {"phase", x.phase},
                                {"tid", x.tid},
                                {"cpu", x.cpu},
                                {"window_ns", x.windowNs},
                                {"expiry_ns", x.expiryNs},
                                {"timer_ns", x.timerNs},
                                {"irq_ns", x.irqNs},
                                {"wait_ns", x.waitNs},
                                {"self_ns", x.selfNs},
                                {"unknown_ns", x.unknownNs},
                                {"migrations", x.migrations},
                                {"wait_end", x.waitEnd},
                                {"wait_end_task", x.waitEndTask},
                                {"note", x.note},
                                {"shares", shares},
                                {"other_shares", x.otherShares},
                                {"other_shares_ns", x.otherSharesNs}});
    }
    const TraceSummary &t = run.trace;
    return {
        {"file_version", fmt::format("{}.{}", kRunFileMajor, kRunFileMinor)},
        {"tool", "latprobe"},
        {"version", run.version},
        {"command_line", run.commandLine},
        {"start_time", run.startTime},
        {"end_time", run.endTime},
        {"partial", run.partial},
        {"end_reason", run.endReason},
        {"system",
         {{"kernel_release", sys.kernelRelease},
          {"kernel_version", sys.kernelVersion},
          {"machine", sys.machine},
          {"cpu_model", sys.cpuModel},
          {"cpu_count", sys.cpuCount},
          {"governor", sys.governor},
          {"hz", sys.hz},
          {"preemption", sys.preemption},
          {"scheduler", sys.scheduler},
          {"autogroup", sys.autogroup},
          {"rt_throttling", sys.rtThrottling},
          {"cmdline", sys.cmdline},
          {"virtualization", sys.virtualization}}},
        {"requested", toJson(run.requested)},
        {"consumers", consumers},
        {"phases", json::array()},
        {"series", series},
        {"misses", json::array()},
        {"miss_log_dropped", run.missLogDropped},
        {"loads", loads},
        {"scenario", run.scenario},
        {"states", json::array()},
        {"threshold_step", run.thresholdStep},
        {"stop_verdict", run.stopVerdict},
        {"noise_check",
         {{"ran", n.ran},
          {"duration_s", n.durationS},
          {"gap_threshold_us", n.gapThresholdUs},
          {"cpus", noiseCpus},
          {"loop_median_us", n.loopMedianUs},
          {"loop_min_us", n.loopMinUs},
          {"loop_max_us", n.loopMaxUs},
          {"loop_cv_pct", n.loopCvPct},
          {"verdict", n.verdict}}},
        {"trace",
         {{"on", t.on},
          {"message", t.message},
          {"buffer_kb_per_cpu", t.bufferKbPerCpu},
          {"cpus", t.cpus},
          {"reads", t.reads},
          {"events", t.events},
          {"cpu_s", t.cpuS},
          {"cpu_budget_pct", t.cpuBudgetPct},
          {"over_budget", t.overBudget}}},
        {"explanations", explanations},
    };
}

// Writes `j` as its parent's dump(indent) would, `depth` levels down:
// JSON strings escape their newlines, so every '\n' of j's own dump is
// layout, to be followed by the parent's indentation.
void writeNested(const json &j, int indent, int depth, const TextWriter &write)
{
    std::string text = j.dump(indent);
    if (indent > 0 && text.find('\n') != std::string::npos) {
        const std::string pad = "\n" + std::string(static_cast<size_t>(depth * indent), ' ');
        std::string out;
        out.reserve(text.size() + text.size() / 8);
        for (const char c : text) {
            if (c == '\n')
                out += pad;
            else
                out += c;
        }
        text = std::move(out);
    }
    write(text);
}

template <typename T>
void writeArray(const std::vector<T> &items, int indent, const TextWriter &write)
{
    if (items.empty()) {
        write("[]");
        return;
    }
    const std::string open = indent < 0 ? "[" : "[\n" + std::string(2 * indent, ' ');
    const std::string between = indent < 0 ? "," : ",\n" + std::string(2 * indent, ' ');
    write(open);
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            write(between);
        writeNested(toJson(items[i]), indent, 2, write);
    }
    write(indent < 0 ? "]" : "\n" + std::string(indent, ' ') + "]");
}

} // namespace

void writeRunJson(const Run &run, JsonLayout layout, const TextWriter &write)
{
    // Exactly what the whole tree's dump() writes, without the whole tree:
    // in an hour-long run that tree was tens of MB a save, and the
    // autosaver's heap kept it.
    const int indent = layout == JsonLayout::Compact ? -1 : 1;
    const std::string pad = indent < 0 ? "" : std::string(indent, ' ');
    const std::string newline = indent < 0 ? "" : "\n";
    const json head = runHead(run);
    write("{" + newline);
    for (auto it = head.begin(); it != head.end(); ++it) {
        if (it != head.begin())
            write("," + newline);
        write(pad + json(it.key()).dump() + (indent < 0 ? ":" : ": "));
        if (it.key() == "phases")
            writeArray(run.phases, indent, write);
        else if (it.key() == "misses")
            writeArray(run.misses, indent, write);
        else if (it.key() == "states")
            writeArray(run.states, indent, write);
        else
            writeNested(it.value(), indent, 1, write);
    }
    write(newline + "}\n");
}

std::string runToJson(const Run &run, JsonLayout layout)
{
    std::string text;
    writeRunJson(run, layout, [&text](std::string_view piece) { text.append(piece); });
    return text;
}

Run runFromJson(const std::string &text, const std::string &fileName)
{
    const JsonReader r(fileName, throwError<RunFileError>);
    const json j = r.parse(text, ": is it a latprobe run file?");
    if (!j.is_object())
        r.fail("(top level)", "expected an object: is it a latprobe run file?");
    const std::string version = r.get<std::string>(j, "", "file_version");
    int major = 0, minor = 0;
    if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2)
        r.fail("file_version", "\"" + version + "\" is not MAJOR.MINOR");
    if (major != kRunFileMajor)
        r.fail("file_version",
               fmt::format("version {} is not supported (this latprobe reads {}.x); "
                           "open it with a matching latprobe",
                           version, kRunFileMajor));

    Run run;
    run.version = r.get<std::string>(j, "", "version");
    for (const json &arg : r.array(j, "", "command_line"))
        if (arg.is_string())
            run.commandLine.push_back(arg.get<std::string>());
    run.startTime = r.get<std::string>(j, "", "start_time");
    run.endTime = r.get<std::string>(j, "", "end_time");
    run.partial = r.get<bool>(j, "", "partial");
    run.endReason = r.get<std::string>(j, "", "end_reason");

    const json &sys = r.field(j, "", "system");
    SystemInfo &s = run.system;
    s.kernelRelease = r.get<std::string>(sys, "system", "kernel_release");
    s.kernelVersion = r.get<std::string>(sys, "system", "kernel_version");
    s.machine = r.get<std::string>(sys, "system", "machine");
    s.cpuModel = r.get<std::string>(sys, "system", "cpu_model");
    s.cpuCount = r.get<int>(sys, "system", "cpu_count");
    s.governor = r.get<std::string>(sys, "system", "governor");
    s.hz = r.get<std::string>(sys, "system", "hz");
    s.preemption = r.get<std::string>(sys, "system", "preemption");
    s.scheduler = r.get<std::string>(sys, "system", "scheduler");
    s.autogroup = r.get<std::string>(sys, "system", "autogroup");
    s.rtThrottling = r.get<std::string>(sys, "system", "rt_throttling");
    s.cmdline = r.get<std::string>(sys, "system", "cmdline");
    s.virtualization = r.get<std::string>(sys, "system", "virtualization");

    run.requested = paramsFromJson(r, r.field(j, "", "requested"), "requested");

    const json &consumers = r.array(j, "", "consumers");
    for (size_t i = 0; i < consumers.size(); ++i) {
        const std::string path = fmt::format("consumers[{}]", i);
        const json &c = consumers[i];
        ConsumerSetup setup;
        setup.config.name = r.get<std::string>(c, path, "name");
        // Absent in files written before 0.1.0 kept it: those were periodic.
        if (c.contains("kind")) {
            const std::optional<ConsumerKind> kind =
                enumFromName(kConsumerKinds, r.get<std::string>(c, path, "kind"));
            if (!kind)
                r.fail(path + ".kind", "expected periodic, process-start, external or continuous");
            setup.config.kind = *kind;
        }
        // Before 1.4 every consumer woke on its own timer.
        if (c.contains("wake") &&
            !parseWakeMethod(r.get<std::string>(c, path, "wake"), setup.config.wake))
            r.fail(path + ".wake", "expected timer or timekeeper");
        if (c.contains("ramp_step_ns")) {
            setup.config.rampStepNs = r.get<int64_t>(c, path, "ramp_step_ns");
            if (setup.config.rampStepNs <= 0)
                r.fail(path + ".ramp_step_ns", "must be positive");
        }
        setup.config.periodNs = r.get<int64_t>(c, path, "period_ns");
        if (setup.config.periodNs <= 0)
            r.fail(path + ".period_ns", "must be positive");
        setup.config.workNs = r.get<int64_t>(c, path, "work_ns");
        setup.config.slackNs = r.get<int64_t>(c, path, "slack_ns");
        setup.config.missName = r.get<std::string>(c, path, "miss_name");
        // Any word but "loops" has always read as cpu-time.
        setup.config.workMode =
            workModeFromName(r.get<std::string>(c, path, "work_mode")).value_or(WorkMode::CpuTime);
        if (c.contains("loop_speed"))
            setup.loopSpeed = loopSpeedFromJson(r, c["loop_speed"], path + ".loop_speed");
        else {
            // Before 1.3: one figure, its trials unknown.
            const double perMs = r.get<double>(c, path, "loops_per_us") * 1000.0;
            setup.loopSpeed.loopsPerMs = setup.loopSpeed.minLoopsPerMs =
                setup.loopSpeed.maxLoopsPerMs = perMs;
        }
        if (c.contains("work_loop_speed"))
            setup.workLoopSpeed =
                loopSpeedFromJson(r, c["work_loop_speed"], path + ".work_loop_speed");
        if (c.contains("end_loop_speed"))
            setup.endLoopSpeed =
                loopSpeedFromJson(r, c["end_loop_speed"], path + ".end_loop_speed");
        setup.grant = grantFromJson(r, r.field(c, path, "granted"), path + ".granted");
        if (c.contains("timekeeper_granted"))
            setup.timekeeperGrant =
                grantFromJson(r, c["timekeeper_granted"], path + ".timekeeper_granted");
        run.consumers.push_back(std::move(setup));
    }

    const json &phases = r.array(j, "", "phases");
    for (size_t i = 0; i < phases.size(); ++i) {
        const std::string path = fmt::format("phases[{}]", i);
        const json &p = phases[i];
        PhaseResult phase;
        phase.name = r.get<std::string>(p, path, "name");
        phase.startS = r.get<double>(p, path, "start_s");
        phase.durationS = r.get<double>(p, path, "duration_s");
        for (const json &load : r.array(p, path, "loads"))
            if (load.is_string())
                phase.loads.push_back(load.get<std::string>());
        // Before 1.2: a phase begun by hand, as far as anyone knows.
        phase.step = r.get<int>(p, path, "step", -1);
        phase.round = r.get<int>(p, path, "round", 0);
        phase.traced = r.get<bool>(p, path, "traced", true); // 1.5
        if (phase.step < -1 || phase.round < 0)
            r.fail(path, "step is -1 or more and round 0 or more");
        const json &stats = r.array(p, path, "consumers");
        for (size_t k = 0; k < stats.size(); ++k)
            phase.consumers.push_back(
                statsFromJson(r, stats[k], fmt::format("{}.consumers[{}]", path, k)));
        run.phases.push_back(std::move(phase));
    }

    const json &series = r.field(j, "", "series");
    for (const ConsumerSetup &c : run.consumers) {
        std::vector<SecondBucket> buckets;
        auto it = series.find(c.config.name);
        if (it != series.end()) {
            const std::string path = "series." + c.config.name;
            const json &maxUs = r.array(*it, path, "max_us");
            const json &misses = r.array(*it, path, "misses");
            if (maxUs.size() != misses.size())
                r.fail(path, "max_us and misses differ in length");
            // Optional: files written before 0.1.0 kept it have no samples.
            const json *samples =
                it->contains("samples") ? &r.array(*it, path, "samples") : nullptr;
            if (samples && samples->size() != maxUs.size())
                r.fail(path, "samples and max_us differ in length");
            for (size_t k = 0; k < maxUs.size(); ++k) {
                const std::string where = fmt::format("{}[{}]", path, k);
                SecondBucket b;
                b.maxUs = r.value<int64_t>(maxUs[k], where);
                b.misses = r.value<uint32_t>(misses[k], where);
                if (samples)
                    b.samples =
                        r.value<uint32_t>((*samples)[k], fmt::format("{}.samples[{}]", path, k));
                buckets.push_back(b);
            }
        }
        run.series.push_back(std::move(buckets));
    }

    const json &misses = r.array(j, "", "misses");
    for (size_t i = 0; i < misses.size(); ++i) {
        const std::string path = fmt::format("misses[{}]", i);
        MissEvent m;
        m.timeS = r.get<double>(misses[i], path, "t_s");
        m.consumer = r.get<std::string>(misses[i], path, "consumer");
        m.latenessUs = r.get<int64_t>(misses[i], path, "lateness_us");
        m.periodsLost = r.get<uint32_t>(misses[i], path, "periods_lost");
        m.phase = r.get<std::string>(misses[i], path, "phase");
        run.misses.push_back(std::move(m));
    }
    run.missLogDropped = r.get<uint64_t>(j, "", "miss_log_dropped");

    const json &loads = r.array(j, "", "loads");
    for (size_t i = 0; i < loads.size(); ++i) {
        const std::string path = fmt::format("loads[{}]", i);
        const json &l = loads[i];
        LoadGroupResult g;
        g.label = r.get<std::string>(l, path, "label");
        g.spec = r.get<std::string>(l, path, "spec");
        g.unit = r.get<std::string>(l, path, "unit");
        g.startS = r.get<double>(l, path, "start_s");
        g.stopS = r.get<double>(l, path, "stop_s");
        g.throughputPerS = r.get<double>(l, path, "throughput_per_s");
        g.cpuSharePct = r.get<double>(l, path, "cpu_share_pct");
        g.error = r.get<std::string>(l, path, "error");
        const json &perWorker = r.array(l, path, "per_worker");
        for (size_t k = 0; k < perWorker.size(); ++k) {
            if (!perWorker[k].is_number_unsigned())
                r.fail(fmt::format("{}.per_worker[{}]", path, k), "expected a count");
            g.perWorker.push_back(perWorker[k].get<uint64_t>());
        }
        g.fairness = fairnessFromJson(r, r.field(l, path, "fairness"), path + ".fairness");
        // Before 1.3 no CPU times: read as unknown (no workers).
        if (l.contains("per_worker_cpu_s")) {
            const json &cpu = r.array(l, path, "per_worker_cpu_s");
            if (cpu.size() != perWorker.size())
                r.fail(path, "per_worker_cpu_s and per_worker differ in length");
            for (size_t k = 0; k < cpu.size(); ++k) {
                const std::string where = fmt::format("{}.per_worker_cpu_s[{}]", path, k);
                const double seconds = r.value<double>(cpu[k], where);
                if (seconds < 0 && seconds != -1)
                    r.fail(where, "expected seconds, or -1 for unknown");
                g.perWorkerCpuS.push_back(seconds);
            }
        }
        if (l.contains("cpu_fairness"))
            g.cpuFairness =
                fairnessFromJson(r, r.field(l, path, "cpu_fairness"), path + ".cpu_fairness");
        run.loads.push_back(std::move(g));
    }

    run.scenario = r.get<std::string>(j, "", "scenario");
    const json &states = r.array(j, "", "states");
    for (size_t i = 0; i < states.size(); ++i) {
        const std::string path = fmt::format("states[{}]", i);
        StateCapture capture;
        capture.timeS = r.get<double>(states[i], path, "t_s");
        capture.phase = r.get<std::string>(states[i], path, "phase");
        capture.reason = r.get<std::string>(states[i], path, "reason");
        capture.schedDebug = r.get<std::string>(states[i], path, "sched_debug");
        capture.schedDebugSource = r.get<std::string>(states[i], path, "sched_debug_source");
        capture.schedstat = r.get<std::string>(states[i], path, "schedstat");
        capture.loadavg = r.get<std::string>(states[i], path, "loadavg");
        const json &top = r.array(states[i], path, "top");
        for (size_t k = 0; k < top.size(); ++k) {
            const std::string tpath = fmt::format("{}.top[{}]", path, k);
            TopProcess p;
            p.pid = r.get<int>(top[k], tpath, "pid");
            p.comm = r.get<std::string>(top[k], tpath, "comm");
            p.cpuPct = r.get<double>(top[k], tpath, "cpu_pct");
            capture.top.push_back(std::move(p));
        }
        run.states.push_back(std::move(capture));
    }
    run.thresholdStep = r.get<int>(j, "", "threshold_step");
    if (run.thresholdStep < -1 || run.thresholdStep >= static_cast<int>(run.phases.size()))
        r.fail("threshold_step", "names a phase the run does not have");
    if (auto it = j.find("stop_verdict"); it != j.end()) { // since 1.2
        if (!it->is_array())
            r.fail("stop_verdict", "expected an array of lines");
        for (const json &line : *it)
            run.stopVerdict.push_back(r.value<std::string>(line, "stop_verdict"));
    }
    const json &noise = r.field(j, "", "noise_check");
    NoiseCheck &n = run.noise;
    n.ran = r.get<bool>(noise, "noise_check", "ran");
    n.durationS = r.get<double>(noise, "noise_check", "duration_s");
    n.gapThresholdUs = r.get<double>(noise, "noise_check", "gap_threshold_us");
    n.loopMedianUs = r.get<double>(noise, "noise_check", "loop_median_us");
    n.loopMinUs = r.get<double>(noise, "noise_check", "loop_min_us");
    n.loopMaxUs = r.get<double>(noise, "noise_check", "loop_max_us");
    n.loopCvPct = r.get<double>(noise, "noise_check", "loop_cv_pct");
    n.verdict = r.get<std::string>(noise, "noise_check", "verdict");
    const json &cpus = r.array(noise, "noise_check", "cpus");
    for (size_t i = 0; i < cpus.size(); ++i) {
        const std::string path = fmt::format("noise_check.cpus[{}]", i);
        CpuNoise c;
        c.cpu = r.get<int>(cpus[i], path, "cpu");
        c.gapsPerS = r.get<double>(cpus[i], path, "gaps_per_s");
        c.lostPct = r.get<double>(cpus[i], path, "lost_pct");
        c.maxGapUs = r.get<double>(cpus[i], path, "max_gap_us");
        n.cpus.push_back(c);
    }
    if (j.contains("trace")) { // since 1.4
        const json &t = r.field(j, "", "trace");
        run.trace.on = r.get<bool>(t, "trace", "on");
        run.trace.message = r.get<std::string>(t, "trace", "message");
        run.trace.bufferKbPerCpu = r.get<size_t>(t, "trace", "buffer_kb_per_cpu");
        run.trace.cpus = r.get<int>(t, "trace", "cpus");
        run.trace.reads = r.get<uint64_t>(t, "trace", "reads");
        run.trace.events = r.get<uint64_t>(t, "trace", "events");
        run.trace.cpuS = r.get<double>(t, "trace", "cpu_s");
        run.trace.cpuBudgetPct = r.get<double>(t, "trace", "cpu_budget_pct", 0.0); // 1.5
        run.trace.overBudget = r.get<uint64_t>(t, "trace", "over_budget", uint64_t{0});
    }
    if (j.contains("explanations")) {
        const json &explanations = r.array(j, "", "explanations");
        for (size_t i = 0; i < explanations.size(); ++i) {
            const std::string path = fmt::format("explanations[{}]", i);
            const json &e = explanations[i];
            MissExplanation x;
            x.timeS = r.get<double>(e, path, "t_s");
            x.consumer = r.get<std::string>(e, path, "consumer");
            x.phase = r.get<std::string>(e, path, "phase");
            x.tid = r.get<int>(e, path, "tid");
            x.cpu = r.get<int>(e, path, "cpu");
            x.windowNs = r.get<int64_t>(e, path, "window_ns");
            x.expiryNs = r.get<int64_t>(e, path, "expiry_ns");
            x.timerNs = r.get<int64_t>(e, path, "timer_ns");
            x.irqNs = r.get<int64_t>(e, path, "irq_ns");
            x.waitNs = r.get<int64_t>(e, path, "wait_ns");
            x.selfNs = r.get<int64_t>(e, path, "self_ns");
            x.unknownNs = r.get<int64_t>(e, path, "unknown_ns");
            x.migrations = r.get<int>(e, path, "migrations");
            x.waitEnd = r.get<std::string>(e, path, "wait_end");
            x.waitEndTask = r.get<std::string>(e, path, "wait_end_task");
            x.note = r.get<std::string>(e, path, "note");
            const json &shares = r.array(e, path, "shares");
            for (size_t k = 0; k < shares.size(); ++k) {
                const std::string spath = fmt::format("{}.shares[{}]", path, k);
                DelayShare d;
                const std::optional<DelayShare::Kind> kind =
                    delayKindFromName(r.get<std::string>(shares[k], spath, "kind"));
                if (!kind)
                    r.fail(spath + ".kind", "expected task, irq, softirq or idle");
                d.kind = *kind;
                d.name = r.get<std::string>(shares[k], spath, "name");
                d.pid = r.get<int>(shares[k], spath, "pid");
                d.prio = r.get<int>(shares[k], spath, "prio");
                d.policy = r.get<std::string>(shares[k], spath, "policy");
                d.load = r.get<std::string>(shares[k], spath, "load");
                d.ns = r.get<int64_t>(shares[k], spath, "ns");
                x.shares.push_back(std::move(d));
            }
            // Since 1.5: before, every share was kept.
            x.otherShares = r.get<int>(e, path, "other_shares", 0);
            x.otherSharesNs = r.get<int64_t>(e, path, "other_shares_ns", int64_t{0});
            run.explanations.push_back(std::move(x));
        }
    }
    return run;
}

void writeRunFile(const Run &run, const std::string &path, JsonLayout layout)
{
    std::string error;
    if (!saveFileAtomically(
            path, [&](const TextWriter &write) { writeRunJson(run, layout, write); }, error))
        throw RunFileError(error);
}

Run readRunFile(const std::string &path)
{
    return runFromJson(JsonReader(path, throwError<RunFileError>).readWhole(kMaxRunFileBytes),
                       path);
}

} // namespace latprobe
