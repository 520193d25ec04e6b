#include "realclock.h"

#include "cpuspin.h"
#include "enumnames.h"

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <sched.h>
#include <sys/resource.h>
#include <utility>
#include <vector>

namespace latprobe {

namespace {
int64_t toNs(const timespec &ts)
{
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

struct WorkModeRow
{
    WorkMode value;
    const char *name; // in run files
    const char *described;
    const char *option; // --work-mode
};
constexpr WorkModeRow kWorkModes[] = {
    {WorkMode::CpuTime, "cpu-time", "cpu-time", "cpu"},
    {WorkMode::Loops, "loops", "loops (calibrated)", "loops"},
};
} // namespace

const char *toString(WorkMode mode)
{
    return enumName(kWorkModes, mode);
}

std::optional<WorkMode> workModeFromName(std::string_view name)
{
    return enumFromName(kWorkModes, name);
}

const char *describe(WorkMode mode)
{
    const WorkModeRow *row = findRow<&WorkModeRow::value>(kWorkModes, mode);
    return row ? row->described : "?";
}

std::optional<WorkMode> workModeFromOption(std::string_view option)
{
    const WorkModeRow *row = findRow<&WorkModeRow::option>(kWorkModes, option);
    return row ? std::optional(row->value) : std::nullopt;
}

std::vector<std::string> workModeOptions()
{
    std::vector<std::string> out;
    for (const WorkModeRow &row : kWorkModes)
        out.emplace_back(row.option);
    return out;
}

RealClock::RealClock(WorkMode mode) : m_mode(mode) {}

int64_t RealClock::monotonicNow()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return toNs(ts);
}

long RealClock::contextSwitches()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_nvcsw + usage.ru_nivcsw;
}

int64_t RealClock::threadCpuNow()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return toNs(ts);
}

int64_t RealClock::now()
{
    return monotonicNow();
}

int64_t RealClock::sleepUntil(int64_t deadline)
{
    constexpr int64_t kSlice = 100'000'000;
    if (m_abort && deadline - m_lastWake > kSlice)
        for (int64_t now = monotonicNow(); deadline - now > kSlice; now = monotonicNow()) {
            if (m_abort->load(std::memory_order_relaxed))
                return m_lastWake = now;
            sleepUntilAbsolute(now + kSlice);
        }
    sleepUntilAbsolute(deadline);
    return m_lastWake = monotonicNow();
}

