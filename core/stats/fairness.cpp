#include "fairness.h"

#include <algorithm>
#include <cmath>

namespace latprobe {

Fairness computeFairness(const std::vector<double> &work)
{
    Fairness f;
    f.workers = static_cast<int>(work.size());
    if (work.empty())
        return f;
    double sum = 0, sumSq = 0;
    for (double x : work) {
        sum += x;
        sumSq += x * x;
    }
    const double n = static_cast<double>(work.size());
    f.mean = sum / n;
    f.min = *std::min_element(work.begin(), work.end());
    f.max = *std::max_element(work.begin(), work.end());
    double var = 0;
    for (double x : work)
        var += (x - f.mean) * (x - f.mean);
    f.stddev = std::sqrt(var / n);
    f.cvPct = f.mean > 0 ? 100.0 * f.stddev / f.mean : 0;
    f.maxOverMin = f.min > 0 ? f.max / f.min : 0;
    f.jain = sumSq > 0 ? sum * sum / (n * sumSq) : 0;
    return f;
}

} // namespace latprobe
