#pragma once

#include "presets.h"
#include "run.h"
#include "version.h"

#include <string>

namespace latprobe::test {

// The longest brand string a CPU reports is 48 characters.
inline const std::string kLongCpuModel = "13th Gen Intel(R) Core(TM) i9-13900HX @ 2.20GHz";

inline ConsumerStats stats(const std::string &name, bool deadline)
{
    ConsumerStats s;
    s.name = name;
    s.hasDeadline = deadline;
    s.hasCpuTarget = deadline;
    s.histogramLimitUs = 100000;
    return s;
}

// A run as `latprobe run` writes it after an idle phase and 55 s of
// massive_intr x8, with the founding design's example figures; every field
// set, and no two numeric fields equal, so a field read into the wrong place
// shows.
inline Run realisticRun()
{
    Run run;
    run.version = kVersion;
    run.commandLine = {"latprobe", "run",        "--duration", "65",    "--policy",
                       "fifo",     "--priority", "80",         "--out", "run.json"};
    run.startTime = "2025-01-17T10:00:00Z";
    run.endTime = "2025-01-17T10:01:05Z";
    run.partial = false;
    run.endReason = "completed";

    SystemInfo &s = run.system;
    s.kernelRelease = "6.18.44";
    s.kernelVersion = "#1 SMP PREEMPT_DYNAMIC Fri Jan 17 09:12:44 UTC 2025";
    s.machine = "x86_64";
    s.cpuModel = kLongCpuModel;
    s.cpuCount = 24;
    s.governor = "schedutil";
    s.hz = "250";
    s.preemption = "lazy";
    s.scheduler = "sched_ext:lavd";
    s.autogroup = "on";
    s.rtThrottling = "950000/1000000 us";
    s.cmdline = "BOOT_IMAGE=/vmlinuz-6.18.44 root=UUID=0b5e ro quiet preempt=lazy";
    s.virtualization = "none";

    run.requested.policy = SchedPolicy::Fifo;
    run.requested.priority = 80;
    run.requested.nice = 0;
    run.requested.cpus = {2, 3, 5};
    run.requested.timerSlackNs = 1000;

    const std::string refusal =
        "SCHED_FIFO priority 80 refused (Operation not permitted); running SCHED_OTHER";
    ConsumerSetup audio;
    audio.config = audioConsumer();
    audio.config.workMode = WorkMode::Loops;
    // Settled in 25 trials, cpu 1's spreading 2.5 %; the work ran 4 % slower,
    // the end within 2 %.
    audio.loopSpeed = {
        1234500,
        1210000,
        1266250,
        25,
        62000000,
        true,
        {{0, 1220000, 1210000, 1230000, 12, true}, {1, 1250000, 1235000, 1266250, 13, true}}};
    audio.workLoopSpeed = {1185000, 1100000, 1250000, 1300, 3250000000, true};
    audio.endLoopSpeed = {1210000, 1190000, 1236000, 11, 22000000, true};
    ConsumerSetup video;
    video.config = videoConsumer();
    ConsumerSetup wakeup;
    wakeup.config = wakeupConsumer(1000);
    for (ConsumerSetup *c : {&audio, &video, &wakeup}) {
        c->grant.policy = SchedPolicy::Other;
        c->grant.priority = 0;
        c->grant.nice = -3;
        c->grant.cpus = {2, 3, 5};
        c->grant.timerSlackNs = 50000;
        c->grant.refusal = refusal;
    }
    run.consumers = {audio, video, wakeup};

    PhaseResult idle;
    idle.name = "idle";
    idle.startS = 0;
    idle.durationS = 10.25;
    PhaseResult loaded;
    loaded.name = "massive_intr x8 (own session)";
    loaded.startS = 10.25;
    loaded.durationS = 55.5;
    loaded.loads = {"massive_intr:8", "burn:2:nice=19"};
    loaded.step = 1;
    loaded.round = 1;

    int k = 0;
    for (PhaseResult *p : {&idle, &loaded}) {
        for (const ConsumerSetup &c : run.consumers) {
            ConsumerStats st = stats(c.config.name, c.config.hasDeadline());
            ++k;
            st.samples = 10000 + k;
            st.expected = 10020 + k;
            st.sampledPct = 99.5 + k / 100.0;
            st.minUs = 2 + k;
            st.meanUs = 150.25 + k;
            st.p50Us = 120 + k;
            st.p90Us = 400 + k;
            st.p99Us = 900 + k;
            st.p999Us = 1900 + k;
            st.maxUs = 5120 + k;
            st.stddevUs = 51.5 + k;
            st.over1ms = 60 + k;
            st.over5ms = 1 + k;
            st.histogramOverflow = 3 + k;
            st.histogram = {{3, 17}, {120, 5000 + static_cast<uint64_t>(k)}, {250000, 1}};
            st.ringOverflows = static_cast<uint64_t>(k - 1);
            for (int b = 0; b < 2; ++b)
                st.blocks.push_back({p->startS + 5.0 * b, 5.0, 5000u + static_cast<uint64_t>(b),
                                     static_cast<uint64_t>(b + k), 120 + b, 900 + b, 1900 + k,
                                     99.5 + b / 10.0});
            if (st.hasDeadline) {
                st.misses = 2 + k;
                st.deadlinesMet = 9990 + k;
                st.deadlinesMetPct = 99.86 - k / 100.0;
                st.desiredCpuPct = 99.9 - k / 10.0;
                st.longestMissRun = 1 + k;
                st.ibLatencyMeanUs = 160.5 + k;
                st.ibLatencyRmsUs = 210.75 + k;
                st.ibLatencyMaxUs = 15000 + k;
            }
            p->consumers.push_back(st);
        }
    }
    // The founding design's example lines for audio and video under massive_intr x8.
    ConsumerStats &a = loaded.consumers[0];
    a.p50Us = 120;
    a.p99Us = 3960;
    a.p999Us = 7020;
    a.maxUs = 9970;
    a.over1ms = 414;
    a.over5ms = 3;
    a.misses = 12;
    a.deadlinesMet = 10394;
    a.deadlinesMetPct = 99.78;
    ConsumerStats &v = loaded.consumers[1];
    v.p50Us = 130;
    v.p99Us = 3940;
    v.p999Us = 4480;
    v.maxUs = 5120;
    v.over1ms = 61;
    v.over5ms = 1;
    v.misses = 2;
    v.deadlinesMetPct = 99.86;
    for (ConsumerStats &c : loaded.consumers)
        c.ringOverflows = 0;
    run.phases = {idle, loaded};

    for (size_t i = 0; i < run.consumers.size(); ++i) {
        std::vector<SecondBucket> series;
        for (int sec = 0; sec < 66; ++sec) {
            SecondBucket b;
            b.maxUs = sec == 3 ? -1 : 100 + sec * 7 + static_cast<int64_t>(i);
            b.samples = sec == 3 ? 0 : 187 + static_cast<uint32_t>(i);
            b.misses = sec % 11 == 0 ? static_cast<uint32_t>(sec / 11) : 0;
            series.push_back(b);
        }
        run.series.push_back(series);
    }

    run.misses = {{12.625, "audio", 4321, 1, "massive_intr x8 (own session)"},
                  {13.5, "video", 120, 3, "massive_intr x8 (own session)"},
                  {40.0625, "audio", 9001, 2, "massive_intr x8 (own session)"}};
    run.missLogDropped = 7;

    LoadGroupResult load;
    load.label = "massive_intr x8";
    load.spec = "massive_intr:8:work_ms=8";
    load.unit = "loops";
    load.startS = 10.25;
    load.stopS = 65.75;
    load.throughputPerS = 903.5;
    load.cpuSharePct = 33.25;
    load.perWorker = {6101, 6099, 5950, 6203, 6010, 6120, 5890, 6007};
    load.fairness.workers = 8;
    load.fairness.mean = 6047.5;
    load.fairness.min = 5890;
    load.fairness.max = 6203;
    load.fairness.stddev = 92.25;
    load.fairness.cvPct = 1.525;
    load.fairness.maxOverMin = 1.053;
    load.fairness.jain = 0.99977;
    // The kernel's count of each worker's CPU time: more even than progress.
    load.perWorkerCpuS = {13.75, 13.8125, 13.5, 13.875, 13.625, 13.75, 13.5, 13.6875};
    load.cpuFairness.workers = 8;
    load.cpuFairness.mean = 13.6875;
    load.cpuFairness.min = 13.5;
    load.cpuFairness.max = 13.875;
    load.cpuFairness.stddev = 0.125;
    load.cpuFairness.cvPct = 0.875;
    load.cpuFairness.maxOverMin = 1.028;
    load.cpuFairness.jain = 0.99992;
    LoadGroupResult failed;
    failed.label = "compile -j24";
    failed.spec = "compile:24";
    failed.unit = "files";
    failed.startS = 10.5;
    failed.stopS = 11;
    failed.error = "compile: no C compiler found (cc, gcc, clang): install one";
    run.loads = {load, failed};

    NoiseCheck &n = run.noise;
    n.ran = true;
    n.durationS = 3.0;
    n.gapThresholdUs = 10;
    n.cpus = {{0, 12.5, 0.75, 41.25}, {1, 3.5, 0.125, 18.5}};
    n.loopMedianUs = 101.5;
    n.loopMinUs = 99.25;
    n.loopMaxUs = 140.75;
    n.loopCvPct = 2.5;
    n.verdict = "quiet";
    run.scenario = "massive_intr ramp";
    run.thresholdStep = 1;

    StateCapture state;
    state.timeS = 12.625;
    state.phase = "massive_intr x8 (own session)";
    state.reason = "first miss of audio";
    state.schedDebug = "Sched Debug Version: v0.11, 6.18.44\ncpu#0\n  .nr_running : 9\n";
    state.schedDebugSource = "/sys/kernel/debug/sched/debug";
    state.schedstat = "version 17\ntimestamp 4295100000\ncpu0 0 0 0 0 0 0 123 456 789\n";
    state.loadavg = "8.42 6.10 3.05 10/412 31337";
    state.top = {{4242, "latprobe:massive", 99.5}, {4243, "latprobe:massive", 97.25}};
    run.states = {state};

    // The flight recorder's account of the first audio miss under load: a
    // massive_intr worker took the CPU until the tick.
    run.trace.on = true;
    run.trace.bufferKbPerCpu = 4096;
    run.trace.cpus = 24;
    run.trace.reads = 3;
    run.trace.events = 48213;
    run.trace.cpuS = 0.125;
    run.trace.cpuBudgetPct = 0.8;
    run.trace.overBudget = 5;
    MissExplanation x;
    x.timeS = 12.5;
    x.consumer = "audio";
    x.phase = "massive_intr x8 (own session)";
    x.tid = 4100;
    x.cpu = 2;
    x.windowNs = 9'970'000;
    x.expiryNs = 52'000;
    x.timerNs = 60'000;
    x.irqNs = 40'000;
    x.waitNs = 9'600'000;
    x.selfNs = 270'000;
    x.migrations = 1;
    x.waitEnd = "tick-bound: preempt=lazy";
    x.waitEndTask = "latprobe:massiv[4242]";
    DelayShare worker;
    worker.name = "latprobe:massiv";
    worker.pid = 4242;
    worker.prio = 120;
    worker.policy = "SCHED_OTHER nice 0";
    worker.load = "massive_intr x8 (own session)";
    worker.ns = 9'500'000;
    DelayShare tick;
    tick.kind = DelayShare::Kind::Irq;
    tick.name = "local_timer";
    tick.ns = 40'000;
    DelayShare idleCpu;
    idleCpu.kind = DelayShare::Kind::Idle;
    idleCpu.name = "idle";
    idleCpu.ns = 100'000;
    x.shares = {worker, idleCpu, tick};
    run.explanations = {x};
    x.otherShares = 14; // the second explanation's smallest shares, summed
    x.otherSharesNs = 230'000;
    x.timeS = 30.25;
    x.consumer = "video";
    x.note = "the trace begins 120 us into the window (its buffer was overwritten)";
    x.shares[0].ns = 4'000'000;
    x.shares[0].pid = 4243;
    run.explanations.push_back(x);
    return run;
}

} // namespace latprobe::test
