#!/usr/bin/env python3
"""Does the live GUI disturb what it measures?

Runs the same measurement headless and with the GUI open, alternating:

    latprobe run -d 60 --idle 5 --load massive_intr:8 --out H.json
    latprobe-gui --run-for 60 --idle 5 --load massive_intr:8 --out G.json   (under Xvfb)

and prints, for the loaded phase (massive_intr x8) of every run, audio and
video p99 and misses, then the medians and the ratio GUI / headless. A
ratio near 1 means the window's drawing does not change the numbers; the
GUI's own `gui` consumer is reported but has no headless counterpart.

    python3 tests/bench/gui_vs_headless.py                      # 3 rounds: ~7 min
    python3 tests/bench/gui_vs_headless.py --rounds 1 --duration 20 --load massive_intr:4

--save keeps the ratios under tests/bench/results/ (benchlib.py); they have
no goal. Exit status: 0 when every run completed, 2 otherwise. Standard library only.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import benchlib
from benchlib import Xvfb, default_binary, gui_env, leftover_workers, machine_busy

CONSUMERS = ("audio", "video", "wakeup", "gui")


def loaded_phase(path):
    with open(path) as f:
        run = json.load(f)
    phase = run["phases"][-1]
    out = {"phase": phase["name"], "duration": phase["duration_s"], "reason": run["end_reason"]}
    for c in phase["consumers"]:
        out[c["name"]] = {"p99": c["p99_us"] / 1000.0, "misses": c["misses"],
                          "p50": c["p50_us"] / 1000.0}
    return out


def run_headless(args, out):
    cmd = [args.latprobe, "--quiet", "run", "-d", str(args.duration), "--idle", str(args.idle),
           "--load", args.load, "--out", out, "--no-progress", "--no-noise-check"]
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=args.duration + 120)


def run_gui(args, display, out):
    config = tempfile.mkdtemp(prefix="latprobe-guibench-")
    try:
        cmd = [args.gui, "--quiet", "--run-for", str(args.duration), "--idle", str(args.idle),
               "--load", args.load, "--out", out]
        return subprocess.run(cmd, env=gui_env(display, config, args.latprobe),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=args.duration + 120)
    finally:
        shutil.rmtree(config, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gui", default=default_binary("latprobe-gui"))
    p.add_argument("--latprobe", default=default_binary("latprobe"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--duration", type=float, default=60)
    p.add_argument("--idle", type=float, default=5)
    p.add_argument("--load", default="massive_intr:8")
    p.add_argument("--keep", help="keep the run files in this directory")
    benchlib.add_save_option(p)
    args = p.parse_args()
    for binary in (args.gui, args.latprobe):
        if not os.access(binary, os.X_OK):
            print("gui_vs_headless: %s is not built (cmake --build build)" % binary,
                  file=sys.stderr)
            return 2
    result = benchlib.Result("gui_vs_headless", args.save, latprobe=args.latprobe)
    workdir = args.keep or tempfile.mkdtemp(prefix="latprobe-guivs-")
    os.makedirs(workdir, exist_ok=True)

    results = {"headless": [], "gui": []}
    with Xvfb() as x:
        print("%d round(s) of %.0f s (idle %.0f s, then %s), headless and GUI alternating; "
              "GUI under Xvfb %s" % (args.rounds, args.duration, args.idle, args.load, x.display))
        header = "%-3s %-8s %6s" % ("rnd", "mode", "bg%")
        for c in CONSUMERS:
            header += " %8s %6s" % (c + " p99", "miss")
        print(header + "   (p99 in ms, loaded phase)")
        for r in range(args.rounds):
            # Alternate which goes first, so neither always follows the other.
            order = ["headless", "gui"] if r % 2 == 0 else ["gui", "headless"]
            for mode in order:
                out = os.path.join(workdir, "%s-%d.json" % (mode, r + 1))
                busy0, total0 = machine_busy()
                t0 = time.monotonic()
                proc = run_headless(args, out) if mode == "headless" else run_gui(args, x.display,
                                                                                   out)
                busy1, total1 = machine_busy()
                if proc.returncode != 0 or not os.path.exists(out):
                    print("gui_vs_headless: %s run failed (%d): %s"
                          % (mode, proc.returncode, proc.stderr.strip()[-500:]), file=sys.stderr)
                    return 2
                left = leftover_workers(0)
                if left:  # may be another user's: say so, do not judge
                    print("gui_vs_headless: note: latprobe workers running after the %s run: %s"
                          % (mode, left), file=sys.stderr)
                res = loaded_phase(out)
                res["bg"] = 100.0 * (busy1 - busy0) / max(1, total1 - total0) * (os.cpu_count() or 1)
                res["wall"] = time.monotonic() - t0
                results[mode].append(res)
                line = "%-3d %-8s %6.0f" % (r + 1, mode, res["bg"])
                for c in CONSUMERS:
                    if c in res:
                        line += " %8.3f %6d" % (res[c]["p99"], res[c]["misses"])
                    else:
                        line += " %8s %6s" % ("-", "-")
                print(line)

    med = statistics.median
    print("\nmedians over %d round(s), loaded phase:" % args.rounds)
    print("%-8s %12s %12s %8s" % ("", "headless", "gui", "gui/hl"))
    for c in ("audio", "video", "wakeup"):
        for key, unit in (("p99", "ms"), ("misses", "")):
            h = med(r[c][key] for r in results["headless"])
            g = med(r[c][key] for r in results["gui"])
            ratio = "%.2f" % (g / h) if h > 0 else ("1.00" if g == 0 else "inf")
            if key == "p99" and h > 0:
                result.figure("%s p99 loaded, window / headless" % c, g / h)
            name = "%s %s" % (c, key + (" " + unit if unit else ""))
            print("%-16s %8.3f %12.3f %8s" % (name, h, g, ratio) if key == "p99" else
                  "%-16s %8.1f %12.1f %8s" % (name, h, g, ratio))
    g = med(r["gui"]["p99"] for r in results["gui"])
    result.figure("the window's own event loop, p99", g, "ms")
    print("gui (the window's own event loop) p99 %.3f ms, misses %.1f" % (
        g, med(r["gui"]["misses"] for r in results["gui"])))
    print("(bg%: CPU used by the whole machine during the run, % of one CPU; the load itself "
          "is most of it)")
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    result.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
