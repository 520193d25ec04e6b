#include "loadsampler.h"

#include "loadkind.h"
#include "procstat.h"
#include "realclock.h"

#include <algorithm>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace latprobe {

namespace {

// The CPU time worker `slot` (process `pid`) has had since it began its
// work, in ns; see WorkerStatus::cpuNs.
int64_t workerCpuNs(const WorkerSlot &slot, pid_t pid, const std::atomic<int32_t> *helpers,
                    int helperCount, bool reapsItsWork)
{
    const int64_t start = slot.cpuAtStartNs.load();
    int64_t cpu = processClockNs(pid);
    if (cpu < 0)
        return -1;
    if (start < 0)
        return 0;
    for (int k = 0; k < helperCount; ++k)
        if (const pid_t helper = helpers[k].load(std::memory_order_relaxed); helper > 0)
            cpu += std::max<int64_t>(0, processClockNs(helper));
    if (reapsItsWork)
        cpu += std::max<int64_t>(0, reapedChildrenCpuNs(pid));
    return std::max<int64_t>(0, cpu - start);
}

} // namespace

GroupMemory::~GroupMemory()
{
    if (m_base)
        munmap(m_base, m_size);
}

GroupStatus sampleGroup(const GroupView &group, int64_t now, bool readCpu)
{
    const LoadKind *kind = group.spec.kind;
    GroupStatus s;
    s.id = group.id;
    s.spec = group.spec;
    s.unit = kind ? kind->unit : std::string();
    s.leader = group.leader;
    s.startedAt = group.startedAt;
    s.sampledAt = now;
    const GroupMemory &memory = *group.memory;
    const auto helpersEach = static_cast<int>(memory.header().helpersPerWorker);
    const bool reaps = kind && kind->reapsItsWork;
    const double elapsed = std::max(1e-3, static_cast<double>(now - group.startedAt) / 1e9);
    std::vector<double> work;
    std::vector<double> cpuTimes; // of the workers the kernel still tells about
    work.reserve(static_cast<size_t>(group.spec.count));
    s.workers.reserve(static_cast<size_t>(group.spec.count));
    double totalCpu = 0;
    uint64_t total = 0;
    for (int i = 0; i < group.spec.count; ++i) {
        const WorkerSlot &slot = memory.workerSlots()[i];
        WorkerStatus w;
        w.pid = slot.pid.load(std::memory_order_relaxed);
        w.progress = slot.progress.load(std::memory_order_relaxed);
        w.state = static_cast<WorkerState>(slot.state.load(std::memory_order_relaxed));
        if (readCpu && w.pid > 0)
            w.cpuNs =
                workerCpuNs(slot, w.pid, memory.helpers() + i * helpersEach, helpersEach, reaps);
        if (w.cpuNs >= 0) {
            w.cpuPct = 100.0 * static_cast<double>(w.cpuNs) / 1e9 / elapsed;
            totalCpu += w.cpuPct;
            cpuTimes.push_back(static_cast<double>(w.cpuNs) / 1e9);
        }
        work.push_back(static_cast<double>(w.progress));
        total += w.progress;
        s.workers.push_back(w);
    }
    s.fairness = computeFairness(work);
    s.cpuFairness = computeFairness(cpuTimes);
    s.throughputPerS = static_cast<double>(total) / elapsed;
    static const long cpus = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    s.cpuSharePct = totalCpu / static_cast<double>(cpus);
    if (memory.header().hasError())
        s.error = memory.header().error;
    return s;
}

LoadSampler::LoadSampler(Source source)
    : m_source(std::move(source)), m_published(std::make_shared<std::vector<GroupStatus>>())
{
    // Below the measuring threads, which share latprobe's autogroup: a pass
    // over a thousand workers is a burst of a thousand system calls.
    m_thread.post([] { setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10); });
}

LoadSampler::~LoadSampler()
{
    stop();
}

void LoadSampler::stop()
{
    m_thread.stop();
}

void LoadSampler::added(const GroupView &group)
{
    GroupStatus first = sampleGroup(group, RealClock::monotonicNow(), false);
    {
        std::lock_guard lock(m_mutex);
        m_order.push_back(group.id);
        auto next = std::make_shared<std::vector<GroupStatus>>(*m_published);
        next->push_back(std::move(first));
        m_published = std::move(next);
    }
    m_thread.post([this] { pass(); });
}

void LoadSampler::removed(const std::vector<int> &ids)
{
    const auto gone = [&ids](int id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
    std::lock_guard lock(m_mutex);
    std::erase_if(m_order, gone);
    auto next = std::make_shared<std::vector<GroupStatus>>(*m_published);
    std::erase_if(*next, [&](const GroupStatus &g) { return gone(g.id); });
    m_published = std::move(next);
}

std::vector<GroupStatus> LoadSampler::snapshot() const
{
    std::shared_ptr<const std::vector<GroupStatus>> published;
    {
        std::lock_guard lock(m_mutex);
        published = m_published;
    }
    return *published;
}

void LoadSampler::waitForPass()
{
    m_thread.waitIdle();
}

void LoadSampler::pass()
{
    const int64_t began = RealClock::monotonicNow();
    const std::vector<GroupView> groups = m_source();
    std::vector<GroupStatus> sampled;
    sampled.reserve(groups.size());
    for (const GroupView &g : groups)
        sampled.push_back(sampleGroup(g, RealClock::monotonicNow()));
    publish(std::move(sampled));
    if (!groups.empty())
        m_thread.runAt(began + kPeriodNs, [this] { pass(); });
}

void LoadSampler::publish(std::vector<GroupStatus> sampled)
{
    std::lock_guard lock(m_mutex);
    // What runs now, in the order it started: a group stopped during the
    // pass is left out, one started during it keeps what added() put there.
    auto next = std::make_shared<std::vector<GroupStatus>>();
    for (int id : m_order) {
        const auto matches = [id](const GroupStatus &g) { return g.id == id; };
        if (auto it = std::find_if(sampled.begin(), sampled.end(), matches); it != sampled.end())
            next->push_back(std::move(*it));
        else if (auto old = std::find_if(m_published->begin(), m_published->end(), matches);
                 old != m_published->end())
            next->push_back(*old);
    }
    m_published = std::move(next);
}

} // namespace latprobe
