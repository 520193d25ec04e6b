// interbench's Ring: `threads` threads of one process pass a token round a
// circle, each waking the next and then sleeping until woken itself. A load
// of wake-ups and context switches that uses almost no CPU of its own.
// Counts token passes.
#include "workerkinds.h"

#include "../loadspec.h"
#include "kernelsemaphore.h"
#include "workerutil.h"

#include <fmt/format.h>
#include <memory>
#include <system_error>
#include <thread>
#include <vector>

namespace latprobe {

namespace {

// Semaphores as interbench's: a wait goes to the kernel at once.
[[noreturn]] void passTokens(KernelSemaphore &mine, KernelSemaphore &next, WorkerSlot &slot)
{
    for (;;) {
        mine.acquire();
        addSharedProgress(slot, 1);
        next.release();
    }
}

} // namespace

int runRing(WorkerContext &ctx)
{
    const int n = static_cast<int>(loadParam(ctx.spec, "threads"));
    // Never moved once made: threads wait on them by address.
    auto turns = std::make_unique<KernelSemaphore[]>(static_cast<size_t>(n));
    std::vector<std::thread> ring;
    try {
        for (int i = 1; i < n; ++i)
            ring.emplace_back([&turns, &slot = ctx.slot, i, n] {
                passTokens(turns[i], turns[(i + 1) % n], slot);
            });
    } catch (const std::system_error &e) {
        reportWorkerError(ctx, fmt::format("ring: cannot start thread {} of {}: {} (lower "
                                           "threads=)",
                                           ring.size() + 1, n, e.what()));
        return 1;
    }
    turns[0].release();
    passTokens(turns[0], turns[1 % n], ctx.slot);
}

} // namespace latprobe
