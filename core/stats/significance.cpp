#include "significance.h"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace latprobe {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Beyond this many pairs the exact distribution's table grows large and
// the normal approximation is already close.
constexpr size_t kExactPairsLimit = 1000;

// How many of the C(m+n, m) orderings of two untied samples give each U:
// counts[u] for u in 0..m*n (Mann and Whitney's recursion).
std::vector<double> exactUCounts(size_t m, size_t n)
{
    // f[i][j][u]: orderings of i and j values with U = u; built up over j.
    std::vector<std::vector<double>> prev(m + 1), cur(m + 1);
    for (size_t i = 0; i <= m; ++i)
        prev[i].assign(1, 1.0); // j = 0: one ordering, U = 0
    for (size_t j = 1; j <= n; ++j) {
        cur[0].assign(1, 1.0);
        for (size_t i = 1; i <= m; ++i) {
            // The largest value belongs to the second sample (it beats all i
            // of the first: U + i) or to the first (U unchanged).
            std::vector<double> &c = cur[i];
            c.assign(i * j + 1, 0.0);
            for (size_t u = 0; u < prev[i].size(); ++u)
                c[u + i] += prev[i][u];
            for (size_t u = 0; u < cur[i - 1].size(); ++u)
                c[u] += cur[i - 1][u];
        }
        std::swap(prev, cur);
    }
    return prev[m];
}

// P(U <= u) under the null hypothesis, exactly.
double exactCdf(const std::vector<double> &counts, double u)
{
    double total = 0, below = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
        total += counts[k];
        if (static_cast<double>(k) <= u + 1e-9)
            below += counts[k];
    }
    return below / total;
}

bool hasTies(std::span<const double> a, std::span<const double> b)
{
    std::vector<double> all(a.begin(), a.end());
    all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end());
    return std::adjacent_find(all.begin(), all.end()) != all.end();
}

double normalQuantile(double p)
{
    return boost::math::quantile(boost::math::normal(), p);
}

// C: the largest count of pairs with P(U < C) <= alpha / 2. The interval's
// ends are the C-th smallest and the C-th largest difference.
size_t intervalRank(size_t m, size_t n, double confidence, bool exact)
{
    const double alpha = 1 - confidence;
    if (exact) {
        const std::vector<double> counts = exactUCounts(m, n);
        size_t c = 0;
        while (c < counts.size() && exactCdf(counts, static_cast<double>(c)) <= alpha / 2)
            ++c;
        return c; // P(U <= c - 1) <= alpha / 2 < P(U <= c)
    }
    const double mn = static_cast<double>(m * n);
    const double sd = std::sqrt(mn * static_cast<double>(m + n + 1) / 12.0);
    const double c = std::floor(mn / 2 - normalQuantile(1 - alpha / 2) * sd);
    return c < 0 ? 0 : static_cast<size_t>(c);
}

} // namespace

double median(std::span<const double> values)
{
    if (values.empty())
        return 0;
    std::vector<double> v(values.begin(), values.end());
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    if (v.size() % 2)
        return v[mid];
    const double upper = v[mid];
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid - 1), v.end());
    return (v[mid - 1] + upper) / 2;
}

