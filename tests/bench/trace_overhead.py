#!/usr/bin/env python3
"""What the flight recorder costs: latprobe with tracing on and off, alternated.

For each load (hackbench and massive_intr by default) and each round, runs

    latprobe run --duration D --idle 0 --no-noise-check --no-library \\
        --no-auto-capture --load LOAD --out RUN [--no-trace]

once with the recorder (root and tracefs needed) and once without, the order
alternating between rounds, and prints per load, on against off:

  - each consumer's p99 (the load's phase) and its ratio, on / off;
  - latprobe's CPU per wakeup: its own threads' user + system time
    (/proc/PID/stat, read every 0.1 s until it exits, so up to 0.1 s of its
    end is missed) over the samples its consumers took: the consumers, the
    collector and lp-explain together, not the load workers;
  - latprobe's CPU as % of one CPU, and the difference on - off;
  - the load's throughput (its unit per second) and the difference;
  - the recorder's own figures from the run: buffer, reads, events, the CPU
    lp-explain spent reading and explaining, and that as % of a CPU (under
    a load that starves the consumers, latprobe's CPU also moves with the
    work they are given: this one is the recorder's alone).

The kernel's cost of writing events falls on whichever task schedules or
takes an interrupt: it shows in the load's throughput and the consumers'
latency, not in latprobe's CPU. Goals (issue 17): p99 on / off <= 1.10 for
every consumer and the recorder's CPU <= 1 % of a CPU. Run it alone on a
quiet machine (tests/bench/README.md): another build on a 2-vCPU VM moves
p99 far more than tracing does.

Each round's on and off runs are a pair, a few seconds apart. Judged per
consumer is the p99 of all the samples of the on runs against the p99 of
all the off runs' samples (from the runs' histograms), their ratio, and its
95 % bootstrap interval: the pairs resampled whole 2000 times (a fixed
seed), so a pair's two arms, which met the load in the same state, stay
together. "met" when the interval lies at or under 1.10, "missed" when it
lies above, "noise" when it spans 1.10, and "few rounds" under 5 rounds.
The median of the pairs' own p99 ratios is printed beside it; it was the
verdict until 2026-12-02 evening and rests on too few samples: a 5-s step
has 500 audio periods, whose p99 is their 5th-worst, and under hackbench x4
audio's p99 with tracing off ran from 23 to 325 ms in four runs alike. The
p99 of the pooled samples is what a user reads of a run that recorded
throughout against one that never did. The CPU goal is judged
on lp-explain's own CPU (the recorder reading and explaining; the median
of the runs); latprobe's extra CPU, on - off, and its interval are printed
beside it.

    sudo python3 tests/bench/trace_overhead.py                  # 3 rounds x 2 loads x 2 x 10 s
    sudo python3 tests/bench/trace_overhead.py --rounds 1 --duration 3   # smoke
    sudo python3 tests/bench/trace_overhead.py --interleaved 40       # one run a load

--interleaved PAIRS measures the p99 goal within one run per load: PAIRS
pairs of --step-second scenario steps (default 5), the recorder on in one
and paused in the other ("trace": false, docs/scenarios.md), the order
flipped every pair. A pair's two steps are seconds apart under the same
load, where separate runs differ by which of hackbench's states each
happened to catch. Judged as above, on the pooled p99s of the on and the
off steps; the recorder's CPU is lp-explain's over the time it recorded
(every recorded step asks its misses explained, more reads than a run of
long phases has). The load restarts with each step, alike for both arms;
latprobe's whole CPU and the load's throughput are not split by step, and
are not shown in this mode.

--steady-load (with --interleaved) starts the load once for the whole run
instead: a second latprobe (`run --consumers wakeup --no-trace --load
LOAD`) hosts it, and the measured run's steps have no load of their own, so
no step begins with the load's start-up and every pair meets one load that
has run for as long as the pairs before it. A first 2-step warm-up is left
out of the verdict.

--save-pairs FILE (with --interleaved) keeps the run's pairs, and --pool FILE...
judges the pairs of several such invocations as one run, grouped by load
and options, without running anything: one invocation's interval spans
about +-50 % under massive_intr on these VMs, so a 10 % goal needs the
pairs of several.

--save keeps the verdicts (each p99 ratio with its interval, the
recorder's CPU) under tests/bench/results/ (benchlib.py).

Exit status: 0 when the goals are met, 1 when one is missed, 3 when none is
missed but noise left one undecided, 2 when latprobe could not run or
tracing was off. Standard library only.
"""

