#pragma once

#include "consumerconfig.h"
#include "phase.h"
#include "runnumbers.h"
#include "sparsehistogram.h"

#include <QObject>

#include <deque>
#include <vector>

namespace latprobe {

// The GUI's copy of the run's numbers (RunNumbers), pulled on timers so
// that the measuring side never waits for a widget. Every view reads from
// here; nothing else in the GUI asks the session for samples.
//
// Counts start at a reset: "since reset" is everything from the reset's
// 100 ms boundary on, "last 10 s" the buckets of the last 10 s after it.
class LiveData : public QObject
{
    Q_OBJECT
public:
    static constexpr int64_t kBucketNs = FineBucket::kNs;
    static constexpr size_t kKeptBuckets = 700;    // the 60 s window and some margin
    static constexpr int64_t kWindowBuckets = 100; // "last 10 s"

    explicit LiveData(const RunNumbers &numbers, QObject *parent = nullptr);

    // The 100 ms buckets that arrived since the last call: cheap, ~10 Hz.
    void pollFine(int64_t now);
    // Per-phase statistics and histograms: costlier, ~1 Hz.
    void pollPhases(int64_t now);

    // The 100 ms boundary a reset at `now` takes effect at; give the same
    // time to the phase it begins so the counts and the phase agree.
    int64_t resetBoundary(int64_t now) const;
    void reset(int64_t at);
    int64_t resetAt() const { return m_resetAt; }

    size_t consumerCount() const { return m_tracks.size(); }
    const std::vector<ConsumerConfig> &configs() const;
    int consumerIndex(const std::string &name) const; // -1 if absent

    // Oldest first; the last bucket may still grow.
    const std::deque<FineBucket> &recent(size_t consumer) const
    {
        return m_tracks[consumer].recent;
    }
    // Seconds since the run started, at the last pollFine().
    double nowS() const { return m_nowS; }

    uint64_t missesSinceReset(size_t consumer) const;
    uint64_t missesLastWindow(size_t consumer) const;
    int64_t maxSinceResetUs(size_t consumer) const; // -1: no sample yet
    int64_t maxLastWindowUs(size_t consumer) const;

    // From the last pollPhases(). The percentile consumer is the one whose
    // histogram is kept (wakeup).
    void setHistogramConsumer(int consumer)
    {
        m_histConsumer = consumer;
        m_foldedReset = -1; // its finished phases are summed anew
    }
    int histogramConsumer() const { return m_histConsumer; }
    const std::vector<PhaseResult> &phases() const { return m_phases; }
    const SparseHistogram &phaseHistogram() const { return m_phaseHist; }
    const SparseHistogram &windowHistogram() const { return m_windowHist; }
    // The CPU a consumer with a CPU target (gaming) got of what it asked,
    // over the phases since the reset (a reset begins one), in percent; -1:
    // no sample yet.
    double cpuSinceResetPct(size_t consumer) const;
    int64_t p99SinceResetUs() const { return m_p99SinceReset; } // -1: no sample
    int64_t p99LastWindowUs() const { return m_p99Window; }
    // Buckets held for "last 10 s" (what the polls of the window added):
    // bounded by the window's samples, not by the run's.
    size_t windowBucketsHeld() const;

signals:
    void fineUpdated();
    void phasesUpdated();

private:
    struct Track
    {
        std::deque<FineBucket> recent;
        int64_t open = 0;         // first bucket that may still change
        uint64_t finalMisses = 0; // since reset, buckets that are final
        int64_t finalMaxUs = -1;
    };
    struct Step
    {
        int64_t at = 0;
        SparseHistogram added; // to the cumulative histogram since the poll before
    };

    bool counts(const FineBucket &b) const { return b.index >= m_resetIndex; }

    const RunNumbers &m_numbers;
    std::vector<Track> m_tracks;
    int64_t m_runStart = 0;
    int64_t m_resetAt = 0;
    int64_t m_resetIndex = 0;
    int64_t m_nowIndex = 0;
    double m_nowS = 0;

    int m_histConsumer = -1;
    std::vector<PhaseResult> m_phases;
    std::deque<Step> m_steps;      // once per pollPhases, 10 s worth
    size_t m_lastPhase = SIZE_MAX; // the last phase at the last poll (m_phaseHist its histogram)
    SparseHistogram m_phaseHist, m_windowHist;
    // The finished phases since the reset, summed once: phases before
    // m_folded are fetched without histograms (RunNumbers::phases()).
    SparseHistogram m_finishedSinceReset;
    size_t m_folded = 0;
    int64_t m_foldedReset = -1;
    int64_t m_p99SinceReset = -1, m_p99Window = -1;
};

} // namespace latprobe
