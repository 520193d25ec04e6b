#pragma once

#include "atomicsave.h" // removeStaleSaveTemps(): `latprobe run --out` calls it before measuring
#include "run.h"

#include <stdexcept>
#include <string>

namespace latprobe {

// The run file: JSON with a "file_version" of MAJOR.MINOR. A reader takes
// any minor version of its major and rejects the rest.
inline constexpr int kRunFileMajor = 1;
// 1.1: per-consumer "failures"; 1.2: each phase's "step" and "round", and
// its consumers' 5 s "blocks" (older files read as one round without blocks);
// 1.3: each load's "per_worker_cpu_s" and "cpu_fairness" (older files read
// as CPU time unknown); per-consumer "loop_speed", "work_loop_speed" and
// "end_loop_speed" (older files: the speed from "loops_per_us", no spread,
// no later speeds); 1.4: per-consumer "wake" and "latency" (older files:
// timer and wake, the only ones there were), "timekeeper_granted", X's
// "ramp_step_ns", the kind "continuous" (gaming), per-phase consumers'
// "has_cpu_target" (older files: has_deadline), "trace" (the flight
// recorder) and "explanations" of misses (older files: no recorder,
// nothing explained); 1.5: see docs/DESIGN.md; 1.6: a loop speed's
// "per_cpu" (older files: one speed for every CPU); 1.7: "variants" and each
// phase's "variant" (older files: none); 1.8: an explanation's
// "trace_file" and the trace summary's "saving_traces", "traces_saved",
// "trace_bytes", "traces_over_cap", "trace_error" (`--save-trace`; older
// files: none saved), and phases' "left_out" (a round a variant's
// scheduler left mid-way; older files: none); 1.9: a loop speed's per-CPU
// "min_loops_per_ms", "max_loops_per_ms", "spread_pct", "trials" and
// "settled" (older files: each CPU's speed alone, no spread); 1.10:
// "until_decided" (--rounds auto; older files: rounds fixed ahead)
inline constexpr int kRunFileMinor = 10;

// One line, naming the file and the field: "run.json: phases[0].name: ...".
class RunFileError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Indented for a person to read; compact for the autosaves, which rewrite
// the whole run every few seconds (half the bytes: a 60-minute run's miss
// log alone is megabytes).
enum class JsonLayout { Indented, Compact };

std::string runToJson(const Run &run, JsonLayout layout = JsonLayout::Indented);
// The same text in pieces, for a file: never the whole run's JSON tree at once.
void writeRunJson(const Run &run, JsonLayout layout, const TextWriter &write);
Run runFromJson(const std::string &text, const std::string &fileName);

// Saved with saveFileAtomically(): a crash leaves the old file or the new
// one, never half of one, and the next save removes a killed save's temp
// file.
void writeRunFile(const Run &run, const std::string &path,
                  JsonLayout layout = JsonLayout::Indented);
Run readRunFile(const std::string &path);

} // namespace latprobe
