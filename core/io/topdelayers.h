#pragma once

#include "missexplanation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace latprobe {

// Who delayed a phase's explained misses, summed over them: what a "Top
// delayers" table shows, in the report and in compare.
struct Delayer
{
    DelayShare::Kind kind = DelayShare::Kind::Task;
    std::string name;
    int pid = 0;
    std::string policy;
    std::string load;
    int seen = 0;        // misses it delayed
    int64_t totalNs = 0; // over them
    int64_t worstNs = 0; // in one
};

// The delayers of the misses explained in `phases` (by name: a phase's
// rounds in compare), the largest total first, at most `limit`.
std::vector<Delayer> topDelayers(const std::vector<MissExplanation> &explanations,
                                 const std::vector<std::string> &phases, size_t limit);

// "culprit[4242]", "irq local_timer", "idle": how a delayer is named in a line.
std::string delayerName(const Delayer &d);

// What a delayer's `load` says of it: "latprobe load massive_intr x8", or
// "latprobe's own consumer" for another of the probe's threads ("(probe)").
std::string describeLoad(const std::string &load);

// One line for a screenshot's caption: who delayed the explained misses of
// `phase` (of `misses` in all), at most `limit` delayers, the largest first:
// "who delayed massive_intr x8: latprobe:massiv[4242] 9.5 ms, idle 0.2 ms
// (2 of 14 misses explained)". "" when none of its misses was explained.
std::string delayersLine(const std::vector<MissExplanation> &explanations, const std::string &phase,
                         uint64_t misses, size_t limit = 3);

// One miss's chain, in lines of at most `width` columns, for a bug report.
std::string formatExplanation(const MissExplanation &x, size_t width);

} // namespace latprobe
