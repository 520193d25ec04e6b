#pragma once

#include "coldstore.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace latprobe {

// cyclictest's histogram: 1 µs buckets up to a limit, plus an overflow
// count. Unlike cyclictest we also keep the overflowing values themselves
// (they are rare), so percentiles stay exact past the limit.
//
// Below kDenseUs a bucket is an array slot (4 bytes a µs); above it, where a
// loaded phase's values are few and spread over up to 100 ms, a bucket is
// a (µs, count) entry of a sorted list. One dense array to the limit held
// 400 KB per consumer in a hackbench phase.
class Histogram
{
public:
    static constexpr uint32_t kDenseUs = 8192;

    explicit Histogram(uint32_t limitUs = 100000);

    void add(int64_t us);
    // Throws std::overflow_error when the bucket would pass 2^32 - 1: a
    // bucket holds 32 bits (50 days of 1 kHz wakeups in one µs). Single
    // samples past kDenseUs are checked when they are folded in, by a later
    // add() or query.
    void add(int64_t us, uint64_t count);
    void merge(const Histogram &other);
    void clear();

    // Keeps only the non-empty buckets, packed (one or two bytes a bucket
    // in a loaded phase, see m_packed): a finished phase's histogram drops from up
    // to 32 KB of dense buckets to a few KB, so a long scenario's memory
    // stays flat. Every query still works; a later add() unpacks it.
    // With a `store`, the packed bytes go there and a query reads them back.
    void compact(const std::shared_ptr<ColdStore> &store = nullptr);
    bool isCompact() const { return m_isCompact; }
    bool isParked() const { return m_store != nullptr; }

    uint64_t count() const { return m_count; }
    uint64_t overflow() const { return m_overflowValues.size(); }
    uint32_t limitUs() const { return m_limitUs; }

    // Nearest rank: the smallest value with at least ceil(q * n) samples at
    // or below it. q in (0, 1]. Returns 0 on an empty histogram.
    int64_t percentile(double q) const;

    // Non-empty buckets as (µs, count), for run files and plots.
    std::vector<std::pair<int64_t, uint64_t>> sparse() const;

    // Heap bytes held for the buckets and the overflow values (not those parked).
    size_t bucketBytes() const;

private:
    struct CompactBucket
    {
        uint32_t us;
        uint32_t count;
    };

    void reserveBucket(size_t us);
    void expand();
    void addSparse(uint32_t us, uint64_t count);
    // Sorts the pending single samples into m_sparse.
    void foldPending() const;
    // Calls visit(us, count) for each non-empty bucket below the limit in
    // ascending order, whichever form the histogram is in, until it returns false.
    template <typename Visit> void visitBuckets(Visit visit) const;

    uint32_t m_limitUs;
    // Below kDenseUs, grown up to the highest bucket used (a long scenario
    // makes a phase per step; most phases stay a few KiB). Empty while
    // isCompact().
    std::vector<uint32_t> m_buckets;
    // Sorted by µs: the buckets from kDenseUs up. Empty while isCompact().
    mutable std::vector<CompactBucket> m_sparse;
    // While isCompact(): every bucket below the limit, ascending, each a
    // varint of (count << kGapBits | gap - 1) when it lies 1 to 3 µs past
    // the previous one, else of (count << kGapBits | kGapFollows) and the
    // gap in a varint of its own. Most of a phase's buckets are a µs or two
    // apart with counts under 32: one byte where a gap and a count took two.
    std::vector<uint8_t> m_packed;
    // Where m_packed went when compact() was given a store; m_packed is then empty.
    std::shared_ptr<ColdStore> m_store;
    ColdStore::Ref m_parked;
    static constexpr unsigned kGapBits = 2;
    static constexpr uint64_t kGapMask = (1u << kGapBits) - 1;
    static constexpr uint64_t kGapFollows = kGapMask;
    // Single samples for m_sparse, merged in up to 512 at a time rather
    // than inserted one by one into the sorted list.
    mutable std::vector<uint32_t> m_pending;
    mutable std::vector<int64_t> m_overflowValues; // sorted lazily by percentile()
    uint64_t m_count = 0;
    size_t m_used = 0; // buckets below this index may be non-zero: bounds every scan
    mutable bool m_overflowSorted = true;
    bool m_isCompact = false;
};

} // namespace latprobe
