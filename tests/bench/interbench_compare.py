#!/usr/bin/env python3
"""interbench and latprobe's interbench scenario, side by side.

Builds interbench 0.31 from its published source (../shared/anchors/interbench
beside the checkout, or --source) into a temp folder, then per round and
per cell (a consumer against a load) runs, one after the other (the order
alternating from cell to cell and round to round):

    interbench -c -t T -L nproc -l SPEED -W the bench -w the load -x the others
    latprobe run --scenario <interbench's step, T s> --out RUN [--latprobe-args]
    latprobe report --format interbench RUN

with the same privileges (this script's, or with --unprivileged, as nobody
through setpriv when run as root), on the consumers Audio, Video, X and
Gaming that latprobe has (--benches) against None, Burn, Write, Read, Ring
and Compile (--loads). Both tools print the same table ("Load  Latency +/-
SD (ms)  Max Latency  % Desired CPU  % Deadlines Met"); the script parses
both, prints them and, per consumer and load, the differences and whether
they meet the goals of issue 16:

  - % deadlines met within 1 point where interbench is at 90 % or more,
    within 5 points elsewhere;
  - % desired CPU within 2 points;
  - mean latency within 25 % or 0.2 ms, whichever is larger.

With several rounds, each figure is the median over the rounds, and a
goal missed where latprobe's median lies within interbench's own lowest
and highest of the rounds is marked "NO~" and counted: interbench does not
repeat itself on these VMs (its X on None met 94-99 % from one invocation
to the next), and such a miss says as much about it as about latprobe.

The benchmark's own goals, since those cell goals proved out of reach of
interbench itself here (issue 16, blocked): the cells' goals latprobe
meets against interbench are at least as many as interbench meets against
its own round before, in its worst round (with --rounds over 1); and
latprobe's Gaming under Burn gets its fair share of a CPU beside nproc
burners, nproc/(nproc+1), within 2 points.

interbench's burns are loop counts from a calibration of 1-ms trials, taken
at each start: on these VMs one start's ranged from 5.21 to 8.18 M loops/ms
within an hour, and each burn of that run was long or short by as much
(its Gaming on an idle machine got 96 % of its CPU, under Burn 79 % where
latprobe's got 61 %). Before the rounds the script therefore runs
interbench's own calibration --calibrations times (5; each with a 1-s
Audio on None) and gives every round their median with -l, so that both
tools do the work they name; --calibrations 0 lets each round calibrate
once, as interbench does alone. The median of 1-ms trials still misses
the speed a 100-ms burn sustains by a few per cent (as nobody, Gaming on
an idle machine got 97.8 % of its CPU), so before each of interbench's
rounds the script runs its Gaming on None for 10 s with 10 % too many
loops a burn (twice as many again, up to three tries, while a try's
burns do not overrun) and gives the round the speed those burns sustained
(their % desired CPU times the loops asked); --no-sustained gives the
median as it is.

Cell by cell (the default), that speed is measured before and after each
cell (10 s of Gaming on None) and the cell run again, up to three times,
when the two differ by more than 10 %: on a VM whose speed changed from
minute to minute (1.9-3.6 M loops/ms on 2026-12-04) whole rounds gave
interbench's burns one speed for four minutes, whatever the VM did
meanwhile. --whole-rounds runs each tool over every cell in turn, as each
runs alone, with the speed measured before interbench's round.

    python3 tests/bench/interbench_compare.py                  # 1 round, 10 s a cell
    python3 tests/bench/interbench_compare.py --duration 20 --rounds 3
    sudo python3 tests/bench/interbench_compare.py --unprivileged

--save keeps the goals met, and each tool against itself, under
tests/bench/results/ (benchlib.py).

Where interbench's source is absent the script says so and exits 0
(skipped). Exit status otherwise: 0 when every goal holds, 1 when one does
not, 2 when a tool could not be built or run. Standard library only.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_SOURCE = os.path.normpath(os.path.join(REPO, "..", "shared", "anchors", "interbench"))
DEFAULT_SCENARIO = os.path.join(REPO, "resources", "scenarios", "interbench.json")
INTERBENCH_LOADS = ["None", "Video", "X", "Burn", "Write", "Read", "Ring", "Compile", "Memload"]

ROW = re.compile(r"^(\S+)\t\s*(-?[\d.]+) \+/- (-?[\d.]+)\s+(-?[\d.]+)\t\t\s*([\d.e+]+)"
                 r"(?:\t\s*([\d.e+]+))?\s*$")
TITLE = re.compile(r"^--- Benchmarking simulated cpu of (\S+)")


def parse_tables(text):
    """{bench: {load: (mean, sd, max, cpu%, met% or None)}} from either tool's table."""
    tables, bench = {}, None
    for line in text.splitlines():
        m = TITLE.match(line)
        if m:
            bench = m.group(1)
            tables[bench] = {}
            continue
        m = ROW.match(line)
        if m and bench:
            met = float(m.group(6)) if m.group(6) else None
            tables[bench][m.group(1)] = (float(m.group(2)), float(m.group(3)), float(m.group(4)),
                                         float(m.group(5)), met)
    return tables


