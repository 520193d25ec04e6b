// The CPU loads of the seed threads: massive_intr, ocbench and a plain burner.
#include "cpuloads.h"

#include "../loadspec.h"
#include "cpuwork.h"
#include "workerutil.h"

namespace latprobe {

int runMassiveIntr(WorkerContext &ctx)
{
    // Satoru Takeuchi's massive_intr.c: work 8 ms, sleep 1 ms, count loops.
    // The work is CPU time on a schedule (cpuwork.h), so loops measure the
    // CPU each got; a loop counts once its work is done.
    const int64_t work = static_cast<int64_t>(loadParam(ctx.spec, "work_ms") * 1e6);
    const int64_t sleep = static_cast<int64_t>(loadParam(ctx.spec, "sleep_ms") * 1e6);
    CpuWorkSchedule schedule(ctx.slot.cpuAtStartNs.load(), work);
    for (;;) {
        schedule.work();
        addProgress(ctx.slot, 1);
        sleepFor(sleep);
    }
}

int runOcbench(WorkerContext &ctx)
{
    // Willy Tarreau's ocbench: busy R us, sleep S us, count busy periods, the
    // busy part CPU time as in massive_intr.
    const int64_t busy = static_cast<int64_t>(loadParam(ctx.spec, "run_us") * 1e3);
    const int64_t sleep = static_cast<int64_t>(loadParam(ctx.spec, "sleep_us") * 1e3);
    CpuWorkSchedule schedule(ctx.slot.cpuAtStartNs.load(), busy);
    for (;;) {
        schedule.work();
        addProgress(ctx.slot, 1);
        sleepFor(sleep);
    }
}

int runBurn(WorkerContext &ctx)
{
    // Progress in millions of spins, so fairness between burners shows.
    for (;;) {
        for (uint32_t i = 0; i < 1000000; ++i)
            asm volatile("" ::: "memory");
        addProgress(ctx.slot, 1);
    }
}

} // namespace latprobe
