#pragma once

#include "loadspec.h"

#include <string>
#include <vector>

namespace latprobe {

// A phase is named after its loads, "massive_intr x8 + burn x2", and
// "idle" without any: the same words in a run by hand, a scenario's steps
// and a screenshot's caption.
std::string phaseNameForLoads(const std::vector<std::string> &labels);
std::string phaseNameForLoads(const std::vector<LoadSpec> &specs);

} // namespace latprobe
