#include "delayexplainer.h"

#include "missreplay.h"
#include "recenttrace.h"
#include "threadparams.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <sched.h>
#include <span>
#include <unistd.h>

namespace latprobe {

namespace {

double clockS(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double threadCpuS()
{
    return clockS(CLOCK_THREAD_CPUTIME_ID);
}

bool earlier(const SchedEvent &a, const SchedEvent &b)
{
    return a.ts < b.ts;
}

} // namespace

std::string describePolicy(int pid, int prio)
{
    const int policy = pid > 0 ? sched_getscheduler(pid) : -1;
    if (prio >= 0 && prio < 100) { // a real-time prio: FIFO, or RR when the task says so
        const SchedPolicy rt = policy == SCHED_RR ? SchedPolicy::RoundRobin : SchedPolicy::Fifo;
        return fmt::format("{} {}", policy < 0 ? "SCHED_FIFO/RR" : toString(rt), 99 - prio);
    }
    if (prio == -1) // the deadline class
        return "SCHED_DEADLINE";
    return fmt::format("{} nice {}", toString(policyFromKernel(policy)), prio - 120);
}

DelayExplainer::DelayExplainer(const std::vector<int> &cpus)
{
    std::string error;
    m_recorder = KernelTraceBuffer::open(cpus, error);
    if (m_recorder) {
        m_summary.on = true;
        m_summary.bufferKbPerCpu = m_recorder->bufferKbPerCpu();
        m_summary.cpus = m_recorder->cpuCount();
        m_summary.cpuBudgetPct = kCpuShare * 100;
        // Reading the trace back takes tens of ms at a time under hackbench
        // (a wrapped 4 MiB buffer a CPU). At nice 0, in the consumers' own
        // autogroup, that burst came right after a miss and delayed the
        // next periods: with tracing on, audio's p99 under hackbench x4 was
        // 2.8 times that with it off (trace_overhead.py, 9 rounds). As
        // SCHED_IDLE it runs whenever the consumers do not.
        m_thread.post([this] {
            const sched_param none{};
            if (sched_setscheduler(0, SCHED_IDLE, &none) != 0)
                spdlog::debug("flight recorder: lp-explain stays at its policy: {}",
                              std::strerror(errno));
            else
                m_tid = gettid();
        });
    } else {
        m_summary.message = error;
    }
}

DelayExplainer::~DelayExplainer()
{
    m_thread.waitIdle();
}

void DelayExplainer::follow(const std::vector<std::string> &threadNames)
{
    if (m_recorder && !m_recorder->followOnly(threadNames))
        spdlog::debug(
            "flight recorder: the kernel refused the wakeup filter; recording everyone's");
}

void DelayExplainer::explain(std::vector<Collector::ExplainRequest> requests, Context context)
{
    if (!m_recorder || requests.empty())
        return;
    m_thread.post([this, requests = std::move(requests), context = std::move(context)] {
        run(requests, context);
    });
}

namespace {

// How far before a consumer's period start its window begins.
int64_t lookbackOf(const DelayExplainer::Context &context, size_t consumer)
{
    return DelayExplainer::lookbackNs(consumer < context.periods.size()
                                          ? context.periods[consumer]
                                          : DelayExplainer::kMaxLookbackNs);
}

// A miss's window in the trace: from the lookback before its period's start
// to just past its work done.
KernelTraceBuffer::TimeRange windowOf(const Collector::ExplainRequest &r,
                                      const DelayExplainer::Context &context)
{
    return {r.sample.periodStart - lookbackOf(context, r.consumer),
            r.sample.done + DelayExplainer::kPastDoneNs};
}

// The events of `kept` (in time order) within `window`.
std::span<const SchedEvent> eventsIn(const std::vector<SchedEvent> &kept,
                                     KernelTraceBuffer::TimeRange window)
{
    const auto first = std::lower_bound(kept.begin(), kept.end(), window.from,
                                        [](const SchedEvent &e, int64_t t) { return e.ts < t; });
    const auto last = std::upper_bound(first, kept.end(), window.to,
                                       [](int64_t t, const SchedEvent &e) { return t < e.ts; });
    return {first, last};
}

// The tasks an explanation names, with their policy and their load group.
void nameTasks(MissExplanation &x, const DelayExplainer::Context &context)
{
    for (DelayShare &share : x.shares) {
        if (share.kind != DelayShare::Kind::Task)
            continue;
        share.policy = describePolicy(share.pid, share.prio);
        if (std::find(context.tids.begin(), context.tids.end(), share.pid) != context.tids.end()) {
            share.load = "(probe)"; // another of latprobe's consumers
            continue;
        }
        // A worker's helpers (hackbench's senders) are in its leader's group.
        for (const int pid : {share.pid, static_cast<int>(getpgid(share.pid))})
            if (auto it = context.loadOfPid.find(pid); it != context.loadOfPid.end()) {
                share.load = it->second;
                break;
            }
    }
}

} // namespace

void DelayExplainer::run(const std::vector<Collector::ExplainRequest> &requests,
                         const Context &context)
{
    // Spent: the kernel goes on recording, and the next read skips the
    // pages no one asks about, so waiting costs nothing.
    if (!m_budget.allows(recordedS())) {
        std::lock_guard lock(m_mutex);
        m_summary.overBudget += requests.size();
        return;
    }
    const double cpuBefore = threadCpuS();
    const Read read = readWindows(requests, context);
    if (m_saver)
        m_saver->addPages(std::move(m_walked));
    std::vector<MissExplanation> done;
    for (const Collector::ExplainRequest &r : requests) {
        done.push_back(explainRequest(r, context));
        if (m_saver) {
            const KernelTraceBuffer::TimeRange window = windowOf(r, context);
            done.back().traceFile = m_saver->add(window, eventsIn(m_kept, window));
        }
    }
    // For a window open at this read, and the misses not yet asked about; a
    // burst beyond kKeepEvents is not worth the memory.
    keepRecent(m_kept, kKeepNs, read.neededFrom, kKeepEvents, kReuseEvents);
    if (m_saver) {
        // The raw pages live as long as the events parsed from them, and a
        // file is written once no later miss's window can reach it.
        m_saver->trim(m_kept.empty() ? INT64_MAX : m_kept.front().ts);
        m_saver->writeBefore(read.neededFrom);
        noteTraceTotals(done);
    }
    const double spent = threadCpuS() - cpuBefore;
    m_budget.spend(spent);
    spdlog::debug("flight recorder: {} misses, {} events read over {:.1f} ms, {} kept, "
                  "{:.1f} ms CPU",
                  requests.size(), read.events, static_cast<double>(read.spanNs) / 1e6,
                  m_kept.size(), spent * 1e3);
    std::lock_guard lock(m_mutex);
    ++m_summary.reads;
    m_summary.events += read.events;
    m_summary.cpuS += spent;
    // Room for a run's worth at once: doubling towards it left up to half
    // of the vector unused (183 KB held for 400 in an hour's window).
    if (m_explanations.capacity() < Collector::kExplainLimit)
        m_explanations.reserve(Collector::kExplainLimit);
    for (MissExplanation &x : done)
        m_explanations.push_back(std::move(x));
}

DelayExplainer::Read
DelayExplainer::readWindows(const std::vector<Collector::ExplainRequest> &requests,
                            const Context &context)
{
    // Each window from a little before its start (who ran on each CPU as it
    // opened) to its work done, and the misses not yet asked about: under
    // hackbench x4 the first were asked about 4 s late, and the ones after
    // them had found their trace consumed by that read.
    int64_t longestLookback = kMinLookbackNs;
    for (size_t c = 0; c < context.periods.size(); ++c)
        longestLookback = std::max(longestLookback, lookbackOf(context, c));
    Read read;
    read.neededFrom = context.explainableFrom == INT64_MAX
                          ? INT64_MAX
                          : context.explainableFrom - longestLookback;
    std::vector<KernelTraceBuffer::TimeRange> wanted;
    int64_t keepFrom = read.neededFrom;
    for (const Collector::ExplainRequest &r : requests) {
        wanted.push_back(windowOf(r, context));
        keepFrom = std::min(keepFrom, wanted.back().from);
    }
    if (read.neededFrom != INT64_MAX)
        wanted.push_back({read.neededFrom, INT64_MAX});
    m_kept.erase(m_kept.begin(),
                 std::lower_bound(m_kept.begin(), m_kept.end(), keepFrom,
                                  [](const SchedEvent &e, int64_t t) { return e.ts < t; }));
    const size_t old = m_kept.size();
    read.events = m_recorder->readInto(m_kept, std::move(wanted), kKeepEvents / 4);
    // A read's events follow those kept, unless a CPU committed one stamped
    // before another CPU's last.
    const auto fresh = m_kept.begin() + static_cast<std::ptrdiff_t>(old);
    read.spanNs = read.events > 0 ? m_kept.back().ts - fresh->ts : 0;
    if (old > 0 && read.events > 0 && fresh->ts < (fresh - 1)->ts)
        std::inplace_merge(m_kept.begin(), fresh, m_kept.end(), earlier);
    return read;
}

MissExplanation DelayExplainer::explainRequest(const Collector::ExplainRequest &r,
                                               const Context &context) const
{
    const Sample &s = r.sample;
    // Past the work done: the replay stops there, and sees the trace went on.
    const std::span<const SchedEvent> events = eventsIn(m_kept, windowOf(r, context));
    MissExplanation x =
        explainMiss(events, {s.tid, s.periodStart, s.woke, s.done}, context.preemption);
    if (events.empty() && x.note.empty())
        x.note = "no trace of the window (its buffer was overwritten)";
    x.timeS = static_cast<double>(s.periodStart - context.runStart) / 1e9;
    x.consumer = r.consumer < context.consumers.size() ? context.consumers[r.consumer] : "";
    x.phase = r.phase;
    x.phaseIndex = r.phaseIndex;
    nameTasks(x, context);
    return x;
}

bool DelayExplainer::saveTraces(const std::string &dir, uint64_t maxBytes)
{
    if (!m_recorder)
        return false;
    m_thread.post([this, dir, maxBytes] {
        m_saver = std::make_unique<TraceWindowSaver>(dir, maxBytes, m_recorder->traceDatFormats());
        m_recorder->keepWalkedPages(&m_walked);
        std::lock_guard lock(m_mutex);
        m_summary.savingTraces = true;
    });
    m_thread.waitIdle();
    return true;
}

void DelayExplainer::finishTraces()
{
    m_thread.post([this] {
        if (!m_saver)
            return;
        m_saver->writeAll();
        m_saver->trim(INT64_MAX);
        std::vector<MissExplanation> none;
        noteTraceTotals(none);
    });
    m_thread.waitIdle();
}

void DelayExplainer::noteTraceTotals(std::vector<MissExplanation> &fresh)
{
    const TraceWindowSaver::Totals &t = m_saver->totals();
    auto unsaved = [&t](const MissExplanation &x) {
        return !x.traceFile.empty() &&
               std::find(t.failed.begin(), t.failed.end(), x.traceFile) != t.failed.end();
    };
    for (MissExplanation &x : fresh)
        if (unsaved(x))
            x.traceFile.clear();
    std::lock_guard lock(m_mutex);
    for (MissExplanation &x : m_explanations)
        if (unsaved(x))
            x.traceFile.clear();
    m_summary.tracesSaved = t.files;
    m_summary.traceBytes = t.bytes;
    m_summary.tracesOverCap = t.overCap;
    m_summary.traceError = t.error;
}

void DelayExplainer::waitIdle()
{
    // As SCHED_IDLE behind other processes' CPU hogs, lp-explain got to
    // its last reads only once they stopped, and a window's unattended run
    // did not end until then.
    if (const pid_t tid = m_tid.exchange(0); tid > 0) {
        const sched_param none{};
        if (sched_setscheduler(tid, SCHED_OTHER, &none) != 0)
            spdlog::debug("flight recorder: lp-explain stays SCHED_IDLE to the end: {}",
                          std::strerror(errno));
    }
    m_thread.waitIdle();
}

void DelayExplainer::setRecording(bool on)
{
    // At once, from the caller's thread: lp-explain is SCHED_IDLE and, on a
    // saturated machine, took a paused step's first seconds to get to it.
    // Only the instance's files are written; a read under way meanwhile
    // sees the buffer stop or start, as it would at any time.
    if (!m_recorder)
        return;
    m_recorder->setRecording(on);
    const auto now = static_cast<int64_t>(clockS(CLOCK_MONOTONIC) * 1e9);
    if (!on && m_pausedAt < 0) {
        m_pausedAt = now;
    } else if (on && m_pausedAt >= 0) {
        m_pausedNs += now - m_pausedAt;
        m_pausedAt = -1;
    }
}

double DelayExplainer::recordedS() const
{
    // Read apart from its resume, a pause may be counted twice for a
    // moment: the bucket then fills a little later, never sooner.
    const double now = clockS(CLOCK_MONOTONIC);
    const int64_t pausedAt = m_pausedAt.load();
    const double pausing = pausedAt >= 0 ? now - static_cast<double>(pausedAt) / 1e9 : 0;
    return now - static_cast<double>(m_pausedNs.load()) / 1e9 - pausing;
}

std::vector<MissExplanation> DelayExplainer::explanations() const
{
    std::lock_guard lock(m_mutex);
    return m_explanations;
}

size_t DelayExplainer::explainedCount() const
{
    std::lock_guard lock(m_mutex);
    return m_explanations.size();
}

TraceSummary DelayExplainer::summary() const
{
    std::lock_guard lock(m_mutex);
    return m_summary;
}

} // namespace latprobe