def build_interbench(source, work):
    if not os.path.isfile(os.path.join(source, "interbench.c")):
        return None
    build = os.path.join(work, "interbench-src")
    shutil.copytree(source, build)
    r = subprocess.run(["make", "-s", "interbench"], cwd=build, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("interbench did not build:\n" + r.stderr[-2000:])
    return os.path.join(build, "interbench")


def as_user(cmd, unprivileged):
    if not unprivileged:
        return cmd
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd


def run_interbench(binary, work, args, benches=None, loads=None, seconds=None,
                   loops_per_ms=None):
    cwd = os.path.join(work, "ib-run")
    os.makedirs(cwd, exist_ok=True)
    os.chmod(cwd, 0o777)  # nobody writes its loops_per_ms and read file here
    # interbench keeps its calibration in this file and reuses it: one
    # taken while the VM ran slow burnt long in every later round (Gaming on
    # None got 70 % of its CPU in 2 of 3 rounds). Without -l, each run
    # calibrates anew.
    saved = os.path.join(cwd, "interbench.loops_per_ms")
    if os.path.exists(saved):
        os.remove(saved)
    benches = args.benches if benches is None else benches
    loads = args.loads if loads is None else loads
    cmd = [binary, "-c", "-t", str(int(seconds or args.duration)), "-L", str(os.cpu_count())]
    if loops_per_ms:
        cmd += ["-l", str(loops_per_ms)]
    for bench in benches:
        cmd += ["-W", bench]
    for bench in ["Audio", "Video", "X", "Gaming"]:
        if bench not in benches:
            cmd += ["-X", bench]
    for load in INTERBENCH_LOADS:
        cmd += ["-w", load] if load in loads else ["-x", load]
    r = subprocess.run(as_user(cmd, args.unprivileged), cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"interbench failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r.stdout


def loops_per_ms_of(text):
    speed = re.search(r"Using (\d+) loops per ms", text)
    return int(speed.group(1)) if speed else None


def settled_loops_per_ms(binary, work, args):
    """The median of interbench's own calibration run args.calibrations
    times (each a 1-s Audio on None after it), and their spread. Its
    calibration takes 1-ms trials: on these VMs one invocation's ranged
    from 5.21 to 8.18 M loops/ms within an hour, and every burn of a round
    ran long or short by as much."""
    found = []
    for _ in range(args.calibrations):
        found.append(loops_per_ms_of(run_interbench(binary, work, args, ["Audio"], ["None"], 1)))
        if found[-1] is None:
            raise RuntimeError("interbench did not say its loops per ms")
    return int(statistics.median(found)), min(found), max(found)


OVERRUN = 1.10  # the sustained check's burns ask this much too many loops
OVERRUN_TRIES = 3  # each try that did not overrun asks twice as many
# % desired CPU at or under which a try's burns overran. Not 100: on an
# idle machine burns shorter than 100 ms still get 99.x % (an interrupt,
# a host stall adds to one now and then), and scaling the loops asked by
# that took a loop running at 3.6 M loops/ms for 2.03 (2026-12-04: the
# burns of two whole rounds ran short, Gaming under Burn got 83 % of its
# CPU where 66 % is its share). A speed between 95 and 100 % of the loops
# asked is measured again at twice the loops, where it overruns clearly.
OVERRUN_CLEAR = 95


def sustained_loops_per_ms(binary, work, args, calibrated, seconds=10):
    """interbench's loop speed as its burns sustain it: Gaming on None for
    `seconds`, every 100-ms burn given OVERRUN times the calibrated loops so that
    each overruns, and its % desired CPU (100 ms over the time the burn
    took) scales the loops back. A try whose burns did not clearly overrun
    (OVERRUN_CLEAR) is repeated with twice the loops, up to
    OVERRUN_TRIES; None when none overran. Its 1-ms calibration trials miss
    what a burn meets over 100 ms (ticks, the other vCPU's host): as nobody
    the median of five ran 2 % long, Gaming on an idle machine got 97.8 % of
    its CPU and X 94 %, where latprobe, timing its work on the thread's CPU
    clock, got 100 and 99. On one VM (2026-12-04) the calibrations, pinned
    to CPU 0, gave 1.80-1.85 M loops/ms while the same loop ran 1.9-3.6 on
    either vCPU from minute to minute: 110 % did not overrun."""
    asked = int(calibrated * OVERRUN)
    for _ in range(OVERRUN_TRIES):
        text = run_interbench(binary, work, args, ["Gaming"], ["None"], seconds,
                              loops_per_ms=asked)
        cpu = parse_tables(text).get("Gaming", {}).get("None", (None,) * 4)[3]
        if cpu is None:
            raise RuntimeError("interbench's Gaming on None printed no % desired CPU:\n"
                               + text[-1000:])
        if cpu <= OVERRUN_CLEAR:
            return int(asked * cpu / 100)
        asked *= 2
    return None


def scenario_file(work, args, benches=None, loads=None):
    """The interbench scenario cut to `benches` x `loads` (default: the
    ones asked for), each step args.duration long."""
    benches = args.benches if benches is None else benches
    loads = args.loads if loads is None else loads
    with open(DEFAULT_SCENARIO) as f:
        scen = json.load(f)
    steps = []
    for step in scen["steps"]:
        bench, load = step["name"].split(": ", 1)
        if bench in benches and load in loads:
            step["duration_s"] = args.duration
            steps.append(step)
    scen["steps"] = steps
    name = "all" if len(steps) != 1 else steps[0]["name"].replace(": ", "-")
    path = os.path.join(work, f"interbench-scenario-{name}.json")
    with open(path, "w") as f:
        json.dump(scen, f, indent=1)
    os.chmod(path, 0o644)
    return path, {s["name"].split(": ", 1)[0] for s in steps}


def run_latprobe(binary, work, scen, consumers, n):
    out = os.path.join(work, f"latprobe-{n}.json")
    env = dict(os.environ, LATPROBE_LIBRARY=os.path.join(work, "library"))
    os.makedirs(env["LATPROBE_LIBRARY"], exist_ok=True)
    os.chmod(work, 0o777)
    os.chmod(env["LATPROBE_LIBRARY"], 0o777)
    cmd = [binary, "--quiet", "run", "--scenario", scen, "--consumers",
           ",".join(c.lower() for c in sorted(consumers)), "--no-noise-check",
           "--no-progress", "--out", out] + shlex.split(ARGS.latprobe_args)
    r = subprocess.run(as_user(cmd, ARGS.unprivileged), capture_output=True, text=True, env=env)
    if r.returncode != 0 or not os.path.exists(out):
        raise RuntimeError(f"latprobe run failed ({r.returncode}):\n{r.stderr[-2000:]}")
    r = subprocess.run([binary, "report", "--format", "interbench", out], capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise RuntimeError(f"latprobe report failed:\n{r.stderr}")
    return r.stdout


def per_figure(rounds, combine):
    """Per cell, each figure's values over the rounds combined; None where a
    round has none."""
    merged = {}
    for tables in rounds:
        for bench, rows in tables.items():
            for load, figures in rows.items():
                merged.setdefault(bench, {}).setdefault(load, []).append(figures)
    return {bench: {load: tuple(None if any(v is None for v in col) else combine(col)
                                for col in zip(*all_figures))
                    for load, all_figures in rows.items()}
            for bench, rows in merged.items()}


def median_tables(rounds):
    return per_figure(rounds, statistics.median)


def range_tables(rounds):
    """Per cell and figure, (lowest, highest) over the rounds."""
    return per_figure(rounds, lambda col: (min(col), max(col)))


def print_table(title, tables, benches, loads):
    print(f"\n{title}")
    for bench in benches:
        if bench not in tables:
            continue
        print(f"  {bench}: load      mean ms   sd ms  max ms  cpu %   met %")
        for load in loads:
            f = tables[bench].get(load)
            if f is None:
                print(f"    {load:<10}  (missing)")
                continue
            met = "-" if f[4] is None else f"{f[4]:6.1f}"
            print(f"    {load:<10} {f[0]:7.2f} {f[1]:7.2f} {f[2]:7.1f} {f[3]:6.1f} {met:>7}")


def cell_goals(ref, other):
    """Issue 16's goals for one cell, other judged against ref: mean, cpu,
    and deadlines met where both have deadlines."""
    goals = [abs(other[0] - ref[0]) <= max(0.25 * abs(ref[0]), 0.2),
             abs(other[3] - ref[3]) <= 2]
    if ref[4] is not None and other[4] is not None:
        goals.append(abs(other[4] - ref[4]) <= (1 if ref[4] >= 90 else 5))
    return goals


def self_agreement(rounds, benches, loads):
    """Goals met by each round of one tool judged against its round before,
    as (met, judged) pairs: how far the tool's own repetitions meet what
    latprobe is asked to meet."""
    found = []
    for ref, other in zip(rounds, rounds[1:]):
        met = judged = 0
        for bench in benches:
            for load in loads:
                a, b = ref.get(bench, {}).get(load), other.get(bench, {}).get(load)
                if a is None or b is None:
                    continue
                goals = cell_goals(a, b)
                met, judged = met + sum(goals), judged + len(goals)
        found.append((met, judged))
    return found


def agreement_text(pairs):
    return ", ".join(f"{met} of {judged}" for met, judged in pairs)


def judge(ib, lp, benches, loads, ib_range=None):
    """Prints the differences; returns (goals met, goals judged, goals missed
    with latprobe's median inside interbench's own range over the rounds)."""
    met = judged = within = 0
    print("\ndifferences (latprobe - interbench) and goals"
          + ("; ~: a goal missed, latprobe's median within interbench's own range"
             if ib_range else ""))
    print("  bench   load        mean ms        cpu pts        met pts")
    for bench in benches:
        for load in loads:
            a, b = ib.get(bench, {}).get(load), lp.get(bench, {}).get(load)
            if a is None or b is None:
                print(f"  {bench:<7} {load:<10}  missing in {'interbench' if a is None else 'latprobe'}")
                judged += 1
                continue
            spread = (ib_range or {}).get(bench, {}).get(load)

            def verdict(ok, col):
                nonlocal within
                if ok:
                    return "ok"
                if spread and spread[col] and spread[col][0] <= b[col] <= spread[col][1]:
                    within += 1
                    return "NO~"
                return "NO "

            goals = cell_goals(a, b)
            cells = [f"{b[0] - a[0]:+7.2f} {verdict(goals[0], 0):<3}",
                     f"{b[3] - a[3]:+7.1f} {verdict(goals[1], 3):<3}"]
            if len(goals) > 2:
                cells.append(f"{b[4] - a[4]:+7.1f} {verdict(goals[2], 4):<3}")
            print(f"  {bench:<7} {load:<10} " + "  ".join(cells))
            met += sum(goals)
            judged += len(goals)
    return met, judged, within


def whole_round(ib_binary, work, args, n, settled, scen):
    """One round as each tool runs alone: interbench over every cell, then
    latprobe's scenario over every cell (latprobe first in even rounds)."""
    tables = {}
    for tool in ["interbench", "latprobe"] if n % 2 else ["latprobe", "interbench"]:
        print(f"  round {n}: {tool} ...", flush=True)
        if tool == "latprobe":
            tables[tool] = parse_tables(run_latprobe(args.latprobe, work, scen, args.benches,
                                                     str(n)))
            continue
        speed = settled
        if settled and args.sustained:
            speed = sustained_loops_per_ms(ib_binary, work, args, settled)
            print("    interbench's loop sustained "
                  + (f"{speed / 1e6:.2f} M loops/ms, given to this round" if speed else
                     "faster than every try asked: the calibration given"), flush=True)
            speed = speed or settled
        text = run_interbench(ib_binary, work, args, loops_per_ms=speed)
        tables[tool] = parse_tables(text)
        speed = loops_per_ms_of(text)
        if speed and not settled:
            print(f"    interbench calibrated {speed / 1e6:.2f} M loops/ms", flush=True)
    return tables["interbench"], tables["latprobe"]


CELL_SPEED_CHECK_S = 10  # interbench rounds -t up to a multiple of 10 s
CELL_SPEED_DRIFT = 0.10  # a cell whose speed before and after differ more is run again
CELL_TRIES = 3


def cell_by_cell_round(ib_binary, work, args, n, settled):
    """One round cell by cell: before each cell interbench's sustained loop
    speed is measured (Gaming on None, as sustained_loops_per_ms) and given to
    its run of that cell with -l, then latprobe runs the same cell (the
    order alternates from cell to cell and round to round); a cell is run
    again, up to CELL_TRIES, when the speed measured after it differs from
    the one before by more than CELL_SPEED_DRIFT. On a VM whose speed
    changes from minute to minute (1.9-3.6 M loops/ms on 2026-12-04), a
    round of whole runs gave interbench's burns one speed for 4 minutes
    and latprobe's loads another; here both tools meet the VM within the
    same half minute, and interbench's burns the speed of that minute."""
    ib_round, lp_round = {}, {}
    speed = None
    cell = 0
    speeds = []
    for bench in args.benches:
        for load in args.loads:
            cell += 1
            tools = ["interbench", "latprobe"] if (n + cell) % 2 else ["latprobe", "interbench"]
            scen, _ = scenario_file(work, args, [bench], [load])
            for attempt in range(1, CELL_TRIES + 1):
                if speed is None:
                    speed = measured_speed(ib_binary, work, args, settled)
                before = speed
                for tool in tools:
                    if tool == "interbench":
                        text = run_interbench(ib_binary, work, args, [bench], [load],
                                              loops_per_ms=before)
                        ib_cell = parse_tables(text).get(bench, {}).get(load)
                    else:
                        text = run_latprobe(args.latprobe, work, scen, [bench], f"{n}-{cell}")
                        lp_cell = parse_tables(text).get(bench, {}).get(load)
                speed = measured_speed(ib_binary, work, args, before)
                drift = speed / before - 1
                print(f"  round {n} {bench}/{load}: {before / 1e6:.2f} -> {speed / 1e6:.2f} "
                      f"M loops/ms", flush=True, end="")
                if abs(drift) <= CELL_SPEED_DRIFT or attempt == CELL_TRIES:
                    print("" if abs(drift) <= CELL_SPEED_DRIFT else
                          f" (moved {drift:+.0%} in each of {CELL_TRIES} tries: kept)",
                          flush=True)
                    break
                print(f" (moved {drift:+.0%}: again)", flush=True)
            speeds += [before, speed]
            if ib_cell is not None:
                ib_round.setdefault(bench, {})[load] = ib_cell
            if lp_cell is not None:
                lp_round.setdefault(bench, {})[load] = lp_cell
    print(f"  round {n}: interbench's loop sustained {min(speeds) / 1e6:.2f}-"
          f"{max(speeds) / 1e6:.2f} M loops/ms over the round", flush=True)
    return ib_round, lp_round


def measured_speed(ib_binary, work, args, guess):
    """interbench's sustained loop speed now, starting from `guess`; the
    guess itself when the loop ran faster than every try asked."""
    speed = sustained_loops_per_ms(ib_binary, work, args, guess, CELL_SPEED_CHECK_S)
    return speed or guess


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=10, help="seconds a cell (default 10)")
    ap.add_argument("--rounds", type=int, default=1, help="default 1")
    ap.add_argument("--benches", default="Audio,Video,X,Gaming",
                    help="interbench's benches (default Audio,Video,X,Gaming)")
    ap.add_argument("--loads", default="None,Burn,Write,Read,Ring,Compile",
                    help="interbench's loads (default None,Burn,Write,Read,Ring,Compile)")
    ap.add_argument("--source", default=DEFAULT_SOURCE, help=f"default {DEFAULT_SOURCE}")
    ap.add_argument("--latprobe", default=os.path.join(REPO, "build", "app", "latprobe"),
                    help="default build/app/latprobe")
    ap.add_argument("--latprobe-args", default="", metavar="ARGS",
                    help="more options for latprobe run, e.g. '--work-mode loops'")
    ap.add_argument("--unprivileged", action="store_true",
                    help="run both tools as nobody (needs root to switch)")
    ap.add_argument("--calibrations", type=int, default=5, metavar="N",
                    help="give interbench the median of N of its own calibrations (-l); "
                         "0: each round calibrates once, as interbench does alone (default 5)")
    ap.add_argument("--no-sustained", dest="sustained", action="store_false",
                    help="give interbench the calibrations' median as it is, not the speed "
                         "its loop sustains over 100-ms burns, measured before each round; "
                         "implies --whole-rounds")
    ap.add_argument("--whole-rounds", dest="per_cell", action="store_false",
                    help="run each tool over every cell in turn, as each runs alone, instead "
                         "of cell by cell with interbench's speed measured around each cell")
    benchlib.add_save_option(ap)
    ARGS = args = ap.parse_args()
    # A kill ends the run as Ctrl-C does: the load host stopped, the temp
    # folder removed (the default action would leave both behind).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args.benches = [b for b in args.benches.split(",") if b]
    args.loads = [load for load in args.loads.split(",") if load]
    if not args.sustained or args.calibrations == 0:
        args.per_cell = False  # cell by cell measures the speed it gives interbench

    if not os.access(args.latprobe, os.X_OK):
        print(f"interbench_compare: {args.latprobe} is not built: cmake --build build",
              file=sys.stderr)
        return 2
    if args.unprivileged and os.geteuid() != 0:
        print("interbench_compare: --unprivileged switches to nobody: run it as root",
              file=sys.stderr)
        return 2
    result = benchlib.Result("interbench_compare", args.save, latprobe=args.latprobe)
    work = tempfile.mkdtemp(prefix="latprobe-ib-")
    try:
        try:
            ib_binary = build_interbench(args.source, work)
        except RuntimeError as e:
            print(f"interbench_compare: {e}", file=sys.stderr)
            return 2
        if ib_binary is None:
            print(f"interbench_compare: skipped: no interbench source in {args.source} "
                  "(give its folder with --source)")
            return 0
        scen, latprobe_benches = scenario_file(work, args)
        missing = [b for b in args.benches if b not in latprobe_benches]
        if missing:
            print(f"interbench_compare: the interbench scenario has no steps for "
                  f"{', '.join(missing)}: left out", file=sys.stderr)
            args.benches = [b for b in args.benches if b in latprobe_benches]
        who = "as nobody" if args.unprivileged else ("as root" if os.geteuid() == 0 else
                                                     "unprivileged")
        cells = len(args.benches) * len(args.loads)
        # interbench runs a cell for -t rounded up to 10 s, after a second
        # of start; cell by cell, each cell also measures its speed after it.
        ib_seconds = -(-args.duration // 10) * 10 + 1
        per_cell = ib_seconds + args.duration + 2 + (CELL_SPEED_CHECK_S + 1 if args.per_cell else 0)
        print(f"interbench_compare: {args.rounds} round(s) x 2 tools x {cells} cells x "
              f"{args.duration:g} s{', cell by cell' if args.per_cell else ''}, {who}, "
              f"~{args.rounds * cells * per_cell / 60:.0f} min", flush=True)
        settled = None
        if args.calibrations > 0:
            try:
                settled, low, high = settled_loops_per_ms(ib_binary, work, args)
            except RuntimeError as e:
                print(f"interbench_compare: {e}", file=sys.stderr)
                return 2
            print(f"  interbench calibrated {args.calibrations} times: median {settled / 1e6:.2f} "
                  f"M loops/ms ({low / 1e6:.2f}-{high / 1e6:.2f}), given to every round (-l)",
                  flush=True)
        ib_rounds, lp_rounds = [], []
        for n in range(1, args.rounds + 1):
            try:
                if args.per_cell:
                    ib_round, lp_round = cell_by_cell_round(ib_binary, work, args, n, settled)
                else:
                    ib_round, lp_round = whole_round(ib_binary, work, args, n, settled, scen)
            except RuntimeError as e:
                print(f"interbench_compare: {e}", file=sys.stderr)
                return 2
            ib_rounds.append(ib_round)
            lp_rounds.append(lp_round)
        ib, lp = median_tables(ib_rounds), median_tables(lp_rounds)
        print_table(f"interbench ({who}), median of {args.rounds}", ib, args.benches, args.loads)
        print_table(f"latprobe --scenario interbench ({who}), median of {args.rounds}", lp,
                    args.benches, args.loads)
        met, judged, within = judge(ib, lp, args.benches, args.loads,
                                    range_tables(ib_rounds) if args.rounds > 1 else None)
        print(f"\ngoals met: {met} of {judged}")
        # The goal as it stands since the parity work was blocked (issue 16):
        # interbench does not repeat itself on these VMs, so latprobe against
        # interbench is held to interbench against itself, its worst round;
        # and where the scheduler decides, to arithmetic: a CPU hog beside
        # nproc burners gets nproc/(nproc+1) of a CPU.
        goals_held = []
        if args.rounds > 1:
            print(f"goals missed with latprobe's median within interbench's own range over "
                  f"{args.rounds} rounds: {within} of {judged - met}")
            ib_self = self_agreement(ib_rounds, args.benches, args.loads)
            lp_self = self_agreement(lp_rounds, args.benches, args.loads)
            print(f"the same goals, each round against the one before: interbench "
                  f"{agreement_text(ib_self)}; latprobe {agreement_text(lp_self)}")
            yardstick = min(m for m, _ in ib_self)
            goals_held.append(result.figure(
                "cells' goals met, latprobe against interbench", met, f"of {judged}",
                goal=f">= {yardstick}", note="interbench's worst round against its round before"))
            result.figure("interbench round against its round before", agreement_text(ib_self))
            result.figure("latprobe round against its round before", agreement_text(lp_self))
        else:
            result.figure("cells' goals met, latprobe against interbench", met, f"of {judged}",
                          note="one round: no yardstick of interbench against itself")
        gaming = lp.get("Gaming", {}).get("Burn")
        if gaming is not None:
            share = 100 * os.cpu_count() / (os.cpu_count() + 1)
            print(f"Gaming under Burn: latprobe got {gaming[3]:.1f} % of its CPU; "
                  f"the fair share is {share:.1f} %")
            goals_held.append(result.figure(
                "Gaming under Burn, latprobe's % of its CPU", gaming[3], "%",
                goal=f"in {share - 2:.1f}-{share + 2:.1f}",
                note=f"the fair share beside nproc burners, {share:.1f} %, within 2 points"))
        result.save()
        return 0 if all(goals_held) else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


ARGS = None

if __name__ == "__main__":
    sys.exit(main())
