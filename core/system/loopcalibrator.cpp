#include "loopcalibrator.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace latprobe {

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double spreadOf(double median, double min, double max)
{
    return median > 0 ? (max - min) / median * 100.0 : 0.0;
}

} // namespace

double LoopCalibration::spreadPct() const
{
    double widest = 0;
    for (const OnCpu &c : perCpu)
        widest = std::max(widest, c.spreadPct());
    return perCpu.empty() ? spreadOf(loopsPerMs, minLoopsPerMs, maxLoopsPerMs) : widest;
}

double LoopCalibration::OnCpu::spreadPct() const
{
    return spreadOf(loopsPerMs, minLoopsPerMs, maxLoopsPerMs);
}

double LoopCalibration::loopsPerMsOn(int cpu) const
{
    for (const OnCpu &c : perCpu)
        if (c.cpu == cpu && c.loopsPerMs > 0)
            return c.loopsPerMs;
    return loopsPerMs;
}

LoopCalibrator::LoopCalibrator(Trial trial, Limits limits)
    : m_trial(std::move(trial)), m_limits(limits)
{}

LoopCalibration LoopCalibrator::run()
{
    const Limits &limits = m_limits;
    LoopCalibration out;
    auto timed = [&](uint64_t loops) {
        const int64_t ns = std::max<int64_t>(m_trial(loops), 1);
        ++out.trials;
        out.spentNs += ns;
        return ns;
    };
    auto rate = [](uint64_t loops, int64_t ns) {
        return static_cast<double>(loops) * 1e6 / static_cast<double>(ns);
    };

    // A short first trial sizes the others, whatever the machine's speed.
    constexpr uint64_t kSizingLoops = 100'000;
    const double sizingRate = rate(kSizingLoops, timed(kSizingLoops));
    const uint64_t loops = std::max<uint64_t>(
        1, static_cast<uint64_t>(sizingRate * static_cast<double>(limits.trialNs) / 1e6));

    std::vector<double> rates;
    // What the next trial may take: the longest so far, so that a machine
    // whose speed swings does not overrun the bound on a slow trial.
    int64_t longest = limits.trialNs;
    double previousMedian = 0;
    bool outOfTime = false;
    while (!outOfTime && !out.settled) {
        for (int i = 0; i < limits.roundTrials; ++i) {
            if (out.spentNs + longest > limits.budgetNs) {
                outOfTime = true;
                break;
            }
            const int64_t ns = timed(loops);
            longest = std::max(longest, ns);
            rates.push_back(rate(loops, ns));
        }
        if (outOfTime)
            break;
        const double roundMedian =
            median(std::vector<double>(rates.end() - limits.roundTrials, rates.end()));
        out.settled = previousMedian > 0 && std::abs(roundMedian - previousMedian) <=
                                                previousMedian * limits.tolerancePct / 100.0;
        previousMedian = roundMedian;
    }

    // The last two rounds: the settled ones, or the latest speed when time ran out.
    const size_t window = std::min(rates.size(), static_cast<size_t>(2 * limits.roundTrials));
    std::vector<double> kept(rates.end() - static_cast<std::ptrdiff_t>(window), rates.end());
    if (kept.empty())
        kept.push_back(sizingRate);
    out.loopsPerMs = median(kept);
    out.minLoopsPerMs = *std::min_element(kept.begin(), kept.end());
    out.maxLoopsPerMs = *std::max_element(kept.begin(), kept.end());
    return out;
}

