#pragma once

#include "consumerconfig.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace latprobe {

// The one figure a summary line shows of a consumer: in the window's phase
// table, the run library and `latprobe runs`.
enum class SummaryFigure {
    None,   // left out of summaries
    Misses, // its misses, summed over the phases
    P99,    // its p99 latency, the worst phase's
};

// Everything a front end shows of a consumer, in one row per role, as the
// load kinds have their table: the CLI, the report and the window read it
// here instead of comparing names.
struct ConsumerTraits
{
    ConsumerRole role;
    std::string_view name;                       // "audio": in runs, options and reports
    std::string_view missName;                   // "skips": what its misses are called in text
    std::string_view missTitle;                  // "Audio skips": a counter's title
    SummaryFigure summary = SummaryFigure::None; // what its summary column shows
    std::string_view column = {};                // "Skips": that column's title
    std::string_view columnTip = {};             // and its tooltip
    std::string_view simulates;                  // one line: what it stands for
    uint32_t lightRgb; // its colour on a light base (Okabe-Ito, colour-blind safe)
    uint32_t darkRgb;  // and on a dark one
    // What it does and when a miss counts, with a config's own figures
    // (describeConsumer()); nullptr: its miss title.
    std::string (*describe)(const ConsumerConfig &config) = nullptr;
    // What a view shows first when a run has it: a wakeup consumer is the
    // one every run has, cyclictest's imports included.
    bool shownFirst = false;
};

// audio, video, x, gaming, gui, start, wakeup: the order counters, legends
// and summary columns use.
const ConsumerTraits *consumerTable(size_t &count);
const ConsumerTraits &consumerTraits(ConsumerRole role);
// By name (consumerRole(name)): unknown names get the Unknown row ("misses").
const ConsumerTraits &consumerTraits(std::string_view name);

// "Audio skips", or "<name> misses" for a name the table does not know.
std::string missTitle(std::string_view name);
// What the consumer does and when a miss counts, with its own figures: "wakes
// every 5.33 ms, works 5 % of that, must finish within 5.33 ms". For
// tooltips, the report's legend and the manual.
std::string describeConsumer(const ConsumerConfig &config);

} // namespace latprobe
