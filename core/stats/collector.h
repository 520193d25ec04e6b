#pragma once

#include "coldstore.h"
#include "consumerconfig.h"
#include "misslog.h"
#include "phase.h"
#include "sample.h"
#include "secondseries.h"
#include "spscring.h"
#include "statsaccumulator.h"

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace latprobe {

// Drains the measuring threads' rings into per-phase statistics, per-second
// series and the miss log. The only place that allocates on their behalf.
// Thread-safe: one thread drains, others may start phases and read results.
class Collector
{
public:
    // Each ring holds kRingSpanNs of its consumer's periods, within bounds:
    // how long the collector (Probe::kDrainIntervalNs) may be kept from running
    // before a sample is lost, and counted. Rings are paged in before the
    // run starts, so that the measuring loop never faults: a ring sized by
    // its consumer keeps that cheap and in cache, where one 65536-slot ring
    // for every consumer took 2.6 MB each and 20 ms of CPU at every start.
    static constexpr int64_t kRingSpanNs = 8'000'000'000;
    static constexpr size_t kMinRingCapacity = 1024;
    static constexpr size_t kMaxRingCapacity = 1 << 16;
    static size_t ringCapacity(const ConsumerConfig &config);
    static constexpr size_t kMissLogLimit = 100000;

    // Each phase is also cut into blocks of kBlockNs from its start, each
    // with its own percentiles and misses: a comparison's samples when a
    // run has no rounds. A last block shorter than half of that is dropped.
    static constexpr int64_t kBlockNs = 5'000'000'000;

    // `store`: where finished phases' histograms and blocks, and the miss
    // log's full chunks, are kept (nullptr: all in memory).
    // The configs are shared, not copied: the probe that runs the consumers
    // owns them, and they never change during a run.
    Collector(std::shared_ptr<const std::vector<ConsumerConfig>> configs, int64_t runStart,
              std::shared_ptr<ColdStore> store = ColdStore::open());
    Collector(std::vector<ConsumerConfig> configs, int64_t runStart,
              std::shared_ptr<ColdStore> store = ColdStore::open())
        : Collector(std::make_shared<const std::vector<ConsumerConfig>>(std::move(configs)),
                    runStart, std::move(store))
    {}

    SpscRing<Sample> &ring(size_t consumer) { return *m_rings[consumer]; }
    const std::vector<ConsumerConfig> &configs() const { return m_configs; }
    int64_t runStart() const { return m_runStart; }

    // Samples whose period starts at or after `at` belong to the new phase;
    // `at` no later than the current phase's start renames that phase, as
    // does any `at` while that phase has no sample yet. Returns where the
    // phase now open begins. A phase begun by hand (place.step < 0) whose
    // name an earlier one has is numbered: "idle 2"; `givenName` gets the
    // name it was given.
    int64_t beginPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                       PhasePlace place = {}, std::string *givenName = nullptr);
    // Ends the open phase at `at` without beginning the next: until the next
    // beginPhase, samples count in no phase (the live series still show
    // them). A scenario's step ends so before its loads stop and the next
    // step's start, so that neither phase counts the changeover.
    void endPhase(int64_t at);
    // Ends the open phase where it began and forgets what it counted; the
    // next beginPhase takes its place. The run's first phase, given up to a
    // scenario whose consumers start afresh once its first step's loads run:
    // what they measured before is in no step.
    void discardPhase();
    size_t drain();
    // Closes the last phase at `end` (or where endPhase ended it).
    void finish(int64_t end);

    // Snapshots: `now` closes the open phase for the expected-sample count.
    // Phases before `histogramsFrom` come without their histograms: the
    // window polls every second, and a copy of every phase's histogram grew
    // its memory by half a MiB a phase. The window leaves the 5-s blocks out
    // too: only comparisons and stop conditions read them, and its copy of
    // them grew by 3.5 KB a minute of a four-consumer run.
    enum class Blocks : bool { Leave, Include };
    std::vector<PhaseResult> phases(int64_t now, size_t histogramsFrom = 0,
                                    Blocks blocks = Blocks::Include) const;
    // The open (last) phase alone, without histograms or blocks: what a
    // progress line prints each second, without copying every phase.
    PhaseResult openPhase(int64_t now) const;
    std::vector<std::vector<SecondBucket>> series() const;
    // 100 ms buckets of one consumer with index >= `fromIndex` (the last
    // kFineKept are kept): what a live plot appends since its last tick.
    std::vector<FineBucket> fineSeries(size_t consumer, int64_t fromIndex) const;
    static constexpr int64_t kFineNs = FineBucket::kNs;
    // The first 100 ms bucket boundary at or after `t`: where a phase begun
    // by hand takes effect, so that the live counters and the phase agree.
    int64_t fineBoundary(int64_t t) const
    {
        const int64_t index = (t - m_runStart + kFineNs - 1) / kFineNs;
        return m_runStart + (index > 0 ? index : 0) * kFineNs;
    }
    static constexpr size_t kFineKept = 6000;
    std::vector<MissEvent> missLog() const;
    uint64_t missLogDropped() const;
    uint64_t ringOverflows() const;

    // The first miss of each phase asks for a capture of the system's state
    // (taken by whoever runs the run, never by the measuring threads), for
    // the first kCaptureRequestLimit phases: a capture holds up to 256 KiB
    // of sched_debug, and an hour-long scenario must not grow without bound.
    static constexpr size_t kCaptureRequestLimit = 16;
    struct CaptureRequest
    {
        double timeS = 0;
        std::string phase;
        std::string consumer;
    };
    std::vector<CaptureRequest> takeCaptureRequests();

    // Misses to explain from the kernel's trace (docs/DESIGN.md, "Who
    // delayed me"): periodic consumers' only, the first `perPhase` of each
    // phase and consumer, at most
    // kExplainLimit in a run, so that a run's file and the reading of the
    // trace stay bounded however badly a load hurts. 0 (the default): none.
    static constexpr size_t kExplainLimit = 400;
    void setExplainPerPhase(size_t perPhase);
    // More on demand (the window's "Explain the next misses"): the next
    // `count` misses of each periodic consumer in the phase now open, past
    // the per-phase number and, as the user asked, past kExplainLimit.
    // False when the open phase is one the recorder does not record.
    bool explainMore(size_t count);
    struct ExplainRequest
    {
        size_t consumer = 0;
        std::string phase;
        Sample sample;
        size_t phaseIndex = 0; // for phaseName(): the phase may be renamed later
    };
    // The name phase `index` has now: a scenario's first step renames the
    // phase the run began with, and an explanation asked for before keeps
    // the old name. "" for no such phase.
    std::string phaseName(size_t index) const;
    // `explainableFrom`, if given: the earliest period start a miss not yet
    // taken can have (INT64_MAX when no more will be asked). lp-explain
    // keeps the trace from there: a consumer starved for seconds, or a
    // session thread that was, asks about its misses long after them.
    std::vector<ExplainRequest> takeExplainRequests(int64_t *explainableFrom = nullptr);

    // Feeds a sample directly, as a drain would (tests, importers).
    void add(size_t consumer, const Sample &sample);

private:
    size_t drainLocked(); // with m_mutex held: the rings' one reader at a time
    // Takes m_mutex; true when it closed a phase. `start`: where the open one begins.
    bool openPhase(const std::string &name, const std::vector<std::string> &loads, int64_t at,
                   PhasePlace place, int64_t &start, std::string *givenName);
    std::string distinctName(const std::string &name, size_t before) const; // m_mutex held
    // The block of one consumer that samples are going into, and those done.
    struct BlockTrack
    {
        int64_t index = -1; // from the phase's start, in kBlockNs
        // Held apart: an accumulator is 400 bytes, kept with every phase
        // of the run once closed if it were held in place.
        std::unique_ptr<StatsAccumulator> open;
        std::vector<BlockStats> done;
        // The blocks of a finished phase, in m_store; `done` holds any after them.
        std::optional<ColdStore::Ref> parked;
    };
    std::vector<BlockStats> blocksOf(const BlockTrack &track) const;
    struct Phase
    {
        std::string name;
        std::vector<std::string> loads;
        PhasePlace place;
        int64_t start = 0;
        int64_t end = 0;              // 0 while open
        bool endedBeforeNext = false; // endPhase: a gap follows it
        bool discarded = false;       // discardPhase: the next takes its place
        std::vector<StatsAccumulator> stats;
        std::vector<BlockTrack> blocks;
        std::vector<uint64_t> ringOverflows;
        std::vector<bool> measured; // per consumer: place.consumers, or all
        bool missSeen = false;
        std::vector<size_t> explainAsked; // per consumer
        size_t explainMore = 0;           // asked on demand, per consumer
    };
    Phase emptyPhase(std::string name, std::vector<std::string> loads, PhasePlace place,
                     int64_t start) const;
    std::vector<bool> measuredBy(const PhasePlace &place) const;
    // Misses to ask about per consumer in `phase`: none in an untraced one.
    size_t explainQuota(const Phase &phase) const;

    void addLocked(size_t consumer, const Sample &sample);
    void addToBlock(Phase &phase, size_t consumer, const Sample &sample);
    // Closes the block at `end` (the next block's start, or the phase's end).
    void closeBlock(Phase &phase, size_t consumer, int64_t end);
    void closeBlocks(Phase &phase);
    size_t phaseAt(int64_t t) const;
    PhaseResult resultOf(const Phase &p, int64_t now, bool withHistograms, Blocks blocks) const;

    const std::shared_ptr<const std::vector<ConsumerConfig>> m_configsOwned;
    const std::vector<ConsumerConfig> &m_configs = *m_configsOwned;
    const int64_t m_runStart;
    const std::shared_ptr<ColdStore> m_store;
    std::vector<std::unique_ptr<SpscRing<Sample>>> m_rings;
    mutable std::mutex m_mutex;
    std::vector<Phase> m_phases;
    std::vector<SecondSeries> m_series;
    std::vector<std::deque<FineBucket>> m_fine;
    std::vector<uint64_t> m_seenOverflows;
    std::vector<int64_t> m_lastPeriodStart; // per consumer, of the samples added
    // Without names: they are looked up when the log is read.
    MissLog m_missLog;
    uint64_t m_missLogDropped = 0;
    std::vector<CaptureRequest> m_captureRequests;
    size_t m_captureRequestsMade = 0;
    size_t m_explainPerPhase = 0;
    size_t m_explainRequestsMade = 0;
    size_t m_explainLimit = kExplainLimit; // raised by explainMore()
    std::vector<ExplainRequest> m_explainRequests;
};

} // namespace latprobe
