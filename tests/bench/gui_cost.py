#!/usr/bin/env python3
"""What the live GUI costs the machine it measures.

Runs latprobe-gui under a private Xvfb (1280x800x24, no window manager) with
every plot live and no load, lets it settle, then reads the CPU time of its
GUI thread (/proc/PID/task/PID/stat: the main thread, tid == pid) and of the
whole process over the measured stretch. The consumers' simulated work
(audio 5 %, video 40 % of a CPU, in their own threads) is reported apart:
it is the probe's load, not the GUI's.

    python3 tests/bench/gui_cost.py                 # 3 runs x 60 s
    python3 tests/bench/gui_cost.py --runs 1 --duration 20 --shot /tmp/idle.png

Goal (issue 15): GUI thread <= 2 % of one CPU at idle (issue 4 asked 5 %).
--save keeps the result under tests/bench/results/ (benchlib.py).
Exit status: 0 when every run completed and the goal was met, 1 when the
goal was missed, 2 on a failure (binary missing, GUI died).

Standard library only.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

import benchlib
from benchlib import (CLK_TCK, Xvfb, default_binary, gui_env, leftover_workers,
                          machine_busy, process_cpu, stop, temp_dir, threads_cpu)

GOAL_PCT = 2.0
CONSUMER_THREADS = {"lp-audio", "lp-video", "lp-wakeup", "lp-start"}


def one_run(args, display, index):
    config = temp_dir("latprobe-guicost-")
    cmd = [args.gui] + args.gui_arg
    if args.dark:
        cmd.append("--dark")
    proc = subprocess.Popen(cmd, env=gui_env(display, config, args.latprobe),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(args.warmup)
        if proc.poll() is not None:
            raise RuntimeError("latprobe-gui exited early: %s" % proc.stderr.read().strip())
        t0 = time.monotonic()
        threads0 = threads_cpu(proc.pid)
        proc0 = process_cpu(proc.pid)
        busy0, total0 = machine_busy()
        time.sleep(args.duration)
        t1 = time.monotonic()
        threads1 = threads_cpu(proc.pid)
        proc1 = process_cpu(proc.pid)
        busy1, total1 = machine_busy()
        if proc.poll() is not None or proc1 is None:
            raise RuntimeError("latprobe-gui died during the run")
        if args.shot and index == 0:
            subprocess.run(["import", "-display", display, "-window", "root", args.shot],
                           check=False)
    finally:
        code = stop(proc)
        shutil.rmtree(config, ignore_errors=True)
    wall = t1 - t0

    def pct(ticks):
        return 100.0 * ticks / CLK_TCK / wall

    per_thread = {}
    for tid, (ticks, comm) in threads1.items():
        before = threads0.get(tid, (0, comm))[0]
        per_thread.setdefault(comm, 0)
        per_thread[comm] += ticks - before
    gui = threads1[proc.pid][0] - threads0[proc.pid][0]
    # The consumers' threads do the probe's simulated work; the session's own
    # (lp-session, lp-collector, lp-capture, lp-autosave, ...) are the rest.
    consumers = sum(v for k, v in per_thread.items() if k in CONSUMER_THREADS)
    ncpu = os.cpu_count() or 1
    machine_pct = 100.0 * (busy1 - busy0) / max(1, total1 - total0) * ncpu
    others = machine_pct - pct(proc1 - proc0)
    left = leftover_workers(proc.pid)
    return {
        "gui": pct(gui),
        "process": pct(proc1 - proc0),
        "consumers": pct(consumers),
        "rest": pct(proc1 - proc0 - gui - consumers),
        "others": others,
        "threads": {k: pct(v) for k, v in sorted(per_thread.items(), key=lambda kv: -kv[1])},
        "exit": code,
        "leftover": left,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gui", default=default_binary("latprobe-gui"))
    p.add_argument("--latprobe", default=default_binary("latprobe"))
    p.add_argument("--duration", type=float, default=60, help="measured seconds per run")
    p.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--dark", action="store_true", help="run with --dark")
    p.add_argument("--shot", help="screenshot of the first run's screen (PNG)")
    p.add_argument("--gui-arg", action="append", default=[],
                   help="extra argument for latprobe-gui (repeatable)")
    benchlib.add_save_option(p)
    args = p.parse_args()
    for binary in (args.gui, args.latprobe):
        if not os.access(binary, os.X_OK):
            print("gui_cost: %s is not built (cmake --build build)" % binary, file=sys.stderr)
            return 2

    result = benchlib.Result("gui_cost", args.save, latprobe=args.latprobe)
    results = []
    with Xvfb() as x:
        print("latprobe-gui under Xvfb %s (%s), idle, %d x %.0f s after %.0f s warm-up"
              % (x.display, "1280x800x24", args.runs, args.duration, args.warmup))
        print("%-4s %9s %9s %10s %9s %10s" % ("run", "gui thr %", "process %", "consumers %",
                                              "rest %", "others %"))
        for i in range(args.runs):
            try:
                r = one_run(args, x.display, i)
            except RuntimeError as e:
                print("gui_cost: %s" % e, file=sys.stderr)
                return 2
            results.append(r)
            print("%-4d %9.2f %9.2f %10.2f %9.2f %10.1f" % (i + 1, r["gui"], r["process"],
                                                           r["consumers"], r["rest"], r["others"]))
            if r["leftover"]:  # may be another user's: say so, do not judge
                print("gui_cost: note: latprobe workers running: %s" % r["leftover"],
                      file=sys.stderr)

    med = statistics.median
    gui = med(r["gui"] for r in results)
    print("median: GUI thread %.2f %% of a CPU, whole process %.2f %% (consumers' simulated "
          "work %.2f %%, other threads %.2f %%)" % (gui, med(r["process"] for r in results),
                                                   med(r["consumers"] for r in results),
                                                   med(r["rest"] for r in results)))
    print("threads of the first run (%% of a CPU): %s" % ", ".join(
        "%s %.2f" % kv for kv in results[0]["threads"].items()))
    noisy = med(r["others"] for r in results)
    if noisy > 20:
        print("note: the rest of the machine used %.0f %% of a CPU meanwhile; figures may be "
              "inflated" % noisy)
    ok = result.figure("GUI thread, median of %d x %.0f s" % (args.runs, args.duration), gui,
                       "% of a CPU", goal="<= %g" % GOAL_PCT)
    result.figure("whole process", med(r["process"] for r in results), "% of a CPU")
    result.save()
    print("goal: GUI thread <= %.0f %% of a CPU: %s" % (GOAL_PCT, "met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
