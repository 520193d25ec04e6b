#include "runoptions.h"

#include "knobcheck.h"
#include "loadspec.h"
#include "phasename.h"
#include "presets.h"
#include "probe.h"
#include "scenario.h"
#include "scenariocheck.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <unistd.h>

namespace latprobe {

namespace {

// The consumers asked for, from the preset and the per-consumer options.
bool resolveConsumers(const RunOptions &o, const Preset &preset,
                      std::vector<ConsumerConfig> &consumers, std::string &error)
{
    consumers.clear();
    std::stringstream list(o.consumers);
    std::string name;
    while (std::getline(list, name, ',')) {
        const ConsumerConfig *found = nullptr;
        for (const ConsumerConfig &c : preset.consumers)
            if (c.name == name)
                found = &c;
        if (!found) {
            std::string names;
            for (size_t i = 0; i < preset.consumers.size(); ++i)
                names += (i == 0                             ? ""
                          : i + 1 == preset.consumers.size() ? " and/or "
                                                             : ", ") +
                         preset.consumers[i].name;
            error = fmt::format("unknown consumer \"{}\": use {}", name, names);
            return false;
        }
        for (const ConsumerConfig &c : consumers)
            if (c.name == name) {
                error = fmt::format("consumer \"{}\" is named twice in --consumers", name);
                return false;
            }
        ConsumerConfig c = *found;
        const double base = 100.0 * static_cast<double>(c.workNs) / static_cast<double>(c.periodNs);
        // The consumers with options of their own rebuild from them.
        if (c.role == ConsumerRole::Audio) {
            int64_t period = c.periodNs;
            if (o.audioPeriodMs > 0)
                period = static_cast<int64_t>(o.audioPeriodMs * 1e6);
            else if (o.audioFrames > 0)
                period = static_cast<int64_t>(1e9 * o.audioFrames / o.audioRate);
            c = audioConsumerByPeriod(period, o.audioBuffer, o.audioCpu >= 0 ? o.audioCpu : base);
        } else if (c.role == ConsumerRole::Video) {
            const double fps = o.videoFps > 0 ? o.videoFps : 1e9 / static_cast<double>(c.periodNs);
            c = videoConsumer(fps, o.videoCpu >= 0 ? o.videoCpu : base);
        } else if (c.role == ConsumerRole::Wakeup && o.wakeupIntervalUs > 0) {
            c = wakeupConsumer(o.wakeupIntervalUs);
        }
        c.workMode = workModeFromOption(o.workMode).value_or(WorkMode::CpuTime);
        // The preset's wake, which the options' rebuilding above drops.
        c.wake = found->wake;
        if (c.kind == ConsumerKind::Periodic && !o.wake.empty())
            parseWakeMethod(o.wake, c.wake);
        // interbench's deadline is the next period: it has no buffer.
        if (c.wake == WakeMethod::Timekeeper && c.hasDeadline()) {
            if (c.role == ConsumerRole::Audio && o.audioBuffer != 2) {
                error = "--audio-buffer applies to --wake timer: with the timekeeper "
                        "(interbench's method) a period is due by the next one";
                return false;
            }
            c.slackNs = c.periodNs;
        }
        consumers.push_back(c);
    }
    if (consumers.empty()) {
        error = "no consumer chosen: use --consumers audio,video,wakeup,start";
        return false;
    }
    return true;
}

bool resolveThreadParams(const RunOptions &o, ThreadParams &params, std::string &error)
{
    params = ThreadParams{};
    parsePolicy(o.policy, params.policy);
    const bool realtime =
        params.policy == SchedPolicy::Fifo || params.policy == SchedPolicy::RoundRobin;
    if (realtime && o.priority < 1) {
        error = fmt::format("--policy {} needs --priority 1..99", o.policy);
        return false;
    }
    if (!realtime && o.priority != 0) {
        error = "--priority applies to --policy fifo or rr; use --nice for other";
        return false;
    }
    params.priority = o.priority;
    params.nice = o.nice;
    params.timerSlackNs = o.timerSlackNs;
    if (!o.cpus.empty()) {
        if (!parseCpuList(o.cpus, params.cpus)) {
            error =
                fmt::format("--cpus \"{}\" is not a CPU list: write e.g. 0 or 0,2 or 0-1", o.cpus);
            return false;
        }
        const long online = sysconf(_SC_NPROCESSORS_CONF);
        for (int cpu : params.cpus)
            if (cpu >= online) {
                error = fmt::format("--cpus: CPU {} does not exist (this machine has 0-{})", cpu,
                                    online - 1);
                return false;
            }
    }
    return true;
}

// Why `name` is no consumer preset. --preset once also played a built-in
// scenario: that is --scenario's alone now, and said so.
std::string presetRefusal(const std::string &name)
{
    if (builtinScenario(name))
        return fmt::format("--preset {0} names a scenario: play it with --scenario {0} (--preset "
                           "takes a consumer preset)",
                           name);
    std::vector<std::string> names;
    for (const Preset &p : presets())
        names.push_back(p.name);
    return fmt::format("unknown preset \"{}\": use one of {}", name, fmt::join(names, ", "));
}

// The steps: a scenario chosen by name or file, or idle then the loads.
bool resolveSteps(const RunOptions &o, RunFrontEnd frontEnd, RunPlan &plan, std::string &error)
{
    const std::string &source = o.scenario;
    Scenario &scenario = plan.scenario;
    if (!source.empty()) {
        if (!o.loads.empty()) {
            error = "--load and a scenario do not mix: put the loads in the scenario's steps";
            return false;
        }
        if (auto builtin = builtinScenario(source))
            scenario = *builtin;
        else if (source.find('/') != std::string::npos || source.find('.') != std::string::npos)
            scenario = loadScenarioFile(source);
        else {
            error = fmt::format("no scenario \"{}\": give a file or one of {}", source,
                                fmt::join(builtinScenarioNames(), ", "));
            return false;
        }
        if (scenario.runsCommands() && !o.allowCommands && frontEnd == RunFrontEnd::Headless) {
            error = fmt::format("scenario {} runs custom commands: read it, then allow them "
                                "with --allow-commands",
                                scenario.name);
            return false;
        }
        plan.scenarioChosen = true;
        if (o.rounds)
            o.rounds->applyTo(scenario);
        return true;
    }
    scenario = Scenario{};
    scenario.name = kPlainRunScenario;
    scenario.preset = o.preset;
    o.rounds.value_or(Rounds{1, false}).applyTo(scenario);
    ScenarioStep idle;
    idle.name = "idle";
    idle.durationS = o.loads.empty() ? o.durationS : o.idleS;
    if (idle.durationS > 0)
        scenario.steps.push_back(idle);
    if (o.loads.empty())
        return true;
    if (o.idleS >= o.durationS) {
        error = fmt::format("--idle {} leaves no time for the loads in --duration {}", o.idleS,
                            o.durationS);
        return false;
    }
    ScenarioStep loaded;
    loaded.durationS = o.durationS - o.idleS;
    for (const std::string &text : o.loads) {
        LoadSpec spec;
        if (!parseLoadSpec(text, spec, error))
            return false;
        loaded.loads.push_back(spec);
    }
    loaded.name = phaseNameForLoads(loaded.loads);
    scenario.steps.push_back(loaded);
    return true;
}

// --variant, over a scenario's own; refused here, before anything starts,
// when this machine cannot play them (knobcheck.h).
bool resolveVariants(const RunOptions &o, RunPlan &plan, std::string &error)
{
    Scenario &scenario = plan.scenario;
    if (!o.variants.empty()) {
        scenario.variants.clear();
        for (const std::string &text : o.variants) {
            Variant v;
            if (!parseVariant(text, v, error))
                return false;
            scenario.variants.push_back(v);
        }
    }
    if (o.settleS >= 0)
        scenario.settleS = o.settleS;
    if (scenario.variants.empty())
        return true;
    if (error = checkVariantList(scenario.variants); !error.empty()) {
        error = "--variant: " + error;
        return false;
    }
    if (scenario.stopWhen) {
        error = fmt::format("scenario {} has a stop condition: play its variants in runs of "
                            "their own",
                            scenario.name);
        return false;
    }
    const SchedPolicy policy = plan.params.policy;
    const KnobRun run{o.allowCommands,
                      policy == SchedPolicy::Fifo || policy == SchedPolicy::RoundRobin};
    error = refuseVariants(scenario.variants, KnobEnvironment::real(), run);
    return error.empty();
}

} // namespace

bool resolveRunPlan(const RunOptions &o, RunFrontEnd frontEnd, RunPlan &plan, std::string &error)
{
    plan = RunPlan{};
    if (!findPreset(o.preset)) {
        error = presetRefusal(o.preset);
        return false;
    }
    plan.limits.maxProcesses = o.maxWorkers;
    try {
        if (!resolveSteps(o, frontEnd, plan, error))
            return false;
    } catch (const ScenarioError &e) {
        error = e.what();
        return false;
    }
    // A scenario names the consumers it was written for: `latprobe run
    // --scenario` takes them; the window asks first.
    const bool scenarioPreset = plan.scenarioChosen && frontEnd == RunFrontEnd::Headless;
    plan.preset = scenarioPreset ? plan.scenario.preset : o.preset;
    const Preset *preset = findPreset(plan.preset);
    if (!preset) {
        error = presetRefusal(plan.preset);
        return false;
    }
    RunOptions asked = o;
    if (o.consumers == RunOptions::kDefaultConsumers) {
        std::string named; // the steps' consumers, in the preset's order
        for (const ConsumerConfig &c : preset->consumers)
            for (const ScenarioStep &step : plan.scenario.steps)
                if (std::find(step.consumers.begin(), step.consumers.end(), c.name) !=
                    step.consumers.end()) {
                    named += (named.empty() ? "" : ",") + c.name;
                    break;
                }
        if (!named.empty())
            asked.consumers = named;
    }
    if (!resolveConsumers(asked, *preset, plan.consumers, error) ||
        !resolveThreadParams(o, plan.params, error) || !resolveVariants(o, plan, error))
        return false;
    error = checkScenario(plan.scenario, plan.limits);
    return error.empty();
}

namespace {

// The folder a file given on the command line goes in.
std::string folderOf(const std::string &file)
{
    const size_t slash = file.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : file.substr(0, slash);
}

} // namespace

std::string checkRunEnvironment(const RunOptions &o)
{
    if (std::string error = checkDescriptorLimit(); !error.empty())
        return error;
    if (!o.out.empty()) {
        const std::string dir = folderOf(o.out);
        if (access(dir.c_str(), W_OK | X_OK) != 0)
            return fmt::format("cannot write {} in {} ({}): choose another --out", o.out, dir,
                               std::strerror(errno));
    }
    if (o.saveTrace && o.noTrace)
        return "--save-trace saves the flight recorder's trace: drop --no-trace";
    if (o.saveTrace && o.noLibrary && o.traceDir.empty() && o.out.empty())
        return "--save-trace: no folder for the traces: give --save-trace=DIR or --out FILE, "
               "or keep the run in the library";
    return {};
}

SessionOptions sessionOptions(const RunPlan &plan, const RunOptions &o, RunFrontEnd frontEnd,
                              std::vector<std::string> commandLine)
{
    SessionOptions s;
    s.consumers = plan.consumers;
    s.params = plan.params;
    s.limits = plan.limits;
    s.preset = plan.preset;
    s.allowCommands = o.allowCommands;
    s.commandLine = std::move(commandLine);
    s.alignNs = o.alignUs >= 0 ? o.alignUs * 1000 : -1;
    s.autoCapture = !o.noAutoCapture;
    // 0 keeps the recorder: the window explains misses on demand, and
    // tests/bench/trace_overhead.py measures the recording without the reads.
    s.trace = !o.noTrace;
    s.explainPerPhase = static_cast<size_t>(o.explainMisses);
    s.saveTraces = o.saveTrace;
    s.traceDir = o.traceDir;
    if (s.traceDir.empty() && o.noLibrary && !o.out.empty())
        s.traceDir = folderOf(o.out);
    s.traceMaxBytes = static_cast<uint64_t>(o.traceMaxMiB) << 20;
    s.outPath = o.out;
    if (frontEnd == RunFrontEnd::Headless) {
        s.runName = plan.scenario.name;
        s.noiseCheckS = o.noNoiseCheck ? 0 : 3.0;
        // Nothing reads the samples between two ticks of a headless run.
        s.drainIntervalNs = Session::kTickNs;
    } else {
        // A window opened to play a scenario (given, or a new run for one)
        // is kept in the library under its name.
        if (plan.scenarioChosen)
            s.runName = plan.scenario.name;
        // The window's own event loop is measured beside the others, listed
        // before the start consumer as the report lists the periodic ones.
        auto start =
            std::find_if(s.consumers.begin(), s.consumers.end(), [](const ConsumerConfig &c) {
                return c.kind == ConsumerKind::ProcessStart;
            });
        s.consumers.insert(start, guiConsumer());
    }
    return s;
}

SessionOptions defaultSessionOptions(RunFrontEnd frontEnd)
{
    const RunOptions options;
    RunPlan plan;
    std::string error;
    resolveRunPlan(options, frontEnd, plan, error);
    return sessionOptions(plan, options, frontEnd, {});
}

} // namespace latprobe
