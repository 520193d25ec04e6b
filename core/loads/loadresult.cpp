#include "loadresult.h"

#include "loadstatus.h"

namespace latprobe {

LoadGroupResult toLoadResult(const GroupStatus &status, int64_t runStart, int64_t stopAt)
{
    LoadGroupResult r;
    r.label = status.spec.label();
    r.spec = status.spec.toString();
    r.unit = status.unit;
    r.startS = static_cast<double>(status.startedAt - runStart) / 1e9;
    r.stopS = static_cast<double>(stopAt - runStart) / 1e9;
    r.throughputPerS = status.throughputPerS;
    r.cpuSharePct = status.cpuSharePct;
    r.fairness = status.fairness;
    r.cpuFairness = status.cpuFairness;
    for (const WorkerStatus &w : status.workers) {
        r.perWorker.push_back(w.progress);
        r.perWorkerCpuS.push_back(w.cpuNs >= 0 ? static_cast<double>(w.cpuNs) / 1e9 : -1);
    }
    r.error = status.error;
    return r;
}

} // namespace latprobe
