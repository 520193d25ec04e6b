#include "runoptions.h"

#include "loadspec.h"
#include "presets.h"
#include "probe.h"
#include "scenariocheck.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <unistd.h>

namespace latprobe {

void addRunOptions(CLI::App &app, RunOptions &o, RunFrontEnd frontEnd)
{
    const bool headless = frontEnd == RunFrontEnd::Headless;
    if (headless)
        app.add_option("-d,--duration", o.durationS, "Seconds to measure (default 30)")
            ->check(CLI::Range(0.1, 7 * 24 * 3600.0));
    app.add_option("-c,--consumers", o.consumers,
                   "Comma-separated consumers: audio,video,wakeup,start (the default),\n"
                   "x, gaming (interbench's X and Gaming)");
    app.add_option("-p,--preset", o.preset,
                   "Consumer preset: default, desktop, pro, interbench; or a built-in\nscenario: "
                   "quick, ramp, contest");
    app.add_option("--audio-frames", o.audioFrames, "Audio frames per period (default 256)")
        ->check(CLI::Range(16, 65536));
    app.add_option("--audio-rate", o.audioRate, "Audio sample rate in Hz (default 48000)")
        ->check(CLI::Range(8000, 384000));
    app.add_option("--audio-period", o.audioPeriodMs,
                   "Audio period in ms (overrides frames and rate)")
        ->check(CLI::Range(0.1, 1000.0));
    app.add_option("--audio-buffer", o.audioBuffer, "Audio buffer in periods (default 2)")
        ->check(CLI::Range(2, 16));
    app.add_option("--audio-cpu", o.audioCpu, "Audio work, % of a period (default 5)")
        ->check(CLI::Range(0.0, 95.0));
    app.add_option("--video-fps", o.videoFps, "Video frame rate (default 60)")
        ->check(CLI::Range(1.0, 1000.0));
    app.add_option("--video-cpu", o.videoCpu, "Video work, % of a frame (default 40)")
        ->check(CLI::Range(0.0, 95.0));
    app.add_option("--wakeup-interval", o.wakeupIntervalUs,
                   "Wakeup consumer interval in us (default 1000)")
        ->check(CLI::Range(int64_t{50}, int64_t{10000000}));
    app.add_option("--work-mode", o.workMode,
                   "cpu: spin until the thread ran the time (default); loops: interbench's\n"
                   "calibrated loop")
        ->check(CLI::IsMember({"cpu", "loops"}));
    app.add_option("--wake", o.wake,
                   "What wakes the periodic consumers: timer (their own, latency =\n"
                   "wakeup - period start; the default) or timekeeper (interbench's:\n"
                   "a SCHED_FIFO 96 thread, its oversleep not charged, lost periods\n"
                   "charged; the default of --preset interbench)")
        ->check(CLI::IsMember({"timer", "timekeeper"}));
    app.add_option("--policy", o.policy, "Probe policy: other, fifo, rr, batch, idle")
        ->check(CLI::IsMember({"other", "fifo", "rr", "batch", "idle"}));
    app.add_option("--priority", o.priority, "Real-time priority for fifo/rr (1-99)")
        ->check(CLI::Range(0, 99));
    app.add_option("--nice", o.nice, "Nice value for other/batch (-20..19)")
        ->check(CLI::Range(-20, 19));
    app.add_option("--cpus", o.cpus, "Pin the probe's threads to these CPUs, e.g. 0 or 0-1");
    app.add_option("--timer-slack", o.timerSlackNs,
                   "Timer slack in ns (default: the kernel's, 50000 for SCHED_OTHER)")
        ->check(CLI::Range(int64_t{1}, int64_t{1000000000}));
    app.add_option("--align-us", o.alignUs,
                   "Start the periods at a whole second plus this many us, as\n"
                   "cyclictest --secaligned does: probes given the same value wake\n"
                   "at the same instants")
        ->check(CLI::Range(int64_t{0}, int64_t{999999}));
    app.add_option("-o,--out", o.out,
                   headless ? "Write the run to this JSON file"
                            : "Unattended (--run-for): write the run to this JSON file");
    if (headless)
        app.add_flag("--no-progress", o.noProgress, "No progress line on stderr");
    app.add_option("-l,--load", o.loads,
                   std::string(headless ? "" : "Unattended (--run-for): ") +
                       "Start a load group after the idle lead-in: KIND:N[:key=value...]\n"
                       "kinds: massive_intr, ocbench, burn, hackbench, compile, io_write,\n"
                       "io_read, memload, spawn, custom (custom:N:cmd=PROGRAM ARGS);\n"
                       "any kind takes nice=, policy=batch|idle, cpus=, session=own|same")
        ->take_all();
    app.add_option("--idle", o.idleS, "Idle lead-in before the loads, in s (default 5)")
        ->check(CLI::Range(0.0, 3600.0));
    app.add_option("-s,--scenario", o.scenario,
                   "Play a scenario: a file, or built-in quick, ramp, contest, interbench");
    app.add_option("-r,--rounds", o.rounds,
                   "Play the steps this many times, interleaved (idle, A, idle, A, ...):\n"
                   "each round of a step is one sample when runs are compared.\n"
                   "With --load, each round lasts --duration")
        ->check(CLI::Range(1, kMaxRounds));
    if (headless)
        app.add_flag("--allow-commands", o.allowCommands,
                     "Let a scenario's custom loads run their commands");
    if (headless)
        app.add_flag("--no-noise-check", o.noNoiseCheck, "Skip the 3 s noise check before the run");
    app.add_flag("--no-auto-capture", o.noAutoCapture,
                 "Do not capture the system's state at each phase's first miss\n(the first 16 "
                 "phases; kill -USR1 <pid> captures it on demand)");
    app.add_flag("--no-trace", o.noTrace,
                 "Do not record the kernel's trace to explain misses (the flight\nrecorder: "
                 "a private tracefs instance, root or tracefs access)");
    app.add_option("--explain-misses", o.explainMisses,
                   "Misses explained from the trace per phase and consumer (default 8;\n0 "
                   "records without explaining: the window's \"Explain the next\nmisses\" "
                   "still can)")
        ->check(CLI::Range(0, 100));
    app.add_option("--max-workers", o.maxWorkers,
                   "Cap on load processes running at once (default 2048)")
        ->check(CLI::Range(1, 100000));
    app.add_flag("--no-library", o.noLibrary,
                 "Do not keep the run in the run library\n(~/.local/share/latprobe/runs, or "
                 "$LATPROBE_LIBRARY; see latprobe runs)");
}

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
        switch (c.role) {
        case ConsumerRole::Audio: {
            int64_t period = c.periodNs;
            if (o.audioPeriodMs > 0)
                period = static_cast<int64_t>(o.audioPeriodMs * 1e6);
            else if (o.audioFrames > 0)
                period = static_cast<int64_t>(1e9 * o.audioFrames / o.audioRate);
            c = audioConsumerByPeriod(period, o.audioBuffer, o.audioCpu >= 0 ? o.audioCpu : base);
            break;
        }
        case ConsumerRole::Video: {
            const double fps = o.videoFps > 0 ? o.videoFps : 1e9 / static_cast<double>(c.periodNs);
            c = videoConsumer(fps, o.videoCpu >= 0 ? o.videoCpu : base);
            break;
        }
        case ConsumerRole::Wakeup:
            if (o.wakeupIntervalUs > 0)
                c = wakeupConsumer(o.wakeupIntervalUs);
            break;
        case ConsumerRole::X:
        case ConsumerRole::Gaming:
        case ConsumerRole::Gui:
        case ConsumerRole::Start:
        case ConsumerRole::Unknown:
            break;
        }
        c.workMode = o.workMode == "loops" ? WorkMode::Loops : WorkMode::CpuTime;
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

// The steps: a scenario chosen by name or file, or idle then the loads.
bool resolveSteps(const RunOptions &o, RunFrontEnd frontEnd, RunPlan &plan, std::string &error)
{
    std::string source = o.scenario;
    if (source.empty() && !findPreset(o.preset) && builtinScenario(o.preset))
        source = o.preset; // --preset ramp: the built-in scenario
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
            std::string names;
            for (const std::string &n : builtinScenarioNames())
                names += (names.empty() ? "" : ", ") + n;
            error = fmt::format("no scenario \"{}\": give a file or one of {}", source, names);
            return false;
        }
        if (scenario.runsCommands() && !o.allowCommands && frontEnd == RunFrontEnd::Headless) {
            error = fmt::format("scenario {} runs custom commands: read it, then allow them "
                                "with --allow-commands",
                                scenario.name);
            return false;
        }
        plan.scenarioChosen = true;
        if (o.rounds > 0)
            scenario.rounds = o.rounds;
        return true;
    }
    scenario = Scenario{};
    scenario.name = "run";
    scenario.preset = o.preset;
    scenario.rounds = std::max(1, o.rounds);
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
        loaded.name += (loaded.name.empty() ? "" : " + ") + spec.label();
    }
    scenario.steps.push_back(loaded);
    return true;
}

} // namespace

