#include "collector.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <malloc.h>
#include <type_traits>

namespace latprobe {

Collector::Collector(std::shared_ptr<const std::vector<ConsumerConfig>> configs, int64_t runStart,
                     std::shared_ptr<ColdStore> store)
    : m_configsOwned(std::move(configs)), m_runStart(runStart), m_store(std::move(store)),
      m_fine(m_configs.size()), m_seenOverflows(m_configs.size(), 0),
      m_lastPeriodStart(m_configs.size(), runStart), m_missLog(m_store)
{
    m_series.reserve(m_configs.size());
    for (size_t i = 0; i < m_configs.size(); ++i)
        m_series.emplace_back(m_store);
    m_rings.reserve(m_configs.size());
    for (const ConsumerConfig &config : m_configs)
        m_rings.push_back(std::make_unique<SpscRing<Sample>>(ringCapacity(config)));
    beginPhase("idle", {}, runStart);
}

size_t Collector::ringCapacity(const ConsumerConfig &config)
{
    if (config.periodNs <= 0) // paced by something else (the GUI's event loop)
        return kMaxRingCapacity;
    const int64_t periods = (kRingSpanNs + config.periodNs - 1) / config.periodNs;
    return std::clamp(static_cast<size_t>(periods), kMinRingCapacity, kMaxRingCapacity);
}

namespace {

// Compacting a finished phase gives its dense buckets back to malloc, which
// keeps the pages; hand whole free pages back to the kernel so that a long
// scenario's RSS follows what it holds (tests/bench/soak.py).
void returnFreedMemory()
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

// A sample into a consumer's per-second series, which starts at `runStart`.
void addToSeconds(SecondSeries &series, const ConsumerConfig &config, const Sample &s,
                  int64_t runStart)
{
    // A period lost while this one ran counts in the second it began: a
    // video consumer starved for over a second (hackbench) showed all its
    // drops in the second it woke, and an empty second after it.
    const bool spreadsLost = config.hasDeadline() && s.periodsSkipped > 0;
    const int64_t lastLost = s.periodStart + int64_t{s.periodsSkipped} * config.periodNs;
    auto secondOf = [&](int64_t t) {
        return static_cast<size_t>(std::max<int64_t>(0, (t - runStart) / 1000000000));
    };
    const size_t last = secondOf(spreadsLost ? std::max(s.woke, lastLost) : s.woke);
    series.grow(last + 1);
    SecondBucket &bucket = series.at(secondOf(s.woke));
    bucket.maxUs = std::max(bucket.maxUs, latencyUs(s));
    ++bucket.samples;
    if (config.hasDeadline())
        bucket.misses += s.missedDeadline;
    if (spreadsLost)
        for (int64_t k = 1; k <= s.periodsSkipped; ++k)
            ++series.at(secondOf(std::max(s.woke, s.periodStart + k * config.periodNs))).misses;
}

// A sample, and the periods it lost, into a consumer's tenths of a second
// (the last Collector::kFineKept of them).
void addToFine(std::deque<FineBucket> &fine, const Sample &s, uint32_t lost, int64_t runStart)
{
    const int64_t tenth = std::max<int64_t>(0, (s.woke - runStart) / Collector::kFineNs);
    if (fine.empty() || fine.back().index < tenth) {
        fine.push_back({tenth, -1, 0});
        if (fine.size() > Collector::kFineKept)
            fine.pop_front();
    }
    // Samples arrive in order per consumer; a late straggler joins the last bucket.
    FineBucket &fb = fine.back();
    fb.maxUs = std::max(fb.maxUs, latencyUs(s));
    fb.misses += lost;
}

} // namespace

int64_t Collector::beginPhase(const std::string &name, const std::vector<std::string> &loads,
                              int64_t at, PhasePlace place, std::string *givenName)
{
    int64_t start = at;
    if (openPhase(name, loads, at, place, start, givenName))
        returnFreedMemory();
    return start;
}

std::string Collector::distinctName(const std::string &name, size_t before) const
{
    // "idle", then "idle 2", "idle 3": a report, a saved run and compare
    // must tell the second idle from the first.
    int same = 0;
    for (size_t i = 0; i < before; ++i) {
        const std::string &other = m_phases[i].name;
        if (other == name)
            ++same;
        else if (other.size() > name.size() + 1 && other.compare(0, name.size(), name) == 0 &&
                 other[name.size()] == ' ' &&
                 other.find_first_not_of("0123456789", name.size() + 1) == std::string::npos)
            ++same;
    }
    return same == 0 ? name : name + " " + std::to_string(same + 1);
}

bool Collector::openPhase(const std::string &asked, const std::vector<std::string> &loads,
                          int64_t at, PhasePlace place, int64_t &start, std::string *givenName)
{
    std::lock_guard lock(m_mutex);
    // A scenario's steps keep their names: their step and round tell them apart.
    auto named = [&](size_t before) {
        const std::string name = place.step < 0 ? distinctName(asked, before) : asked;
        if (givenName)
            *givenName = name;
        return name;
    };
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
        if (last.discarded || (!last.endedBeforeNext && (at <= last.start || unused))) {
            // What it never measured is not its time (a step whose loads
            // took seconds to start, its consumers paused meanwhile).
            if (unused)
                last.start = std::max(last.start, at);
            last.end = 0;
            last.endedBeforeNext = false;
            last.discarded = false;
            last.name = named(m_phases.size() - 1);
            last.loads = loads;
            last.place = place;
            last.measured = measuredBy(place);
            start = last.start;
            return false;
        }
        if (!last.endedBeforeNext) {
            last.end = at;
            closeBlocks(last);
        }
        // Finished phases only answer queries from now on; a straggler
        // sample makes one dense again, so look at all of them.
        for (Phase &done : m_phases)
            for (StatsAccumulator &stats : done.stats)
                stats.compact(m_store);
    }
    start = at;
    const bool closedOne = !m_phases.empty();
    m_phases.push_back(emptyPhase(named(m_phases.size()), loads, place, at));
    return closedOne;
}

