#include "runfile.h"

#include "enumnames.h"
#include "jsonreader.h"
#include "scenario.h"
#include "textfile.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

namespace latprobe {

using nlohmann::json;

namespace {

// Each part of a run has its writer, toJson(), and beside it its reader,
// xFromJson(): the reader takes what every older minor version wrote (the
// comments say since when a field is there) and names the field it refuses.

// The array `key` of `obj`, each element read by `read(r, element, path)`
// with the element's path, "phases[1].consumers[2]".
template <typename Read>
auto readEach(const JsonReader &r, const json &obj, const std::string &path, const char *key,
              Read read)
{
    std::vector<std::invoke_result_t<Read, const JsonReader &, const json &, const std::string &>>
        out;
    const json &items = r.array(obj, path, key);
    const std::string at = JsonReader::join(path, key);
    for (size_t i = 0; i < items.size(); ++i)
        out.push_back(read(r, items[i], fmt::format("{}[{}]", at, i)));
    return out;
}

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

json toJson(const ThreadGrant &g)
{
    return {{"policy", toString(g.policy)},
            {"priority", g.priority},
            {"nice", g.nice},
            {"cpus", formatCpuList(g.cpus)},
            {"timer_slack_ns", g.timerSlackNs},
            {"refusal", g.refusal}};
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

json toJson(const LoopCalibration &l)
{
    json out = {{"loops_per_ms", l.loopsPerMs},
                {"min_loops_per_ms", l.minLoopsPerMs},
                {"max_loops_per_ms", l.maxLoopsPerMs},
                {"spread_pct", l.spreadPct()},
                {"trials", l.trials},
                {"spent_ns", l.spentNs},
                {"settled", l.settled}};
    // 1.6: each CPU's own speed, when more than one was measured; 1.9: its
    // trials and their spread.
    if (!l.perCpu.empty()) {
        json cpus = json::array();
        for (const LoopCalibration::OnCpu &c : l.perCpu)
            cpus.push_back({{"cpu", c.cpu},
                            {"loops_per_ms", c.loopsPerMs},
                            {"min_loops_per_ms", c.minLoopsPerMs},
                            {"max_loops_per_ms", c.maxLoopsPerMs},
                            {"spread_pct", c.spreadPct()},
                            {"trials", c.trials},
                            {"settled", c.settled}});
        out["per_cpu"] = std::move(cpus);
    }
    return out;
}

// spread_pct, here and per CPU, is written for other tools; it follows from
// the rest.
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
            LoopCalibration::OnCpu c;
            c.cpu = r.get<int>(cpus[i], at, "cpu");
            c.loopsPerMs = r.get<double>(cpus[i], at, "loops_per_ms");
            // Before 1.9: the CPU's speed alone, its spread unknown.
            c.minLoopsPerMs = r.get<double>(cpus[i], at, "min_loops_per_ms", c.loopsPerMs);
            c.maxLoopsPerMs = r.get<double>(cpus[i], at, "max_loops_per_ms", c.loopsPerMs);
            c.trials = r.get<int>(cpus[i], at, "trials", 0);
            c.settled = r.get<bool>(cpus[i], at, "settled", l.settled);
            l.perCpu.push_back(c);
        }
    }
    return l;
}

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