bool resolveRunPlan(const RunOptions &o, RunFrontEnd frontEnd, RunPlan &plan, std::string &error)
{
    plan = RunPlan{};
    plan.limits.maxProcesses = o.maxWorkers;
    try {
        if (!resolveSteps(o, frontEnd, plan, error))
            return false;
    } catch (const ScenarioError &e) {
        error = e.what();
        return false;
    }
    // A scenario names the consumers it was written for: --preset naming a
    // scenario takes them, and so does `latprobe run --scenario`.
    const bool scenarioPreset =
        plan.scenarioChosen &&
        (!findPreset(o.preset) || (!o.scenario.empty() && frontEnd == RunFrontEnd::Headless));
    plan.preset = scenarioPreset ? plan.scenario.preset : o.preset;
    const Preset *preset = findPreset(plan.preset);
    if (!preset) {
        std::string names;
        for (const Preset &p : presets())
            names += (names.empty() ? "" : ", ") + p.name;
        error = fmt::format("unknown preset \"{}\": use one of {}", plan.preset, names);
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
        !resolveThreadParams(o, plan.params, error))
        return false;
    error = checkScenario(plan.scenario, plan.limits);
    return error.empty();
}

std::string checkRunEnvironment(const RunOptions &o)
{
    if (std::string error = checkDescriptorLimit(); !error.empty())
        return error;
    if (!o.out.empty()) {
        const size_t slash = o.out.rfind('/');
        const std::string dir = slash == std::string::npos ? "."
                                : slash == 0               ? "/"
                                                           : o.out.substr(0, slash);
        if (access(dir.c_str(), W_OK | X_OK) != 0)
            return fmt::format("cannot write {} in {} ({}): choose another --out", o.out, dir,
                               std::strerror(errno));
    }
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
    s.commandLine = std::move(commandLine);
    s.alignNs = o.alignUs >= 0 ? o.alignUs * 1000 : -1;
    s.autoCapture = !o.noAutoCapture;
    // 0 keeps the recorder: the window explains misses on demand, and
    // tests/bench/trace_overhead.py measures the recording without the reads.
    s.trace = !o.noTrace;
    s.explainPerPhase = static_cast<size_t>(o.explainMisses);
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
