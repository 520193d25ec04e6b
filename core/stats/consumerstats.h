#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace latprobe {

// A fixed stretch of one consumer in one phase (Collector::kBlockNs): the
// samples a comparison draws on when a run has no rounds of the phase.
struct BlockStats
{
    double startS = 0, durationS = 0; // since the run started
    uint64_t samples = 0;
    uint64_t misses = 0;
    int64_t p50Us = 0, p99Us = 0, p999Us = 0;
    double metPct = 100;
    double cpuPct = 100; // the consumer's desired CPU (gaming: the CPU it got)
};

// Everything a report says about one consumer in one phase. Latencies are
// in µs, truncated as cyclictest does. Plain value: formatting lives in
// report.cpp, persistence in runfile.cpp.
struct ConsumerStats
{
    std::string name;
    bool hasDeadline = false;
    // cpu% means something: a deadline consumer's work, and gaming's, which
    // has no deadline and asks only for the CPU.
    bool hasCpuTarget = false;

    // cyclictest's accounting
    uint64_t samples = 0;
    uint64_t expected = 0; // elapsed time ÷ period
    double sampledPct = 0; // samples ÷ expected
    int64_t minUs = 0;
    double meanUs = 0;
    int64_t p50Us = 0, p90Us = 0, p99Us = 0, p999Us = 0;
    int64_t maxUs = 0;
    double stddevUs = 0; // a true standard deviation
    uint64_t over1ms = 0;
    uint64_t over5ms = 0;
    uint64_t histogramOverflow = 0;
    uint32_t histogramLimitUs = 0;
    std::vector<std::pair<int64_t, uint64_t>> histogram; // (µs, count), non-empty buckets

    // interbench's accounting (deadline consumers)
    uint64_t misses = 0; // periods lost: deadline missed or never served
    uint64_t deadlinesMet = 0;
    double deadlinesMetPct = 100; // met ÷ (met + missed)
    double desiredCpuPct = 100;   // work done ÷ work asked
    uint64_t longestMissRun = 0;
    double ibLatencyMeanUs = 0; // latency + periods lost × period
    double ibLatencyRmsUs = 0;  // what interbench prints as "SD"
    int64_t ibLatencyMaxUs = 0;

    uint64_t ringOverflows = 0; // samples dropped because the collector fell behind
    uint64_t failures = 0;      // start consumer: starts that failed outright (also misses)

    std::vector<BlockStats> blocks; // the whole blocks of the phase, in order
};

} // namespace latprobe