import argparse
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BINARY = os.path.join(HERE, "..", "..", "build", "app", "latprobe")


def run_once(binary, load, duration, trace, out):
    args = [binary, "run", "--duration", str(duration), "--idle", "0", "--no-noise-check",
            "--no-library", "--no-auto-capture", "--load", load, "--out", out]
    if not trace:
        args.append("--no-trace")
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # latprobe's own threads' CPU (utime + stime of /proc/PID/stat), read
    # until it exits: wait4's rusage would add the load workers it reaped.
    tick = os.sysconf("SC_CLK_TCK")
    own_s = 0.0
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            own_s = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.1)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        sys.exit(f"trace_overhead: {' '.join(args)} failed:\n{err}")
    with open(out) as f:
        run = json.load(f)
    if trace and not run.get("trace", {}).get("on"):
        sys.exit("trace_overhead: the flight recorder is off: "
                 + run.get("trace", {}).get("message", "run as root with tracefs mounted"))
    phase = run["phases"][-1]
    samples = sum(c["samples"] for c in phase["consumers"])
    cpu_s = own_s
    loads = run["loads"]
    return {
        "p99": {c["name"]: c["p99_us"] for c in phase["consumers"] if c["samples"] > 0},
        "hist": {c["name"]: histogram_of(c) for c in phase["consumers"] if c["samples"] > 0},
        "cpu_per_wakeup_us": cpu_s / max(samples, 1) * 1e6,
        "cpu_pct": cpu_s / phase["duration_s"] * 100,
        "throughput": loads[0]["throughput_per_s"] if loads else 0.0,
        "unit": loads[0]["unit"] if loads else "",
        "trace": run.get("trace", {}),
    }


def interleaved_scenario(load, pairs, step):
    """Steps with and without the recorder in turn, `pairs` of each under
    `load` (None: a load hosted outside the run, and a warm-up step first),
    the order flipped every pair (on off, off on, ...) so that a drift of
    the machine over the run falls on both alike."""
    loads = [load] if load else []
    steps = [] if load else [{"name": "warm-up", "duration_s": 2, "loads": [], "trace": True}]
    for k in range(pairs):
        for trace in ([True, False] if k % 2 == 0 else [False, True]):
            steps.append({"name": f"{'on' if trace else 'off'} {k + 1}", "duration_s": step,
                          "loads": loads, "trace": trace})
    return {"scenario_version": 1, "name": "trace on-off",
            "description": "the flight recorder on and off in turn", "steps": steps}


def start_load_host(binary, load, seconds, tmp):
    """A latprobe that runs `load` for `seconds`, untraced, its one light
    consumer (wakeup) left out of every figure; killed with its workers
    at the end (latprobe stops its loads on SIGTERM)."""
    args = [binary, "run", "--duration", f"{seconds:g}", "--idle", "0", "--consumers", "wakeup",
            "--no-trace", "--no-noise-check", "--no-library", "--no-auto-capture",
            "--no-progress", "--load", load, "--out", os.path.join(tmp, "load-host.json")]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_interleaved(binary, load, pairs, step, tmp, steady=False, extra=()):
    """One run of `pairs` on/off step pairs; per consumer, the pairs'
    histograms [(on, off)], and the recorder's figures with the time it recorded."""
    scen = os.path.join(tmp, "onoff.json")
    out = os.path.join(tmp, "onoff-run.json")
    with open(scen, "w") as f:
        json.dump(interleaved_scenario(None if steady else load, pairs, step), f)
    args = [binary, "run", "--scenario", scen, "--no-noise-check", "--no-library",
            "--no-auto-capture", "--no-progress", "--out", out] + list(extra)
    host = None
    if steady:
        host = start_load_host(binary, load, pairs * 2 * step + 60, tmp)
        time.sleep(3)  # its settle and its load's start; the warm-up step takes the rest
        if host.poll() is not None:
            sys.exit(f"trace_overhead: the load host (latprobe run --load {load}) exited "
                     f"with {host.returncode}")
    try:
        proc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    finally:
        if host:
            host.terminate()
            host.wait()
    if proc.returncode != 0:
        sys.exit(f"trace_overhead: {' '.join(args)} failed:\n"
                 + proc.stderr.decode(errors="replace"))
    with open(out) as f:
        run = json.load(f)
    if not run.get("trace", {}).get("on"):
        sys.exit("trace_overhead: the flight recorder is off: "
                 + run.get("trace", {}).get("message", "run as root with tracefs mounted"))
    hists = {}  # consumer -> {pair: {trace: histogram}}
    on_s = 0.0
    for phase in run["phases"]:
        arm, _, pair = phase["name"].partition(" ")
        if arm not in ("on", "off") or not pair.isdigit():
            continue
        if arm == "on":
            on_s += phase["duration_s"]
        for c in phase["consumers"]:
            if c["samples"] > 0:
                hists.setdefault(c["name"], {}).setdefault(int(pair), {})[arm == "on"] = \
                    histogram_of(c)
    pairs_of = {name: [(v[True], v[False]) for _, v in sorted(by.items()) if len(v) == 2]
                for name, by in hists.items()}
    trace = dict(run.get("trace", {}))
    trace["explained"] = len(run.get("explanations", []))
    return pairs_of, trace, on_s


