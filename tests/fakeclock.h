#pragma once

#include "clock.h"

#include <algorithm>
#include <cstdint>
#include <deque>

namespace latprobe::test {

// Virtual time for the measuring loop: nothing sleeps or spins, and a test
// decides exactly how late each wakeup is and how long each piece of work is
// held up. Each sleepUntil() takes the next entry of `lateWakeups`, each
// work() the next entry of `preemptions`, each now() the next of `lateReads`;
// an exhausted queue means 0.
class FakeClock : public Clock
{
public:
    explicit FakeClock(int64_t start = 1000000000) : m_now(start) {}

    // Each now() costs `readCostNs` of virtual time first: the caller's own
    // path between a wakeup and its timestamp.
    int64_t now() override
    {
        m_now += readCostNs + take(lateReads);
        return m_now;
    }

    int64_t sleepUntil(int64_t deadline) override
    {
        m_now = std::max(m_now, deadline) + take(lateWakeups);
        ++sleeps;
        return m_now;
    }

    int64_t work(int64_t ns) override
    {
        m_now += ns + take(preemptions);
        ++works;
        return ns;
    }

    void advance(int64_t ns) { m_now += ns; }

    std::deque<int64_t> lateWakeups; // per sleepUntil(): ns past max(now, deadline)
    std::deque<int64_t> preemptions; // per work(): ns spent preempted on top of the work
    // per now(): ns that pass before it reads: a consumer woken by a hand-off
    // (a timekeeper's) that runs late after it.
    std::deque<int64_t> lateReads;
    int64_t readCostNs = 0;
    uint64_t sleeps = 0;
    uint64_t works = 0;

private:
    static int64_t take(std::deque<int64_t> &queue)
    {
        if (queue.empty())
            return 0;
        const int64_t v = queue.front();
        queue.pop_front();
        return v;
    }

    int64_t m_now;
};

} // namespace latprobe::test
