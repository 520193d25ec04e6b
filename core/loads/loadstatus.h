#pragma once

#include "fairness.h"
#include "loadspec.h"
#include "workerslot.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

struct WorkerStatus
{
    pid_t pid = 0;
    uint64_t progress = 0;
    WorkerState state = WorkerState::Starting;
    double cpuPct = 0; // of one CPU, since the group started
    // Time on a CPU as the kernel counts it since the worker began its work
    // (WorkerSlot::cpuAtStartNs): all its threads, its live helpers and its
    // reaped children where its kind says so (LoadKind::liveHelpers,
    // reapsItsWork); 0 before it began, -1 once it is gone or not read yet.
    int64_t cpuNs = -1;
};

struct GroupStatus
{
    int id = 0;
    LoadSpec spec;
    std::string unit;
    pid_t leader = 0;
    int64_t startedAt = 0; // CLOCK_MONOTONIC ns
    int64_t sampledAt = 0; // when the workers were read, CLOCK_MONOTONIC ns
    std::vector<WorkerStatus> workers;
    Fairness fairness;         // over the workers' progress
    Fairness cpuFairness;      // over their CPU time (s): even here but not above, the CPUs differ
    double throughputPerS = 0; // all workers' progress per second
    double cpuSharePct = 0;    // of the whole machine
    std::string error;         // the first worker error, if any
};

} // namespace latprobe
