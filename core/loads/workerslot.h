#pragma once

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>

namespace latprobe {

// Shared memory between latprobe and one load group: a header and a slot
// per worker. Workers only ever write their own slot (single writer), and
// latprobe only reads, so plain relaxed atomics are enough. Whether the
// group started is not read from here: the leader says so on a pipe
// (loadleader.h), before any worker may run.
enum class WorkerState : int32_t { Starting = 0, Running = 1, Failed = 2, Exited = 3 };

struct alignas(64) WorkerSlot
{
    std::atomic<uint64_t> progress{0}; // in the kind's unit: loops, bytes, ...
    std::atomic<int32_t> pid{0};
    std::atomic<int32_t> state{0}; // WorkerState
    std::atomic<int32_t> exitStatus{0};
    // The worker's CPU clock as it began its work, just before it said
    // Running: what it spent on being forked and set up (2-11 ms each of
    // 200 massive_intr workers here, page faults mostly) is no work done,
    // and its CPU time is counted from here. -1 until then.
    std::atomic<int64_t> cpuAtStartNs{-1};
};

struct GroupHeader
{
    static constexpr uint32_t kMagic = 0x4c50474c; // "LPGL"
    uint32_t magic = kMagic;
    uint32_t workers = 0;
    std::atomic<int32_t> leaderPid{0};
    std::atomic<int32_t> started{0}; // workers forked so far
    // The group's first error: why the start was refused, or (once started)
    // a worker's run-time error. Its writer claims it (kErrorClaimed),
    // writes `error`, then publishes it (kErrorWritten): read `error` only
    // after seeing kErrorWritten, never half-written.
    static constexpr int32_t kErrorClaimed = 1, kErrorWritten = 2;
    std::atomic<int32_t> failed{0};
    std::atomic<int32_t> cleanerPid{0}; // removes the temp dir if latprobe dies
    // Pids of each worker's helpers that live as long as it does
    // (LoadKind::liveHelpers), in an array after the slots (groupHelpers()).
    uint32_t helpersPerWorker = 0;
    char error[512] = {};
    // The group's private temp dir, made by the leader once its cleaner is
    // armed (kill -9 at any moment leaves nothing), "" when it has none.
    // Written before the verdict; read by latprobe after it, by the cleaner
    // after the group is gone.
    char tempDir[PATH_MAX] = {};

    bool hasError() const { return failed.load() == kErrorWritten; }
};

inline size_t groupShmSize(uint32_t workers, uint32_t helpersPerWorker = 0)
{
    return sizeof(GroupHeader) + 64 + sizeof(WorkerSlot) * workers +
           sizeof(std::atomic<int32_t>) * workers * helpersPerWorker;
}

inline WorkerSlot *groupSlots(void *base)
{
    // Round up by offsetting the pointer, not by casting an integer back to
    // one, which would lose what the compiler knows about where it points.
    const auto addr = reinterpret_cast<uintptr_t>(base) + sizeof(GroupHeader);
    const uintptr_t pad = ((addr + 63) & ~uintptr_t{63}) - addr;
    return reinterpret_cast<WorkerSlot *>(static_cast<char *>(base) + sizeof(GroupHeader) + pad);
}

// Worker i's helper pids are [i * helpersPerWorker, (i + 1) * helpersPerWorker),
// 0 where none was started; each written by its worker alone.
inline std::atomic<int32_t> *groupHelpers(void *base, uint32_t workers)
{
    return reinterpret_cast<std::atomic<int32_t> *>(groupSlots(base) + workers);
}

} // namespace latprobe
