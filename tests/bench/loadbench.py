#!/usr/bin/env python3
"""loadbench (C++, built with the tests) run and its figures kept as data.

build/tests/bench/loadbench starts N massive_intr workers through the load
engine, stops them all, and then does the same with N plain spinners killed
by `pkill -KILL` (the anchor: what a tester types); it prints a row per N
with the medians over the rounds. This script runs it with the arguments
it is given, passes its output through, and judges each row against the
goals: starting and stopping all of N workers within a second.

    python3 tests/bench/loadbench.py                          # 3 rounds x 100, 400, 800
    python3 tests/bench/loadbench.py --save -- --give-up-ms 20000
    python3 tests/bench/loadbench.py -- --counts 100 --rounds 1 --give-up-ms 0   # smoke

Arguments after `--` go to loadbench (--rounds, --counts, --settle-ms,
--give-up-ms). --save keeps the figures under tests/bench/results/
(benchlib.py). Exit status: loadbench's own when it fails (2: not built or
pkill missing), else 0 when every goal holds and 1 when one does not.
Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys

import benchlib

GOAL_MS = 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loadbench",
                    default=os.path.join(benchlib.repo_root(), "build", "tests", "bench",
                                         "loadbench"),
                    help="default build/tests/bench/loadbench")
    benchlib.add_save_option(ap)
    ap.add_argument("args", nargs="*", help="loadbench's own arguments, after --")
    args = ap.parse_args()
    if not os.access(args.loadbench, os.X_OK):
        print(f"loadbench.py: {args.loadbench} is not built: cmake --build build",
              file=sys.stderr)
        return 2
    result = benchlib.Result("loadbench", args.save,
                             latprobe=os.path.join(benchlib.repo_root(), "build", "app",
                                                   "latprobe"))
    proc = subprocess.Popen([args.loadbench] + args.args, stdout=subprocess.PIPE, text=True)
    rows = []
    for line in proc.stdout:
        sys.stdout.write(line)
        # "    800        840.0          462.0      20000.0       0.02"
        m = re.fullmatch(r"\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*", line)
        if m:
            rows.append([float(x) for x in m.groups()])
    if proc.wait() != 0:
        return proc.returncode
    ok = True
    for workers, start, stop, pkill, _ in rows:
        n = int(workers)
        ok &= bool(result.figure(f"start {n} workers, median", start, "ms",
                                 goal=f"<= {GOAL_MS}"))
        ok &= bool(result.figure(f"stop all of {n} workers, median", stop, "ms",
                                 goal=f"<= {GOAL_MS}"))
        if pkill > 0:
            result.figure(f"pkill of {n} spinners, median", pkill, "ms")
    print(f"goal: start and stop all within {GOAL_MS} ms: {'met' if ok else 'MISSED'}")
    result.save()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