MannWhitney mannWhitneyU(std::span<const double> a, std::span<const double> b)
{
    MannWhitney r;
    const size_t m = a.size(), n = b.size();
    if (m == 0 || n == 0)
        return r;
    for (double x : a)
        for (double y : b)
            r.u += y > x ? 1.0 : y == x ? 0.5 : 0.0;
    const double mn = static_cast<double>(m * n);
    const bool ties = hasTies(a, b);
    if (!ties && m * n <= kExactPairsLimit) {
        r.pTwoSided = exactTwoSidedPs(m, n)[static_cast<size_t>(r.u)];
        r.exact = true;
        return r;
    }
    // Normal approximation with the tie correction and a continuity
    // correction, as R's wilcox.test and scipy's default asymptotic test.
    std::vector<double> all(a.begin(), a.end());
    all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end());
    double tieTerm = 0;
    for (size_t i = 0; i < all.size();) {
        size_t j = i;
        while (j < all.size() && all[j] == all[i])
            ++j;
        const double t = static_cast<double>(j - i);
        tieTerm += t * t * t - t;
        i = j;
    }
    const double total = static_cast<double>(m + n);
    const double variance = mn / 12.0 * ((total + 1) - tieTerm / (total * (total - 1)));
    if (variance <= 0)
        return r; // every value the same: no evidence of any difference
    const double z = (std::abs(r.u - mn / 2) - 0.5) / std::sqrt(variance);
    r.pTwoSided = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(boost::math::normal(),
                                                                             std::max(0.0, z))));
    return r;
}

std::vector<double> exactTwoSidedPs(size_t m, size_t n)
{
    const std::vector<double> counts = exactUCounts(m, n);
    std::vector<double> below(counts.size()); // P(U <= u)
    double total = 0;
    for (double c : counts)
        total += c;
    double sum = 0;
    for (size_t u = 0; u < counts.size(); ++u)
        below[u] = (sum += counts[u]) / total;
    std::vector<double> p(counts.size());
    for (size_t u = 0; u < counts.size(); ++u)
        p[u] = std::min(1.0, 2 * below[std::min(u, counts.size() - 1 - u)]);
    return p;
}

double smallestPossibleP(size_t n1, size_t n2)
{
    if (n1 == 0 || n2 == 0)
        return 1;
    // All of one sample above all of the other: 2 / C(n1 + n2, n1).
    double orderings = 1;
    for (size_t k = 1; k <= n1; ++k)
        orderings = orderings * static_cast<double>(n2 + k) / static_cast<double>(k);
    return std::min(1.0, 2 / orderings);
}

Interval hodgesLehmannShift(std::span<const double> a, std::span<const double> b, double confidence)
{
    Interval r{0, -kInf, kInf};
    const size_t m = a.size(), n = b.size();
    if (m == 0 || n == 0)
        return r;
    std::vector<double> diffs;
    diffs.reserve(m * n);
    for (double x : a)
        for (double y : b)
            diffs.push_back(y - x);
    std::sort(diffs.begin(), diffs.end());
    r.estimate = median(diffs);
    const size_t c = intervalRank(m, n, confidence, m * n <= kExactPairsLimit);
    if (c >= 1 && c <= diffs.size()) {
        r.low = diffs[c - 1];
        r.high = diffs[diffs.size() - c];
    }
    return r;
}

Interval bootstrapRatioOfMedians(std::span<const double> a, std::span<const double> b,
                                 double confidence, int resamples, uint64_t seed)
{
    Interval r{0, -kInf, kInf};
    if (a.empty() || b.empty())
        return r;
    const double base = median(a);
    r.estimate = base > 0 ? median(b) / base : kInf;
    // mt19937_64's output is the same everywhere; the draw is a plain
    // modulo so that no library's distribution changes the interval.
    std::mt19937_64 rng(seed);
    std::vector<double> ratios, ra(a.size()), rb(b.size());
    ratios.reserve(static_cast<size_t>(resamples));
    for (int k = 0; k < resamples; ++k) {
        for (double &x : ra)
            x = a[rng() % a.size()];
        for (double &y : rb)
            y = b[rng() % b.size()];
        const double ma = median(ra);
        ratios.push_back(ma > 0 ? median(rb) / ma : kInf);
    }
    std::sort(ratios.begin(), ratios.end());
    const double alpha = 1 - confidence;
    const auto at = [&](double q) {
        const auto i = static_cast<size_t>(std::floor(q * static_cast<double>(ratios.size() - 1)));
        return ratios[std::min(i, ratios.size() - 1)];
    };
    r.low = at(alpha / 2);
    r.high = at(1 - alpha / 2);
    return r;
}

} // namespace latprobe
