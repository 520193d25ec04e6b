#include "livedata.h"

#include <algorithm>

namespace latprobe {

LiveData::LiveData(const RunNumbers &numbers, QObject *parent)
    : QObject(parent), m_numbers(numbers), m_tracks(numbers.configs().size()),
      m_runStart(numbers.runStart()), m_resetAt(m_runStart)
{}

const std::vector<ConsumerConfig> &LiveData::configs() const
{
    return m_numbers.configs();
}

int LiveData::consumerIndex(const std::string &name) const
{
    for (size_t i = 0; i < configs().size(); ++i)
        if (configs()[i].name == name)
            return static_cast<int>(i);
    return -1;
}

void LiveData::pollFine(int64_t now)
{
    m_nowIndex = (now - m_runStart) / kBucketNs;
    m_nowS = static_cast<double>(now - m_runStart) / 1e9;
    for (size_t c = 0; c < m_tracks.size(); ++c) {
        Track &t = m_tracks[c];
        const std::vector<FineBucket> fresh = m_numbers.fineSeries(c, t.open);
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
    return m_numbers.fineBoundary(now);
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
    m_lastPhase = SIZE_MAX;
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
    const std::string &name = configs()[consumer].name;
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
        m_lastPhase = SIZE_MAX;
    }
    // No histogram shown: none is fetched.
    m_phases = m_numbers.phases(now, m_histConsumer >= 0 ? m_folded : SIZE_MAX);
    if (m_histConsumer >= 0 && !m_phases.empty()) {
        // By name: a scenario step that measures one consumer leaves the
        // others out of its phase.
        const std::string &name = m_numbers.configs()[static_cast<size_t>(m_histConsumer)].name;
        const auto histogramOf = [&](const PhaseResult &p) -> const SparseHistogram * {
            const ConsumerStats *s = p.consumer(name);
            return s ? &s->histogram : nullptr;
        };
        const double resetS = static_cast<double>(m_resetAt - m_runStart) / 1e9;
        // Phases begun before the reset stay out of every count.
        auto counts = [&](const PhaseResult &p) {
            return p.startS + 1e-6 >= resetS && histogramOf(p) != nullptr;
        };
        // What this poll adds to the histogram since the reset, phase by
        // phase: the rest of the phase seen open last time, phases begun and
        // ended since, the open phase's part. Each is phase-sized: a copy of
        // the run's histogram at each poll (13 kept for "last 10 s") held
        // 1 MB of the window's memory after 18 minutes of a soak.
        SparseHistogram added, part, sum;
        const auto add = [&](const SparseHistogram &h, size_t index) {
            if (index == m_lastPhase) { // m_phaseHist is still the last poll's
                subtractSparse(h, m_phaseHist, part);
                addSparse(added, part, sum);
            } else {
                addSparse(added, h, sum);
            }
            added.swap(sum);
        };
        // Every phase but the last has ended: its histogram is folded once
        // (a sample settling into it after that is missed here, not in the
        // run's report, which reads the collector).
        for (; m_folded + 1 < m_phases.size(); ++m_folded) {
            PhaseResult &p = m_phases[m_folded];
            if (counts(p)) {
                add(*histogramOf(p), m_folded);
                addSparse(m_finishedSinceReset, *histogramOf(p), sum);
                m_finishedSinceReset.swap(sum);
            }
            for (ConsumerStats &s : p.consumers)
                SparseHistogram().swap(s.histogram);
        }
        const SparseHistogram *last = histogramOf(m_phases.back());
        const bool lastCounts = counts(m_phases.back());
        if (lastCounts)
            add(*last, m_phases.size() - 1);
        m_lastPhase = m_phases.size() - 1;
        m_phaseHist = last ? *last : SparseHistogram{};
        static const SparseHistogram kNone;
        m_p99SinceReset =
            sparsePercentileOfSum(m_finishedSinceReset, lastCounts ? m_phaseHist : kNone, 0.99);

        // "Last 10 s" of a percentile: the additions of the polls of the
        // last 10 s (or since the reset, if it is more recent), summed.
        Step step;
        step.at = now;
        step.added = std::move(added);
        m_steps.push_back(std::move(step));
        const int64_t windowStart = now - kWindowBuckets * kBucketNs;
        while (!m_steps.empty() && m_steps.front().at <= windowStart)
            m_steps.pop_front();
        m_windowHist.clear();
        for (const Step &s : m_steps) {
            addSparse(m_windowHist, s.added, sum);
            m_windowHist.swap(sum);
        }
        m_p99Window = sparsePercentile(m_windowHist, 0.99);
    }
    emit phasesUpdated();
}

} // namespace latprobe
