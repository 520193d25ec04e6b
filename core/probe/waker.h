#pragma once

#include "clock.h"

#include <cstdint>

namespace latprobe {

// How a periodic consumer came to run again at a period's start.
struct Wake
{
    int64_t woke = 0;        // the consumer's own clock, read as it runs again
    int64_t oversleepNs = 0; // how late the timekeeper itself woke; 0 for a timer
};

// What wakes a periodic consumer: its own timer (latprobe's method) or a
// timekeeper thread (interbench's, timekeeper.h). Tests use the same ones on
// the fake clock.
class Waker
{
public:
    virtual ~Waker() = default;
    // Returns once the consumer runs again, at `target` or later.
    virtual Wake wakeAt(int64_t target) = 0;
};

// The consumer sleeps on an absolute timer itself, as cyclictest does.
class TimerWaker final : public Waker
{
public:
    explicit TimerWaker(Clock &clock) : m_clock(clock) {}
    Wake wakeAt(int64_t target) override { return {m_clock.sleepUntil(target), 0}; }

private:
    Clock &m_clock;
};

} // namespace latprobe
