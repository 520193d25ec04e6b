// interbench's Ring: `threads` threads of one process pass a token round a
// circle, each waking the next and then sleeping until woken itself. A load
// of wake-ups and context switches that uses almost no CPU of its own.
// Counts token passes.
#include "workerkinds.h"

#include "../loadspec.h"
#include "workerutil.h"

#include <cerrno>
#include <fmt/format.h>
#include <memory>
#include <semaphore.h>
#include <system_error>
#include <thread>
#include <vector>

namespace latprobe {

namespace {

// POSIX semaphores as interbench uses: a futex wait, no spinning first
// (std::binary_semaphore spins and yields before it sleeps).
void waitTurn(sem_t &turn)
{
    while (sem_wait(&turn) != 0 && errno == EINTR) {
    }
}

[[noreturn]] void passTokens(sem_t &mine, sem_t &next, WorkerSlot &slot)
{
    for (;;) {
        waitTurn(mine);
        addSharedProgress(slot, 1);
        sem_post(&next);
    }
}

} // namespace

int runRing(WorkerContext &ctx)
{
    const int n = static_cast<int>(loadParam(ctx.spec, "threads"));
    // Never moved once initialised: threads wait on them by address.
    auto turns = std::make_unique<sem_t[]>(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        sem_init(&turns[i], 0, 0);
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
    sem_post(&turns[0]);
    passTokens(turns[0], turns[1 % n], ctx.slot);
}

} // namespace latprobe
