#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace latprobe {

// A histogram as core hands it out: (µs, count) pairs, sorted by µs, only
// non-empty buckets (ConsumerStats::histogram). The GUI adds phases
// together and subtracts an older snapshot to get "the last 10 s".
using SparseHistogram = std::vector<std::pair<int64_t, uint64_t>>;

// out = a + b. `out` may not alias `a` or `b`; its capacity is reused.
void addSparse(const SparseHistogram &a, const SparseHistogram &b, SparseHistogram &out);
// out = a - b, for `b` an earlier snapshot of the same cumulative histogram.
void subtractSparse(const SparseHistogram &a, const SparseHistogram &b, SparseHistogram &out);
uint64_t sparseCount(const SparseHistogram &h);
// Nearest rank, as core's Histogram::percentile: -1 on an empty histogram.
int64_t sparsePercentile(const SparseHistogram &h, double q);
// The same of a + b, without building it.
int64_t sparsePercentileOfSum(const SparseHistogram &a, const SparseHistogram &b, double q);
int64_t sparseMax(const SparseHistogram &h);

} // namespace latprobe
