#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace latprobe {

// cyclictest's histogram: 1 µs buckets up to a limit, plus an overflow
// count. Unlike cyclictest we also keep the overflowing values themselves
// (they are rare), so percentiles stay exact past the limit.
class Histogram
{
public:
    explicit Histogram(uint32_t limitUs = 100000);

    void add(int64_t us);
    // Throws std::overflow_error when the bucket would pass 2^32 - 1: a
    // bucket holds 32 bits (50 days of 1 kHz wakeups in one µs).
    void add(int64_t us, uint64_t count);
    void merge(const Histogram &other);
    void clear();

    // Keeps only the non-empty buckets: a finished phase's histogram drops
    // from up to 400 KB (dense to its highest value) to a few KB, so a long
    // scenario's memory stays flat. Every query still works; a later add()
    // makes it dense again.
    void compact();
    bool isCompact() const { return m_isCompact; }

    uint64_t count() const { return m_count; }
    uint64_t overflow() const { return m_overflowValues.size(); }
    uint32_t limitUs() const { return m_limitUs; }

    // Nearest rank: the smallest value with at least ceil(q * n) samples at
    // or below it. q in (0, 1]. Returns 0 on an empty histogram.
    int64_t percentile(double q) const;

    // Non-empty buckets as (µs, count), for run files and plots.
    std::vector<std::pair<int64_t, uint64_t>> sparse() const;

private:
    struct CompactBucket
    {
        uint32_t us;
        uint32_t count;
    };

    void reserveBucket(size_t us);
    void expand();
    // Calls visit(us, count) for each non-empty bucket below the limit in
    // ascending order, whichever form the histogram is in, until it returns false.
    template <typename Visit> void visitBuckets(Visit visit) const;

    uint32_t m_limitUs;
    // Grown up to the highest bucket used: a phase's histogram is a few KiB,
    // not the 400 KB of its limit (a long scenario makes a phase per step).
    std::vector<uint32_t> m_buckets;
    std::vector<CompactBucket> m_compact;          // the buckets while isCompact()
    mutable std::vector<int64_t> m_overflowValues; // sorted lazily by percentile()
    uint64_t m_count = 0;
    size_t m_used = 0; // buckets below this index may be non-zero: bounds every scan
    mutable bool m_overflowSorted = true;
    bool m_isCompact = false;
};

} // namespace latprobe
