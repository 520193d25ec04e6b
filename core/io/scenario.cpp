#include "scenario.h"

#include "builtinscenarios.h"
#include "compare.h"
#include "jsonreader.h"
#include "phasename.h"
#include "presets.h"
#include "textfile.h"
#include "variantjson.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <charconv>

namespace latprobe {

using nlohmann::json;

double Scenario::settleTimeS() const
{
    if (settleS >= 0)
        return settleS;
    for (const Variant &v : variants)
        if (v.find("scx"))
            return kSchedulerSettleS;
    return kSettleS;
}

double Scenario::roundS() const
{
    double total = 0;
    for (const ScenarioStep &s : steps)
        total += s.durationS;
    if (variants.empty())
        return total;
    return static_cast<double>(variants.size()) * (total + settleTimeS());
}

std::string checkVariantList(const std::vector<Variant> &variants)
{
    if (variants.size() == 1)
        return fmt::format("variant {} has nothing to take turns with: give two or more",
                           variants[0].name);
    if (variants.size() > kMaxVariants)
        return fmt::format("{} variants: at most {} take turns in one run", variants.size(),
                           kMaxVariants);
    for (size_t i = 0; i < variants.size(); ++i)
        for (size_t k = 0; k < i; ++k)
            if (variants[i].name == variants[k].name)
                return fmt::format("two variants are called {}: give each its own name",
                                   variants[i].name);
    return {};
}

std::vector<size_t> turnOrder(size_t variants, int round)
{
    std::vector<size_t> order;
    for (size_t i = 0; i < variants; ++i)
        order.push_back((i + static_cast<size_t>(std::max(0, round - 1))) % variants);
    return order;
}

double Scenario::totalS() const
{
    return roundS() * rounds;
}

std::string formatDuration(double seconds)
{
    const auto s = static_cast<int64_t>(seconds + 0.5);
    if (s >= 3600)
        return fmt::format("{} h {} min", s / 3600, (s % 3600 + 30) / 60);
    if (s >= 60)
        return s % 60 ? fmt::format("{} min {} s", s / 60, s % 60) : fmt::format("{} min", s / 60);
    return fmt::format("{} s", s);
}

std::string describePlay(const Scenario &s)
{
    const size_t n = s.steps.size();
    const std::string atMost = s.untilDecided ? "at most " : "";
    std::string rounds =
        s.untilDecided ? fmt::format(" x up to {} rounds until decided, interleaved", s.rounds)
        : s.rounds > 1 ? fmt::format(" x {} rounds, interleaved", s.rounds)
                       : std::string();
    if (!s.variants.empty()) {
        std::vector<std::string> names;
        for (const Variant &v : s.variants)
            names.push_back(v.describe());
        rounds += fmt::format(", under {} in turns", fmt::join(names, " and "));
    }
    if (s.name == kPlainRunScenario) {
        // A plain run's steps are its --idle and --load: name them.
        std::vector<std::string> steps;
        for (const ScenarioStep &step : s.steps)
            steps.push_back(fmt::format("{} {}", step.name, formatDuration(step.durationS)));
        return fmt::format("measuring {}{}{}", fmt::join(steps, ", then "), rounds,
                           s.rounds > 1 ? ", " + atMost + formatDuration(s.totalS())
                                        : std::string());
    }
    return fmt::format("playing {}: {} step{}{}, {}{}", s.name, n, n == 1 ? "" : "s", rounds,
                       atMost, formatDuration(s.totalS()));
}

void Rounds::applyTo(Scenario &scenario) const
{
    scenario.rounds = count;
    scenario.untilDecided = untilDecided;
}

std::optional<Rounds> parseRounds(const std::string &text, std::string &error)
{
    const auto number = [&](const std::string &digits, int low, int high) -> std::optional<int> {
        int value = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec == std::errc() && end == digits.data() + digits.size() && value >= low &&
            value <= high)
            return value;
        return std::nullopt;
    };
    if (text == "auto")
        return Rounds{kDefaultAutoRounds, true};
    if (text.rfind("auto:", 0) == 0) {
        // The first look is at kMinRoundsAsSamples rounds: fewer could never decide.
        if (const std::optional<int> most =
                number(text.substr(5), static_cast<int>(kMinRoundsAsSamples), kMaxAutoRounds))
            return Rounds{*most, true};
        error = fmt::format("rounds \"{}\": auto:MAX takes MAX from {} to {} (the first look "
                            "is after round {})",
                            text, kMinRoundsAsSamples, kMaxAutoRounds, kMinRoundsAsSamples);
        return std::nullopt;
    }
    if (const std::optional<int> count = number(text, 1, kMaxRounds))
        return Rounds{*count, false};
    error = fmt::format("rounds \"{}\": give a whole number from 1 to {}, or auto[:MAX] to play "
                        "until the variants' comparison is decided (at most {} by default)",
                        text, kMaxRounds, kDefaultAutoRounds);
    return std::nullopt;
}

