#pragma once

#include "loadspec.h"
#include "loadstatus.h"
#include "taskthread.h"
#include "workerslot.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <sys/types.h>
#include <vector>

namespace latprobe {

// A group's shared memory (workerslot.h), unmapped when its last holder lets
// go: the sampler may be reading the slots of a group a stop has just taken
// away.
class GroupMemory
{
public:
    GroupMemory(void *base, size_t size) : m_base(base), m_size(size) {}
    ~GroupMemory();
    GroupMemory(const GroupMemory &) = delete;
    GroupMemory &operator=(const GroupMemory &) = delete;

    GroupHeader &header() const { return *static_cast<GroupHeader *>(m_base); }
    WorkerSlot *workerSlots() const { return groupSlots(m_base); }
    std::atomic<int32_t> *helpers() const { return groupHelpers(m_base, header().workers); }

private:
    void *m_base;
    size_t m_size;
};

// What reading a running group takes, copied under the manager's lock and
// read without it.
struct GroupView
{
    int id = 0;
    LoadSpec spec;
    pid_t leader = 0;
    int64_t startedAt = 0;
    std::shared_ptr<const GroupMemory> memory;
};

// Each worker's progress, state and, with `readCpu`, the CPU time it has had
// since it began its work (read right after its progress, so that a CPU-time
// load's loops x work is never more than it: see WorkerSlot::cpuAtStartNs),
// and the group's figures. One system call per process for the CPU time
// (processClockNs); a file read per worker for the kinds whose work is done
// by children they reap. Cost follows the processes, never the lock.
GroupStatus sampleGroup(const GroupView &group, int64_t now, bool readCpu = true);

// The load layer's sampler thread (lp-loadsample): reads every running group
// once a second (kPeriodNs), and whenever one starts, without the lock that
// start and stop need, and publishes the figures as one finished value that
// any thread copies (snapshot()). The window's panel and anyone polling
// never read /proc themselves. A group appears in the snapshot as soon as
// added() and leaves it as soon as removed(), so what runs is never stale,
// only its figures, by a second at most. Idle (no group), it takes no
// wakeups.
class LoadSampler
{
public:
    static constexpr int64_t kPeriodNs = 1'000'000'000;
    using Source = std::function<std::vector<GroupView>()>;

    explicit LoadSampler(Source source);
    ~LoadSampler(); // as stop()

    // A group started: in the snapshot at once (its CPU time unknown until
    // the pass this posts has read it).
    void added(const GroupView &group);
    // Groups stopped: out of the snapshot at once.
    void removed(const std::vector<int> &ids);
    std::vector<GroupStatus> snapshot() const;
    // Returns once every pass asked for by now has been published.
    void waitForPass();
    // Ends the thread; the source is never called again. Idempotent.
    void stop();

private:
    void pass();
    void publish(std::vector<GroupStatus> sampled);

    Source m_source;
    mutable std::mutex m_mutex;
    std::vector<int> m_order; // the running groups' ids, as started
    std::shared_ptr<const std::vector<GroupStatus>> m_published;
    TaskThread m_thread{"lp-loadsample"};
};

} // namespace latprobe