Collector::Phase Collector::emptyPhase(std::string name, std::vector<std::string> loads,
                                       PhasePlace place, int64_t start) const
{
    Phase p;
    p.name = std::move(name);
    p.loads = std::move(loads);
    p.measured = measuredBy(place);
    p.place = std::move(place);
    p.start = start;
    p.stats.reserve(m_configs.size());
    for (const ConsumerConfig &c : m_configs)
        p.stats.emplace_back(c);
    p.blocks.resize(m_configs.size());
    p.ringOverflows.assign(m_configs.size(), 0);
    p.explainAsked.assign(m_configs.size(), 0);
    return p;
}

std::vector<bool> Collector::measuredBy(const PhasePlace &place) const
{
    std::vector<bool> measured(m_configs.size(), place.consumers.empty());
    for (size_t i = 0; i < m_configs.size(); ++i)
        for (const std::string &name : place.consumers)
            if (m_configs[i].name == name)
                measured[i] = true;
    return measured;
}

size_t Collector::phaseAt(int64_t t) const
{
    for (size_t i = m_phases.size(); i-- > 0;)
        if (m_phases[i].start <= t)
            return i;
    return 0;
}

void Collector::endPhase(int64_t at)
{
    std::lock_guard lock(m_mutex);
    drainLocked();
    Phase &last = m_phases.back();
    if (last.endedBeforeNext)
        return;
    last.end = std::max(at, last.start);
    last.endedBeforeNext = true;
    closeBlocks(last);
}