bool Scenario::runsCommands() const
{
    for (const ScenarioStep &s : steps)
        for (const LoadSpec &l : s.loads)
            if (l.runsCommand())
                return true;
    return false;
}

namespace {

void checkScenarioVersion(const JsonReader &r, const json &j)
{
    auto it = j.find("scenario_version");
    if (it == j.end() || !it->is_number_integer())
        r.fail("scenario_version", "missing: add \"scenario_version\": 1");
    // Compared as it is written: get<int>() would wrap 4294967297 to 1.
    if (!it->is_number_unsigned() || it->get<uint64_t>() != kScenarioVersion)
        r.fail("scenario_version",
               fmt::format("version {} is not supported (this latprobe reads {})", it->dump(),
                           kScenarioVersion));
}

StopCondition stopWhenFromJson(const JsonReader &r, const json &value)
{
    StopCondition stop;
    bool countGiven = false;
    if (!value.is_object())
        r.fail("stop_when", "expected {\"consumers\": [...], \"above_baseline\": true}");
    for (const auto &[k, v] : value.items()) {
        if (k == "consumers" && v.is_array()) {
            for (const json &c : v) {
                if (!c.is_string())
                    r.fail("stop_when.consumers", "expected consumer names");
                stop.consumers.push_back(c.get<std::string>());
            }
        } else if (k == "misses_over" && v.is_number_unsigned()) {
            stop.missesOver = v.get<uint64_t>();
            countGiven = true;
        } else if (k == "above_baseline" && v.is_boolean()) {
            stop.aboveBaseline = v.get<bool>();
        } else {
            r.fail("stop_when." + k, "unknown or malformed (takes consumers: [names], and "
                                     "above_baseline: true or misses_over: N >= 0)");
        }
    }
    if (countGiven && stop.aboveBaseline)
        r.fail("stop_when", "give above_baseline or misses_over, not both");
    if (stop.consumers.empty())
        r.fail("stop_when.consumers", "name at least one consumer, e.g. [\"audio\"]");
    return stop;
}

// The top level's fields into `s`, the steps only checked for being there.
void scenarioFieldsFromJson(const JsonReader &r, const json &j, Scenario &s)
{
    for (const auto &[key, value] : j.items()) {
        if (key == "scenario_version")
            continue;
        if (key == "name" || key == "description" || key == "preset") {
            (key == "name"          ? s.name
             : key == "description" ? s.description
                                    : s.preset) = r.value<std::string>(value, key);
        } else if (key == "stop_when") {
            s.stopWhen = stopWhenFromJson(r, value);
        } else if (key == "rounds") {
            // A number, or "auto[:MAX]" as --rounds takes it.
            std::string error;
            const std::optional<Rounds> rounds =
                parseRounds(value.is_string()            ? value.get<std::string>()
                            : value.is_number_unsigned() ? std::to_string(value.get<uint64_t>())
                                                         : value.dump(),
                            error);
            if (!rounds)
                r.fail(key, error);
            rounds->applyTo(s);
        } else if (key == "variants") {
            std::string error;
            if (!variantsFromJson(value, key, s.variants, error)) {
                // "variants[1].settings.slice_us: ..." names its own field.
                const size_t colon = error.find(": ");
                r.fail(error.substr(0, colon), error.substr(colon + 2));
            }
            if (std::string why = checkVariantList(s.variants); !why.empty())
                r.fail(key, why);
        } else if (key == "settle_s") {
            if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 600)
                r.fail(key, "expected seconds from 0 to 600");
            s.settleS = value.get<double>();
        } else if (key == "restart_consumers") {
            if (!value.is_boolean())
                r.fail(key, "expected true or false");
            s.restartConsumers = value.get<bool>();
        } else if (key == "steps") {
            if (!value.is_array() || value.empty())
                r.fail(key, "expected a non-empty array of steps");
        } else {
            r.fail(key,
                   "unknown field (a scenario has scenario_version, name, description, preset, "
                   "rounds, restart_consumers, stop_when, variants, settle_s, steps)");
        }
    }
}