ConsumerConfig configFromJson(const JsonReader &r, const json &c, const std::string &path)
{
    ConsumerConfig config;
    config.name = r.get<std::string>(c, path, "name");
    config.role = consumerRole(config.name); // not kept: the name says it
    // Absent in files written before 0.1.0 kept it: those were periodic.
    if (c.contains("kind")) {
        const std::optional<ConsumerKind> kind =
            enumFromName(kConsumerKinds, r.get<std::string>(c, path, "kind"));
        if (!kind)
            r.fail(path + ".kind", "expected periodic, process-start, external or continuous");
        config.kind = *kind;
    }
    // Before 1.4 every consumer woke on its own timer.
    if (c.contains("wake") && !parseWakeMethod(r.get<std::string>(c, path, "wake"), config.wake))
        r.fail(path + ".wake", "expected timer or timekeeper");
    if (c.contains("ramp_step_ns")) {
        config.rampStepNs = r.get<int64_t>(c, path, "ramp_step_ns");
        if (config.rampStepNs <= 0)
            r.fail(path + ".ramp_step_ns", "must be positive");
    }
    config.periodNs = r.get<int64_t>(c, path, "period_ns");
    if (config.periodNs <= 0)
        r.fail(path + ".period_ns", "must be positive");
    config.workNs = r.get<int64_t>(c, path, "work_ns");
    config.slackNs = r.get<int64_t>(c, path, "slack_ns");
    config.missName = r.get<std::string>(c, path, "miss_name");
    // Any word but "loops" has always read as cpu-time.
    config.workMode =
        workModeFromName(r.get<std::string>(c, path, "work_mode")).value_or(WorkMode::CpuTime);
    return config;
}

