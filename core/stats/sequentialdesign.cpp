#include "sequentialdesign.h"

#include "significance.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <tuple>

namespace latprobe {

namespace {

// Enough null sequences that the alpha a boundary spends is known to about
// a thousandth (its standard error at 5 %: 0.0007).
constexpr size_t kDesignTrials = 100000;
constexpr unsigned long kDesignSeed = 1;

// |2U - n^2| at each look of one simulated sequence: how far the rounds of
// one side sit above the other's, 0 when they interleave evenly.
class NullSequences
{
public:
    NullSequences(size_t firstLook, size_t maxRounds, size_t trials, unsigned long seed)
        : m_looks(maxRounds - firstLook + 1), m_distance(trials * m_looks)
    {
        // mt19937_64's output is the same everywhere; the uniform draw is
        // made here so that no library's distribution moves a boundary.
        std::mt19937_64 rng(seed);
        std::vector<double> a(maxRounds), b(maxRounds);
        for (size_t t = 0; t < trials; ++t) {
            int64_t u = 0;
            for (size_t n = 1; n <= maxRounds; ++n) {
                const size_t last = n - 1;
                a[last] = static_cast<double>(rng() >> 11) * 0x1.0p-53;
                b[last] = static_cast<double>(rng() >> 11) * 0x1.0p-53;
                for (size_t j = 0; j < last; ++j)
                    u += (b[j] > a[last] ? 1 : 0) + (b[last] > a[j] ? 1 : 0);
                u += b[last] > a[last] ? 1 : 0;
                if (n >= firstLook) {
                    const int64_t nn = static_cast<int64_t>(n * n);
                    m_distance[t * m_looks + n - firstLook] =
                        static_cast<uint32_t>(std::llabs(2 * u - nn));
                }
            }
        }
    }
    size_t trials() const { return m_distance.size() / m_looks; }
    uint32_t distance(size_t trial, size_t look) const
    {
        return m_distance[trial * m_looks + look];
    }

private:
    size_t m_looks;
    std::vector<uint32_t> m_distance;
};

// The two-sided p of each |2U - n^2| a look at n rounds a side can give
// (only those of n^2's parity occur).
std::vector<double> pOfDistance(size_t n)
{
    const std::vector<double> pOfU = exactTwoSidedPs(n, n);
    std::vector<double> p(n * n + 1, 1.0);
    for (size_t d = n * n % 2; d <= n * n; d += 2)
        p[d] = pOfU[(n * n - d) / 2];
    return p;
}

SequentialDesign makeDesign(size_t firstLook, size_t maxRounds, double alpha)
{
    SequentialDesign design{firstLook, maxRounds, alpha, {}};
    const NullSequences null(firstLook, maxRounds, kDesignTrials, kDesignSeed);
    std::vector<bool> crossed(null.trials(), false);
    size_t crossings = 0;
    for (size_t n = firstLook; n <= maxRounds; ++n) {
        const size_t look = n - firstLook;
        const double t = static_cast<double>(n) / static_cast<double>(maxRounds);
        const auto allowed = static_cast<size_t>(
            std::floor(pocockSpending(t, alpha) * static_cast<double>(null.trials())));
        // The survivors' distances, to choose the lowest boundary whose
        // crossings keep the alpha spent within what is allowed by now.
        std::vector<size_t> atDistance(n * n + 1, 0);
        for (size_t trial = 0; trial < null.trials(); ++trial)
            if (!crossed[trial])
                ++atDistance[null.distance(trial, look)];
        size_t boundary = n * n + 1, beyond = 0;
        while (boundary > 0 && crossings + beyond + atDistance[boundary - 1] <= allowed)
            beyond += atDistance[--boundary];
        // Only distances of n^2's parity occur: the boundary is the one reached.
        while (boundary <= n * n && (n * n - boundary) % 2)
            ++boundary;
        design.nominalP.push_back(boundary > n * n ? 0.0 : pOfDistance(n)[boundary]);
        for (size_t trial = 0; trial < null.trials(); ++trial)
            if (!crossed[trial] && null.distance(trial, look) >= boundary) {
                crossed[trial] = true;
                ++crossings;
            }
    }
    return design;
}

// The share of null sequences that reach p <= level(n) at some look.
template <typename Level>
double crossingRate(size_t firstLook, size_t maxRounds, size_t trials, unsigned long seed,
                    Level level)
{
    const NullSequences null(firstLook, maxRounds, trials, seed);
    std::vector<std::vector<double>> p;
    for (size_t n = firstLook; n <= maxRounds; ++n)
        p.push_back(pOfDistance(n));
    size_t crossings = 0;
    for (size_t trial = 0; trial < trials; ++trial)
        for (size_t n = firstLook; n <= maxRounds; ++n)
            if (p[n - firstLook][null.distance(trial, n - firstLook)] <= level(n)) {
                ++crossings;
                break;
            }
    return static_cast<double>(crossings) / static_cast<double>(trials);
}

} // namespace

double SequentialDesign::levelAt(size_t n) const
{
    if (n < firstLook || nominalP.empty())
        return 0;
    return nominalP[std::min(n - firstLook, nominalP.size() - 1)];
}

double pocockSpending(double t, double alpha)
{
    return alpha * std::log(1 + (std::exp(1.0) - 1) * std::min(1.0, std::max(0.0, t)));
}

const SequentialDesign &sequentialDesign(size_t firstLook, size_t maxRounds, double alpha)
{
    static std::mutex mutex;
    static std::map<std::tuple<size_t, size_t, double>, SequentialDesign> designs;
    std::lock_guard lock(mutex);
    const auto key = std::make_tuple(firstLook, maxRounds, alpha);
    auto it = designs.find(key);
    if (it == designs.end())
        it = designs.emplace(key, makeDesign(firstLook, maxRounds, alpha)).first;
    return it->second;
}

double simulatedFalseAlarmRate(const SequentialDesign &design, size_t trials, unsigned long seed)
{
    return crossingRate(design.firstLook, design.maxRounds, trials, seed,
                        [&](size_t n) { return design.levelAt(n); });
}

double simulatedFalseAlarmRateRepeatedTest(size_t firstLook, size_t maxRounds, double alpha,
                                           size_t trials, unsigned long seed)
{
    return crossingRate(firstLook, maxRounds, trials, seed, [alpha](size_t) { return alpha; });
}

} // namespace latprobe
