#pragma once

#include "kernelsemaphore.h"
#include "threadparams.h"
#include "waker.h"

#include <atomic>
#include <thread>

namespace latprobe {

// interbench's wake path (timekeeping_thread() in interbench.c): a thread of
// its own sleeps to each period's start and then wakes the consumer through
// a semaphore (a POSIX one, as interbench's: kernelsemaphore.h). It runs
// SCHED_FIFO 96 when permitted, so that what it oversleeps is the timer's
// and not the scheduler's; it measures that oversleep, and interbench's
// latency does not charge it to the consumer. Unlike interbench's, it
// sleeps to an absolute time, so its oversleep is its own lateness past the
// period's start.
class Timekeeper final : public Waker
{
public:
    // `sleeper` is the timekeeper thread's clock, `consumer` the consumer's
    // (one fake clock for both in tests: the hand-offs keep them in turn).
    // `params`: the probe's CPUs and timer slack; the policy asked is always
    // SCHED_FIFO 96, else SCHED_OTHER. Returns once the thread runs with them.
    Timekeeper(Clock &sleeper, Clock &consumer, const ThreadParams &params);
    ~Timekeeper() override;
    Timekeeper(const Timekeeper &) = delete;
    Timekeeper &operator=(const Timekeeper &) = delete;

    Wake wakeAt(int64_t target) override;
    // What the kernel granted the timekeeper thread.
    const ThreadGrant &grant() const { return m_grant; }

    static constexpr int kPriority = 96; // interbench's set_fifo(96)
    static ThreadParams paramsFor(const ThreadParams &probe);

private:
    void main(const ThreadParams &params);

    Clock &m_sleeper;
    Clock &m_consumer;
    ThreadGrant m_grant;
    // Handed over with the semaphores (release/acquire), as interbench's
    // tk_thread fields are with its sem_post/sem_wait.
    int64_t m_target = 0;
    int64_t m_oversleepNs = 0;
    bool m_quit = false;
    KernelSemaphore m_start;
    KernelSemaphore m_complete;
    std::thread m_thread;
};

} // namespace latprobe