ConsumerSetup setupFromJson(const JsonReader &r, const json &c, const std::string &path)
{
    ConsumerSetup setup;
    setup.config = configFromJson(r, c, path);
    if (c.contains("loop_speed"))
        setup.loopSpeed = loopSpeedFromJson(r, c["loop_speed"], path + ".loop_speed");
    else {
        // Before 1.3: one figure, its trials unknown.
        const double perMs = r.get<double>(c, path, "loops_per_us") * 1000.0;
        setup.loopSpeed.loopsPerMs = setup.loopSpeed.minLoopsPerMs = setup.loopSpeed.maxLoopsPerMs =
            perMs;
    }
    if (c.contains("work_loop_speed"))
        setup.workLoopSpeed = loopSpeedFromJson(r, c["work_loop_speed"], path + ".work_loop_speed");
    if (c.contains("end_loop_speed"))
        setup.endLoopSpeed = loopSpeedFromJson(r, c["end_loop_speed"], path + ".end_loop_speed");
    setup.grant = grantFromJson(r, r.field(c, path, "granted"), path + ".granted");
    if (c.contains("timekeeper_granted"))
        setup.timekeeperGrant =
            grantFromJson(r, c["timekeeper_granted"], path + ".timekeeper_granted");
    return setup;
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

BlockStats blockFromJson(const JsonReader &r, const json &row, const std::string &where)
{
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
    return b;
}

// The blocks (since 1.2) and their CPU column (since 1.4, gaming's).
std::vector<BlockStats> blocksFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    std::vector<BlockStats> blocks;
    if (j.contains("blocks"))
        blocks = readEach(r, j, path, "blocks", blockFromJson);
    if (j.contains("block_cpu_pct")) {
        const json &cpu = r.array(j, path, "block_cpu_pct");
        if (cpu.size() != blocks.size())
            r.fail(path + ".block_cpu_pct", "expected one per block");
        for (size_t i = 0; i < cpu.size(); ++i)
            blocks[i].cpuPct = r.value<double>(cpu[i], path + ".block_cpu_pct");
    }
    return blocks;
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

// The "histogram" object into `s`: its limit, overflow and [µs, count] pairs.
void histogramFromJson(const JsonReader &r, const json &j, const std::string &path,
                       ConsumerStats &s)
{
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
    histogramFromJson(r, j, path, s);
    return s;
}

json toJson(const PhaseResult &p)
{
    json stats = json::array();
    for (const ConsumerStats &s : p.consumers)
        stats.push_back(toJson(s));
    json out = {{"name", p.name},     {"start_s", p.startS}, {"duration_s", p.durationS},
                {"loads", p.loads},   {"step", p.step},      {"round", p.round},
                {"traced", p.traced}, {"consumers", stats}};
    if (!p.variant.empty())
        out["variant"] = p.variant; // 1.7
    if (!p.leftOut.empty())
        out["left_out"] = p.leftOut; // 1.8
    return out;
}

PhaseResult phaseFromJson(const JsonReader &r, const json &p, const std::string &path)
{
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
    phase.traced = r.get<bool>(p, path, "traced", true);                    // 1.5
    phase.variant = r.get<std::string>(p, path, "variant", std::string());  // 1.7
    phase.leftOut = r.get<std::string>(p, path, "left_out", std::string()); // 1.8
    if (phase.step < -1 || phase.round < 0)
        r.fail(path, "step is -1 or more and round 0 or more");
    phase.consumers = readEach(r, p, path, "consumers", statsFromJson);
    return phase;
}

// A consumer's seconds, by its name: {"audio": {"max_us": [...], "misses":
// [...], "samples": [...]}}.
json seriesToJson(const Run &run)
{
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
    return series;
}

// One consumer's seconds; none when the file has none of it.
std::vector<SecondBucket> seriesFromJson(const JsonReader &r, const json &series,
                                         const std::string &consumer)
{
    std::vector<SecondBucket> buckets;
    auto it = series.find(consumer);
    if (it == series.end())
        return buckets;
    const std::string path = "series." + consumer;
    const json &maxUs = r.array(*it, path, "max_us");
    const json &misses = r.array(*it, path, "misses");
    if (maxUs.size() != misses.size())
        r.fail(path, "max_us and misses differ in length");
    // Optional: files written before 0.1.0 kept it have no samples.
    const json *samples = it->contains("samples") ? &r.array(*it, path, "samples") : nullptr;
    if (samples && samples->size() != maxUs.size())
        r.fail(path, "samples and max_us differ in length");
    for (size_t k = 0; k < maxUs.size(); ++k) {
        const std::string where = fmt::format("{}[{}]", path, k);
        SecondBucket b;
        b.maxUs = r.value<int64_t>(maxUs[k], where);
        b.misses = r.value<uint32_t>(misses[k], where);
        if (samples)
            b.samples = r.value<uint32_t>((*samples)[k], fmt::format("{}.samples[{}]", path, k));
        buckets.push_back(b);
    }
    return buckets;
}

json toJson(const MissEvent &m)
{
    return {{"t_s", m.timeS},
            {"consumer", m.consumer},
            {"lateness_us", m.latenessUs},
            {"periods_lost", m.periodsLost},
            {"phase", m.phase}};
}

MissEvent missFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    MissEvent m;
    m.timeS = r.get<double>(j, path, "t_s");
    m.consumer = r.get<std::string>(j, path, "consumer");
    m.latenessUs = r.get<int64_t>(j, path, "lateness_us");
    m.periodsLost = r.get<uint32_t>(j, path, "periods_lost");
    m.phase = r.get<std::string>(j, path, "phase");
    return m;
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

json toJson(const LoadGroupResult &l)
{
    json out = {{"label", l.label},
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
                {"cpu_fairness", fairnessToJson(l.cpuFairness)}};
    // A run read from a file before 1.3 has no CPU times: written
    // without them, it reads back as it was read (the fuzzer's find).
    if (l.perWorkerCpuS.empty() && !l.perWorker.empty())
        out.erase("per_worker_cpu_s");
    return out;
}

// Each worker's CPU time; before 1.3 none: read as unknown (no workers).
std::vector<double> workerCpuFromJson(const JsonReader &r, const json &l, const std::string &path,
                                      size_t workers)
{
    std::vector<double> out;
    if (!l.contains("per_worker_cpu_s"))
        return out;
    const json &cpu = r.array(l, path, "per_worker_cpu_s");
    if (cpu.size() != workers)
        r.fail(path, "per_worker_cpu_s and per_worker differ in length");
    for (size_t k = 0; k < cpu.size(); ++k) {
        const std::string where = fmt::format("{}.per_worker_cpu_s[{}]", path, k);
        const double seconds = r.value<double>(cpu[k], where);
        if (seconds < 0 && seconds != -1)
            r.fail(where, "expected seconds, or -1 for unknown");
        out.push_back(seconds);
    }
    return out;
}

LoadGroupResult loadFromJson(const JsonReader &r, const json &l, const std::string &path)
{
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
    g.perWorkerCpuS = workerCpuFromJson(r, l, path, perWorker.size());
    if (l.contains("cpu_fairness"))
        g.cpuFairness =
            fairnessFromJson(r, r.field(l, path, "cpu_fairness"), path + ".cpu_fairness");
    return g;
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

TopProcess topProcessFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    TopProcess p;
    p.pid = r.get<int>(j, path, "pid");
    p.comm = r.get<std::string>(j, path, "comm");
    p.cpuPct = r.get<double>(j, path, "cpu_pct");
    return p;
}

StateCapture stateFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    StateCapture capture;
    capture.timeS = r.get<double>(j, path, "t_s");
    capture.phase = r.get<std::string>(j, path, "phase");
    capture.reason = r.get<std::string>(j, path, "reason");
    capture.schedDebug = r.get<std::string>(j, path, "sched_debug");
    capture.schedDebugSource = r.get<std::string>(j, path, "sched_debug_source");
    capture.schedstat = r.get<std::string>(j, path, "schedstat");
    capture.loadavg = r.get<std::string>(j, path, "loadavg");
    capture.top = readEach(r, j, path, "top", topProcessFromJson);
    return capture;
}

