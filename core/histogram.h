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
    void add(int64_t us, uint64_t count);
    void merge(const Histogram &other);
    void clear();

    uint64_t count() const { return m_count; }
    uint64_t overflow() const { return m_overflowValues.size(); }
    uint32_t limitUs() const { return m_limitUs; }

    // Nearest rank: the smallest value with at least ceil(q * n) samples at
    // or below it. q in (0, 1]. Returns 0 on an empty histogram.
    int64_t percentile(double q) const;

    // Non-empty buckets as (µs, count), for run files and plots.
    std::vector<std::pair<int64_t, uint64_t>> sparse() const;

private:
    void reserveBucket(size_t us);

    uint32_t m_limitUs;
    // Grown up to the highest bucket used: a phase's histogram is a few KiB,
    // not the 400 KB of its limit (a long scenario makes a phase per step).
    std::vector<uint32_t> m_buckets;
    mutable std::vector<int64_t> m_overflowValues; // sorted lazily by percentile()
    uint64_t m_count = 0;
    size_t m_used = 0; // buckets below this index may be non-zero: bounds every scan
    mutable bool m_overflowSorted = true;
};

} // namespace latprobe
