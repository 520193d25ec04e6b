// interbench's Burn: one process whose `threads` threads all spin. With
// session=same the scheduler sees what interbench gives it, nproc runnable
// threads in the benchmark's own session; N burn processes would each get
// a share of their own instead.
#include "cpuloads.h"
#include "workerkinds.h"

#include "../loadspec.h"
#include "workerutil.h"

#include <fmt/format.h>
#include <system_error>
#include <thread>
#include <vector>

namespace latprobe {

namespace {

[[noreturn]] void spin(WorkerSlot &slot)
{
    // The same millions of spins as runBurn, so the counts compare.
    for (;;) {
        for (uint32_t i = 0; i < 1000000; ++i)
            asm volatile("" ::: "memory");
        addSharedProgress(slot, 1);
    }
}

} // namespace

int runBurnThreads(WorkerContext &ctx)
{
    const int threads = static_cast<int>(loadParam(ctx.spec, "threads"));
    if (threads <= 1)
        return runBurn(ctx);
    std::vector<std::thread> burners;
    try {
        for (int i = 1; i < threads; ++i)
            burners.emplace_back([&slot = ctx.slot] { spin(slot); });
    } catch (const std::system_error &e) {
        // The threads already spinning die with the process.
        reportWorkerError(ctx, fmt::format("burn: cannot start thread {} of {}: {} (lower "
                                           "threads=)",
                                           burners.size() + 1, threads, e.what()));
        return 1;
    }
    spin(ctx.slot);
}

} // namespace latprobe