json toJson(const SystemInfo &sys)
{
    return {{"kernel_release", sys.kernelRelease},
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
            {"virtualization", sys.virtualization}};
}

SystemInfo systemFromJson(const JsonReader &r, const json &sys)
{
    SystemInfo s;
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
    return s;
}

json toJson(const NoiseCheck &n)
{
    json cpus = json::array();
    for (const CpuNoise &c : n.cpus)
        cpus.push_back({{"cpu", c.cpu},
                        {"gaps_per_s", c.gapsPerS},
                        {"lost_pct", c.lostPct},
                        {"max_gap_us", c.maxGapUs}});
    return {{"ran", n.ran},
            {"duration_s", n.durationS},
            {"gap_threshold_us", n.gapThresholdUs},
            {"cpus", cpus},
            {"loop_median_us", n.loopMedianUs},
            {"loop_min_us", n.loopMinUs},
            {"loop_max_us", n.loopMaxUs},
            {"loop_cv_pct", n.loopCvPct},
            {"verdict", n.verdict}};
}

CpuNoise cpuNoiseFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    CpuNoise c;
    c.cpu = r.get<int>(j, path, "cpu");
    c.gapsPerS = r.get<double>(j, path, "gaps_per_s");
    c.lostPct = r.get<double>(j, path, "lost_pct");
    c.maxGapUs = r.get<double>(j, path, "max_gap_us");
    return c;
}

NoiseCheck noiseFromJson(const JsonReader &r, const json &noise)
{
    NoiseCheck n;
    n.ran = r.get<bool>(noise, "noise_check", "ran");
    n.durationS = r.get<double>(noise, "noise_check", "duration_s");
    n.gapThresholdUs = r.get<double>(noise, "noise_check", "gap_threshold_us");
    n.loopMedianUs = r.get<double>(noise, "noise_check", "loop_median_us");
    n.loopMinUs = r.get<double>(noise, "noise_check", "loop_min_us");
    n.loopMaxUs = r.get<double>(noise, "noise_check", "loop_max_us");
    n.loopCvPct = r.get<double>(noise, "noise_check", "loop_cv_pct");
    n.verdict = r.get<std::string>(noise, "noise_check", "verdict");
    n.cpus = readEach(r, noise, "noise_check", "cpus", cpuNoiseFromJson);
    return n;
}

json toJson(const TraceSummary &t)
{
    return {{"on", t.on},
            {"message", t.message},
            {"buffer_kb_per_cpu", t.bufferKbPerCpu},
            {"cpus", t.cpus},
            {"reads", t.reads},
            {"events", t.events},
            {"cpu_s", t.cpuS},
            {"cpu_budget_pct", t.cpuBudgetPct},
            {"over_budget", t.overBudget},
            {"saving_traces", t.savingTraces},
            {"traces_saved", t.tracesSaved},
            {"trace_bytes", t.traceBytes},
            {"traces_over_cap", t.tracesOverCap},
            {"trace_error", t.traceError}};
}

