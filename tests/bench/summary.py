#!/usr/bin/env python3
"""The latest result of every benchmark against its goal, as one table.

Reads the result files the benchmarks save with --save (tests/bench/results/,
benchlib.py) and prints, per benchmark, the figures of its newest file:
value, goal, and met, MISSED, undecided (an interval that spans the goal)
or - (no goal). Each benchmark's date, commit and
machine (CPUs, virtualisation, the noise check) head its rows; a benchmark
with no result yet is listed as such.

    python3 tests/bench/summary.py                  # the table
    python3 tests/bench/summary.py --all            # every result, newest first
    python3 tests/bench/summary.py --notes          # with each result's note
    python3 tests/bench/summary.py --format md      # as a Markdown table
    python3 tests/bench/summary.py --dir DIR        # results from elsewhere

Exit status 0, 1 when a latest result misses a goal, 2 when a file cannot be
read (naming it and the field). Python 3 standard library only.
"""

import argparse
import glob
import os
import sys

import benchlib

# Every benchmark, in the README's order; a script's result is saved under
# its name (soak --gui as soak_gui).
BENCHMARKS = ("cyclictest_compare", "compare_power", "interbench_compare",
              "massive_intr_cputime", "trace_overhead", "soak", "soak_gui", "loadbench",
              "gui_cost", "gui_vs_headless", "build_cost", "work_mode_repeat")


def value_text(figure):
    value = figure.get("value")
    if value is None:
        return "-"
    text = str(round(value, 4)) if isinstance(value, float) else str(value)
    unit = figure.get("unit") or ""
    return f"{text} {unit}".strip()


def verdict(figure):
    if "goal" not in figure:
        return "-"
    met = figure.get("met")
    return "undecided" if met is None else ("met" if met else "MISSED")


def machine_text(data):
    m = data.get("machine") or {}
    noise = m.get("noise") or {}
    parts = [f"{m.get('cpus', '?')} CPUs", m.get("virtualization", "virt ?"),
             f"Linux {m.get('kernel', '?').split(' ')[0]}", f"noise {noise.get('verdict', '?')}"]
    if noise.get("loadavg_at_start") is not None:
        parts.append(f"load {noise['loadavg_at_start']:g}")
    return ", ".join(parts)


def rows_of(data, notes):
    head = (f"{data['benchmark']}  {data['date'][:10]}  {data.get('commit', '?')}  "
            f"({machine_text(data)})")
    if data.get("carried"):
        head += "  [carried from the notebook: older code]"
    rows = [(f["name"], value_text(f), f.get("goal") or "-", verdict(f))
            for f in data["figures"]]
    return head, rows, data.get("note") if notes else None


def print_text(blocks, missing):
    widths = [max([len(r[i]) for _, rows, _ in blocks for r in rows] + [len(h)])
              for i, h in enumerate(("figure", "value", "goal", "verdict"))]
    line = "  ".join(f"{h:<{w}}" for h, w in zip(("figure", "value", "goal", ""), widths))
    print(line.rstrip())
    for head, rows, note in blocks:
        print()
        print(head)
        if note:
            print(f"  ({note})")
        for r in rows:
            print("  ".join(f"{c:<{w}}" for c, w in zip(r, widths)).rstrip())
    for name in missing:
        print()
        print(f"{name}  no result yet (run it with --save)")


def print_md(blocks, missing):
    print("| benchmark | figure | value | goal | |")
    print("|---|---|---|---|---|")
    for head, rows, note in blocks:
        name, date, commit = head.split("  ")[:3]
        first = f"`{name}` {date} {commit}" + (" (carried)" if "[carried" in head else "")
        for i, r in enumerate(rows):
            print(f"| {first if i == 0 else ''} | {r[0]} | {r[1]} | {r[2]} | {r[3]} |")
        if note:
            print(f"| | {note} | | | |")
    for name in missing:
        print(f"| `{name}` | no result yet | | | |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default=benchlib.RESULTS)
    ap.add_argument("--all", action="store_true", help="every result, not only the latest")
    ap.add_argument("--notes", action="store_true", help="each result's note too")
    ap.add_argument("--format", choices=("text", "md"), default="text")
    args = ap.parse_args()
    results = {}
    for path in sorted(glob.glob(os.path.join(args.dir, "*.json"))):
        try:
            data = benchlib.load(path)
        except (OSError, ValueError) as e:
            print(f"summary: {e}", file=sys.stderr)
            return 2
        results.setdefault(data["benchmark"], []).append(data)
    names = [b for b in BENCHMARKS if b in results] + sorted(set(results) - set(BENCHMARKS))
    blocks = []
    missed = False
    for name in names:
        newest = sorted(results[name], key=lambda d: d["date"], reverse=True)
        for i, data in enumerate(newest if args.all else newest[:1]):
            blocks.append(rows_of(data, args.notes))
            if i == 0:
                missed |= any(f.get("met") is False for f in data["figures"])
    missing = [b for b in BENCHMARKS if b not in results]
    (print_md if args.format == "md" else print_text)(blocks, missing)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