std::vector<LoadSpec> stepLoadsFromJson(const JsonReader &r, const json &value,
                                        const std::string &where)
{
    std::vector<LoadSpec> loads;
    for (size_t k = 0; k < value.size(); ++k) {
        const std::string lwhere = fmt::format("{}.loads[{}]", where, k);
        if (!value[k].is_string())
            r.fail(lwhere, "expected \"KIND:N[:key=value...]\"");
        LoadSpec spec;
        std::string error;
        if (!parseLoadSpec(value[k].get<std::string>(), spec, error))
            r.fail(lwhere, error);
        loads.push_back(spec);
    }
    return loads;
}

std::vector<std::string> stepConsumersFromJson(const JsonReader &r, const json &value,
                                               const std::string &where)
{
    std::vector<std::string> consumers;
    for (size_t k = 0; k < value.size(); ++k) {
        if (!value[k].is_string() || value[k].get<std::string>().empty())
            r.fail(fmt::format("{}.consumers[{}]", where, k),
                   "expected a consumer's name, e.g. \"audio\"");
        consumers.push_back(value[k].get<std::string>());
    }
    return consumers;
}

// A step's fields as written, its name not yet defaulted.
ScenarioStep stepFieldsFromJson(const JsonReader &r, const json &step, const std::string &where)
{
    if (!step.is_object())
        r.fail(where, "expected {\"duration_s\": S, \"loads\": [...]}");
    ScenarioStep st;
    for (const auto &[key, value] : step.items()) {
        if (key == "name" && value.is_string()) {
            st.name = value.get<std::string>();
        } else if (key == "duration_s" && value.is_number()) {
            st.durationS = value.get<double>();
            if (!(st.durationS > 0 && st.durationS <= 7 * 24 * 3600))
                r.fail(where + ".duration_s", "must be > 0 and at most a week");
        } else if (key == "loads" && value.is_array()) {
            st.loads = stepLoadsFromJson(r, value, where);
        } else if (key == "consumers" && value.is_array() && !value.empty()) {
            st.consumers = stepConsumersFromJson(r, value, where);
        } else if (key == "trace" && value.is_boolean()) {
            st.trace = value.get<bool>();
        } else {
            r.fail(where + "." + key,
                   "unknown or malformed (a step has name: text, duration_s: seconds, "
                   "loads: [\"KIND:N\"], consumers: [\"audio\"], trace: true/false)");
        }
    }
    if (st.durationS <= 0)
        r.fail(where + ".duration_s", "missing: how long the step lasts, in s");
    return st;
}

ScenarioStep stepFromJson(const JsonReader &r, const json &step, const std::string &where,
                          const Scenario &s)
{
    ScenarioStep st = stepFieldsFromJson(r, step, where);
    if (st.name.empty())
        st.name = phaseNameForLoads(st.loads);
    if (s.stopWhen && s.stopWhen->aboveBaseline && st.durationS < kMinComparedStepS)
        r.fail(where + ".duration_s",
               fmt::format("{:g} s is too short to compare with the baseline "
                           "(stop_when.above_baseline needs {:g} s or more a step)",
                           st.durationS, kMinComparedStepS));
    return st;
}

} // namespace

Scenario parseScenario(const std::string &text, const std::string &file)
{
    const JsonReader r(file, throwError<ScenarioError>);
    const json j = r.parse(text);
    if (!j.is_object())
        r.fail("(top level)", "expected an object with \"steps\"");
    checkScenarioVersion(r, j);

    Scenario s;
    scenarioFieldsFromJson(r, j, s);
    if (!findPreset(s.preset))
        r.fail("preset", fmt::format("unknown consumer preset \"{}\"", s.preset));
    auto steps = j.find("steps");
    if (steps == j.end())
        r.fail("steps", "missing: a scenario needs at least one step");
    for (size_t i = 0; i < steps->size(); ++i)
        s.steps.push_back(stepFromJson(r, (*steps)[i], fmt::format("steps[{}]", i), s));
    if (s.stopWhen && s.stopWhen->aboveBaseline && s.steps.size() < 2)
        r.fail("steps", "stop_when.above_baseline needs a baseline step and at least one more");
    if (s.name.empty())
        s.name = file.substr(file.rfind('/') + 1);
    return s;
}

Scenario loadScenarioFile(const std::string &path)
{
    return parseScenario(
        JsonReader(path, throwError<ScenarioError>).readWhole(kMaxScenarioFileBytes), path);
}

std::vector<std::string> builtinScenarioNames()
{
    std::vector<std::string> names;
    for (const BuiltinScenario &b : builtinScenarioTexts())
        names.push_back(b.name);
    return names;
}

std::optional<Scenario> builtinScenario(const std::string &name)
{
    for (const BuiltinScenario &b : builtinScenarioTexts())
        if (name == b.name)
            return parseScenario(b.json, std::string("built-in ") + b.name);
    return std::nullopt;
}

} // namespace latprobe
