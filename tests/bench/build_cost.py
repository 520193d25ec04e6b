#!/usr/bin/env python3
"""Where a build's time goes, read from Ninja's log of a finished build.

    cmake --preset default && cmake --build build
    python3 tests/bench/build_cost.py                  # build/.ninja_log
    python3 tests/bench/build_cost.py --build build --build build-asan --save

Ninja records each edge's start and end (.ninja_log); every edge is one
process, so the sum of their durations is the build's work, whatever the
number of jobs. The script keeps each output's newest entry (a rebuild
replaces it), sorts the edges into parts (the core's layers, the window's
groups, the suites' code, their AUTOMOC steps, precompiled headers, links,
the rest) and prints each part's seconds and share.

The figure it holds to a goal is the suites' AUTOMOC cost (the scan and moc
of every suite, and its mocs_compilation unit) in the first build given,
the default preset's: the suites use CMake's own AUTOMOC, which works with
every generator, unless it costs more than 5 % of that build's work; past
that a hand-made moc rule would be worth its upkeep. Other builds (the
asan preset's has most of the suites) are reported beside it.

Measure on a build from scratch (a fresh build directory), alone on the
machine: other jobs slow every edge, though the shares move less than the
seconds. --save keeps the result under tests/bench/results/ (benchlib.py).
Exit status 0, 1 when the goal is missed, 2 when the log cannot be read.
"""

import argparse
import os
import re
import sys

import benchlib

# The first part whose pattern matches an output names it.
PARTS = (
    ("suites' AUTOMOC", re.compile(r"^(/.*/)?tests/.*_autogen/(timestamp|mocs_compilation)")),
    ("window's AUTOMOC", re.compile(r"_autogen/(timestamp|mocs_compilation)")),
    ("precompiled headers", re.compile(r"cmake_pch\.hxx\.(gch|pch)$")),
    ("links", re.compile(r"(\.a|\.so[.\d]*|/[^/.]+)$")),
    ("suites' code", re.compile(r"^tests/.*\.o$")),
    ("core", re.compile(r"^core/.*\.o$")),
    ("window", re.compile(r"^ui/.*\.o$")),
    ("programs", re.compile(r"^app/.*\.o$")),
)
AUTOMOC_GOAL = "<= 5"


def edges(log_path):
    """{first output: seconds} from a .ninja_log (v5): the newest entry of
    each output, and an edge with several outputs (AUTOMOC's timestamp and
    its compilation unit) counted once."""
    newest = {}
    with open(log_path, encoding="utf-8") as f:
        header = f.readline()
        if not header.startswith("# ninja log v"):
            raise ValueError(f"{log_path}: not a Ninja log (first line {header.strip()!r})")
        for n, line in enumerate(f, start=2):
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 5:
                raise ValueError(f"{log_path}:{n}: expected start, end, mtime, output, hash")
            newest[fields[3]] = (int(fields[0]), int(fields[1]), fields[4])
    by_edge = {}
    for output, (start, end, command) in sorted(newest.items()):
        by_edge.setdefault((start, end, command), output)
    return {output: (end - start) / 1000.0 for (start, end, _), output in by_edge.items()}


def part_of(output):
    for name, pattern in PARTS:
        if pattern.search(output):
            return name
    return "the rest"


def parts_of(build):
    """({part: seconds}, edges) of a build directory's .ninja_log."""
    times = edges(os.path.join(build, ".ninja_log"))
    parts = {}
    for output, seconds in times.items():
        name = part_of(output)
        parts[name] = parts.get(name, 0.0) + seconds
    return parts, len(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", action="append",
                   help="a Ninja build directory after a build, given once or more; the "
                        "first is held to the goal (default: build)")
    benchlib.add_save_option(p)
    args = p.parse_args()
    builds = args.build or [os.path.join(benchlib.repo_root(), "build")]
    latprobe = os.path.join(builds[0], "app", "latprobe")
    result = benchlib.Result("build_cost", args.save,
                             latprobe=latprobe if os.path.exists(latprobe) else None)
    met = True
    for i, build in enumerate(builds):
        where = os.path.basename(os.path.normpath(build))
        try:
            parts, count = parts_of(build)
        except (OSError, ValueError) as e:
            print(f"build_cost: {e} (build with Ninja first: cmake --preset default && "
                  "cmake --build build)", file=sys.stderr)
            return 2
        total = sum(parts.values())
        if total <= 0:
            print(f"build_cost: {build} records no work", file=sys.stderr)
            return 2
        print(f"build_cost: {count} edges in {build}, {total:.0f} s of work")
        for name, seconds in sorted(parts.items(), key=lambda kv: -kv[1]):
            print(f"  {name:<22} {seconds:8.1f} s  {100 * seconds / total:5.1f} %")
        result.figure(f"{where}: its work, sum of its edges", round(total, 1), "s")
        share = round(100 * parts.get("suites' AUTOMOC", 0.0) / total, 2)
        name = f"{where}: suites' AUTOMOC, share of the build's work"
        if i == 0:
            met = result.figure(name, share, "%", goal=AUTOMOC_GOAL)
        else:
            result.figure(name, share, "%")
        for part in ("suites' code", "precompiled headers", "links"):
            result.figure(f"{where}: {part}, share of the build's work",
                          round(100 * parts.get(part, 0.0) / total, 2), "%")
    result.save()
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
