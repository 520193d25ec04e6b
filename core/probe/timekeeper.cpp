#include "timekeeper.h"

#include <algorithm>

#include <pthread.h>

namespace latprobe {

ThreadParams Timekeeper::paramsFor(const ThreadParams &probe)
{
    ThreadParams p;
    p.policy = SchedPolicy::Fifo;
    p.priority = kPriority;
    p.cpus = probe.cpus;
    p.timerSlackNs = probe.timerSlackNs;
    return p;
}

Timekeeper::Timekeeper(Clock &sleeper, Clock &consumer, const ThreadParams &params)
    : m_sleeper(sleeper), m_consumer(consumer)
{
    m_thread = std::thread(&Timekeeper::main, this, paramsFor(params));
    m_complete.acquire(); // the grant is in
}

Timekeeper::~Timekeeper()
{
    m_quit = true;
    m_start.release();
    m_thread.join();
}

void Timekeeper::main(const ThreadParams &params)
{
    pthread_setname_np(pthread_self(), "lp-timekeeper");
    m_grant = applyThreadParams(params);
    m_complete.release();
    for (;;) {
        m_start.acquire();
        if (m_quit)
            return;
        const int64_t woke = m_sleeper.sleepUntil(m_target);
        m_oversleepNs = std::max<int64_t>(0, woke - m_target);
        m_complete.release();
    }
}

Wake Timekeeper::wakeAt(int64_t target)
{
    m_target = target;
    m_start.release();
    m_complete.acquire();
    return {m_consumer.now(), m_oversleepNs};
}

} // namespace latprobe
