#pragma once

#include <QString>

#include <cstdint>

namespace latprobe {

// A latency as the window writes it: "0.412 ms", "12.34 ms", "140.2 ms",
// "–" for none (-1): three significant places at any size.
QString formatLatencyMs(int64_t us);

} // namespace latprobe
