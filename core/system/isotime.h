#pragma once

#include <string>

namespace latprobe {

// Now, as ISO 8601 UTC to the second: "2026-11-30T20:29:47Z".
std::string isoTimeNow();

} // namespace latprobe
