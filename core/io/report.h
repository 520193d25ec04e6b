#pragma once

#include "run.h"

#include <string>

namespace latprobe {

inline constexpr size_t kReportWidth = 72;

// The plain-text report of a run: a header naming the machine and what the
// probe was granted, then per phase a latency table and a deadline table.
// Every line fits kReportWidth columns, for a mailing-list post.
std::string formatTextReport(const Run &run);

// The same figures for other tools: a Markdown page, one CSV row per phase
// and consumer, and a compact JSON summary (the run file without series,
// histograms and miss log).
std::string formatMarkdownReport(const Run &run);
std::string formatCsvReport(const Run &run);
std::string formatJsonSummary(const Run &run);

} // namespace latprobe
