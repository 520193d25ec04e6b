#pragma once

#include "../workerslot.h"
#include "programsearch.h" // findExecutable, for the kinds that exec

#include <cstdint>
#include <ctime>
#include <string>
#include <sys/types.h>
#include <vector>

namespace latprobe {

inline int64_t workerNow()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

inline void sleepFor(int64_t ns)
{
    timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
    }
}

inline void sleepUntil(int64_t at)
{
    timespec ts{static_cast<time_t>(at / 1000000000), static_cast<long>(at % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
    }
}

// Paces a worker's loop to `rate` a second, 0 meaning as fast as it can. A
// worker that fell over a second behind starts afresh rather than catching
// up in a burst.
class Pacer
{
public:
    explicit Pacer(double rate)
        : m_interval(rate > 0 ? static_cast<int64_t>(1e9 / rate) : 0), m_next(workerNow())
    {}

    void wait()
    {
        if (m_interval == 0)
            return;
        const int64_t now = workerNow();
        if (m_next > now)
            sleepUntil(m_next);
        else if (now - m_next > 1000000000)
            m_next = now;
        m_next += m_interval;
    }

private:
    int64_t m_interval;
    int64_t m_next;
};

// The worker is its slot's only writer.
inline void addProgress(WorkerSlot &slot, uint64_t n)
{
    slot.progress.store(slot.progress.load(std::memory_order_relaxed) + n,
                        std::memory_order_relaxed);
}

// For kinds whose worker forks helpers that count into the same slot (the
// slot lives in MAP_SHARED memory inherited over fork): several writers.
inline void addSharedProgress(WorkerSlot &slot, uint64_t n)
{
    slot.progress.fetch_add(n, std::memory_order_relaxed);
}

// In a process a worker forked: die with the worker (SIGKILL when it exits,
// however it exits) and carry the worker's name. Returns false if the worker
// is already gone; the caller then _exit()s.
bool armWorkerChild(pid_t worker);

// An unnamed file in `dir` (O_TMPFILE; else created and unlinked at once),
// so that nothing is left on disk whatever kills the worker. -1 with errno.
int openAnonymousFile(const std::string &dir);

// Fills `buf` with incompressible bytes (a compressing filesystem must not
// turn the io loads into no-ops).
void fillRandom(std::vector<unsigned char> &buf, uint64_t seed);

// Children of the calling process (from /proc), for a reaper that must kill
// its descendants.
std::vector<pid_t> childrenOfSelf();

} // namespace latprobe
