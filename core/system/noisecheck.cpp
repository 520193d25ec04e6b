#include "noisecheck.h"

#include "realclock.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <thread>
#include <unistd.h>

namespace latprobe {

namespace {

CpuNoise detectGaps(int cpu, int64_t durationNs, int64_t thresholdNs)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    CpuNoise n;
    n.cpu = cpu;
    uint64_t gaps = 0;
    int64_t lost = 0, maxGap = 0;
    const int64_t start = RealClock::monotonicNow();
    int64_t last = start;
    while (last - start < durationNs) {
        const int64_t now = RealClock::monotonicNow();
        const int64_t gap = now - last;
        if (gap > thresholdNs) {
            ++gaps;
            lost += gap;
            maxGap = std::max(maxGap, gap);
        }
        last = now;
    }
    const double seconds = static_cast<double>(last - start) / 1e9;
    n.gapsPerS = static_cast<double>(gaps) / seconds;
    n.lostPct = 100.0 * static_cast<double>(lost) / static_cast<double>(last - start);
    n.maxGapUs = static_cast<double>(maxGap) / 1e3;
    return n;
}

double timeFixedLoop()
{
    const int64_t t0 = RealClock::monotonicNow();
    for (uint32_t i = 0; i < 200000; ++i)
        asm volatile("" ::: "memory");
    return static_cast<double>(RealClock::monotonicNow() - t0) / 1e3;
}

} // namespace

std::string noiseVerdict(double lostPct, double loopCvPct)
{
    if (lostPct < 1.0 && loopCvPct < 5.0)
        return "quiet";
    if (lostPct < 10.0 && loopCvPct < 25.0)
        return "noisy";
    return "very noisy";
}

std::string NoiseCheck::summary() const
{
    if (!ran)
        return "not run";
    double lost = 0, gaps = 0;
    for (const CpuNoise &c : cpus) {
        lost = std::max(lost, c.lostPct);
        gaps = std::max(gaps, c.gapsPerS);
    }
    return fmt::format("{}: {:.1f} % lost to gaps > {:.0f} us, loop CV {:.0f} %", verdict, lost,
                       gapThresholdUs, loopCvPct);
}

NoiseCheck runNoiseCheck(double seconds)
{
    NoiseCheck result;
    result.ran = true;
    result.durationS = seconds;
    const int64_t gapNs = static_cast<int64_t>(result.gapThresholdUs * 1000);
    const int64_t spinNs = static_cast<int64_t>(seconds * 2 / 3 * 1e9);

    cpu_set_t allowed;
    sched_getaffinity(0, sizeof allowed, &allowed);
    std::vector<int> cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &allowed))
            cpus.push_back(cpu);
    result.cpus.resize(cpus.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < cpus.size(); ++i)
        threads.emplace_back([&, i] { result.cpus[i] = detectGaps(cpus[i], spinNs, gapNs); });
    for (std::thread &t : threads)
        t.join();

    std::vector<double> loops;
    const int64_t loopEnd = RealClock::monotonicNow() + static_cast<int64_t>(seconds / 3 * 1e9);
    while (RealClock::monotonicNow() < loopEnd)
        loops.push_back(timeFixedLoop());
    std::sort(loops.begin(), loops.end());
    // The slowest tenth were preempted (the gap detector's business); the
    // rest tell whether the CPU's speed itself drifts, as VMs' do.
    const size_t steady = std::max<size_t>(1, loops.size() * 9 / 10);
    double sum = 0, sumSq = 0;
    for (size_t i = 0; i < steady; ++i) {
        const double x = loops[i];
        sum += x;
        sumSq += x * x;
    }
    const double n = static_cast<double>(steady);
    const double mean = sum / n;
    result.loopMinUs = loops.front();
    result.loopMaxUs = loops.back();
    result.loopMedianUs = loops[loops.size() / 2];
    result.loopCvPct =
        mean > 0 ? 100.0 * std::sqrt(std::max(0.0, sumSq / n - mean * mean)) / mean : 0;
    double lost = 0;
    for (const CpuNoise &c : result.cpus)
        lost = std::max(lost, c.lostPct);
    result.verdict = noiseVerdict(lost, result.loopCvPct);
    return result;
}

} // namespace latprobe
