#pragma once

#include "clock.h"
#include "loopcalibrator.h"

#include <atomic>

namespace latprobe {

// CLOCK_MONOTONIC with absolute clock_nanosleep, as cyclictest sleeps.
class RealClock final : public Clock
{
public:
    explicit RealClock(WorkMode mode = WorkMode::CpuTime);

    int64_t now() override;
    int64_t sleepUntil(int64_t deadline) override;
    int64_t work(int64_t ns) override;

    // Loop mode only: measures the loop's speed on each CPU the calling
    // thread may use (combineCpuSpeeds) and from then on sizes work by the
    // speed of the CPU it runs on. Call from the thread that will work.
    LoopCalibration calibrate();
    // The same measure, for comparing at the end of a run; the speed worked
    // at stays.
    static LoopCalibration measureLoopSpeed();
    // The speed the loop work itself ran at so far: loopsPerMs over all of
    // it, min and max of single periods, trials the periods. What the load
    // did to the loop (a busy SMT sibling slows it by half) shows here and
    // in no calibration taken while the machine is idle. From the thread
    // that worked: it reads the last work's CPU time.
    LoopCalibration workedLoopSpeed();
    // Ends the last work's timing here: a thread about to idle (a paused
    // consumer polling for its resume) must not count the idling as that
    // work's CPU.
    void settleWork();

    // Long sleeps wake every 100 ms to look at `abort`, so a consumer with a
    // 1 s period still stops at once; the last stretch is one absolute sleep.
    void setAbortFlag(const std::atomic<bool> *abort) { m_abort = abort; }

    static int64_t monotonicNow();
    static int64_t threadCpuNow();
    // The calling thread's context switches so far, voluntary or not.
    static long contextSwitches();

private:
    static void spinLoops(uint64_t loops);
    uint64_t spinCalibrated(int64_t ns) const; // the loops spun
    void addWorked(uint64_t loops, int64_t spentNs);
    static void sleepUntilAbsolute(int64_t deadline);

    WorkMode m_mode;
    LoopCalibration m_speed;  // set before the go, read only after
    LoopCalibration m_worked; // loopsPerMs summed as loops until asked
    uint64_t m_workedLoops = 0;
    uint64_t m_pendingLoops = 0; // the last work's, its CPU time not read yet
    int64_t m_pendingSince = 0;  // the thread's CPU clock as it began
    const std::atomic<bool> *m_abort = nullptr;
    int64_t m_lastWake = 0; // tells a short sleep without reading the clock
};

} // namespace latprobe
