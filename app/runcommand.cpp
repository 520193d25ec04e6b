#include "runcommand.h"

#include "interrupt.h"
#include "loadkind.h"
#include "loadlimits.h"
#include "loadmanager.h"
#include "noisecheck.h"
#include "presets.h"
#include "probe.h"
#include "realclock.h"
#include "report.h"
#include "rootwarning.h"
#include "isotime.h"
#include "run.h"
#include "runbuilder.h"
#include "runfile.h"
#include "scenariorunner.h"
#include "sysinfo.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace latprobe {

CLI::App *addRunCommand(CLI::App &app, RunOptions &o)
{
    CLI::App *run = app.add_subcommand("run", "Measure headless and print a report");
    run->add_option("-d,--duration", o.durationS, "Seconds to measure (default 30)")
        ->check(CLI::Range(0.1, 7 * 24 * 3600.0));
    run->add_option("-c,--consumers", o.consumers,
                    "Comma-separated consumers: audio,video,wakeup,start (default all)");
    run->add_option("-p,--preset", o.preset,
                    "Consumer preset: default, desktop, pro, interbench; or a built-in\nscenario: "
                    "quick, ramp, contest");
    run->add_option("--audio-frames", o.audioFrames, "Audio frames per period (default 256)")
        ->check(CLI::Range(16, 65536));
    run->add_option("--audio-rate", o.audioRate, "Audio sample rate in Hz (default 48000)")
        ->check(CLI::Range(8000, 384000));
    run->add_option("--audio-period", o.audioPeriodMs,
                    "Audio period in ms (overrides frames and rate)")
        ->check(CLI::Range(0.1, 1000.0));
    run->add_option("--audio-buffer", o.audioBuffer, "Audio buffer in periods (default 2)")
        ->check(CLI::Range(2, 16));
    run->add_option("--audio-cpu", o.audioCpu, "Audio work, % of a period (default 5)")
        ->check(CLI::Range(0.0, 95.0));
    run->add_option("--video-fps", o.videoFps, "Video frame rate (default 60)")
        ->check(CLI::Range(1.0, 1000.0));
    run->add_option("--video-cpu", o.videoCpu, "Video work, % of a frame (default 40)")
        ->check(CLI::Range(0.0, 95.0));
    run->add_option("--wakeup-interval", o.wakeupIntervalUs,
                    "Wakeup consumer interval in us (default 1000)")
        ->check(CLI::Range(int64_t{50}, int64_t{10000000}));
    run->add_option("--work-mode", o.workMode,
                    "cpu: spin on thread CPU time (default); loops: interbench's calibrated loop")
        ->check(CLI::IsMember({"cpu", "loops"}));
    run->add_option("--policy", o.policy, "Probe policy: other, fifo, rr, batch, idle")
        ->check(CLI::IsMember({"other", "fifo", "rr", "batch", "idle"}));
    run->add_option("--priority", o.priority, "Real-time priority for fifo/rr (1-99)")
        ->check(CLI::Range(0, 99));
    run->add_option("--nice", o.nice, "Nice value for other/batch (-20..19)")
        ->check(CLI::Range(-20, 19));
    run->add_option("--cpus", o.cpus, "Pin the probe's threads to these CPUs, e.g. 0 or 0-1");
    run->add_option("--timer-slack", o.timerSlackNs,
                    "Timer slack in ns (default: the kernel's, 50000 for SCHED_OTHER)")
        ->check(CLI::Range(int64_t{1}, int64_t{1000000000}));
    run->add_option("--align-us", o.alignUs,
                    "Start the periods at a whole second plus this many us, as\n"
                    "cyclictest --secaligned does: probes given the same value wake\n"
                    "at the same instants")
        ->check(CLI::Range(int64_t{0}, int64_t{999999}));
    run->add_option("-o,--out", o.out, "Write the run to this JSON file");
    run->add_flag("--no-progress", o.noProgress, "No progress line on stderr");
    run->add_option("-l,--load", o.loads,
                    "Start a load group after the idle lead-in: KIND:N[:key=value...]\n"
                    "kinds: massive_intr, ocbench, burn, hackbench, compile, io_write,\n"
                    "io_read, memload, spawn, custom (custom:N:cmd=PROGRAM ARGS);\n"
                    "any kind takes nice=, policy=batch|idle, cpus=, session=own|same")
        ->take_all();
    run->add_option("--idle", o.idleS, "Idle lead-in before the loads, in s (default 5)")
        ->check(CLI::Range(0.0, 3600.0));
    run->add_option("-s,--scenario", o.scenario,
                    "Play a scenario: a file, or built-in quick, ramp, contest, interbench");
    run->add_flag("--allow-commands", o.allowCommands,
                  "Let a scenario's custom loads run their commands");
    run->add_flag("--no-noise-check", o.noNoiseCheck, "Skip the 3 s noise check before the run");
    run->add_flag(
        "--no-auto-capture", o.noAutoCapture,
        "Do not capture the system's state at each phase's first miss\n(the first 16 phases; "
        "kill -USR1 <pid> captures it on demand)");
    run->add_option("--max-workers", o.maxWorkers,
                    "Cap on load processes running at once (default 2048)")
        ->check(CLI::Range(1, 100000));
    return run;
}

