#pragma once

#include "run.h"

#include <string>

namespace latprobe {

// A run in interbench's own table layout, to sit beside interbench's log:
// per consumer ("--- Benchmarking simulated cpu of Audio ..."), a row per
// phase that measured it, "Load  Latency +/- SD (ms)  Max Latency  %
// Desired CPU  % Deadlines Met", with interbench's figures (latency with
// the periods lost added, its "SD" being the root mean square) and its
// number formats. A phase named "<Consumer>: <Load>", as the interbench
// scenario names its steps, is listed under <Load>. Consumers with real-time
// scheduling are in µs, as interbench's real-time benchmarks are.
std::string formatInterbenchReport(const Run &run);

} // namespace latprobe
