#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace latprobe {

// A loop speed as measured: the median of the trials that settled, and how
// far those trials spread.
struct LoopCalibration
{
    double loopsPerMs = 0; // median of the settled trials; 0: never measured
    double minLoopsPerMs = 0;
    double maxLoopsPerMs = 0;
    int trials = 0;       // all of them, the sizing and unsettled ones included
    int64_t spentNs = 0;  // their time, summed
    bool settled = false; // false: the time ran out before two rounds agreed
    // Measured on each CPU the thread may run on, when more than one: a
    // VM's vCPUs, hybrid cores or SMT siblings need not run a loop alike.
    // Loop work is sized by the speed of the CPU it runs on.
    struct OnCpu
    {
        int cpu = 0;
        double loopsPerMs = 0;
        double minLoopsPerMs = 0;
        double maxLoopsPerMs = 0;
        int trials = 0;
        bool settled = true;

        double spreadPct() const;
    };
    std::vector<OnCpu> perCpu = {};

    bool measured() const { return loopsPerMs > 0; }
    // (max - min) / median of the settled trials, in percent; with several
    // CPUs, the widest CPU's: their gap is no spread, work being sized per CPU.
    double spreadPct() const;
    // The speed work on `cpu` is sized by: its own, else the combined one.
    double loopsPerMsOn(int cpu) const;
};

// Measures how many empty loops a millisecond buys. interbench settles its
// loops_per_ms over a long benchmark; a best-of-five of 1 ms trials takes
// the fastest moment of a VM whose speed wanders, and the typical burn then
// runs far past the work asked (48.9 % of video deadlines met against 99.4
// % when spinning on CPU time, under burn x2). So trials run in rounds
// until two successive rounds' medians agree, and the median is kept.
class LoopCalibrator
{
public:
    // Runs `loops` loops; returns the time they took in ns. Real: spinLoops
    // timed on the thread's CPU clock; in tests, a fake.
    using Trial = std::function<int64_t(uint64_t loops)>;

    struct Limits
    {
        // Two rounds of 10 x 5 ms: the settled speed is the median of 100 ms
        // of loops, not of a moment (this VM's loop speed moves between
        // 2.1 and 3.6 M loops/ms within a second).
        int64_t trialNs = 5'000'000; // what a trial aims to last
        int roundTrials = 10;        // a round's median is taken over this many
        double tolerancePct = 2.0;   // two successive round medians this close: settled
        // All trials together stop short of this, as far as the longest
        // trial so far tells the next one's length. Trial time: a thread
        // preempted while calibrating takes longer in wall time. Without
        // settling, the last two rounds' trials give the result.
        int64_t budgetNs = 1'000'000'000;
    };

    explicit LoopCalibrator(Trial trial) : LoopCalibrator(std::move(trial), Limits{}) {}
    LoopCalibrator(Trial trial, Limits limits);

    LoopCalibration run();

private:
    Trial m_trial;
    Limits m_limits;
};

// One speed from each CPU's calibration, kept in perCpu, which sizes work
// on each; the combined speed, for a CPU not measured and for the record,
// is their harmonic mean, the speed at which work sized for T lasts T on
// average over the CPUs (2 and 4 M loops/ms give 2.67). Trials and time
// add up; settled when every CPU settled; min and max span all.
LoopCalibration combineCpuSpeeds(const std::vector<std::pair<int, LoopCalibration>> &onCpus);

// "cpu 0 2260000 (spread 4 %), cpu 1 3250000 (spread 9 %)": each CPU's
// speed, in loops per ms, and its trials' spread when known.
std::string cpuSpeedsText(const LoopCalibration &calibration);

// A CPU whose kept trials spread wider than this had its speed move while
// it was measured (this VM's vCPU beside a busy host thread: 1.9 to 3.4 M
// loops/ms within 100 ms, where a quiet one spreads 10 to 20 %), so no
// single speed sizes its work to the time asked, and two runs need not
// agree. Unsettled alone is not that: round medians 10 % apart for a second
// still size the work within 10 %.
inline constexpr double kLoopTrustSpreadPct = 25.0;

// "video: loop calibration not to be trusted (...)" when a CPU's (or the
// only) calibration spreads past kLoopTrustSpreadPct; else empty.
std::string loopTrustWarning(const std::string &consumer, const LoopCalibration &calibration);

// How much faster (+) or slower (-) the loop ran at `end` than at `start`,
// in percent; 0 when either was not measured.
double loopSpeedChangePct(const LoopCalibration &start, const LoopCalibration &end);

// A change of loop speed beyond this between the start and the end of a run
// means the loop work was not the work asked for some of it. Above the few
// percent a settled calibration spreads on a quiet VM.
inline constexpr double kLoopWanderPct = 10.0;

// "video: loop speed changed -12 % during the run (...)" when the speed its
// work ran at, or the speed at the end, differs from the start by more than
// kLoopWanderPct; else empty.
std::string loopWanderWarning(const std::string &consumer, const LoopCalibration &start,
                              const LoopCalibration &work, const LoopCalibration &end);

} // namespace latprobe
