#include "collector.h"

#include <algorithm>

namespace latprobe {

Collector::Collector(std::vector<ConsumerConfig> configs, int64_t runStart)
    : m_configs(std::move(configs)), m_runStart(runStart), m_series(m_configs.size()),
      m_fine(m_configs.size()), m_seenOverflows(m_configs.size(), 0)
{
    for (size_t i = 0; i < m_configs.size(); ++i)
        m_rings.push_back(std::make_unique<SpscRing<Sample>>(kRingCapacity));
    beginPhase("idle", {}, runStart);
}

void Collector::beginPhase(const std::string &name, const std::vector<std::string> &loads,
                           int64_t at)
{
    std::lock_guard lock(m_mutex);
    // Samples still in the rings belong to the phase before `at`: take them
    // first, or that phase would look unused and be renamed.
    if (!m_phases.empty()) {
        drainLocked();
        Phase &last = m_phases.back();
        // A phase begun no later than the last one began names that one (a
        // scenario's first step names the phase the run started with); one
        // that never got a sample is renamed rather than left empty.
        const bool unused = std::all_of(last.stats.begin(), last.stats.end(),
                                        [](const StatsAccumulator &a) { return a.samples() == 0; });
        if (at <= last.start || unused) {
            last.name = name;
            last.loads = loads;
            return;
        }
        last.end = at;
    }
    Phase p;
    p.name = name;
    p.loads = loads;
    p.start = at;
    for (const ConsumerConfig &c : m_configs)
        p.stats.emplace_back(c);
    p.ringOverflows.assign(m_configs.size(), 0);
    m_phases.push_back(std::move(p));
}

Collector::Phase &Collector::phaseAt(int64_t t)
{
    for (auto it = m_phases.rbegin(); it != m_phases.rend(); ++it)
        if (it->start <= t)
            return *it;
    return m_phases.front();
}

size_t Collector::drain()
{
    std::lock_guard lock(m_mutex);
    return drainLocked();
}

size_t Collector::drainLocked()
{
    size_t n = 0;
    for (size_t i = 0; i < m_rings.size(); ++i) {
        n += m_rings[i]->drain([&](const Sample &s) { addLocked(i, s); });
        const uint64_t overflows = m_rings[i]->overflows();
        m_phases.back().ringOverflows[i] += overflows - m_seenOverflows[i];
        m_seenOverflows[i] = overflows;
    }
    return n;
}

void Collector::add(size_t consumer, const Sample &sample)
{
    std::lock_guard lock(m_mutex);
    addLocked(consumer, sample);
}

void Collector::addLocked(size_t consumer, const Sample &s)
{
    Phase &phase = phaseAt(s.periodStart);
    phase.stats[consumer].add(s);

    const ConsumerConfig &config = m_configs[consumer];
    const uint32_t lost = config.hasDeadline() ? s.missedDeadline + s.periodsSkipped : 0;
    const int64_t second = std::max<int64_t>(0, (s.woke - m_runStart) / 1000000000);
    auto &series = m_series[consumer];
    if (series.size() <= static_cast<size_t>(second))
        series.resize(second + 1);
    SecondBucket &bucket = series[second];
    bucket.maxUs = std::max(bucket.maxUs, latencyUs(s));
    ++bucket.samples;
    bucket.misses += lost;

    auto &fine = m_fine[consumer];
    const int64_t tenth = std::max<int64_t>(0, (s.woke - m_runStart) / kFineNs);
    if (fine.empty() || fine.back().index < tenth) {
        fine.push_back({tenth, -1, 0});
        if (fine.size() > kFineKept)
            fine.pop_front();
    }
    // Samples arrive in order per consumer; a late straggler joins the last bucket.
    FineBucket &fb = fine.back();
    fb.maxUs = std::max(fb.maxUs, latencyUs(s));
    fb.misses += lost;

    if (lost == 0)
        return;
    if (!phase.missSeen) {
        phase.missSeen = true;
        m_captureRequests.push_back(
            {static_cast<double>(s.done - m_runStart) / 1e9, phase.name, config.name});
    }
    if (m_missLog.size() >= kMissLogLimit) {
        ++m_missLogDropped;
        return;
    }
    MissEvent e;
    e.timeS = static_cast<double>(s.done - m_runStart) / 1e9;
    e.consumer = config.name;
    e.latenessUs = std::max<int64_t>(0, (s.done - s.periodStart - config.slackNs) / 1000);
    e.periodsLost = lost;
    e.phase = phase.name;
    m_missLog.push_back(std::move(e));
}

void Collector::finish(int64_t end)
{
    drain();
    std::lock_guard lock(m_mutex);
    m_phases.back().end = end;
}

std::vector<PhaseResult> Collector::phases(int64_t now) const
{
    std::lock_guard lock(m_mutex);
    std::vector<PhaseResult> out;
    for (const Phase &p : m_phases) {
        const int64_t end = p.end ? p.end : now;
        PhaseResult r;
        r.name = p.name;
        r.loads = p.loads;
        r.startS = static_cast<double>(p.start - m_runStart) / 1e9;
        r.durationS = static_cast<double>(end - p.start) / 1e9;
        for (size_t i = 0; i < p.stats.size(); ++i) {
            ConsumerStats s = p.stats[i].result(p.start, end, m_runStart);
            s.ringOverflows = p.ringOverflows[i];
            r.consumers.push_back(std::move(s));
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<std::vector<SecondBucket>> Collector::series() const
{
    std::lock_guard lock(m_mutex);
    return m_series;
}

std::vector<FineBucket> Collector::fineSeries(size_t consumer, int64_t fromIndex) const
{
    std::lock_guard lock(m_mutex);
    std::vector<FineBucket> out;
    const auto &fine = m_fine.at(consumer);
    auto it = std::lower_bound(fine.begin(), fine.end(), fromIndex,
                               [](const FineBucket &b, int64_t i) { return b.index < i; });
    out.assign(it, fine.end());
    return out;
}

std::vector<Collector::CaptureRequest> Collector::takeCaptureRequests()
{
    std::lock_guard lock(m_mutex);
    std::vector<CaptureRequest> out;
    out.swap(m_captureRequests);
    return out;
}

std::vector<MissEvent> Collector::missLog() const
{
    std::lock_guard lock(m_mutex);
    return m_missLog;
}

uint64_t Collector::missLogDropped() const
{
    std::lock_guard lock(m_mutex);
    return m_missLogDropped;
}

uint64_t Collector::ringOverflows() const
{
    uint64_t total = 0;
    for (const auto &ring : m_rings)
        total += ring->overflows();
    return total;
}

} // namespace latprobe