LoopCalibration combineCpuSpeeds(const std::vector<std::pair<int, LoopCalibration>> &onCpus)
{
    LoopCalibration out;
    if (onCpus.empty())
        return out;
    if (onCpus.size() == 1)
        return onCpus.front().second;
    double inverseSum = 0;
    out.settled = true;
    out.minLoopsPerMs = onCpus.front().second.minLoopsPerMs;
    for (const auto &[cpu, c] : onCpus) {
        if (!c.measured())
            continue;
        inverseSum += 1.0 / c.loopsPerMs;
        out.trials += c.trials;
        out.spentNs += c.spentNs;
        out.settled = out.settled && c.settled;
        out.minLoopsPerMs = std::min(out.minLoopsPerMs, c.minLoopsPerMs);
        out.maxLoopsPerMs = std::max(out.maxLoopsPerMs, c.maxLoopsPerMs);
        out.perCpu.push_back(
            {cpu, c.loopsPerMs, c.minLoopsPerMs, c.maxLoopsPerMs, c.trials, c.settled});
    }
    if (inverseSum > 0)
        out.loopsPerMs = static_cast<double>(out.perCpu.size()) / inverseSum;
    return out;
}

std::string cpuSpeedsText(const LoopCalibration &calibration)
{
    std::vector<std::string> speeds;
    for (const LoopCalibration::OnCpu &c : calibration.perCpu)
        speeds.push_back(c.trials > 0 ? fmt::format("cpu {} {:.0f} (spread {:.0f} %)", c.cpu,
                                                    c.loopsPerMs, c.spreadPct())
                                      : fmt::format("cpu {} {:.0f}", c.cpu, c.loopsPerMs));
    return fmt::format("{}", fmt::join(speeds, ", "));
}

std::string loopTrustWarning(const std::string &consumer, const LoopCalibration &calibration)
{
    if (!calibration.measured() || calibration.trials == 0) // an older file's: trials unknown
        return {};
    LoopCalibration::OnCpu only{-1,
                                calibration.loopsPerMs,
                                calibration.minLoopsPerMs,
                                calibration.maxLoopsPerMs,
                                calibration.trials,
                                calibration.settled};
    const std::vector<LoopCalibration::OnCpu> cpus =
        calibration.perCpu.empty() ? std::vector{only} : calibration.perCpu;
    std::vector<std::string> doubtful;
    for (const LoopCalibration::OnCpu &c : cpus) {
        if (c.spreadPct() <= kLoopTrustSpreadPct)
            continue;
        std::string what = c.cpu >= 0 ? fmt::format("cpu {} ", c.cpu) : std::string();
        what += fmt::format("spread {:.0f} %{}", c.spreadPct(), c.settled ? "" : " unsettled");
        doubtful.push_back(std::move(what));
    }
    if (doubtful.empty())
        return {};
    return fmt::format("{}: loop calibration not to be trusted ({}, over {:.0f} %): its loop "
                       "work need not last the time asked, nor as in another run; --work-mode "
                       "cpu does not depend on it",
                       consumer, fmt::join(doubtful, ", "), kLoopTrustSpreadPct);
}

double loopSpeedChangePct(const LoopCalibration &start, const LoopCalibration &end)
{
    if (!start.measured() || !end.measured())
        return 0;
    return (end.loopsPerMs - start.loopsPerMs) / start.loopsPerMs * 100.0;
}

std::string loopWanderWarning(const std::string &consumer, const LoopCalibration &start,
                              const LoopCalibration &work, const LoopCalibration &end)
{
    const double inWork = loopSpeedChangePct(start, work);
    const double atEnd = loopSpeedChangePct(start, end);
    const double change = std::abs(inWork) >= std::abs(atEnd) ? inWork : atEnd;
    if (std::abs(change) <= kLoopWanderPct)
        return {};
    std::string speeds = fmt::format("{:.0f} at the start", start.loopsPerMs);
    if (work.measured())
        speeds += fmt::format(", {:.0f} in its work", work.loopsPerMs);
    if (end.measured())
        speeds += fmt::format(", {:.0f} at the end", end.loopsPerMs);
    return fmt::format("{}: loop speed changed {:+.0f} % during the run ({} loops/ms): its "
                       "loop work was not the time asked",
                       consumer, change, speeds);
}

} // namespace latprobe