// Since 1.4.
TraceSummary traceFromJson(const JsonReader &r, const json &t)
{
    TraceSummary trace;
    trace.on = r.get<bool>(t, "trace", "on");
    trace.message = r.get<std::string>(t, "trace", "message");
    trace.bufferKbPerCpu = r.get<size_t>(t, "trace", "buffer_kb_per_cpu");
    trace.cpus = r.get<int>(t, "trace", "cpus");
    trace.reads = r.get<uint64_t>(t, "trace", "reads");
    trace.events = r.get<uint64_t>(t, "trace", "events");
    trace.cpuS = r.get<double>(t, "trace", "cpu_s");
    trace.cpuBudgetPct = r.get<double>(t, "trace", "cpu_budget_pct", 0.0); // 1.5
    trace.overBudget = r.get<uint64_t>(t, "trace", "over_budget", uint64_t{0});
    // Since 1.8.
    trace.savingTraces = r.get<bool>(t, "trace", "saving_traces", false);
    trace.tracesSaved = r.get<uint64_t>(t, "trace", "traces_saved", uint64_t{0});
    trace.traceBytes = r.get<uint64_t>(t, "trace", "trace_bytes", uint64_t{0});
    trace.tracesOverCap = r.get<uint64_t>(t, "trace", "traces_over_cap", uint64_t{0});
    trace.traceError = r.get<std::string>(t, "trace", "trace_error", std::string());
    return trace;
}

json toJson(const DelayShare &d)
{
    return {{"kind", toString(d.kind)}, {"name", d.name}, {"pid", d.pid}, {"prio", d.prio},
            {"policy", d.policy},       {"load", d.load}, {"ns", d.ns}};
}

DelayShare shareFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    DelayShare d;
    const std::optional<DelayShare::Kind> kind =
        delayKindFromName(r.get<std::string>(j, path, "kind"));
    if (!kind)
        r.fail(path + ".kind", "expected task, irq, softirq or idle");
    d.kind = *kind;
    d.name = r.get<std::string>(j, path, "name");
    d.pid = r.get<int>(j, path, "pid");
    d.prio = r.get<int>(j, path, "prio");
    d.policy = r.get<std::string>(j, path, "policy");
    d.load = r.get<std::string>(j, path, "load");
    d.ns = r.get<int64_t>(j, path, "ns");
    return d;
}

json toJson(const MissExplanation &x)
{
    json shares = json::array();
    for (const DelayShare &d : x.shares)
        shares.push_back(toJson(d));
    return {{"t_s", x.timeS},
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
            {"other_shares_ns", x.otherSharesNs},
            {"trace_file", x.traceFile}};
}

MissExplanation explanationFromJson(const JsonReader &r, const json &e, const std::string &path)
{
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
    x.shares = readEach(r, e, path, "shares", shareFromJson);
    // Since 1.5: before, every share was kept.
    x.otherShares = r.get<int>(e, path, "other_shares", 0);
    x.otherSharesNs = r.get<int64_t>(e, path, "other_shares_ns", int64_t{0});
    x.traceFile = r.get<std::string>(e, path, "trace_file", std::string()); // 1.8
    return x;
}

json toJson(const SettingRecord &c)
{
    return {{"setting", c.setting},      {"target", c.target},         {"before", c.before},
            {"applied", c.applied},      {"restored", c.restored},     {"error", c.error},
            {"restore_by", c.restoreBy}, {"exit_status", c.exitStatus}};
}

