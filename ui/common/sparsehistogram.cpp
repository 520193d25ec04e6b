#include "sparsehistogram.h"

#include <algorithm>
#include <cmath>

namespace latprobe {

void addSparse(const SparseHistogram &a, const SparseHistogram &b, SparseHistogram &out)
{
    out.clear();
    out.reserve(a.size() + b.size());
    auto i = a.begin(), j = b.begin();
    while (i != a.end() || j != b.end()) {
        if (j == b.end() || (i != a.end() && i->first < j->first)) {
            out.push_back(*i++);
        } else if (i == a.end() || j->first < i->first) {
            out.push_back(*j++);
        } else {
            out.emplace_back(i->first, i->second + j->second);
            ++i;
            ++j;
        }
    }
}

void subtractSparse(const SparseHistogram &a, const SparseHistogram &b, SparseHistogram &out)
{
    out.clear();
    out.reserve(a.size());
    auto j = b.begin();
    for (const auto &[us, count] : a) {
        while (j != b.end() && j->first < us)
            ++j;
        const uint64_t older = j != b.end() && j->first == us ? j->second : 0;
        // A snapshot from another phase set (after a reset) is never older
        // than the current one; clamp rather than wrap around.
        if (count > older)
            out.emplace_back(us, count - older);
    }
}

uint64_t sparseCount(const SparseHistogram &h)
{
    uint64_t n = 0;
    for (const auto &bucket : h)
        n += bucket.second;
    return n;
}

int64_t sparsePercentileOfSum(const SparseHistogram &a, const SparseHistogram &b, double q)
{
    const uint64_t n = sparseCount(a) + sparseCount(b);
    if (n == 0)
        return -1;
    q = std::clamp(q, 0.0, 1.0);
    const uint64_t rank =
        std::clamp<uint64_t>(static_cast<uint64_t>(std::ceil(q * static_cast<double>(n))), 1, n);
    uint64_t seen = 0;
    auto i = a.begin(), j = b.begin();
    while (i != a.end() || j != b.end()) {
        const bool fromA = j == b.end() || (i != a.end() && i->first <= j->first);
        const int64_t us = fromA ? i->first : j->first;
        seen += fromA ? (i++)->second : (j++)->second;
        if (seen >= rank)
            return us;
    }
    return -1;
}

int64_t sparsePercentile(const SparseHistogram &h, double q)
{
    return sparsePercentileOfSum(h, {}, q);
}

int64_t sparseMax(const SparseHistogram &h)
{
    return h.empty() ? -1 : h.back().first;
}

} // namespace latprobe
