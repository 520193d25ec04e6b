#pragma once

#include <cstdint>

namespace latprobe {

// Spins until a CPU clock, `cpuNow` (ns), reads `until` or more and returns
// that reading: time spent preempted is not counted, so a preempted spinner
// finishes later. massive_intr's and ocbench's busy parts (cpuwork.h) are
// this loop on their process's clock; tests hand in a fake one.
template <class CpuNow> int64_t busyUntilCpu(int64_t until, CpuNow &&cpuNow)
{
    int64_t now = cpuNow();
    while (now < until)
        now = cpuNow();
    return now;
}

// Gaps between two reads of the monotonic clock longer than this are time
// the thread did not run: another task had the CPU, for a slice (ms) or a
// wakeup's run. Shorter gaps count as running: on these VMs the host stalls
// a vCPU for 10-100 us some 4-5 % of the time, which the thread's CPU clock
// and a calibrated loop's speed (interbench's) both count as the thread's.
// Left out at 10 us, the work ran 4-5 % longer than interbench's and X met
// 89-91 % of its deadlines on an idle machine instead of 99 %.
constexpr int64_t kRunningGapNs = 100'000;

// Gaps shorter than this always count as running: a clock read, a cache
// miss. Longer ones, up to kRunningGapNs, count as running unless the
// thread was switched out meanwhile (a wakeup preemption: under interbench's
// Ring load a token-passing thread took the CPU for tens of us, which the
// work counted as its own while a loop, interbench's, did not progress).
constexpr int64_t kSwitchCheckGapNs = 10'000;

// Spins until the calling thread has run `ns`, timed on the monotonic
// clock with every gap over `gapNs` left out, and every gap over
// kSwitchCheckGapNs in which `switches` (the thread's context switches)
// grew, so a preempted spinner finishes later, as with busyUntilCpu. The
// consumers' work is this loop and not busyUntilCpu because the monotonic
// clock is read in user space (vDSO), while each read of the thread's CPU
// clock is a system call that brings the scheduler's account of the
// thread up to date (update_curr), so the spinner can be preempted the
// moment its slice ends instead of at the next tick, which a program that
// computes is not. Measured on a 2-vCPU VM, interbench's X against its
// Compile load: spinning on the CPU clock it got 8-19 % of its CPU in
// every run, where interbench (a plain loop) got 45-67 %; this loop got
// 34 % beside interbench's 58 %, and 12.6 % beside its 12.7 %
// (tests/bench/README.md). `switches` is asked only at the start and
// after a gap (getrusage does not update the scheduler's account).
// `now` returns monotonic ns; tests hand in fakes. Returns the running
// time counted.
template <class Now, class Switches>
int64_t busyWhileRunning(int64_t ns, Now &&now, Switches &&switches, int64_t gapNs = kRunningGapNs)
{
    int64_t last = now();
    long seen = switches();
    int64_t ran = 0;
    while (ran < ns) {
        const int64_t t = now();
        const int64_t gap = t - last;
        if (gap <= kSwitchCheckGapNs) {
            ran += gap;
        } else {
            const long count = switches();
            if (gap <= gapNs && count == seen)
                ran += gap; // an interrupt or the host: the thread's, as a loop's
            seen = count;
        }
        last = t;
    }
    return ran;
}

} // namespace latprobe
