#pragma once

#include <cerrno>
#include <semaphore.h>

namespace latprobe {

// A hand-off between threads as interbench makes it: a POSIX semaphore,
// whose wait goes to the kernel (a futex) at once. libstdc++'s
// std::binary_semaphore spins and calls sched_yield() before it sleeps, and
// on a busy CPU a SCHED_OTHER thread that yields changes what the scheduler
// runs next: with a SCHED_OTHER timekeeper handing over through one,
// latprobe's Video under Compile met 86-98 % of its deadlines where
// interbench's met 55-64 %; through this, 66-68 %.
class KernelSemaphore
{
public:
    explicit KernelSemaphore(unsigned initial = 0) { sem_init(&m_sem, 0, initial); }
    ~KernelSemaphore() { sem_destroy(&m_sem); }
    KernelSemaphore(const KernelSemaphore &) = delete;
    KernelSemaphore &operator=(const KernelSemaphore &) = delete;

    void release() { sem_post(&m_sem); }
    void acquire()
    {
        while (sem_wait(&m_sem) != 0 && errno == EINTR) {
        }
    }

private:
    sem_t m_sem;
};

} // namespace latprobe
