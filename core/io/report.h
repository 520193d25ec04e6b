#pragma once

#include "run.h"

#include <string>
#include <vector>

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

// The report as a page, for the writers with markup of their own (Markdown,
// HTML): each lays out the same text and cells, none computes a figure.
struct PageTable
{
    std::vector<std::string> head;
    std::vector<bool> numeric; // per column: right-aligned
    std::vector<std::vector<std::string>> rows;
};

struct PageBlock
{
    std::string text; // a paragraph (its '\n's are soft breaks), or ""
    PageTable table;  // under it, or none (no head)
};

struct PageSection
{
    std::string heading; // "Phase 1/2: idle (10.0 s)", "Loads", "Legend"
    std::vector<PageBlock> blocks;
};

struct ReportPage
{
    std::string title;                 // "latprobe 0.1.0 on Linux 6.18.44 x86_64"
    std::vector<std::string> facts;    // the machine, the probe, the noise check, the run
    std::vector<PageSection> sections; // each phase, the loads, the legend
};

ReportPage reportPage(const Run &run);

} // namespace latprobe
