#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rawpage.h"

struct kbuffer;
struct tep_record;

namespace latprobe {

// Inclusive, CLOCK_MONOTONIC ns.
struct TimeRange
{
    int64_t from = 0, to = 0;
};

// Whether any of `wanted` (sorted, disjoint) meets [from, to].
bool meetsWanted(const std::vector<TimeRange> &wanted, int64_t from, int64_t to);

// One CPU's ring buffer of a tracefs instance, read a page at a time
// (trace_pipe_raw: a read consumes) and walked an event at a time, in time
// order. A page is judged by its own first stamp and the next page's: one
// that none of the wanted times meets is dropped without walking its
// events. Walking every event of a full buffer cost tens of ms a read under
// hackbench, for the few hundred a miss needed.
class CpuPageReader
{
public:
    // Takes `fd`, the CPU's trace_pipe_raw opened O_NONBLOCK.
    CpuPageReader(int cpu, int fd, size_t pageSize);
    ~CpuPageReader();
    CpuPageReader(CpuPageReader &&other) noexcept;
    CpuPageReader(const CpuPageReader &) = delete;
    CpuPageReader &operator=(const CpuPageReader &) = delete;
    CpuPageReader &operator=(CpuPageReader &&) = delete;

    // Begins a read at the first event of the first page `wanted` meets;
    // false when the CPU has no such page (what was read of it is gone).
    bool begin(const std::vector<TimeRange> *wanted);
    // On to the next event, through the pages `wanted` meets; false at the end.
    bool advance();

    int cpu() const { return m_cpu; }
    // Pages this read took from the kernel, and those of them walked.
    size_t pagesRead() const { return m_pagesRead; }
    size_t pagesWalked() const { return m_pagesWalked; }
    int64_t ts() const { return static_cast<int64_t>(m_ts); }
    // The current event, as libtraceevent's field readers take it.
    void fill(tep_record &record) const;
    // Each page walked from now on is also copied, whole, into `into`
    // (nullptr: none): what a saved trace is made of.
    void keepWalkedPages(std::vector<RawPagePtr> *into) { m_keep = into; }

private:
    bool nextWantedPage();

    int m_cpu = 0;
    int m_fd = -1;
    size_t m_pageSize = 0;
    kbuffer *m_kbuf = nullptr;
    std::vector<char> m_pages; // two: the one walked, and the one after it
    char *m_walked = nullptr, *m_ahead = nullptr;
    bool m_haveAhead = false;
    const std::vector<TimeRange> *m_wanted = nullptr;
    void *m_event = nullptr;
    unsigned long long m_ts = 0;
    size_t m_pagesRead = 0, m_pagesWalked = 0;
    std::vector<RawPagePtr> *m_keep = nullptr;
};

} // namespace latprobe