def report_interleaved(binary, load, pairs, step, tmp, steady=False, extra=(), saved=None):
    """Runs and prints one load's interleaved verdicts; returns (missed,
    undecided). `saved`, a list, gets what --pool needs of the run."""
    pairs_of, t, on_s = run_interleaved(binary, load, pairs, step, tmp, steady, extra)
    if saved is not None:
        saved.append({"load": load, "steady": steady, "step_s": step,
                      "latprobe_args": " ".join(extra), "trace": t, "on_s": on_s,
                      "pairs": {name: [[list(a.items()), list(b.items())] for a, b in p]
                                for name, p in pairs_of.items()}})
    print(f"\n{load}{' (steady, hosted apart)' if steady else ''}: one run, {pairs} pairs of "
          f"{step:g}-s steps, recorder on and off in turn")
    return print_interleaved(pairs_of, [(t, on_s)])


def print_interleaved(pairs_of, recorded):
    """The ratio rows of `pairs_of` and the recorder's line for `recorded`,
    [(trace summary, seconds recorded)] of one run or several pooled."""
    missed = undecided = False
    print(RATIO_HEADER)
    for name, pairs_ in pairs_of.items():
        if not pairs_:
            continue
        v = print_ratio_row(name, pairs_, "few pairs")
        missed |= v == "MISSED"
        undecided |= v != "met"
    total = {k: sum(t.get(k, 0) for t, _ in recorded)
             for k in ("reads", "events", "cpu_s", "explained", "over_budget")}
    on_s = sum(s for _, s in recorded)
    t = recorded[0][0]
    explain_pct = total["cpu_s"] / on_s * 100 if on_s else 0
    cpu_verdict = "met" if explain_pct <= 1.0 else "MISSED"
    missed |= cpu_verdict == "MISSED"
    if RESULT is not None:
        RESULT.figure(f"{LOAD}: recorder (lp-explain) CPU", explain_pct, "% of a CPU",
                      goal="<= 1")
    print(f"recorder: {t.get('buffer_kb_per_cpu')} KiB x {t.get('cpus')} CPUs, "
          f"{total['reads']} reads, {total['events']} events, {total['cpu_s']:.3f} s CPU "
          f"explaining in {on_s:.0f} s recorded, {explain_pct:.2f} % of a CPU: {cpu_verdict}")
    print(f"          {total['explained']} misses explained, {total['over_budget']} left "
          f"unexplained by its {t.get('cpu_budget_pct', 0):g} % CPU budget")
    return missed, undecided


