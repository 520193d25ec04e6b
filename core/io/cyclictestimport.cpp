#include "cyclictestimport.h"

#include "histogram.h"
#include "jsonreader.h"
#include "runfile.h"
#include "textfile.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

namespace latprobe {

using nlohmann::json;

namespace {

// cyclictest's -i/--interval and -D/--duration from its command line.
double option(const std::string &cmdline, const char *shortName, const char *longName,
              double fallback)
{
    std::istringstream in(cmdline);
    std::string word, previous;
    while (in >> word) {
        const std::string longEq = std::string(longName) + "=";
        if (previous == shortName || previous == longName)
            return std::atof(word.c_str());
        if (word.rfind(longEq, 0) == 0)
            return std::atof(word.c_str() + longEq.size());
        if (word.rfind(shortName, 0) == 0 && word.size() > 2)
            return std::atof(word.c_str() + 2);
        previous = word;
    }
    return fallback;
}

// "30s", "1m", "2h", plain seconds.
double durationSeconds(const std::string &cmdline)
{
    std::istringstream in(cmdline);
    std::string word, previous, value;
    while (in >> word) {
        if (previous == "-D" || previous == "--duration")
            value = word;
        else if (word.rfind("--duration=", 0) == 0)
            value = word.substr(11);
        else if (word.rfind("-D", 0) == 0 && word.size() > 2)
            value = word.substr(2);
        previous = word;
    }
    if (value.empty())
        return 0;
    double n = std::atof(value.c_str());
    switch (value.back()) {
    case 'm':
    case 'M':
        n *= 60;
        break;
    case 'h':
    case 'H':
        n *= 3600;
        break;
    case 'd':
    case 'D':
        n *= 86400;
        break;
    default:
        break;
    }
    return n;
}

// A string of sysinfo, or "unknown" when it is missing or not a string.
std::string sysText(const json &obj, const char *key)
{
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : "unknown";
}

// Samples past a Histogram's buckets (over 100 ms) are kept one by one:
// bound them in the whole file, not per bucket or thread, or many of those
// could ask for gigabytes and minutes.
constexpr uint64_t kMaxOutside = 1'000'000;

// What every thread shares: the period and how long they ran.
struct CyclictestTiming
{
    double intervalUs = 0;
    double durationS = 0;
};

// rt-tests 2.4 writes some keys with a stray colon ("cmdline:").
std::string cyclictestText(const json &j, const char *key, const char *strayKey)
{
    for (const char *k : {key, strayKey})
        if (auto it = j.find(k); it != j.end() && it->is_string())
            return it->get<std::string>();
    return {};
}

CyclictestTiming cyclictestTiming(const JsonReader &r, const std::string &cmdline)
{
    const CyclictestTiming timing{option(cmdline, "-i", "--interval", 1000),
                                  durationSeconds(cmdline)};
    // Bounds keep the period and the expected cycle count integers: NaN,
    // a negative or an absurd value would make their conversions undefined.
    if (!(timing.intervalUs >= 1 && timing.intervalUs <= 3.6e9))
        r.fail("cmdline", "cannot tell the interval (-i, 1 µs to 1 h)");
    if (!(timing.durationS >= 0 && timing.durationS <= 366 * 86400.0))
        r.fail("cmdline", "cannot tell the duration (-D, at most a year)");
    return timing;
}

// The run around the threads: what ran, when, where.
Run cyclictestRunHead(const json &j, const std::string &cmdline)
{
    Run run;
    run.version = "cyclictest " + cyclictestText(j, "rt_test_version", "rt_test_version:");
    run.commandLine = {cmdline};
    run.startTime = cyclictestText(j, "start_time", "start_time:");
    run.endTime = cyclictestText(j, "end_time", "end_time:");
    run.endReason = "imported";
    run.scenario = "cyclictest";
    if (auto sys = j.find("sysinfo"); sys != j.end() && sys->is_object()) {
        run.system.kernelRelease = sysText(*sys, "release");
        run.system.kernelVersion = sysText(*sys, "version");
        run.system.machine = sysText(*sys, "machine");
    }
    for (std::string *field : {&run.system.cpuModel, &run.system.governor, &run.system.hz,
                               &run.system.preemption, &run.system.scheduler, &run.system.autogroup,
                               &run.system.rtThrottling, &run.system.virtualization})
        *field = "unknown";
    run.requested.policy = cmdline.find("--policy=other") != std::string::npos ? SchedPolicy::Other
                                                                               : SchedPolicy::Fifo;
    return run;
}

// A thread's histogram of `total` cycles up to `maxUs`, adding what lies
// past a Histogram's buckets to `outside`, the whole file's count.
Histogram threadHistogram(const JsonReader &r, const json &hist, const std::string &where,
                          uint64_t total, int64_t maxUs, uint64_t &outside)
{
    Histogram h(static_cast<uint32_t>(std::clamp<int64_t>(maxUs + 1, 1, 100000)));
    // A bound on what the file may claim: a year of 1 us cycles.
    if (total > 31'536'000'000'000ull)
        r.fail(where + ".cycles", "implausible");
    uint64_t counted = 0, atMax = 0;
    for (const auto &[us, n] : hist.items()) {
        char *end = nullptr;
        const long long bucket = std::strtoll(us.c_str(), &end, 10);
        // Only cyclictest's own spelling: "010" would be a second key for
        // bucket 10, adding up past what the bucket holds.
        if (*end || bucket < 0 || us != std::to_string(bucket) || !n.is_number_unsigned())
            r.fail(where + ".histogram." + us, "expected \"µs\": count");
        if (bucket > maxUs || n.get<uint64_t>() > total - counted)
            r.fail(where + ".histogram." + us, "more samples or later than the thread says");
        // A Histogram bucket holds 32 bits.
        if (n.get<uint64_t>() > UINT32_MAX)
            r.fail(where + ".histogram." + us, "more samples than one bucket holds");
        if (bucket >= h.limitUs() && (outside += n.get<uint64_t>()) > kMaxOutside)
            r.fail(where + ".histogram." + us, "more samples or later than the thread says");
        h.add(bucket, n.get<uint64_t>());
        counted += n.get<uint64_t>();
        if (bucket == maxUs)
            atMax = n.get<uint64_t>();
    }
    // Cycles past the histogram's end are in no bucket: they were at
    // least its limit; count them at the max, the one value known.
    if (total - counted > kMaxOutside - outside)
        r.fail(where + ".cycles", "too many cycles outside the histogram: raise -h");
    if (maxUs >= h.limitUs())
        outside += total - counted;
    else if (total - counted > UINT32_MAX - atMax)
        r.fail(where + ".cycles", "more samples than one bucket holds");
    h.add(maxUs, total - counted);
    return h;
}

// A thread's figures from its histogram, and min and avg as cyclictest
// wrote them (0 where they are missing).
ConsumerStats threadStats(const JsonReader &r, const json &t, const std::string &where,
                          const Histogram &h, int64_t maxUs, const CyclictestTiming &timing)
{
    ConsumerStats s;
    s.samples = h.count();
    s.expected = timing.durationS > 0
                     ? static_cast<uint64_t>(timing.durationS * 1e6 / timing.intervalUs)
                     : 0;
    s.sampledPct = s.expected ? 100.0 * static_cast<double>(s.samples) / s.expected : 0;
    s.minUs = r.get<int64_t>(t, where, "min", 0);
    s.maxUs = maxUs;
    s.meanUs = r.get<double>(t, where, "avg", 0.0);
    s.p50Us = h.percentile(0.5);
    s.p90Us = h.percentile(0.9);
    s.p99Us = h.percentile(0.99);
    s.p999Us = h.percentile(0.999);
    double var = 0;
    for (const auto &[us, n] : h.sparse()) {
        var += static_cast<double>(n) * (us - s.meanUs) * (us - s.meanUs);
        s.over1ms += us > 1000 ? n : 0;
        s.over5ms += us > 5000 ? n : 0;
    }
    s.stddevUs = s.samples ? std::sqrt(var / static_cast<double>(s.samples)) : 0;
    s.histogram = h.sparse();
    s.histogramLimitUs = h.limitUs();
    return s;
}

// The thread `id` as a consumer of `run`, and its figures.
ConsumerStats threadFromJson(const JsonReader &r, const std::string &id, const json &t,
                             const CyclictestTiming &timing, bool onlyThread, Run &run,
                             uint64_t &outside)
{
    const std::string where = "thread." + id;
    if (!t.is_object())
        r.fail(where, "expected an object");
    const uint64_t total = r.get<uint64_t>(t, where, "cycles");
    auto hist = t.find("histogram");
    if (hist == t.end() || !hist->is_object())
        r.fail(where + ".histogram", "missing: run cyclictest with -h (a histogram) and --json");
    ConsumerSetup setup;
    setup.config.name = onlyThread ? "wakeup" : "wakeup#" + id;
    setup.config.role = ConsumerRole::Wakeup;
    setup.config.periodNs = static_cast<int64_t>(timing.intervalUs * 1000);
    setup.grant.policy = run.requested.policy;
    run.consumers.push_back(setup);

    // min, max and avg are optional: 0 where they are missing.
    const int64_t maxUs = r.get<int64_t>(t, where, "max", 0);
    if (maxUs < 0 || maxUs > 1'000'000'000)
        r.fail(where + ".max", "implausible");
    const Histogram h = threadHistogram(r, *hist, where, total, maxUs, outside);
    ConsumerStats s = threadStats(r, t, where, h, maxUs, timing);
    s.name = setup.config.name;
    return s;
}

} // namespace

bool isCyclictestJson(const std::string &text)
{
    return text.find("\"rt_test_version") != std::string::npos ||
           (text.find("\"thread\"") != std::string::npos &&
            text.find("\"num_threads\"") != std::string::npos);
}

Run importCyclictestJson(const std::string &text, const std::string &file)
{
    const JsonReader r(file, throwError<RunFileError>);
    const json j = r.parse(text);
    if (!j.is_object())
        r.fail("(top level)", "expected cyclictest's JSON object");
    auto version = j.find("file_version");
    if (version == j.end() || !version->is_number_unsigned() || version->get<uint64_t>() != 1)
        r.fail("file_version", "expected cyclictest's file_version 1");
    const std::string cmdline = cyclictestText(j, "cmdline", "cmdline:");
    const CyclictestTiming timing = cyclictestTiming(r, cmdline);

    Run run = cyclictestRunHead(j, cmdline);
    auto threads = j.find("thread");
    if (threads == j.end() || !threads->is_object() || threads->empty())
        r.fail("thread", "missing: no measuring thread in the file");
    uint64_t outside = 0;
    PhaseResult phase;
    phase.name = "idle";
    phase.durationS = timing.durationS;
    for (const auto &[id, t] : threads->items())
        phase.consumers.push_back(
            threadFromJson(r, id, t, timing, threads->size() == 1, run, outside));
    run.phases.push_back(std::move(phase));
    run.series.resize(run.consumers.size());
    return run;
}

Run runFromAnyJson(const std::string &text, const std::string &fileName)
{
    return isCyclictestJson(text) ? importCyclictestJson(text, fileName)
                                  : runFromJson(text, fileName);
}

Run readAnyRunFile(const std::string &path)
{
    return runFromAnyJson(JsonReader(path, throwError<RunFileError>).readWhole(kMaxRunFileBytes),
                          path);
}

} // namespace latprobe
