#!/usr/bin/env python3
"""How well an A/B in one sitting (`latprobe run --variant`) tells variants
apart: when they are the same, and when they differ in a way this machine
shows.

A/A: two variants that change nothing ("a:" and "a2:"), in turns, under the
load. Every row the verdict calls "better" or "worse" is a false alarm; the
goal is at most 5 % of rows over `--aa-runs` runs.

A/B, two settings with a known effect on these VMs (root):
- autogroup=1 against autogroup=0 with the burners in a session of their
  own (`burn:4`, the default): with autogroup, the burners share one group's
  weight, so the probe's latency under load is lower; "off" must be worse;
- load_nice=0 against load_nice=19 with the burners in latprobe's session
  (`burn:4:session=same`, where autogroup puts them in the probe's group):
  at nice 19 they weigh 1/68 of the probe; "n19" must be better.
The A/B rows are video's p99, misses/min and met% in the loaded phase;
the goal is at least 95 % of them called in the right direction. Video is
the consumer these settings act on: it works 40 % of each period, so its
share of the CPU against four burners is what group and nice weights set.
Audio and wakeup run for a few hundred microseconds at a time, and EEVDF
serves such a short runner soon whatever the weights: their p99 moved by
less than its spread in a first quiet run (2026-12-05, autogroup: audio
-1 % [-29, +466], wakeup -14 % [-43, +95]), so they are printed, not
judged. The A/A rows stay every p99 of audio, video and wakeup.

Rounds until decided (`--auto MAX`: `--rounds auto:MAX` instead of the
fixed rounds): the A/A rows called different over all the looks (goal at
most 5 %), the rounds the autogroup A/B took to its decision (median over
`--auto-runs`), and the minutes that saves against `--rounds 6` of the
same steps (6 x the run's own time a round, less its time).

    sudo python3 tests/bench/ab_power.py --auto 12 --save   # ~40 min

Time: `--rounds 6` of a two-step scenario (idle, then the load, `--step`
seconds each) must give its verdict in at most 10 minutes; the autogroup
A/B runs with `--timed-step` (20 s) to measure it.

    sudo python3 tests/bench/ab_power.py --save          # ~26 min
    sudo python3 tests/bench/ab_power.py --aa-runs 1 --rounds 2 --step 5 --timed-step 5  # smoke
    sudo python3 tests/bench/ab_power.py --aa-runs 0 --save   # the A/B arms alone, ~14 min

`--save` keeps the result under tests/bench/results/ (benchlib.py). Exit
status 0 when every run completed, whatever the rates. Python 3 standard
library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import benchlib
from compare_power import AB_CONSUMERS, AB_METRICS, rows


def run_ab(args, out, load, variants, step, rounds=None):
    """One run of variants in turns; its wall time in seconds."""
    cmd = [args.latprobe, "run", "--no-progress", "--no-library", "--idle", str(step),
           "--duration", str(2 * step), "--load", load, "--rounds", rounds or str(args.rounds),
           "-o", out]
    for v in variants:
        cmd += ["--variant", v]
    print(f"ab_power: {' '.join(cmd[1:])}", file=sys.stderr, flush=True)
    started = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"ab_power: {' '.join(cmd)} failed ({proc.returncode}): "
                 f"{proc.stderr.strip().splitlines()[-1:]}")
    return time.monotonic() - started


# What the A/B arms judge: see the module's docstring.
JUDGED_CONSUMER = "video"
JUDGED_METRICS = ("p99", "misses/min", "met%")


def loaded(all_rows):
    return [r for r in all_rows if r[0] != "idle"]


def judged(rs):
    return [r for r in rs if r[1] == JUDGED_CONSUMER and r[2] in JUDGED_METRICS]


def shown(rs):
    return [r for r in rs if r[1] in AB_CONSUMERS and r[1] != JUDGED_CONSUMER
            and r[2] in AB_METRICS]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latprobe", default=benchlib.default_binary("latprobe"))
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--step", type=float, default=10, help="seconds of each step (A/A, nice)")
    ap.add_argument("--timed-step", type=float, default=20,
                    help="seconds of each step of the autogroup A/B, which is timed")
    ap.add_argument("--aa-runs", type=int, default=3)
    ap.add_argument("--keep", help="keep the run files in this folder")
    ap.add_argument("--auto", type=int, metavar="MAX",
                    help="measure --rounds auto:MAX instead (A/A and the autogroup A/B)")
    ap.add_argument("--auto-runs", type=int, default=3,
                    help="autogroup A/B runs with --auto, for the median rounds")
    benchlib.add_save_option(ap)
    args = ap.parse_args()
    if not os.access(args.latprobe, os.X_OK):
        sys.exit(f"ab_power: {args.latprobe} is not an executable: build first, or give --latprobe")
    if os.geteuid() != 0:
        sys.exit("ab_power: autogroup= changes the machine: run as root")

    result = benchlib.Result("ab_power", args.save, latprobe=args.latprobe)
    folder = args.keep or tempfile.mkdtemp(prefix="ab_power-")
    os.makedirs(folder, exist_ok=True)

    if args.auto:
        until_decided(args, result, folder)
        finish(args, result, folder)
        return
    aa = []
    for i in range(args.aa_runs):
        out = os.path.join(folder, f"aa{i + 1}.json")
        run_ab(args, out, "burn:4", ["a:", "a2:"], args.step)
        aa += [r for r in rows(compare_one(args, out))
               if r[1] in AB_CONSUMERS and r[2] in AB_METRICS]
    arms = [
        # name, load, variants, the verdict expected of the second, step
        ("autogroup", "burn:4", ["on:autogroup=1", "off:autogroup=0"], "worse", args.timed_step),
        ("load_nice", "burn:4:session=same", ["n0:load_nice=0", "n19:load_nice=19"], "better",
         args.step),
    ]
    ab = {}
    timed = None
    for name, load, variants, expected, step in arms:
        out = os.path.join(folder, f"{name}.json")
        took = run_ab(args, out, load, variants, step)
        if name == "autogroup":
            timed = took
        ab[name] = (expected, loaded(rows(compare_one(args, out))))

    print(f"\nab_power: {args.rounds} rounds, variants in turns (A B B A ...)")
    called = sum(1 for r in aa if r[3] in ("better", "worse"))
    if aa:  # --aa-runs 0 measures the A/B arms alone
        pct = 100.0 * called / len(aa)
        met = result.figure("A/A rows called different", pct, "%", goal="<= 5")
        print(f"  A/A ({args.aa_runs} runs, {args.step:g} s steps): {called} of {len(aa)} rows "
              f"called different = {pct:.1f} %   goal <= 5 %  {'met' if met else 'MISSED'}")
    for r in aa:
        if r[3] in ("better", "worse"):
            print(f"    false alarm: {r[0]} {r[1]} {r[2]} {r[3]}")
    right_all = total_all = 0
    for name, (expected, all_loaded) in ab.items():
        rs = judged(all_loaded)
        right = sum(1 for r in rs if r[3] == expected)
        wrong = sum(1 for r in rs if r[3] not in (expected, "small", "~"))
        right_all += right
        total_all += len(rs)
        pct = 100.0 * right / len(rs) if rs else float("nan")
        result.figure(f"A/B {name}: loaded video rows called {expected}", pct, "%", goal=">= 95",
                      note=f"{wrong} called the other way")
        print(f"  A/B {name}: {right} of {len(rs)} loaded video rows called {expected} = "
              f"{pct:.1f} %, {wrong} the other way")
        for r in rs:
            if r[3] != expected:
                print(f"    {r[0]} {r[1]} {r[2]}: {r[3]}")
        others = shown(all_loaded)
        print(f"    not judged: " + ", ".join(f"{r[1]} {r[2]} {r[3]}" for r in others))
        result.figure(f"A/B {name}: audio and wakeup p99 rows called {expected} (not judged)",
                      100.0 * sum(1 for r in others if r[3] == expected) / len(others)
                      if others else float("nan"), "%")
    pct = 100.0 * right_all / total_all if total_all else float("nan")
    met = result.figure("A/B rows called in the right direction", pct, "%", goal=">= 95")
    print(f"  A/B, both: {right_all} of {total_all} = {pct:.1f} %   goal >= 95 %  "
          f"{'met' if met else 'MISSED'}")
    minutes = timed / 60
    met = result.figure(f"--rounds {args.rounds} of idle + burn:4, {args.timed_step:g} s steps, "
                        "to its verdict", minutes, "min", goal="<= 10")
    print(f"  --rounds {args.rounds}, {args.timed_step:g} s steps: verdict after {minutes:.1f} min"
          f"   goal <= 10 min  {'met' if met else 'MISSED'}")
    finish(args, result, folder)


def finish(args, result, folder):
    result.save()
    if args.keep:
        print(f"  run files: {folder}")
    else:
        for f in os.listdir(folder):
            os.remove(os.path.join(folder, f))
        os.rmdir(folder)


def until_decided(args, result, folder):
    """--rounds auto:MAX: A/A false alarms over all looks; rounds and minutes to a decision."""
    rounds = f"auto:{args.auto}"
    aa, aa_played = [], []
    for i in range(args.aa_runs):
        out = os.path.join(folder, f"aa{i + 1}.json")
        run_ab(args, out, "burn:4", ["a:", "a2:"], args.step, rounds)
        aa += [r for r in rows(compare_one(args, out))
               if r[1] in AB_CONSUMERS and r[2] in AB_METRICS]
        aa_played.append(played(out))
    print(f"\nab_power: --rounds {rounds}, variants in turns (A B B A ...)")
    if aa:
        called = sum(1 for r in aa if r[3] in ("better", "worse"))
        pct = 100.0 * called / len(aa)
        met = result.figure(f"A/A rows called different, --rounds {rounds}", pct, "%",
                            goal="<= 5")
        print(f"  A/A ({args.aa_runs} runs, {args.step:g} s steps): {called} of {len(aa)} rows "
              f"called different = {pct:.1f} %   goal <= 5 %  {'met' if met else 'MISSED'}; "
              f"rounds played {', '.join(f'{n} ({d})' for n, d in aa_played)}")
    taken, decided, saved = [], 0, []
    for i in range(args.auto_runs):
        out = os.path.join(folder, f"autogroup{i + 1}.json")
        took = run_ab(args, out, "burn:4", ["on:autogroup=1", "off:autogroup=0"],
                      args.timed_step, rounds)
        n, how = played(out)
        taken.append(n)
        decided += how == "decided"
        saved.append((6 * took / n - took) / 60)
        print(f"  A/B autogroup run {i + 1}: {how} after {n} rounds, {took / 60:.1f} min")
    if taken:
        median_rounds = statistics.median(taken)
        result.figure(f"A/B autogroup, --rounds {rounds}: median rounds to a decision",
                      median_rounds, "rounds", note=f"{decided} of {len(taken)} runs decided")
        minutes = statistics.median(saved)
        result.figure(f"A/B autogroup: minutes saved against --rounds 6 ({args.timed_step:g} s "
                      "steps)", minutes, "min")
        print(f"  A/B autogroup: median {median_rounds:g} rounds to a decision ({decided} of "
              f"{len(taken)} decided); median {minutes:.1f} min saved against --rounds 6")


def played(run_file):
    """(rounds played, "decided" or "undecided") from a run file of --rounds auto."""
    with open(run_file) as f:
        u = json.load(f)["until_decided"]
    return u["played"], "decided" if u["decided"] else "undecided"


def compare_one(args, run_file):
    """`latprobe compare RUN.json` on one variant run: its variants side by side."""
    proc = subprocess.run([args.latprobe, "compare", "--format", "json", run_file],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"ab_power: compare {run_file} failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


if __name__ == "__main__":
    main()
