#pragma once

#include <vector>

namespace latprobe {

// How evenly a load group's workers progressed (ocbench's bars,
// massive_intr's loop counts, in numbers).
struct Fairness
{
    int workers = 0;
    double mean = 0, min = 0, max = 0;
    double stddev = 0;     // population standard deviation
    double cvPct = 0;      // stddev / mean
    double maxOverMin = 0; // 0 when some worker made no progress
    double jain = 0;       // (sum x)^2 / (n * sum x^2): 1 = perfectly fair, 1/n = one took all
};

Fairness computeFairness(const std::vector<double> &work);

} // namespace latprobe
