#pragma once

#include "run.h"

#include <string>

namespace latprobe {

inline constexpr size_t kReportWidth = 72;

// The plain-text report of a run: a header naming the machine and what the
// probe was granted, then per phase a latency table and a deadline table.
// Every line fits kReportWidth columns, for a mailing-list post.
std::string formatTextReport(const Run &run);

} // namespace latprobe