bool resolveRunOptions(const RunOptions &o, std::vector<ConsumerConfig> &consumers,
                       ThreadParams &params, std::string &error)
{
    const Preset *preset = findPreset(o.preset);
    if (!preset) {
        std::string names;
        for (const Preset &p : presets())
            names += (names.empty() ? "" : ", ") + p.name;
        error = fmt::format("unknown preset \"{}\": use one of {}", o.preset, names);
        return false;
    }
    consumers.clear();
    std::stringstream list(o.consumers);
    std::string name;
    while (std::getline(list, name, ',')) {
        const ConsumerConfig *found = nullptr;
        for (const ConsumerConfig &c : preset->consumers)
            if (c.name == name)
                found = &c;
        if (!found) {
            error =
                fmt::format("unknown consumer \"{}\": use audio, video, wakeup and/or start", name);
            return false;
        }
        for (const ConsumerConfig &c : consumers)
            if (c.name == name) {
                error = fmt::format("consumer \"{}\" is named twice in --consumers", name);
                return false;
            }
        ConsumerConfig c = *found;
        const double base = 100.0 * static_cast<double>(c.workNs) / static_cast<double>(c.periodNs);
        if (c.name == "audio") {
            int64_t period = c.periodNs;
            if (o.audioPeriodMs > 0)
                period = static_cast<int64_t>(o.audioPeriodMs * 1e6);
            else if (o.audioFrames > 0)
                period = static_cast<int64_t>(1e9 * o.audioFrames / o.audioRate);
            const int buffer = o.audioBuffer;
            c = audioConsumerByPeriod(period, buffer, o.audioCpu >= 0 ? o.audioCpu : base);
        } else if (c.name == "video") {
            const double fps = o.videoFps > 0 ? o.videoFps : 1e9 / static_cast<double>(c.periodNs);
            c = videoConsumer(fps, o.videoCpu >= 0 ? o.videoCpu : base);
        } else if (c.name == "wakeup" && o.wakeupIntervalUs > 0) {
            c = wakeupConsumer(o.wakeupIntervalUs);
        }
        c.workMode = o.workMode == "loops" ? WorkMode::Loops : WorkMode::CpuTime;
        consumers.push_back(c);
    }
    if (consumers.empty()) {
        error = "no consumer chosen: use --consumers audio,video,wakeup,start";
        return false;
    }

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

bool resolveScenario(const RunOptions &o, Scenario &scenario, LoadLimits &limits,
                     std::string &error)
{
    limits.maxProcesses = o.maxWorkers;
    std::string source = o.scenario;
    if (source.empty() && !findPreset(o.preset) && builtinScenario(o.preset))
        source = o.preset; // --preset ramp: the built-in scenario
    try {
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
            if (scenario.runsCommands() && !o.allowCommands) {
                error = fmt::format("scenario {} runs custom commands: read it, then allow them "
                                    "with --allow-commands",
                                    scenario.name);
                return false;
            }
        } else {
            scenario = Scenario{};
            scenario.name = "run";
            scenario.preset = o.preset;
            ScenarioStep idle;
            idle.name = "idle";
            idle.durationS = o.loads.empty() ? o.durationS : o.idleS;
            if (idle.durationS > 0)
                scenario.steps.push_back(idle);
            if (!o.loads.empty()) {
                if (o.idleS >= o.durationS) {
                    error = fmt::format("--idle {} leaves no time for the loads in --duration {}",
                                        o.idleS, o.durationS);
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
            }
        }
    } catch (const ScenarioError &e) {
        error = e.what();
        return false;
    }
    error = checkScenario(scenario, limits);
    return error.empty();
}

namespace {

std::string progressLine(Probe &probe)
{
    const auto phases = probe.collector().phases(RealClock::monotonicNow());
    std::string line;
    for (const ConsumerStats &c : phases.back().consumers) {
        if (c.hasDeadline)
            line +=
                fmt::format("  {} {} {}", c.name, c.misses, c.name == "audio" ? "skips" : "drops");
        else
            line += fmt::format("  {} p99 {:.3f} ms", c.name, c.p99Us / 1000.0);
    }
    return line;
}

} // namespace

int executeRun(const RunOptions &options, const std::vector<std::string> &commandLine)
{
    Scenario scenario;
    LoadLimits limits;
    std::string error;
    if (!resolveScenario(options, scenario, limits, error)) {
        fmt::print(stderr, "latprobe run: {}\n", error);
        return 2;
    }
    RunOptions o = options;
    if (!scenario.steps.empty() && o.scenario.empty() && !findPreset(o.preset))
        o.preset = scenario.preset; // a built-in scenario chosen with --preset
    else if (!o.scenario.empty())
        o.preset = scenario.preset;
    std::vector<ConsumerConfig> consumers;
    ThreadParams params;
    if (!resolveRunOptions(o, consumers, params, error)) {
        fmt::print(stderr, "latprobe run: {}\n", error);
        return 2;
    }

    if (const std::string error = checkDescriptorLimit(); !error.empty()) {
        fmt::print(stderr, "latprobe run: {}\n", error);
        return 2;
    }
    if (!o.out.empty()) {
        // Refused now rather than after the whole measurement.
        const size_t slash = o.out.rfind('/');
        const std::string dir = slash == std::string::npos ? "."
                                : slash == 0               ? "/"
                                                           : o.out.substr(0, slash);
        if (access(dir.c_str(), W_OK | X_OK) != 0) {
            fmt::print(stderr, "latprobe run: cannot write {} in {} ({}): choose another --out\n",
                       o.out, dir, std::strerror(errno));
            return 2;
        }
    }
    if (const char *warning = rootWarning())
        spdlog::warn("{}", warning);
    if (!o.out.empty())
        removeStaleSaveTemps(o.out); // what a killed save to the same file left

    installInterruptHandlers();
    // Before any thread starts, so that they all inherit SIGUSR1 blocked.
    static std::atomic<ScenarioRunner *> activeRunner{nullptr};
    setCaptureHandler([] {
        if (ScenarioRunner *r = activeRunner.load())
            r->requestCapture();
    });
    const SystemInfo system = readSystemInfo();
    NoiseCheck noise;
    if (!o.noNoiseCheck) {
        spdlog::info("checking how quiet the machine is (3 s; --no-noise-check skips it)");
        noise = runNoiseCheck(3.0);
        if (noise.trustMax())
            spdlog::info("noise check: {}", noise.summary());
        else
            spdlog::warn("noise check: {}: the max may be the host's, compare p99",
                         noise.summary());
    }

    LoadManager loads(limits);
    Probe probe(consumers, params);
    if (o.alignUs >= 0)
        probe.alignToSecond(o.alignUs * 1000);
    // Nothing reads the samples between two polls of the scenario.
    probe.setDrainInterval(ScenarioRunner::kPollNs);
    const std::string startTime = isoTimeNow();
    probe.start();
    for (const ConsumerSetup &s : probe.setups())
        if (!s.grant.refusal.empty()) {
            spdlog::warn("{}: {}", s.config.name, s.grant.refusal);
            break;
        }
    spdlog::info("running {}: {} step(s), {:.0f} s", scenario.name, scenario.steps.size(),
                 scenario.totalS());

    const bool progress = !o.noProgress && isatty(STDERR_FILENO);
    int64_t lastProgress = 0;
    ScenarioRunner runner(scenario, probe, loads);
    runner.setAutoCapture(!o.noAutoCapture);
    activeRunner = &runner;
    const ScenarioRunner::End end =
        runner.run([] { return !interruptRequested(); },
                   [&](const ScenarioProgress &p) {
                       const int64_t now = RealClock::monotonicNow();
                       if (!progress || now - lastProgress < 1'000'000'000)
                           return;
                       lastProgress = now;
                       fmt::print(stderr, "\r[{}/{} {} {:.0f}/{:.0f} s, {:.0f} s left]{}\033[K",
                                  p.step + 1, p.steps, p.stepName.substr(0, 24), p.stepElapsedS,
                                  p.stepS, p.leftS, progressLine(probe));
                   });
    activeRunner = nullptr;
    probe.stop();
    if (progress)
        fmt::print(stderr, "\r\033[K");
    if (end == ScenarioRunner::End::LoadFailed)
        spdlog::error("{}", runner.error());
    if (end == ScenarioRunner::End::Interrupted)
        spdlog::warn("interrupted: reporting what was measured so far");

    Run run = makeRun(probe, system);
    run.commandLine = commandLine;
    run.startTime = startTime;
    run.partial = end == ScenarioRunner::End::Interrupted || end == ScenarioRunner::End::LoadFailed;
    run.endReason = toString(end);
    run.loads = runner.loadResults();
    run.noise = noise;
    run.scenario = scenario.name;
    run.thresholdStep = runner.thresholdStep();
    run.states = runner.states();

    fmt::print("{}", formatTextReport(run));
    std::fflush(stdout);
    if (!o.out.empty()) {
        try {
            writeRunFile(run, o.out);
            spdlog::info("run written to {}", o.out);
        } catch (const RunFileError &e) {
            fmt::print(stderr, "latprobe run: {}\n", e.what());
            return 1;
        }
    }
    if (end == ScenarioRunner::End::Interrupted)
        return 130;
    // A load whose workers failed mid-run (each said why on stderr) did not
    // run as asked: the report is there, but the run is a failure.
    const bool loadError = std::any_of(run.loads.begin(), run.loads.end(),
                                       [](const LoadGroupResult &l) { return !l.error.empty(); });
    return end == ScenarioRunner::End::LoadFailed || loadError ? 1 : 0;
}

} // namespace latprobe