SettingRecord settingFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    SettingRecord c;
    c.setting = r.get<std::string>(j, path, "setting");
    c.target = r.get<std::string>(j, path, "target", std::string());
    c.before = r.get<std::string>(j, path, "before", std::string());
    c.applied = r.get<std::string>(j, path, "applied", std::string());
    c.restored = r.get<std::string>(j, path, "restored", std::string());
    c.error = r.get<std::string>(j, path, "error", std::string());
    c.restoreBy = r.get<std::string>(j, path, "restore_by", std::string());
    c.exitStatus = r.get<int>(j, path, "exit_status", -1);
    return c;
}

json toJson(const VariantRecord &v)
{
    json changes = json::array();
    for (const SettingRecord &c : v.changes)
        changes.push_back(toJson(c));
    return {{"name", v.name}, {"settings", v.settings}, {"changes", changes}};
}

VariantRecord variantFromJson(const JsonReader &r, const json &j, const std::string &path)
{
    VariantRecord v;
    v.name = r.get<std::string>(j, path, "name");
    if (v.name.empty())
        r.fail(path + ".name", "a variant has a name");
    for (const json &s : r.array(j, path, "settings"))
        if (s.is_string())
            v.settings.push_back(s.get<std::string>());
    v.changes = readEach(r, j, path, "changes", settingFromJson);
    return v;
}

template <typename T> json toJsonArray(const std::vector<T> &items)
{
    json out = json::array();
    for (const T &item : items)
        out.push_back(toJson(item));
    return out;
}

// The run's top level, with the arrays that grow with the run (phases, the
// miss log, state captures) left empty: writeRunJson() writes those an
// element at a time.
json runHead(const Run &run)
{
    return {
        {"file_version", fmt::format("{}.{}", kRunFileMajor, kRunFileMinor)},
        {"tool", "latprobe"},
        {"version", run.version},
        {"command_line", run.commandLine},
        {"start_time", run.startTime},
        {"end_time", run.endTime},
        {"partial", run.partial},
        {"end_reason", run.endReason},
        {"system", toJson(run.system)},
        {"requested", toJson(run.requested)},
        {"consumers", toJsonArray(run.consumers)},
        {"phases", json::array()},
        {"series", seriesToJson(run)},
        {"misses", json::array()},
        {"miss_log_dropped", run.missLogDropped},
        {"loads", toJsonArray(run.loads)},
        {"scenario", run.scenario},
        {"states", json::array()},
        {"threshold_step", run.thresholdStep},
        {"stop_verdict", run.stopVerdict},
        {"noise_check", toJson(run.noise)},
        {"trace", toJson(run.trace)},
        {"explanations", toJsonArray(run.explanations)},
        {"variants", toJsonArray(run.variants)},
        {"until_decided",
         {{"max_rounds", run.untilDecided.maxRounds},
          {"played", run.untilDecided.played},
          {"decided", run.untilDecided.decided}}},
    };
}

// A file of another major version is refused, naming the latprobe that reads it.
void checkFileVersion(const JsonReader &r, const json &j)
{
    const std::string version = r.get<std::string>(j, "", "file_version");
    int major = 0, minor = 0;
    if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2)
        r.fail("file_version", "\"" + version + "\" is not MAJOR.MINOR");
    if (major != kRunFileMajor)
        r.fail("file_version",
               fmt::format("version {} is not supported (this latprobe reads {}.x); "
                           "open it with a matching latprobe",
                           version, kRunFileMajor));
}

// The top level's own fields, before its sections.
void headFromJson(const JsonReader &r, const json &j, Run &run)
{
    run.version = r.get<std::string>(j, "", "version");
    for (const json &arg : r.array(j, "", "command_line"))
        if (arg.is_string())
            run.commandLine.push_back(arg.get<std::string>());
    run.startTime = r.get<std::string>(j, "", "start_time");
    run.endTime = r.get<std::string>(j, "", "end_time");
    run.partial = r.get<bool>(j, "", "partial");
    run.endReason = r.get<std::string>(j, "", "end_reason");
}

