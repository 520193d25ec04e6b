#pragma once

#include <cstddef>
#include <vector>

namespace latprobe {

// Rounds played until decided (--rounds auto[:MAX]). Testing at 5 % after
// every round would call about one A/A row in eight "different" by round 12:
// each look is another chance of a false alarm. A group-sequential design
// spends the 5 % over the looks instead (docs/DESIGN.md, "Rounds until
// decided").
//
// The looks: after every round from `firstLook` to `maxRounds`. The
// spending: Lan and DeMets' Pocock-type function, which spends early, so
// that a large effect is decided at the first looks. The boundaries: for
// the Mann-Whitney U of n rounds a side, found by simulating the test's
// null hypothesis (every ordering of the rounds equally likely, whatever
// their distribution) over all the looks, so that the chance of crossing
// any boundary by look k is at most the alpha spent by then.
struct SequentialDesign
{
    size_t firstLook = 0, maxRounds = 0;
    double alpha = 0;
    // [n - firstLook]: with n rounds a side, a two-sided p at most this
    // crosses the boundary (0: no p can, at that look).
    std::vector<double> nominalP;

    // The nominal level of a look at n rounds a side; 0 before the first.
    double levelAt(size_t n) const;
};

// Lan-DeMets Pocock-type spending: alpha ln(1 + (e - 1) t), t the share of
// the rounds played.
double pocockSpending(double t, double alpha);

// The design for these looks, computed once per process (thread-safe).
const SequentialDesign &sequentialDesign(size_t firstLook, size_t maxRounds, double alpha);

// How often rows that do not differ would cross a boundary of `design` at
// some look: `trials` simulated null sequences from `seed` (the tests'
// check that the 5 % holds, and its counterpart for a plain test at every
// look).
double simulatedFalseAlarmRate(const SequentialDesign &design, size_t trials, unsigned long seed);
double simulatedFalseAlarmRateRepeatedTest(size_t firstLook, size_t maxRounds, double alpha,
                                           size_t trials, unsigned long seed);

} // namespace latprobe
