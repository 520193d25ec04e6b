#pragma once

#include "loadlimits.h"
#include "scenario.h"

#include <string>

namespace latprobe {

// Checks every step's loads before anything starts (the kinds' prechecks,
// e.g. a compiler exists, and the safety caps, counting a step's groups
// together): "" or a one-line refusal.
std::string checkScenario(const Scenario &scenario, const LoadLimits &limits);

} // namespace latprobe