void RealClock::sleepUntilAbsolute(int64_t deadline)
{
    timespec ts{static_cast<time_t>(deadline / 1000000000),
                static_cast<long>(deadline % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
}

int64_t RealClock::work(int64_t ns)
{
    if (m_mode == WorkMode::Loops && m_speed.measured()) {
        // The last work's CPU time is read as this one begins, not as it
        // ended: the read is a system call, and returning from it the
        // scheduler preempts a spinner whose slice is over, before its work
        // is seen done. Video against burn x2 met 86-93 % so, 98-99 % in
        // cpu-time mode. In between the thread only ends its period and
        // sleeps (tens of us of CPU, well under 1 % of a period's work).
        const int64_t t0 = threadCpuNow();
        if (m_pendingLoops > 0)
            addWorked(m_pendingLoops, t0 - m_pendingSince);
        m_pendingSince = t0;
        m_pendingLoops = spinCalibrated(ns);
        return ns;
    }
    // Time spent preempted is not counted as work, so it surfaces as
    // lateness instead of less work; busyWhileRunning says why this is not
    // the thread's CPU clock.
    return busyWhileRunning(ns, &monotonicNow, &contextSwitches);
}

void RealClock::addWorked(uint64_t loops, int64_t spentNs)
{
    const int64_t spent = std::max<int64_t>(spentNs, 1);
    const double perMs = static_cast<double>(loops) * 1e6 / static_cast<double>(spent);
    m_worked.minLoopsPerMs = m_worked.trials ? std::min(m_worked.minLoopsPerMs, perMs) : perMs;
    m_worked.maxLoopsPerMs = std::max(m_worked.maxLoopsPerMs, perMs);
    ++m_worked.trials;
    m_worked.spentNs += spent;
    m_workedLoops += loops;
}

uint64_t RealClock::spinCalibrated(int64_t ns) const
{
    // Slice by slice at the speed of the CPU the thread is on: these VMs'
    // vCPUs run the loop up to 65 % apart, and work sized at their average
    // lasted 25 % more or less than asked for a thread that stayed on one
    // (video beside burn x2 met 83.8 % of its deadlines, then 100 %).
    constexpr int64_t kSliceNs = 100'000;
    uint64_t loops = 0;
    for (int64_t left = ns; left > 0; left -= kSliceNs) {
        const double perMs = m_speed.loopsPerMsOn(sched_getcpu());
        const auto slice =
            static_cast<uint64_t>(perMs * static_cast<double>(std::min(left, kSliceNs)) / 1e6);
        spinLoops(slice);
        loops += slice;
    }
    return loops;
}

void RealClock::spinLoops(uint64_t loops)
{
    // The empty asm keeps the compiler from folding the loop away.
    for (uint64_t i = 0; i < loops; ++i)
        asm volatile("" ::: "memory");
}

LoopCalibration RealClock::measureLoopSpeed()
{
    // On each CPU the thread may use, pinned there in turn: this VM's two
    // vCPUs were seen to run the loop at 2.26 and 3.25 M/ms the same minute,
    // and a speed measured wherever the thread happened to be was the one
    // CPU's, the work then lasting 44 % longer or shorter on the other.
    const auto measureOnThisCpu = [](int64_t budgetNs) {
        LoopCalibrator::Limits limits;
        limits.budgetNs = budgetNs;
        // Timed on the thread's CPU clock, as cpu-time work is: a trial
        // preempted halfway is not taken for a slow machine.
        return LoopCalibrator(
                   [](uint64_t loops) {
                       const int64_t t0 = threadCpuNow();
                       spinLoops(loops);
                       return threadCpuNow() - t0;
                   },
                   limits)
            .run();
    };
    const int64_t wholeBudget = LoopCalibrator::Limits{}.budgetNs;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &allowed))
                cpus.push_back(cpu);
    if (cpus.size() < 2)
        return measureOnThisCpu(wholeBudget);
    // At most kMaxCalibratedCpus, spread over the range: hybrid machines
    // number their core kinds in runs, so both kinds are among them.
    constexpr size_t kMaxCalibratedCpus = 8;
    std::vector<int> picked;
    const size_t n = std::min(cpus.size(), kMaxCalibratedCpus);
    for (size_t i = 0; i < n; ++i)
        picked.push_back(cpus[i * cpus.size() / n]);
    const int64_t budget =
        std::max<int64_t>(wholeBudget / static_cast<int64_t>(n), wholeBudget / 5);
    std::vector<std::pair<int, LoopCalibration>> onCpus;
    for (const int cpu : picked) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(0, sizeof one, &one) == 0)
            onCpus.emplace_back(cpu, measureOnThisCpu(budget));
    }
    sched_setaffinity(0, sizeof allowed, &allowed);
    return onCpus.empty() ? measureOnThisCpu(wholeBudget) : combineCpuSpeeds(onCpus);
}

void RealClock::settleWork()
{
    if (m_pendingLoops > 0) {
        addWorked(m_pendingLoops, threadCpuNow() - m_pendingSince);
        m_pendingLoops = 0;
    }
}

LoopCalibration RealClock::workedLoopSpeed()
{
    settleWork();
    LoopCalibration worked = m_worked;
    if (worked.spentNs > 0)
        worked.loopsPerMs =
            static_cast<double>(m_workedLoops) * 1e6 / static_cast<double>(worked.spentNs);
    worked.settled = true;
    return worked;
}

LoopCalibration RealClock::calibrate()
{
    m_speed = measureLoopSpeed();
    return m_speed;
}

} // namespace latprobe
