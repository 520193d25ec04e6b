#include "livedata.h"

#include "collector.h"

#include <algorithm>

namespace latprobe {

LiveData::LiveData(Collector &collector, QObject *parent)
    : QObject(parent), m_collector(collector), m_configs(collector.configs()),
      m_tracks(m_configs.size()), m_runStart(collector.runStart()), m_resetAt(m_runStart)
{}

int LiveData::consumerIndex(const std::string &name) const
{
    for (size_t i = 0; i < m_configs.size(); ++i)
        if (m_configs[i].name == name)
            return static_cast<int>(i);
    return -1;
}

void LiveData::pollFine(int64_t now)
{
    m_nowIndex = (now - m_runStart) / kBucketNs;
    m_nowS = static_cast<double>(now - m_runStart) / 1e9;
    for (size_t c = 0; c < m_tracks.size(); ++c) {
        Track &t = m_tracks[c];
        const std::vector<FineBucket> fresh = m_collector.fineSeries(c, t.open);
        if (fresh.empty())
            continue;
        while (!t.recent.empty() && t.recent.back().index >= t.open)
            t.recent.pop_back();
        // Buckets before the newest one are final: samples only ever join
        // the newest bucket (Collector::addLocked).
        for (size_t i = 0; i + 1 < fresh.size(); ++i) {
            const FineBucket &b = fresh[i];
            if (counts(b)) {
                t.finalMisses += b.misses;
                t.finalMaxUs = std::max(t.finalMaxUs, b.maxUs);
            }
        }
        t.recent.insert(t.recent.end(), fresh.begin(), fresh.end());
        t.open = fresh.back().index;
        while (t.recent.size() > kKeptBuckets)
            t.recent.pop_front();
    }
    emit fineUpdated();
}

int64_t LiveData::resetBoundary(int64_t now) const
{
    return m_collector.fineBoundary(now);
}

void LiveData::reset(int64_t at)
{
    m_resetAt = at;
    m_resetIndex = (at - m_runStart) / kBucketNs;
    for (Track &t : m_tracks) {
        t.finalMisses = 0;
        t.finalMaxUs = -1;
        // Final buckets past the boundary (a reset given a past time) count.
        for (const FineBucket &b : t.recent)
            if (b.index < t.open && counts(b)) {
                t.finalMisses += b.misses;
                t.finalMaxUs = std::max(t.finalMaxUs, b.maxUs);
            }
    }
    m_steps.clear();
    m_lastCumulative.clear();
    m_cumulative.clear();
    m_windowHist.clear();
    m_p99SinceReset = m_p99Window = -1;
}

size_t LiveData::windowBucketsHeld() const
{
    size_t held = 0;
    for (const Step &s : m_steps)
        held += s.added.size();
    return held;
}

uint64_t LiveData::missesSinceReset(size_t consumer) const
{
    const Track &t = m_tracks[consumer];
    uint64_t n = t.finalMisses;
    if (!t.recent.empty() && t.recent.back().index >= t.open && counts(t.recent.back()))
        n += t.recent.back().misses;
    return n;
}

int64_t LiveData::maxSinceResetUs(size_t consumer) const
{
    const Track &t = m_tracks[consumer];
    int64_t m = t.finalMaxUs;
    if (!t.recent.empty() && t.recent.back().index >= t.open && counts(t.recent.back()))
        m = std::max(m, t.recent.back().maxUs);
    return m;
}

uint64_t LiveData::missesLastWindow(size_t consumer) const
{
    uint64_t n = 0;
    const auto &recent = m_tracks[consumer].recent;
    for (auto it = recent.rbegin(); it != recent.rend(); ++it) {
        if (it->index <= m_nowIndex - kWindowBuckets || !counts(*it))
            break;
        n += it->misses;
    }
    return n;
}

int64_t LiveData::maxLastWindowUs(size_t consumer) const
{
    int64_t m = -1;
    const auto &recent = m_tracks[consumer].recent;
    for (auto it = recent.rbegin(); it != recent.rend(); ++it) {
        if (it->index <= m_nowIndex - kWindowBuckets || !counts(*it))
            break;
        m = std::max(m, it->maxUs);
    }
    return m;
}

double LiveData::cpuSinceResetPct(size_t consumer) const
{
    const double resetS = static_cast<double>(m_resetAt - m_runStart) / 1e9;
    const std::string &name = m_configs[consumer].name;
    double done = 0, asked = 0;
    for (const PhaseResult &p : m_phases) {
        const ConsumerStats *c = p.consumer(name);
        // Phases begun before the reset stay out, as in every count; a
        // phase's work done is its samples' (each asks the same work).
        if (p.startS + 1e-6 < resetS || !c || c->samples == 0 || c->desiredCpuPct <= 0)
            continue;
        done += static_cast<double>(c->samples);
        asked += static_cast<double>(c->samples) * 100.0 / c->desiredCpuPct;
    }
    return asked > 0 ? 100.0 * done / asked : -1;
}

void LiveData::pollPhases(int64_t now)
{
    if (m_foldedReset != m_resetAt) {
        m_finishedSinceReset.clear();
        m_folded = 0;
        m_foldedReset = m_resetAt;
        m_steps.clear(); // another consumer's, or from before the reset
        m_lastCumulative.clear();
    }
    // No histogram shown: none is fetched.
    m_phases = m_collector.phases(now, m_histConsumer >= 0 ? m_folded : SIZE_MAX);
    if (m_histConsumer >= 0 && !m_phases.empty()) {
        // By name: a scenario step that measures one consumer leaves the
        // others out of its phase.
        const std::string &name = m_collector.configs()[static_cast<size_t>(m_histConsumer)].name;
        const auto histogramOf = [&](const PhaseResult &p) -> const SparseHistogram * {
            const ConsumerStats *s = p.consumer(name);
            return s ? &s->histogram : nullptr;
        };
        const double resetS = static_cast<double>(m_resetAt - m_runStart) / 1e9;
        // Phases begun before the reset stay out of every count.
        auto counts = [&](const PhaseResult &p) {
            return p.startS + 1e-6 >= resetS && histogramOf(p) != nullptr;
        };
        // Every phase but the last has ended: its histogram is folded once
        // (a sample settling into it after that is missed here, not in the
        // run's report, which reads the collector).
        for (; m_folded + 1 < m_phases.size(); ++m_folded) {
            PhaseResult &p = m_phases[m_folded];
            if (counts(p)) {
                addSparse(m_finishedSinceReset, *histogramOf(p), m_scratch);
                m_finishedSinceReset.swap(m_scratch);
            }
            for (ConsumerStats &s : p.consumers)
                SparseHistogram().swap(s.histogram);
        }
        if (counts(m_phases.back()))
            addSparse(m_finishedSinceReset, *histogramOf(m_phases.back()), m_cumulative);
        else
            m_cumulative = m_finishedSinceReset;
        const SparseHistogram *last = histogramOf(m_phases.back());
        m_phaseHist = last ? *last : SparseHistogram{};
        m_p99SinceReset = sparsePercentile(m_cumulative, 0.99);

        // "Last 10 s" of a percentile: what each poll added to the
        // cumulative histogram, summed over the polls of the last 10 s (or
        // since the reset, if it is more recent). Kept as a cumulative copy
        // a poll, these were 13 copies of a histogram that grows all run:
        // 1 MB of the window's memory after 18 minutes of a soak.
        Step step;
        if (m_steps.size() > 12) { // reuse the oldest one's memory
            step = std::move(m_steps.front());
            m_steps.pop_front();
        }
        step.at = now;
        subtractSparse(m_cumulative, m_lastCumulative, step.added);
        m_lastCumulative.assign(m_cumulative.begin(), m_cumulative.end());
        m_steps.push_back(std::move(step));
        const int64_t windowStart = now - kWindowBuckets * kBucketNs;
        while (!m_steps.empty() && m_steps.front().at <= windowStart)
            m_steps.pop_front();
        m_windowHist.clear();
        for (const Step &s : m_steps) {
            addSparse(m_windowHist, s.added, m_scratch);
            m_windowHist.swap(m_scratch);
        }
        m_p99Window = sparsePercentile(m_windowHist, 0.99);
    }
    emit phasesUpdated();
}

} // namespace latprobe
