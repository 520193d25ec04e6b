#pragma once

#include "loadspec.h"
#include "phase.h"
#include "variant.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace latprobe {

// A scenario file (JSON, documented in docs/scenarios.md):
//   {"scenario_version": 1, "name": "ramp", "description": "...",
//    "preset": "default",                       optional consumer preset
//    "rounds": 3,                               optional, default 1
//    "restart_consumers": true,                 optional, default false
//    "stop_when": {"consumers": ["audio", "video"], "above_baseline": true},
//    "steps": [{"name": "idle", "duration_s": 10, "loads": []},
//              {"duration_s": 30, "loads": ["massive_intr:10"],
//               "consumers": ["audio"],           optional: measure only these
//               "trace": false}]}                 optional: no flight recorder
struct ScenarioStep
{
    std::string name; // defaults to the loads' labels, or "idle"
    double durationS = 0;
    std::vector<LoadSpec> loads;
    // The consumers this step measures, the others paused meanwhile
    // (interbench benchmarks one at a time); empty: every consumer.
    std::vector<std::string> consumers = {};
    // false: the flight recorder pauses for the step and explains none of
    // its misses (tests/bench/trace_overhead.py alternates the two in one
    // run to tell the recorder's cost from a load's run-to-run spread).
    bool trace = true;
};

struct StopCondition
{
    std::vector<std::string> consumers; // whose misses count
    uint64_t missesOver = 0;            // a step with more misses ends the ramp
    // Instead of a count: a step whose miss rate is significantly above the
    // first step's, twice in a row, ends it (stopjudge.h).
    bool aboveBaseline = false;
};

inline constexpr double kSettleS = 2;
inline constexpr double kSchedulerSettleS = 10;
inline constexpr size_t kMaxVariants = 8;

// Which variant plays at each turn of `round` (1-based): every variant
// once, the order rotated round by round so that each takes each place
// equally often (A B, B A, A B, ...): slow drift hits them alike.
std::vector<size_t> turnOrder(size_t variants, int round);
// "" or what is wrong with a scenario's variants as a set: one alone, too
// many, two of one name.
std::string checkVariantList(const std::vector<Variant> &variants);

// A step compared with the baseline needs this long: four 5 s blocks a
// side is the fewest that can be significant at 5 %.
inline constexpr double kMinComparedStepS = 20;

struct Scenario
{
    std::string name;
    std::string description;
    std::string preset = "default";
    std::optional<StopCondition> stopWhen;
    std::vector<ScenarioStep> steps;
    // Every step played this many times, interleaved (idle, A, B, idle, A,
    // B, ...) so that slow drift hits every step alike: each step's phases
    // are the rounds a comparison draws its samples from.
    int rounds = 1;
    // With variants: rounds go on until the variants' comparison decides
    // every row it judges, `rounds` at most (--rounds auto[:MAX]).
    bool untilDecided = false;
    // Each step pauses its consumers while its loads start and starts them
    // afresh once they run: interbench forks a new benchmark process for
    // each load, so X's ramp begins at 0 ms and no backlog carries over.
    // Otherwise a consumer runs on across steps, as a desktop program does.
    bool restartConsumers = false;
    // Variants of the system played in turns, every step under each in
    // every round, in a counterbalanced order (turnOrder()); none or two
    // and more. docs/scenarios.md, "Variants".
    std::vector<Variant> variants;
    // Unmeasured seconds after each switch of variant: -1 the default,
    // kSettleS, or kSchedulerSettleS when a variant loads a scheduler.
    double settleS = -1;
    double settleTimeS() const;

    double roundS() const;     // one round: every step, under each variant
    double totalS() const;     // every round
    bool runsCommands() const; // a custom load: needs the user's consent
};

// One line naming the file and the line or field.
class ScenarioError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// The name of the scenario a plain run (--idle, --load) plays, and of
// what its run file records as the scenario.
inline constexpr const char *kPlainRunScenario = "run";

inline constexpr int kScenarioVersion = 1;
inline constexpr int kMaxRounds = 1000;
// --rounds auto: at most this many unless MAX is given; never more than
// kMaxAutoRounds, as the design's boundaries are simulated for its looks.
inline constexpr int kDefaultAutoRounds = 12;
inline constexpr int kMaxAutoRounds = 30;

// --rounds and a scenario's "rounds": "6", or "auto[:MAX]".
struct Rounds
{
    int count = 0; // the rounds; the most of them when until decided
    bool untilDecided = false;
    void applyTo(Scenario &scenario) const;
};
// The rounds `text` asks for, or nothing and `error` says why in one line.
std::optional<Rounds> parseRounds(const std::string &text, std::string &error);

Scenario parseScenario(const std::string &text, const std::string &fileName);
Scenario loadScenarioFile(const std::string &path);

// "playing quick: 5 steps x 3 rounds, interleaved, 6 min 15 s": what a run
// is about to do.
std::string describePlay(const Scenario &scenario);
// "1 h 2 min", "6 min 15 s", "40 s".
std::string formatDuration(double seconds);

// Built-in presets from resources/scenarios, compiled in.
std::vector<std::string> builtinScenarioNames();
std::optional<Scenario> builtinScenario(const std::string &name);

} // namespace latprobe