// The scenario's stop condition: the phase that passed it and, since 1.2,
// its verdict's lines.
void untilDecidedFromJson(const JsonReader &r, const json &j, Run &run)
{
    Run::UntilDecided &u = run.untilDecided;
    u.maxRounds = r.get<int>(j, "until_decided", "max_rounds");
    u.played = r.get<int>(j, "until_decided", "played");
    u.decided = r.get<bool>(j, "until_decided", "decided");
    if (u.maxRounds < 0 || u.maxRounds > kMaxAutoRounds || u.played < 0 ||
        (u.maxRounds > 0 && u.played > u.maxRounds))
        r.fail("until_decided", fmt::format("{} of at most {} rounds is no plan latprobe plays",
                                            u.played, u.maxRounds));
}

void thresholdFromJson(const JsonReader &r, const json &j, Run &run)
{
    run.thresholdStep = r.get<int>(j, "", "threshold_step");
    if (run.thresholdStep < -1 || run.thresholdStep >= static_cast<int>(run.phases.size()))
        r.fail("threshold_step", "names a phase the run does not have");
    if (auto it = j.find("stop_verdict"); it != j.end()) {
        if (!it->is_array())
            r.fail("stop_verdict", "expected an array of lines");
        for (const json &line : *it)
            run.stopVerdict.push_back(r.value<std::string>(line, "stop_verdict"));
    }
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

// Each phase's variant is one the run lists: a comparison of the variants
// would otherwise leave its rounds out without a word.
void checkPhaseVariants(const JsonReader &r, const Run &run)
{
    for (size_t i = 0; i < run.phases.size(); ++i) {
        const std::string &name = run.phases[i].variant;
        if (!name.empty() && std::none_of(run.variants.begin(), run.variants.end(),
                                          [&](const VariantRecord &v) { return v.name == name; }))
            r.fail(fmt::format("phases[{}].variant", i),
                   fmt::format("\"{}\" is not one of the run's variants", name));
    }
}

// The sections in the order the file has always been checked, so that of
// two faults the same one is named.
Run runFromJson(const std::string &text, const std::string &fileName)
{
    const JsonReader r(fileName, throwError<RunFileError>);
    const json j = r.parse(text, ": is it a latprobe run file?");
    if (!j.is_object())
        r.fail("(top level)", "expected an object: is it a latprobe run file?");
    checkFileVersion(r, j);

    Run run;
    headFromJson(r, j, run);
    run.system = systemFromJson(r, r.field(j, "", "system"));
    run.requested = paramsFromJson(r, r.field(j, "", "requested"), "requested");
    run.consumers = readEach(r, j, "", "consumers", setupFromJson);
    run.phases = readEach(r, j, "", "phases", phaseFromJson);
    const json &series = r.field(j, "", "series");
    for (const ConsumerSetup &c : run.consumers)
        run.series.push_back(seriesFromJson(r, series, c.config.name));
    run.misses = readEach(r, j, "", "misses", missFromJson);
    run.missLogDropped = r.get<uint64_t>(j, "", "miss_log_dropped");
    run.loads = readEach(r, j, "", "loads", loadFromJson);
    run.scenario = r.get<std::string>(j, "", "scenario");
    run.states = readEach(r, j, "", "states", stateFromJson);
    thresholdFromJson(r, j, run);
    run.noise = noiseFromJson(r, r.field(j, "", "noise_check"));
    if (j.contains("trace")) // since 1.4
        run.trace = traceFromJson(r, r.field(j, "", "trace"));
    if (j.contains("explanations")) // since 1.4
        run.explanations = readEach(r, j, "", "explanations", explanationFromJson);
    if (j.contains("variants")) // since 1.7
        run.variants = readEach(r, j, "", "variants", variantFromJson);
    if (j.contains("until_decided")) // since 1.10
        untilDecidedFromJson(r, r.field(j, "", "until_decided"), run);
    checkPhaseVariants(r, run);
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
    Run run =
        runFromJson(JsonReader(path, throwError<RunFileError>).readWhole(kMaxRunFileBytes), path);
    const size_t slash = path.rfind('/');
    run.folder = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
    return run;
}

} // namespace latprobe
