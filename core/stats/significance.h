#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace latprobe {

// Two independent samples (a run's rounds or blocks against another's),
// compared as benchstat compares them: a Mann-Whitney U test says whether
// they differ at all, Hodges-Lehmann or a bootstrap says by how much, with
// an interval. Distribution-free: latency percentiles and miss rates are
// anything but normal.

struct MannWhitney
{
    double u = 0; // of the second sample: pairs (a, b) with b > a, ties counting one half
    double pTwoSided = 1;
    bool exact = false; // the exact null distribution (small samples, no ties), else the
                        // normal approximation with the tie correction
};
MannWhitney mannWhitneyU(std::span<const double> a, std::span<const double> b);

// The exact two-sided p of each U (0..m n) between untied samples of
// sizes m and n.
std::vector<double> exactTwoSidedPs(size_t m, size_t n);

// The smallest two-sided p that samples of these sizes can give at all:
// above the level asked, no difference can be shown ("not enough rounds").
double smallestPossibleP(size_t n1, size_t n2);

struct Interval
{
    double estimate = 0;
    double low = 0, high = 0; // infinite when the samples are too few to bound it
};

// The Hodges-Lehmann shift of b against a: the median of every difference
// b_j - a_i, with the distribution-free interval that inverts the U test.
Interval hodgesLehmannShift(std::span<const double> a, std::span<const double> b,
                            double confidence = 0.95);

// median(b) / median(a) with a percentile bootstrap interval: `resamples`
// of each side drawn with replacement from a generator seeded with `seed`,
// so the same data always give the same interval. A resample whose median
// of a is 0 counts as an infinite ratio.
Interval bootstrapRatioOfMedians(std::span<const double> a, std::span<const double> b,
                                 double confidence = 0.95, int resamples = 2000, uint64_t seed = 1);

double median(std::span<const double> values);

} // namespace latprobe