def report_pooled(files):
    """--pool: the saved invocations' pairs, by load and options, judged as one."""
    groups = {}
    for path in files:
        try:
            with open(path) as f:
                saved = json.load(f)
            if saved.get("version") != 1:
                raise ValueError(f"version {saved.get('version')}, not 1")
            runs = saved["runs"]
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"trace_overhead: {path} is not a --save-pairs file of this script: {e}")
        for r in runs:
            key = (r["load"], r["steady"], r["step_s"], r["latprobe_args"])
            g = groups.setdefault(key, {"pairs": {}, "recorded": [], "files": 0})
            g["files"] += 1
            g["recorded"].append((r["trace"], r["on_s"]))
            for name, pairs_ in r["pairs"].items():
                g["pairs"].setdefault(name, []).extend(
                    ({int(us): n for us, n in a}, {int(us): n for us, n in b}) for a, b in pairs_)
    if not groups:
        sys.exit("trace_overhead: no runs in " + " ".join(files))
    missed = undecided = False
    global LOAD
    for (load, steady, step, extra), g in groups.items():
        LOAD = load + (f" {extra}" if extra else "")
        n = max(len(p) for p in g["pairs"].values())
        print(f"\n{load}{' (steady, hosted apart)' if steady else ''}"
              f"{f', latprobe {extra}' if extra else ''}: {g['files']} runs pooled, {n} pairs "
              f"of {step:g}-s steps")
        m, u = print_interleaved(g["pairs"], g["recorded"])
        missed, undecided = missed or m, undecided or u
    return missed, undecided


def print_ratio_row(name, hist_pairs, few):
    """One consumer's line: its pooled p99s on and off, their ratio with its
    interval and verdict (returned; `few` under 5 pairs), and beside them
    the median of the pairs' own p99 ratios."""
    p_on, p_off, ratio, low, high = pooled_ratio(hist_pairs)
    pair_ratios = [quantile(a, 0.99) / quantile(b, 0.99) for a, b in hist_pairs
                   if quantile(b, 0.99) > 0]
    # Fewer make an interval of the few pairs themselves.
    v = verdict(low, high, 1.10) if len(hist_pairs) >= 5 else few
    if RESULT is not None and PAST_LIMIT_US not in (p_on, p_off):
        RESULT.figure(f"{LOAD}: p99 on/off {name} (95 %: {low:.2f}-{high:.2f})", ratio,
                      goal="<= 1.10", met={"met": True, "MISSED": False}.get(v))
    if PAST_LIMIT_US in (p_on, p_off):
        # Both past 100 ms would read as a ratio of 1: no verdict.
        print(f"{name:10} {'> 100 ms' if p_on == PAST_LIMIT_US else f'{p_on:.0f}':>10} "
              f"{'> 100 ms' if p_off == PAST_LIMIT_US else f'{p_off:.0f}':>10} "
              f"{'-':>6} {'-':>13}  past limit")
        return "past limit"
    med, med_low, med_high = bootstrap_median(pair_ratios) if pair_ratios else (0, 0, 0)
    print(f"{name:10} {p_on:10.0f} {p_off:10.0f} {ratio:6.2f} "
          f"{f'{low:.2f} - {high:.2f}':>13}  {v:10} {med:6.2f} ({med_low:.2f}-{med_high:.2f})")
    return v


RATIO_HEADER = (f"{'consumer':10} {'p99 on us':>10} {'p99 off us':>10} {'ratio':>6} "
                f"{'95 % interval':>13}  {'verdict':10} {'pairs median (95 %)':>6}")


# The run file keeps how many samples lay past its histogram's limit (100 ms),
# not their values: they pool as this one value, above every other.
PAST_LIMIT_US = 10**12


def histogram_of(consumer):
    """A consumer's latencies from the run file as {us: samples}."""
    h = consumer["histogram"]
    counts = {int(us): int(n) for us, n in h["counts"]}
    if h.get("overflow"):
        counts[PAST_LIMIT_US] = int(h["overflow"])
    return counts


def quantile(hist, q):
    return PooledQuantile([hist], q).of([1])


class PooledQuantile:
    """The q-quantile of the samples of any multiset of histograms, ranked as
    latprobe's Histogram::percentile ranks (the ceil(q n)-th smallest).
    Each histogram's cumulative counts over the union of values, searched by
    bisection: a bootstrap resample costs a few hundred additions."""

    def __init__(self, hists, q=0.99):
        self.q = q
        self.values = sorted(set().union(*hists))
        self.cumulative = []
        for h in hists:
            seen, cum = 0, []
            for v in self.values:
                seen += h.get(v, 0)
                cum.append(seen)
            self.cumulative.append(cum)

    def of(self, weights):
        """The quantile of the histograms taken `weights[i]` times each."""
        live = [(w, c) for w, c in zip(weights, self.cumulative) if w]
        total = sum(w * c[-1] for w, c in live)
        if total == 0:
            return 0
        rank = max(1, math.ceil(self.q * total))
        lo, hi = 0, len(self.values) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if sum(w * c[mid] for w, c in live) >= rank:
                hi = mid
            else:
                lo = mid + 1
        return self.values[lo]


