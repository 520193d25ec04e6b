#pragma once

#include "compare.h"
#include "run.h"

#include <cstddef>
#include <string>
#include <vector>

namespace latprobe {

// --rounds auto[:MAX]: after each round from the first look on, whether the
// variants' comparison has decided every row it judges (a metric of a
// consumer in a phase measured under each variant, with rounds as its
// samples). A row is decided when its variants differ at the sequential
// design's level, or when its interval rules out any change worth naming.
struct RoundsLook
{
    bool looked = false; // every phase had the rounds a first look needs
    size_t judged = 0, decided = 0;
    std::vector<std::string> undecided; // "video p99 in burn x4", at most a few
    bool allDecided() const { return looked && judged > 0 && decided == judged; }
};

RoundsLook lookAtRounds(const Comparison &variants);

// Of the run's rounds until decided: "decided after 6 of at most 12 rounds"
// or "undecided after 12 rounds: video p99 in burn x4, ..."; "" for rounds
// fixed ahead.
std::string roundsOutcome(const Run &run, const Comparison &variants);

// The progress line's part: "6 of 9 rows decided, next look after round 6".
std::string describeLook(const RoundsLook &look, int nextLookRound);

} // namespace latprobe
