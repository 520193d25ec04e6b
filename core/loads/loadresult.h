#pragma once

#include "fairness.h"

#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

// What a load group did during a run, for the report's loads section.
struct LoadGroupResult
{
    std::string label;            // "massive_intr x8"
    std::string spec;             // "massive_intr:8:work_ms=8"
    std::string unit;             // "loops"
    double startS = 0, stopS = 0; // since the run started
    double throughputPerS = 0;
    double cpuSharePct = 0; // of the whole machine
    // How evenly the workers progressed, and how evenly the kernel gave
    // them CPU time: even CPU time with uneven progress means the CPUs
    // differ (or the work does), not the scheduler's share.
    Fairness fairness;
    Fairness cpuFairness; // over per-worker CPU seconds; workers 0 when unknown
    std::vector<uint64_t> perWorker;
    std::vector<double> perWorkerCpuS; // -1 for a worker the kernel no longer knew
    std::string error;
};

struct GroupStatus;

// The summary of a running group, times relative to `runStart`.
LoadGroupResult toLoadResult(const GroupStatus &status, int64_t runStart, int64_t stopAt);

} // namespace latprobe