void Collector::discardPhase()
{
    std::lock_guard lock(m_mutex);
    drainLocked();
    Phase &last = m_phases.back();
    last = emptyPhase(last.name, last.loads, last.place, last.start);
    last.end = last.start;
    last.endedBeforeNext = true;
    last.discarded = true;
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
    const size_t phaseIndex = phaseAt(s.periodStart);
    Phase &phase = m_phases[phaseIndex];
    // A paused consumer's last period, or its first after a step that
    // measured another one: not this phase's.
    if (!phase.measured[consumer])
        return;
    // Between a phase ended by endPhase and the next, or before the first
    // (moved to where a scenario's consumers started afresh): the live
    // series see it, no phase counts it.
    const bool inGap =
        (phase.endedBeforeNext && s.periodStart >= phase.end) || s.periodStart < phase.start;
    if (!inGap) {
        phase.stats[consumer].add(s);
        addToBlock(phase, consumer, s);
    }
    m_lastPeriodStart[consumer] = std::max(m_lastPeriodStart[consumer], s.periodStart);

    const ConsumerConfig &config = m_configs[consumer];
    const uint32_t lost = config.hasDeadline() ? s.missedDeadline + s.periodsSkipped : 0;
    addToSeconds(m_series[consumer], config, s, m_runStart);
    addToFine(m_fine[consumer], s, lost, m_runStart);

    if (lost == 0 || inGap)
        return;
    if (!phase.missSeen && m_captureRequestsMade < kCaptureRequestLimit) {
        phase.missSeen = true;
        ++m_captureRequestsMade;
        m_captureRequests.push_back(
            {static_cast<double>(s.done - m_runStart) / 1e9, phase.name, config.name});
    }
    // Only a periodic consumer's window is its own thread's, from its
    // timer to its work done: a start waits on a child, the gui on Qt.
    if (config.kind == ConsumerKind::Periodic &&
        phase.explainAsked[consumer] < explainQuota(phase) &&
        m_explainRequestsMade < m_explainLimit) {
        ++phase.explainAsked[consumer];
        ++m_explainRequestsMade;
        m_explainRequests.push_back({consumer, phase.name, s, phaseIndex});
    }
    if (m_missLog.size() >= kMissLogLimit) {
        ++m_missLogDropped;
        return;
    }
    const int64_t latenessUs =
        std::max<int64_t>(0, (s.done - s.periodStart - config.slackNs) / 1000);
    m_missLog.append(
        {s.done,
         static_cast<uint32_t>(std::min<int64_t>(latenessUs, std::numeric_limits<uint32_t>::max())),
         lost, static_cast<uint32_t>(phaseIndex), static_cast<uint32_t>(consumer)});
}

void Collector::addToBlock(Phase &phase, size_t consumer, const Sample &s)
{
    BlockTrack &track = phase.blocks[consumer];
    const int64_t index = std::max<int64_t>(0, (s.periodStart - phase.start) / kBlockNs);
    // Samples come in order per consumer; a straggler joins the open block.
    if (index > track.index) {
        if (track.open)
            closeBlock(phase, consumer, phase.start + index * kBlockNs);
        track.index = index;
        track.open = std::make_unique<StatsAccumulator>(m_configs[consumer]);
    }
    // A straggler for a block already closed (its phase ended) only counts
    // in the phase's totals.
    if (track.open)
        track.open->add(s);
}

void Collector::closeBlock(Phase &phase, size_t consumer, int64_t end)
{
    BlockTrack &track = phase.blocks[consumer];
    if (!track.open)
        return;
    const int64_t start = phase.start + track.index * kBlockNs;
    end = std::min(end, start + kBlockNs);
    if (end - start >= kBlockNs / 2) {
        const ConsumerStats s = track.open->result(start, end, m_runStart);
        BlockStats b;
        b.startS = static_cast<double>(start - m_runStart) / 1e9;
        b.durationS = static_cast<double>(end - start) / 1e9;
        b.samples = s.samples;
        b.misses = s.misses;
        b.p50Us = s.p50Us;
        b.p99Us = s.p99Us;
        b.p999Us = s.p999Us;
        b.metPct = s.deadlinesMetPct;
        b.cpuPct = s.desiredCpuPct;
        track.done.push_back(b);
    }
    track.open.reset();
}

static_assert(std::is_trivially_copyable_v<BlockStats>, "parked as bytes");

void Collector::closeBlocks(Phase &phase)
{
    for (size_t i = 0; i < phase.blocks.size(); ++i) {
        closeBlock(phase, i, phase.end);
        BlockTrack &track = phase.blocks[i];
        const bool park = m_store && !track.parked && !track.done.empty();
        if (park)
            track.parked = m_store->put(reinterpret_cast<const uint8_t *>(track.done.data()),
                                        track.done.size() * sizeof(BlockStats));
        if (park && track.parked)
            std::vector<BlockStats>().swap(track.done);
        else
            track.done.shrink_to_fit(); // kept for the rest of the run
    }
}

std::vector<BlockStats> Collector::blocksOf(const BlockTrack &track) const
{
    if (!track.parked)
        return track.done;
    std::vector<BlockStats> out(track.parked->size / sizeof(BlockStats));
    m_store->getInto(*track.parked, reinterpret_cast<uint8_t *>(out.data()));
    out.insert(out.end(), track.done.begin(), track.done.end());
    return out;
}

