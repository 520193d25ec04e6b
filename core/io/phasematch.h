#pragma once

#include "run.h"

#include <string>
#include <vector>

namespace latprobe {

// The phases of one run that are one thing measured: the rounds of one
// step, or a phase begun by hand. Its identity is what ran (the load
// signature) and which occurrence of that within a round it is, never its
// position in the run or its name: a window session (idle, massive_intr x8,
// burn x2, idle) and a `latprobe run` (idle, burn x2) line up idle with idle
// and burn x2 with burn x2.
struct PhaseGroup
{
    std::string key;            // "burn:2#1": the signature and its occurrence
    std::string name;           // what the table calls it: "idle", "idle 2"
    std::vector<size_t> phases; // into run.phases, in order: its rounds
};

// "burn:2 + massive_intr:8:work_ms=8", or "idle": each load in canonical
// KIND:N:key=value form, sorted. Labels of files before 1.2 ("burn x2")
// read as KIND:N.
std::string loadSignature(const std::vector<std::string> &loads);

// A run's phases by identity, in the order each first appears. Phases of
// one signature within a round are numbered (#1, #2): never merged.
std::vector<PhaseGroup> groupPhases(const Run &run);

} // namespace latprobe
