#pragma once

#include <string>

namespace latprobe {

// The running latprobe binary, re-executed for load leaders and the start
// consumer's probes. Tests and benchmarks point LATPROBE_BINARY at the real
// binary, since their own executable is not latprobe.
std::string selfExecutable();
std::string latprobeBinary();

} // namespace latprobe