void Collector::finish(int64_t end)
{
    drain();
    std::lock_guard lock(m_mutex);
    Phase &last = m_phases.back();
    if (last.endedBeforeNext)
        return;
    last.end = end;
    closeBlocks(last);
}

std::vector<PhaseResult> Collector::phases(int64_t now, size_t histogramsFrom, Blocks blocks) const
{
    std::lock_guard lock(m_mutex);
    std::vector<PhaseResult> out;
    out.reserve(m_phases.size());
    for (const Phase &p : m_phases)
        out.push_back(resultOf(p, now, out.size() >= histogramsFrom, blocks));
    return out;
}

PhaseResult Collector::openPhase(int64_t now) const
{
    std::lock_guard lock(m_mutex);
    return m_phases.empty() ? PhaseResult() : resultOf(m_phases.back(), now, false, Blocks::Leave);
}

PhaseResult Collector::resultOf(const Phase &p, int64_t now, bool withHistograms,
                                Blocks blocks) const
{
    const int64_t end = std::max(p.end ? p.end : now, p.start); // now: maybe still settling
    PhaseResult r;
    r.name = p.name;
    r.loads = p.loads;
    r.step = p.place.step;
    r.round = p.place.round;
    r.traced = p.place.traced;
    r.variant = p.place.variant;
    r.startS = static_cast<double>(p.start - m_runStart) / 1e9;
    r.durationS = static_cast<double>(end - p.start) / 1e9;
    for (size_t i = 0; i < p.stats.size(); ++i) {
        if (!p.measured[i])
            continue; // PhaseResult::consumer() says so
        ConsumerStats s = p.stats[i].result(p.start, end, m_runStart, withHistograms);
        s.ringOverflows = p.ringOverflows[i];
        if (blocks == Blocks::Include)
            s.blocks = blocksOf(p.blocks[i]);
        r.consumers.push_back(std::move(s));
    }
    return r;
}

std::vector<std::vector<SecondBucket>> Collector::series() const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::vector<SecondBucket>> out;
    out.reserve(m_series.size());
    for (const SecondSeries &one : m_series)
        out.push_back(one.all());
    return out;
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

void Collector::setExplainPerPhase(size_t perPhase)
{
    std::lock_guard lock(m_mutex);
    m_explainPerPhase = perPhase;
}

size_t Collector::explainQuota(const Phase &phase) const
{
    return phase.place.traced ? m_explainPerPhase + phase.explainMore : 0;
}

bool Collector::explainMore(size_t count)
{
    std::lock_guard lock(m_mutex);
    if (m_phases.empty() || !m_phases.back().place.traced)
        return false;
    m_phases.back().explainMore += count;
    m_explainLimit = std::max(m_explainLimit, m_explainRequestsMade) + count * m_configs.size();
    return true;
}

std::string Collector::phaseName(size_t index) const
{
    std::lock_guard lock(m_mutex);
    return index < m_phases.size() ? m_phases[index].name : std::string();
}

std::vector<Collector::ExplainRequest> Collector::takeExplainRequests(int64_t *explainableFrom)
{
    std::lock_guard lock(m_mutex);
    std::vector<ExplainRequest> out;
    out.swap(m_explainRequests);
    if (!explainableFrom)
        return out;
    // A later sample of a consumer begins after the ones it already gave.
    *explainableFrom = std::numeric_limits<int64_t>::max();
    const Phase &open = m_phases.back();
    if (m_explainRequestsMade >= m_explainLimit)
        return out;
    for (size_t c = 0; c < m_configs.size(); ++c)
        if (m_configs[c].kind == ConsumerKind::Periodic && open.measured[c] &&
            open.explainAsked[c] < explainQuota(open))
            *explainableFrom = std::min(*explainableFrom, m_lastPeriodStart[c]);
    return out;
}

std::vector<MissEvent> Collector::missLog() const
{
    std::lock_guard lock(m_mutex);
    std::vector<MissEvent> out;
    out.reserve(m_missLog.size());
    m_missLog.forEach([&](const MissLog::Entry &m) {
        MissEvent e;
        e.timeS = static_cast<double>(m.doneNs - m_runStart) / 1e9;
        e.consumer = m_configs[m.consumer].name;
        e.latenessUs = m.latenessUs;
        e.periodsLost = m.periodsLost;
        e.phase = m_phases[m.phase].name;
        out.push_back(std::move(e));
    });
    return out;
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
