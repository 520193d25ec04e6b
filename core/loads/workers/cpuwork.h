#pragma once

#include "cpuspin.h"

#include <cstdint>
#include <ctime>

namespace latprobe {

// massive_intr's "work 8 ms" and ocbench's busy run, as CPU the worker got
// (on the wall clock a preempted worker counted the time it waited as work,
// and its loop count followed how often it was scheduled instead), and to a
// schedule of CPU time: the k-th busy part ends once the worker's CPU clock
// reads its start (WorkerSlot::cpuAtStartNs) + k x work, not `work` after
// the part began. The kernel charges a worker for more than its busy parts:
// going to sleep and waking again took 39 us of its CPU a loop on average
// here, and a few ms now and then (on a VM that counts no steal time, a
// pause of the host's there is the worker's too). Timed from each part's own
// start, that CPU was lost between two parts, unevenly: 200 massive_intr
// workers with equal CPU counted loops up to 25 % apart, and loops x work
// was not their CPU time (issue 45). On the schedule it comes out of the
// next part, so loops x work is the CPU each got, within the loop under way.
class CpuWorkSchedule
{
public:
    // From `startCpuNs` on the worker's CPU clock (its slot's cpuAtStartNs).
    CpuWorkSchedule(int64_t startCpuNs, int64_t workNs) : m_next(startCpuNs), m_work(workNs) {}

    // Spins to the end of the next busy part; returns the clock's reading.
    // `cpuNow` returns the worker's CPU time in ns; tests hand in a fake one.
    template <class CpuNow> int64_t work(CpuNow &&cpuNow)
    {
        m_next += m_work;
        return busyUntilCpu(m_next, cpuNow);
    }
    int64_t work() { return work(&processCpuNow); }

    // The worker's CPU clock: the process's, as the sampler reads it
    // (processClockNs), so that a thread of its own (a sanitizer's) is in
    // both or in neither.
    static int64_t processCpuNow()
    {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }

private:
    int64_t m_next;
    int64_t m_work;
};

} // namespace latprobe