def pooled_ratio(hist_pairs, resamples=2000, seed=17):
    """p99 of all the on samples, of all the off samples, their ratio and its
    95 % bootstrap interval, resampling whole pairs so that a pair's two
    arms, which met the same load seconds apart, stay together."""
    on = PooledQuantile([a for a, _ in hist_pairs])
    off = PooledQuantile([b for _, b in hist_pairs])
    n = len(hist_pairs)
    p_on, p_off = on.of([1] * n), off.of([1] * n)
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        weights = [0] * n
        for i in rng.choices(range(n), k=n):
            weights[i] += 1
        below = off.of(weights)
        ratios.append(on.of(weights) / below if below else math.inf)
    ratios.sort()
    return (p_on, p_off, p_on / p_off if p_off else math.inf,
            ratios[int(0.025 * resamples)], ratios[int(0.975 * resamples) - 1])


def bootstrap_median(values, resamples=2000, seed=17):
    """The median of `values` and its 95 % percentile-bootstrap interval."""
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(values, k=len(values)))
                     for _ in range(resamples))
    return (statistics.median(values), medians[int(0.025 * resamples)],
            medians[int(0.975 * resamples) - 1])


# The result --save keeps, and the load (and options) whose figures are
# being printed: set by main() and report_pooled().
RESULT = None
LOAD = ""


