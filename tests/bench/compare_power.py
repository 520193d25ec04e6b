#!/usr/bin/env python3
"""How often `latprobe compare` calls a difference, when there is none and
when there is one.

A/A: the same run twice (same settings, same load). Every row compare calls
"better" or "worse" is a false alarm; the goal is at most 10 % of rows.

A/B: the same run with a known, real difference: the probe at SCHED_FIFO
(`--policy fifo --priority 50`) against SCHED_OTHER, under `burn:4` on this
machine's CPUs. A real-time probe preempts the burners at once, so its p99
and p99.9 under load are a fraction of the fair-share probe's. The A/B rows
are the p99 of audio, video and wakeup in the loaded phase; the goal
is that compare calls at least 90 % of them different (and "better": run 2
is the FIFO one).

Each pair plays three runs (A, A', B) in a rotating order, so that drift on
a shared VM hits A and B alike; A/A compares A with A', A/B compares A with B.
Every run: a noise check, `--idle` seconds idle, then `--duration` seconds of
the load, cut by compare into 5 s blocks (its samples for runs without
rounds).

    python3 tests/bench/compare_power.py               # 4 pairs: ~14 min
    python3 tests/bench/compare_power.py --pairs 1 --idle 20 --duration 20   # smoke, ~3 min

Needs root for SCHED_FIFO. `--save` keeps the result under
tests/bench/results/ (benchlib.py). Exit status 0 when every run completed, whatever
the rates; 2 when a run failed. Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import benchlib

# p99: a 5 s block of audio, video or wakeup holds enough latencies for it;
# p99.9 of a block is nearly its maximum, the host's, which no policy moves.
AB_METRICS = ("p99",)
AB_CONSUMERS = ("audio", "video", "wakeup")


def run_latprobe(binary, out, args, extra):
    # --duration counts the idle lead-in too.
    cmd = [binary, "run", "--no-progress", "--idle", str(args.idle), "--duration",
           str(args.idle + args.duration), "--load", args.load, "-o", out] + extra
    started = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"compare_power: {' '.join(cmd)} failed ({proc.returncode}): "
                 f"{proc.stderr.strip().splitlines()[-1:] }")
    return time.monotonic() - started


def compare(binary, base, other):
    proc = subprocess.run([binary, "compare", "--format", "json", base, other],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"compare_power: compare {base} {other} failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def rows(comparison):
    """(phase, consumer, metric, verdict) of run 2 against run 1, for rows
    compare could judge (not "too few", not refused, in both runs)."""
    out = []
    for phase in comparison["phases"]:
        runs = phase["runs"]
        if len(runs) < 2 or not all(r["present"] for r in runs):
            continue
        for consumer in runs[1]["consumers"]:
            if consumer["refusal"]:
                continue
            for m in consumer["metrics"]:
                if m["verdict"] in ("better", "worse", "small", "~"):
                    out.append((phase["name"], consumer["consumer"], m["metric"], m["verdict"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latprobe", default="build/app/latprobe")
    ap.add_argument("--pairs", type=int, default=4)
    ap.add_argument("--idle", type=float, default=30)
    ap.add_argument("--duration", type=float, default=30, help="seconds under the load")
    ap.add_argument("--load", default="burn:4")
    ap.add_argument("--keep", help="keep the run files in this folder")
    benchlib.add_save_option(ap)
    args = ap.parse_args()
    if not os.access(args.latprobe, os.X_OK):
        sys.exit(f"compare_power: {args.latprobe} is not an executable: build first, or give --latprobe")
    if os.geteuid() != 0:
        sys.exit("compare_power: the A/B arm runs the probe at SCHED_FIFO: run as root")

    result = benchlib.Result("compare_power", args.save, latprobe=args.latprobe)
    folder = args.keep or tempfile.mkdtemp(prefix="compare_power-")
    os.makedirs(folder, exist_ok=True)
    fifo = ["--policy", "fifo", "--priority", "50"]
    aa, ab, ab_all = [], [], []
    seconds = []
    started = time.monotonic()
    for pair in range(args.pairs):
        plan = [("a", []), ("a2", []), ("b", fifo)]
        plan = plan[pair % 3:] + plan[:pair % 3]  # A A B, A B A, B A A, ...
        files = {}
        for name, extra in plan:
            files[name] = os.path.join(folder, f"pair{pair + 1}-{name}.json")
            print(f"pair {pair + 1}/{args.pairs}: run {name} {' '.join(extra)}", file=sys.stderr,
                  flush=True)
            seconds.append(run_latprobe(args.latprobe, files[name], args, extra))
        aa += rows(compare(args.latprobe, files["a"], files["a2"]))
        both = rows(compare(args.latprobe, files["a"], files["b"]))
        ab_all += both
        ab += [r for r in both if r[0] != "idle" and r[1] in AB_CONSUMERS and r[2] in AB_METRICS]
    took = time.monotonic() - started

    def rate(rs, verdicts=("better", "worse")):
        n = sum(1 for r in rs if r[3] in verdicts)
        return n, len(rs), (100.0 * n / len(rs) if rs else float("nan"))

    print(f"\ncompare_power: {args.pairs} pairs, {len(seconds)} runs of --idle {args.idle:g} s + "
          f"--duration {args.duration:g} s under {args.load}")
    print(f"  each run took {sorted(seconds)[len(seconds) // 2]:.0f} s (median); all {took / 60:.1f} min")
    n, total, pct = rate(aa)
    met = result.figure("A/A rows called different", pct, "%", goal="<= 10")
    print(f"  A/A (same settings twice): {n} of {total} rows called different = {pct:.1f} %"
          f"   goal <= 10 %  {'met' if met else 'MISSED'}")
    for r in aa:
        if r[3] in ("better", "worse"):
            print(f"    false alarm: {r[0]} {r[1]} {r[2]} {r[3]}")
    n, total, pct = rate(ab)
    met = result.figure("A/B rows called different (fifo against other, loaded p99)", pct, "%",
                        goal=">= 90")
    print(f"  A/B (fifo against other, loaded p99): {n} of {total} rows called different "
          f"= {pct:.1f} %   goal >= 90 %  {'met' if met else 'MISSED'}")
    nb, _, _ = rate(ab, ("better",))
    print(f"    of them 'better' (run 2 is the fifo one): {nb}")
    for r in ab:
        if r[3] in ("small", "~"):
            print(f"    missed: {r[0]} {r[1]} {r[2]}")
    n, total, pct = rate(ab_all)
    print(f"  A/B, every row (idle and miss rates included, where no difference is expected): "
          f"{n} of {total} = {pct:.1f} %")
    result.figure("took", took / 60, "min")
    result.save()
    print(f"  run files: {folder}" if args.keep else "")
    if not args.keep:
        for f in os.listdir(folder):
            os.remove(os.path.join(folder, f))
        os.rmdir(folder)


if __name__ == "__main__":
    main()
