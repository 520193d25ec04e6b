#include "runoptionscli.h"

#include "compare.h"
#include "loadkind.h"
#include "presets.h"
#include "settingkind.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace latprobe {

std::string loadOptionHelp()
{
    std::string text = "Start a load group after the idle lead-in: KIND:N[:key=value...]\n"
                       "any kind takes nice=, policy=batch|idle, cpus=, session=own|same;\n"
                       "the kinds and their own keys (man latprobe, LOADS):";
    for (const LoadKind &k : loadKinds()) {
        std::vector<std::string> keys;
        for (const LoadParam &p : k.params)
            keys.push_back(p.key + "=");
        if (k.runsCommand)
            keys.push_back("cmd=PROGRAM ARGS");
        text += fmt::format("\n  {:<14}{}", k.name, fmt::join(keys, " "));
    }
    return text;
}

std::string variantOptionHelp()
{
    std::string text = "A variant of the system, NAME:SETTING[,SETTING...], given two or more\n"
                       "times: each round plays every step under each, in turns that cancel\n"
                       "drift, and the report compares them. NAME: alone is the system as it\n"
                       "is; the settings are put back at the end, whatever ends the run:";
    for (const SettingKind &k : settingKinds())
        text += fmt::format("\n  {}={}", k.key, k.syntax);
    return text;
}

std::string consumersOptionHelp()
{
    const std::string defaults = RunOptions::kDefaultConsumers;
    std::vector<std::string> others;
    for (const Preset &p : presets())
        for (const ConsumerConfig &c : p.consumers)
            if (("," + defaults + ",").find("," + c.name + ",") == std::string::npos &&
                std::find(others.begin(), others.end(), c.name) == others.end())
                others.push_back(c.name);
    return fmt::format("Comma-separated consumers: {} (the default),\nor any of {}", defaults,
                       fmt::join(others, ", "));
}

namespace {

// In --help's order, a group each, as the man page's RUN OPTIONS has them.

void addMeasuredOptions(CLI::App &app, RunOptions &o, bool headless)
{
    if (headless)
        app.add_option("-d,--duration", o.durationS, "Seconds to measure (default 30)")
            ->check(CLI::Range(0.1, 7 * 24 * 3600.0));
    app.add_option("-c,--consumers", o.consumers, consumersOptionHelp());
    app.add_option("-p,--preset", o.preset, "Consumer preset: default, desktop, pro, interbench");
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
        ->check(CLI::IsMember(workModeOptions()));
    app.add_option("--wake", o.wake,
                   "What wakes the periodic consumers: timer (their own, latency =\n"
                   "wakeup - period start; the default) or timekeeper (interbench's:\n"
                   "a SCHED_FIFO 96 thread, its oversleep not charged, lost periods\n"
                   "charged; the default of --preset interbench)")
        ->check(CLI::IsMember(wakeMethodNames()));
}

void addSchedulingOptions(CLI::App &app, RunOptions &o)
{
    app.add_option("--policy", o.policy, "Probe policy: other, fifo, rr, batch, idle")
        ->check(CLI::IsMember(policyOptions()));
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
}

void addLoadAndOutputOptions(CLI::App &app, RunOptions &o, bool headless)
{
    app.add_option("-o,--out", o.out,
                   headless ? "Write the run to this JSON file"
                            : "Unattended (--run-for): write the run to this JSON file");
    if (headless)
        app.add_flag("--no-progress", o.noProgress, "No progress line on stderr");
    app.add_option("-l,--load", o.loads,
                   std::string(headless ? "" : "Unattended (--run-for): ") + loadOptionHelp())
        ->take_all();
    app.add_option("--idle", o.idleS, "Idle lead-in before the loads, in s (default 5)")
        ->check(CLI::Range(0.0, 3600.0));
    app.add_option("-s,--scenario", o.scenario,
                   "Play a scenario: a file, or built-in quick, ramp, contest, interbench");
    app.add_option_function<std::string>(
           "-r,--rounds",
           [&o](const std::string &text) {
               std::string error;
               o.rounds = parseRounds(text, error);
               if (!o.rounds)
                   throw CLI::ValidationError("--rounds", error);
           },
           fmt::format("Play the steps this many times, interleaved (idle, A, idle, A, ...):\n"
                       "each round of a step is one sample when runs are compared.\n"
                       "With --load, each round lasts --duration. With variants,\n"
                       "auto[:MAX] plays rounds until every row of the variants'\n"
                       "comparison is decided, at most MAX (default {}; the first look\n"
                       "is after round {})",
                       kDefaultAutoRounds, kMinRoundsAsSamples))
        ->type_name("N|auto[:MAX]");
    if (headless) {
        app.add_flag("--allow-commands", o.allowCommands,
                     "Let a scenario's custom loads, and a variant's cmd= and undo=,\n"
                     "run their commands");
        app.add_option("--variant", o.variants, variantOptionHelp())->take_all();
        app.add_option("--settle", o.settleS,
                       "Unmeasured seconds after each switch of variant (default 2,\n10 with "
                       "scx=)")
            ->check(CLI::Range(0.0, 600.0));
    }
}

void addRecordingOptions(CLI::App &app, RunOptions &o, bool headless)
{
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
    app.add_option_function<std::string>(
           "--save-trace",
           [&o](const std::string &dir) {
               o.saveTrace = true;
               o.traceDir = dir;
           },
           "Save each explained miss's kernel trace as trace.dat, for\ntrace-cmd report and "
           "KernelShark: in DIR, else beside the\nrun file. A trace names every task that ran "
           "then: opt-in")
        ->expected(0, 1)
        ->type_name("[DIR]");
    app.add_option("--trace-max", o.traceMaxMiB,
                   "MiB of trace files a run keeps at most (default 64)")
        ->check(CLI::Range(1, 65536));
    app.add_option("--max-workers", o.maxWorkers,
                   "Cap on load processes running at once (default 2048)")
        ->check(CLI::Range(1, 100000));
    app.add_flag("--no-library", o.noLibrary,
                 "Do not keep the run in the run library\n(~/.local/share/latprobe/runs, or "
                 "$LATPROBE_LIBRARY; see latprobe runs)");
}

} // namespace

void addRunOptions(CLI::App &app, RunOptions &o, RunFrontEnd frontEnd)
{
    const bool headless = frontEnd == RunFrontEnd::Headless;
    addMeasuredOptions(app, o, headless);
    addSchedulingOptions(app, o);
    addLoadAndOutputOptions(app, o, headless);
    addRecordingOptions(app, o, headless);
}

} // namespace latprobe