def verdict(low, high, goal):
    if high <= goal:
        return "met"
    if low > goal:
        return "MISSED"
    return "noise"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=DEFAULT_BINARY)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--loads", default="hackbench:4,massive_intr:4",
                        help="comma-separated load specs (default hackbench:4,massive_intr:4)")
    parser.add_argument("--interleaved", type=int, metavar="PAIRS", default=0,
                        help="instead of rounds of separate runs: one run per load of PAIRS "
                             "pairs of steps, recorder on and off in turn")
    parser.add_argument("--step", type=float, default=5,
                        help="with --interleaved: seconds a step (default 5)")
    parser.add_argument("--steady-load", action="store_true",
                        help="with --interleaved: the load runs once for the whole run, "
                             "hosted by a second latprobe, not restarted each step")
    parser.add_argument("--latprobe-args", default="", metavar="ARGS",
                        help="with --interleaved: more options for the measured latprobe run, "
                             "e.g. '--explain-misses 0' (recording, nothing read)")
    parser.add_argument("--save-pairs", metavar="FILE",
                        help="with --interleaved: keep the run's pairs in FILE for --pool")
    parser.add_argument("--pool", nargs="+", metavar="FILE",
                        help="run nothing: judge the pairs of these --save-pairs files as one run, "
                             "by load and options")
    benchlib.add_save_option(parser)
    args = parser.parse_args()
    global RESULT, LOAD
    RESULT = benchlib.Result("trace_overhead", args.save, latprobe=args.binary)
    # A kill ends the run as Ctrl-C does: the load host stopped, the temp
    # folder removed (the default action would leave both behind).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.save_pairs and not args.interleaved:
        parser.error("--save-pairs needs --interleaved PAIRS")
    if args.pool:
        status = exit_status(*report_pooled(args.pool))
        RESULT.save()
        return status
    if args.steady_load and not args.interleaved:
        parser.error("--steady-load needs --interleaved PAIRS")
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"trace_overhead: {args.binary} is not built (cmake --build build)")

    missed = undecided = False
    saved = []
    with tempfile.TemporaryDirectory(prefix="latprobe-trace-bench-") as tmp:
        for load in args.loads.split(","):
            LOAD = load
            if args.interleaved:
                m, u = report_interleaved(args.binary, load, args.interleaved, args.step, tmp,
                                          args.steady_load, args.latprobe_args.split(), saved)
                missed, undecided = missed or m, undecided or u
                continue
            results = {True: [], False: []}
            for r in range(args.rounds):
                order = [True, False] if r % 2 == 0 else [False, True]
                for trace in order:
                    out = os.path.join(tmp, f"run-{r}-{int(trace)}.json")
                    results[trace].append(run_once(args.binary, load, args.duration, trace, out))
            on, off = results[True], results[False]
            print(f"\n{load}: {args.rounds} rounds x {args.duration:g} s, tracing on vs off")
            print(RATIO_HEADER)
            for name in on[0]["hist"]:
                hist_pairs = [(a["hist"][name], b["hist"][name]) for a, b in zip(on, off)
                              if name in a["hist"] and name in b["hist"]]
                if not hist_pairs:
                    continue
                v = print_ratio_row(name, hist_pairs, "few rounds")
                missed |= v == "MISSED"
                undecided |= v != "met"
            cpw_on = statistics.median(x["cpu_per_wakeup_us"] for x in on)
            cpw_off = statistics.median(x["cpu_per_wakeup_us"] for x in off)
            cpu_on = statistics.median(x["cpu_pct"] for x in on)
            cpu_off = statistics.median(x["cpu_pct"] for x in off)
            extra, extra_low, extra_high = bootstrap_median(
                [a["cpu_pct"] - b["cpu_pct"] for a, b in zip(on, off)])
            tp_on = statistics.median(x["throughput"] for x in on)
            tp_off = statistics.median(x["throughput"] for x in off)
            print(f"latprobe CPU per wakeup  on {cpw_on:.2f} us  off {cpw_off:.2f} us")
            print(f"latprobe CPU             on {cpu_on:.2f} %  off {cpu_off:.2f} %  "
                  f"extra {extra:+.2f} % of a CPU (95 % {extra_low:+.2f} to {extra_high:+.2f})")
            print(f"load throughput          on {tp_on:.1f}  off {tp_off:.1f} {on[0]['unit']}/s  "
                  f"({(tp_on / tp_off - 1) * 100 if tp_off else 0:+.1f} %)")
            if all(x["throughput"] > 0 for x in on + off):
                # What the recorder adds to one unit of the load's work, paired:
                # for ring:1:threads=2 one token pass, a wakeup and a switch,
                # the path a consumer's wakeup takes too.
                added, added_low, added_high = bootstrap_median(
                    [1e6 / a["throughput"] - 1e6 / b["throughput"] for a, b in zip(on, off)])
                RESULT.figure(f"{load}: the recorder's cost per {on[0]['unit']} "
                              f"(95 %: {added_low:+.3f} to {added_high:+.3f})", added, "us")
                print(f"load time per {on[0]['unit']:<10} on {1e6 / tp_on:.3f} us  "
                      f"off {1e6 / tp_off:.3f} us  the recorder adds {added:+.3f} us "
                      f"(95 % {added_low:+.3f} to {added_high:+.3f})")
            t = on[0]["trace"]
            reads = statistics.median(x["trace"].get("reads", 0) for x in on)
            events = statistics.median(x["trace"].get("events", 0) for x in on)
            explain_cpu = statistics.median(x["trace"].get("cpu_s", 0) for x in on)
            explain_pct = explain_cpu / args.duration * 100
            cpu_verdict = "met" if explain_pct <= 1.0 else "MISSED"
            missed |= cpu_verdict == "MISSED"
            RESULT.figure(f"{load}: recorder (lp-explain) CPU", explain_pct, "% of a CPU",
                          goal="<= 1")
            print(f"recorder: {t.get('buffer_kb_per_cpu')} KiB x {t.get('cpus')} CPUs, "
                  f"{reads:g} reads, {events:g} events, {explain_cpu:.3f} s CPU explaining "
                  f"(median of a run), {explain_pct:.2f} % of a CPU: {cpu_verdict}")
    if args.save_pairs:
        # Whole or not at all: a pooled verdict must not read half a run.
        with open(args.save_pairs + ".tmp", "w") as f:
            json.dump({"version": 1, "runs": saved}, f)
        os.replace(args.save_pairs + ".tmp", args.save_pairs)
        print(f"\npairs kept in {args.save_pairs} (--pool it with others)")
    status = exit_status(missed, undecided)
    RESULT.save()
    return status


def exit_status(missed, undecided):
    if missed:
        print("\ngoal missed: a p99 ratio's interval lies above 1.10, or the recorder "
              "took over 1 % of a CPU")
        return 1
    if undecided:
        print("\nno goal missed, but a p99 is undecided: its interval spans 1.10, "
              "or under 5 rounds (pairs)")
        return 3
    print("\ngoals met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
