#!/usr/bin/env python3
"""Lay latprobe's wakeup consumer beside cyclictest on the same machine.

Runs cyclictest (rt-tests) and `latprobe run --consumers wakeup` side by
side, same interval, same policy (SCHED_OTHER), same timer slack, idle and
under `stress-ng --cpu N`, several rounds each, and prints per condition a
table with every run, the median of the rounds and the ratios latprobe /
cyclictest.

How a round runs (--order):
  * paired (default): both tools at the same time, each pinned to one of two
    CPUs, which they trade every second, and both waking at the same
    instants: a whole second plus an offset drawn per round (cyclictest --secaligned,
    latprobe --align-us). On a VM the wakeup latency of a run depends on the
    host: on what else the host runs meanwhile, and on where the run's
    wakeups fall against the host's timers, a phase each run keeps for
    seconds. Two copies of cyclictest started 0.3 s apart differ by up to
    20 % in p50 for that reason; paired, they agree within a few %.
  * alternate: one tool after the other, cyclictest first in odd rounds.
  * random: one after the other in a shuffled order.
  * together: both at once, unpinned and unaligned.
--control adds an arm with cyclictest against a second cyclictest under the
same protocol: what the ratios of two copies of one tool are on this machine,
the yardstick for latprobe's.

Both tools get the same conditions:
  * SCHED_OTHER nice 0: cyclictest `--policy=other` (in rt-tests 2.4 `-p 0`
    is SCHED_FIFO), latprobe's default.
  * no mlockall: latprobe does not lock its memory, so cyclictest runs
    without `-m`.
  * /dev/cpu_dma_latency untouched: latprobe never writes it, so cyclictest
    runs with `--laptop` (without it, running as root, cyclictest would hold
    it at 0 for the run).
  * the same timer slack: both inherit this script's (the kernel's 50 us
    unless --timer-slack is given, which sets this script's slack before
    spawning either tool).
  * one measuring thread, absolute clock_nanosleep on CLOCK_MONOTONIC,
    latency truncated to whole us.

Percentiles are nearest-rank (rank = ceil(q * n), 1 <= rank <= n) over the
1 us histogram, exactly as latprobe's Histogram::percentile does; cyclictest's
are computed here from its JSON histogram (1 us buckets below `-h`, default
20000 us; the rest is overflow = cycles - sum(histogram), and a percentile
landing there is reported as max and flagged).

CPU: user+sys of the whole tool process from os.wait4()'s rusage, divided by
the wakeups the tool recorded. As a diagnostic the script also samples
/proc/PID/task/*/schedstat while the tool runs, which gives the steady-state
CPU per wakeup of the whole process and of the measuring thread alone
(startup and exit excluded), and the CPU used meanwhile by everything else
(bg%), so that runs spoilt by other work on a shared machine show.

Per condition: every run, the median of the rounds per tool, the ratios
latprobe / cyclictest of those medians (the goal figures), and the median of
the per-round ratios (each round's two runs saw about the same background, so
it is less sensitive to background that comes and goes).

--save keeps the goal figures under tests/bench/results/ (benchlib.py).

Exit status: 0 when every run completed (whether or not the goals are met),
2 when a tool is missing or a run failed.

Standard library only.
"""

import argparse
import ctypes
import datetime
import json
import math
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import benchlib

GOAL_LOW, GOAL_HIGH = 0.9, 1.1


# ---------------------------------------------------------------- statistics

def nearest_rank(hist, overflow_count, q, max_value):
    """Nearest-rank percentile over a sparse 1 us histogram.

    hist: list of (us, count) sorted by us, values below the histogram limit.
    overflow_count: samples past the limit whose values are unknown (only
    cyclictest has these); a rank landing there returns max_value, an upper
    bound, and is flagged by the caller.
    Mirrors latprobe's Histogram::percentile: rank = ceil(q * n) clamped to
    [1, n], the first bucket whose cumulative count reaches rank.
    """
    n = sum(c for _, c in hist) + overflow_count
    if n == 0:
        return 0, False
    q = min(max(q, 0.0), 1.0)
    rank = math.ceil(q * float(n))
    rank = min(max(rank, 1), n)
    seen = 0
    for us, count in hist:
        seen += count
        if seen >= rank:
            return us, False
    return max_value, True


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# ---------------------------------------------------------------- /proc sampling

CLK_TCK = os.sysconf("SC_CLK_TCK")


def others_cpu_s(load_pgid):
    """CPU seconds used so far by every process but this script and the load
    we started (its process group): utime+stime, plus cutime+cstime so that
    the short-lived children a live parent reaped (a build's compilers)
    count too. The tools are this script's children: reaped, their time is
    in its cutime and stays out with it.

    Not /proc/stat's busy time: that is sampled at the tick, and wakeups
    that keep a fixed phase against the tick (paired rounds, aligned to the
    second) can be caught in the kernel at every tick, which made 20 ms of
    the tools' CPU a second look like 200."""
    me = os.getpid()
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                rest = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if load_pgid is not None and int(rest[2]) == load_pgid:
            continue
        total += sum(int(x) for x in rest[11:15])
    return total / CLK_TCK


class Background:
    """CPU used by everything but the tools under test and the load we
    started, in % of one CPU."""

    def __init__(self, load_pgid):
        self.load_pgid = load_pgid
        self.t = time.monotonic()
        self.others = others_cpu_s(load_pgid)

    def pct(self):
        wall = time.monotonic() - self.t
        if wall <= 0:
            return None
        return max(0.0, 100.0 * (others_cpu_s(self.load_pgid) - self.others) / wall)


def wait_quiet(load_pgid, max_bg, max_wait):
    """Waits until the background uses under max_bg % of a CPU over 1 s.
    Returns (seconds waited, last background %)."""
    start = time.monotonic()
    while True:
        bg = Background(load_pgid)
        time.sleep(1.0)
        pct = bg.pct()
        waited = time.monotonic() - start
        if pct is None or pct <= max_bg or waited >= max_wait:
            return waited, pct

def read_task_cpu(pid):
    """{tid: (comm, cpu_ns, runs)} for every thread of pid, from schedstat:
    time on CPU and how many times the thread was switched in."""
    out = {}
    base = f"/proc/{pid}/task"
    try:
        tids = os.listdir(base)
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"{base}/{tid}/schedstat") as f:
                fields = f.read().split()
            with open(f"{base}/{tid}/comm") as f:
                comm = f.read().strip()
            out[int(tid)] = (comm, int(fields[0]), int(fields[2]))
        except (OSError, ValueError, IndexError):
            continue
    return out


class TaskSampler:
    """Samples a running tool's per-thread CPU time to get steady-state rates."""

    def __init__(self, pid, loop_thread):
        self.pid = pid
        self.loop_thread = loop_thread  # callable(pid, tid, comm) -> bool
        self.first = None  # (t, {tid: (comm, ns)})
        self.last = None

    def sample(self):
        t = time.monotonic()
        tasks = read_task_cpu(self.pid)
        if not tasks:
            return
        if self.first is None:
            self.first = (t, tasks)
        self.last = (t, tasks)

    def rates(self, interval_us):
        """(process ns, measuring thread ns) per wakeup of the measuring thread,
        or Nones. Wakeups are the thread's switch-ins (schedstat's pcount)."""
        if not self.first or not self.last or self.last[0] - self.first[0] < 1.0:
            return None, None
        (t0, a), (t1, b) = self.first, self.last
        proc = sum(v[1] for v in b.values()) - sum(v[1] for v in a.values())
        loop = wakeups = None
        for tid, (comm, ns, runs) in b.items():
            if tid in a and self.loop_thread(self.pid, tid, comm):
                loop, wakeups = ns - a[tid][1], runs - a[tid][2]
        if not wakeups:
            return None, None
        return proc / wakeups, loop / wakeups


# ---------------------------------------------------------------- running tools

def loop_tids(pid, loop_thread):
    return [tid for tid, (comm, _, _) in read_task_cpu(pid).items()
            if loop_thread(pid, tid, comm)]


def run_tools(jobs, workdir, interval_us, duration, load_pgid, cpus=None, swap_every=0):
    """Runs each job = (argv, tag, loop_thread) at the same time (one job: alone)
    and samples their threads; returns per job (rc, cpu_s, proc_rate, loop_rate,
    rusage, background %, CPU swaps). The background excludes every job's own
    CPU. With `cpus` (one per job, each job pinned there at its start) and
    `swap_every` ticks of 0.5 s, the jobs' measuring threads trade CPUs that
    often, so that each spends the same time on each CPU."""
    bg = Background(load_pgid)
    running = []
    if cpus:
        # Aligned tools start at the next whole second with room to spare:
        # cyclictest --secaligned skips a second when less than 0.1 s of it
        # is left, latprobe when its 0.25 s settle runs past it. Starting
        # both at .1 s puts them in the same second, their windows together.
        time.sleep((1.1 - time.monotonic() % 1.0) % 1.0)
    try:
        for argv, tag, loop_thread in jobs:
            out = open(os.path.join(workdir, tag + ".stdout"), "wb")
            err = open(os.path.join(workdir, tag + ".stderr"), "wb")
            # Together, each in a session (an autogroup) of its own, as if
            # started from two terminals: sharing one, each would take CPU
            # share from the other.
            proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=workdir,
                                    start_new_session=len(jobs) > 1)
            out.close()
            err.close()
            running.append({"proc": proc, "sampler": TaskSampler(proc.pid, loop_thread),
                            "status": None, "usage": None})
        started = time.monotonic()
        tick = 0
        swaps = 0
        # Sample from 1 s in until 1 s before the planned end, every 0.5 s.
        while any(r["status"] is None for r in running):
            for r in running:
                if r["status"] is None:
                    pid, st, ru = os.wait4(r["proc"].pid, os.WNOHANG)
                    if pid == r["proc"].pid:
                        r["status"], r["usage"] = st, ru
            elapsed = time.monotonic() - started
            if 1.0 <= elapsed <= duration - 1.0:
                for r in running:
                    if r["status"] is None:
                        r["sampler"].sample()
            tick += 1
            if cpus and swap_every and tick % swap_every == 0 \
                    and all(r["status"] is None for r in running):
                cpus = cpus[1:] + cpus[:1]
                for r, (_, _, loop_thread), cpu in zip(running, jobs, cpus):
                    for tid in loop_tids(r["proc"].pid, loop_thread):
                        try:
                            os.sched_setaffinity(tid, {cpu})
                        except OSError:
                            pass
                swaps += 1
            time.sleep(0.5)
    finally:
        for r in running:
            if r["status"] is None:
                r["proc"].kill()
                r["proc"].wait()
    cpu = [r["usage"].ru_utime + r["usage"].ru_stime for r in running]
    bg_pct = bg.pct()
    out = []
    for r, cpu_s in zip(running, cpu):
        proc_rate, loop_rate = r["sampler"].rates(interval_us)
        out.append((os.waitstatus_to_exitcode(r["status"]), cpu_s, proc_rate, loop_rate,
                    r["usage"], bg_pct, swaps))
    return out


def cyclictest_job(args, workdir, tag, place=None):
    argv = [args.cyclictest, "--policy=other", "-t", "1", "-i", str(args.interval),
            "-D", str(args.duration), "-h", str(args.hist_limit),
            "--histfile=" + os.path.join(workdir, tag + ".hist"),
            "--json=" + os.path.join(workdir, tag + ".json"), "-q", "--laptop"] \
        + args.cyclictest_arg
    if place is not None:
        cpu, align_us = place
        argv += ["-a", str(cpu), f"--secaligned={align_us}"]

    def loop_thread(pid, tid, comm):
        return tid != pid

    return argv, tag, loop_thread


def cyclictest_result(args, workdir, tag, argv, ran, place=None):
    rc, cpu_s, proc_rate, loop_rate, usage, bg_pct, _ = ran
    if rc != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {rc}; see {workdir}/{tag}.stderr")
    with open(os.path.join(workdir, tag + ".json")) as f:
        data = json.load(f)
    thread = data["thread"]["0"]
    hist = sorted((int(us), int(n)) for us, n in thread.get("histogram", {}).items())
    cycles = int(thread["cycles"])
    overflow = cycles - sum(n for _, n in hist)
    mx = int(thread["max"])
    res = {"tool": "cyclictest", "samples": cycles, "max_us": mx,
           "min_us": int(thread["min"]), "mean_us": float(thread["avg"]),
           "hist_overflow": overflow, "own_sampled_pct": None}
    flags = []
    for key, q in (("p50_us", 0.50), ("p99_us", 0.99), ("p999_us", 0.999)):
        res[key], past = nearest_rank(hist, overflow, q, mx)
        if past:
            flags.append(key)
    res["past_limit"] = flags
    # -D counts from the first period's start, aligned or not: the window is
    # the same as latprobe's --duration.
    return finish(res, args, cpu_s, proc_rate, loop_rate, usage, argv, bg_pct)


def latprobe_run_options(latprobe):
    """The text of `latprobe run --help`, to see which options this latprobe
    has; empty when it cannot say."""
    try:
        return subprocess.run([latprobe, "run", "--help"], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def latprobe_run_flags(options):
    """Flags of `latprobe run` that switch off work around the measurement:
    the noise check (seconds of spinning before the run) and the state
    captures at a phase's first miss. Passed when this latprobe has them."""
    return [f for f in ("--no-noise-check", "--no-auto-capture") if f in options]


def latprobe_job(args, workdir, tag, place=None):
    argv = [args.latprobe, "--quiet", "run", "--consumers", "wakeup",
            "--wakeup-interval", str(args.interval), "--duration", str(args.duration),
            "--policy", "other", "--out", os.path.join(workdir, tag + ".json"),
            "--no-progress"] + args.latprobe_flags + args.latprobe_arg
    if place is not None:
        cpu, align_us = place
        # --duration counts from the aligned start, so the window is whole.
        argv += ["--cpus", str(cpu), "--align-us", str(align_us)]

    def loop_thread(pid, tid, comm):
        return comm == "lp-wakeup"

    return argv, tag, loop_thread


def latprobe_result(args, workdir, tag, argv, ran, place=None):
    rc, cpu_s, proc_rate, loop_rate, usage, bg_pct, _ = ran
    if rc != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {rc}; see {workdir}/{tag}.stderr")
    jpath = os.path.join(workdir, tag + ".json")
    with open(jpath) as f:
        data = json.load(f)
    c = data["phases"][0]["consumers"][0]
    h = c["histogram"]
    hist = sorted((int(us), int(n)) for us, n in h["counts"])
    res = {"tool": "latprobe", "samples": int(c["samples"]), "max_us": int(c["max_us"]),
           "min_us": int(c["min_us"]), "mean_us": float(c["mean_us"]),
           "hist_overflow": int(h["overflow"]), "own_sampled_pct": float(c["sampled_pct"]),
           "past_limit": []}
    # latprobe's histogram carries exact values past its limit: the same
    # nearest-rank over it must give latprobe's own figures.
    for key, q in (("p50_us", 0.50), ("p99_us", 0.99), ("p999_us", 0.999)):
        mine, _ = nearest_rank(hist, 0, q, res["max_us"])
        if mine != int(c[key]):
            print(f"warning: {tag}: {key} recomputed {mine} != latprobe's {c[key]}",
                  file=sys.stderr)
        res[key] = int(c[key])
    grant = data["consumers"][0].get("granted", {})
    res["granted"] = f"{grant.get('policy')} slack {grant.get('timer_slack_ns')} ns"
    return finish(res, args, cpu_s, proc_rate, loop_rate, usage, argv, bg_pct)


def finish(res, args, cpu_s, proc_rate, loop_rate, usage, argv, bg_pct):
    expected = args.duration * 1e6 / args.interval
    res["sampled_pct"] = 100.0 * res["samples"] / expected
    res["cpu_ms"] = cpu_s * 1e3
    res["cpu_ns_per_wakeup"] = cpu_s * 1e9 / res["samples"] if res["samples"] else None
    res["steady_proc_ns_per_wakeup"] = proc_rate
    res["steady_loop_ns_per_wakeup"] = loop_rate
    res["minflt"] = usage.ru_minflt
    res["nvcsw"] = usage.ru_nvcsw
    res["nivcsw"] = usage.ru_nivcsw
    res["argv"] = argv
    res["bg_pct"] = bg_pct
    return res


TOOLS = {"cyclictest": (cyclictest_job, cyclictest_result),
         "latprobe": (latprobe_job, latprobe_result),
         # The control arm: cyclictest against itself, same protocol.
         "cyclictest-2": (cyclictest_job, cyclictest_result)}

MAIN_ARM = ("cyclictest", "latprobe")
CONTROL_ARM = ("cyclictest", "cyclictest-2")


# ---------------------------------------------------------------- load

class StressLoad:
    def __init__(self, stress_ng, cpus, workdir):
        self.argv = [stress_ng, "--cpu", str(cpus), "--timeout", "0", "--quiet"]
        self.workdir = workdir
        self.proc = None

    def start(self):
        # Its own session, as when a tester starts the load from a terminal
        # (latprobe's default for load groups); with autogroup on this
        # decides what the probes compete with.
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)

    def pgid(self):
        return self.proc.pid if self.proc is not None else None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.proc is None:
            return
        for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        # stress-ng's workers are in the same process group.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc = None


# ---------------------------------------------------------------- report

COLS = [("p50", "p50_us", "{:.0f}"), ("p99", "p99_us", "{:.0f}"),
        ("p99.9", "p999_us", "{:.0f}"), ("max", "max_us", "{:.0f}"),
        ("smpl%", "sampled_pct", "{:.2f}"), ("cpu ms", "cpu_ms", "{:.1f}"),
        ("ns/wk", "cpu_ns_per_wakeup", "{:.0f}"),
        ("ss ns/wk", "steady_proc_ns_per_wakeup", "{:.0f}"),
        ("loop ns/wk", "steady_loop_ns_per_wakeup", "{:.0f}"),
        ("bg%", "bg_pct", "{:.0f}")]

RATIOS = [("p50", "p50_us"), ("p99", "p99_us"), ("p99.9", "p999_us"), ("max", "max_us"),
          ("cpu/wakeup", "cpu_ns_per_wakeup")]


def width(header):
    return max(6, len(header))


def fmt(v, f):
    return "-" if v is None else f.format(v)


def print_condition(name, runs, args, arm=MAIN_ARM):
    anchor, probe = arm
    print()
    print(f"condition: {name}   ({len(runs[anchor])} rounds x {args.duration} s, "
          f"interval {args.interval} us, SCHED_OTHER, order {args.order})")
    header = f"{'tool':<13}{'round':>6}" + "".join(" " + f"{h:>{width(h)}}" for h, _, _ in COLS)
    print(header)
    print("-" * len(header))
    medians = {}
    for tool in arm:
        for i, r in enumerate(runs[tool]):
            line = f"{tool:<13}{i + 1:>6}"
            for h, k, f in COLS:
                line += " " + f"{fmt(r.get(k), f):>{width(h)}}"
            if r.get("past_limit"):
                line += "  (past -h limit: " + ",".join(r["past_limit"]) + " = max)"
            if r.get("cpu") is not None:
                line += f"  (cpu {r['cpu']}" + (f" and swapped {r['cpu_swaps']}x"
                                                 if r.get("cpu_swaps") else "") \
                    + f", +{r['align_us']} us)"
            if r.get("attempts", 1) > 1:
                line += f"  (attempt {r['attempts']})"
            if args.max_bg is not None and (r.get("bg_pct") or 0) > args.max_bg:
                line += "  (noisy)"
            print(line)
        med = {k: median([r.get(k) for r in runs[tool]]) for _, k, _ in COLS}
        medians[tool] = med
        line = f"{tool:<13}{'median':>6}"
        for h, k, f in COLS:
            line += " " + f"{fmt(med.get(k), f):>{width(h)}}"
        print(line)
    ratios = {}
    parts = []
    for label, key in RATIOS:
        a, b = medians[probe].get(key), medians[anchor].get(key)
        ratios[label] = a / b if a is not None and b else None
        parts.append(f"{label} {fmt(ratios[label], '{:.2f}')}")
    print(f"{probe} / {anchor} (medians): " + "   ".join(parts))
    # Paired: each round's two runs are back to back, so they saw about the
    # same background; the median of per-round ratios is less sensitive to it.
    paired = []
    for label, key in RATIOS:
        rs = [b[key] / a[key] for a, b in zip(runs[anchor], runs[probe])
              if a.get(key) and b.get(key) is not None]
        ratios["paired " + label] = median(rs)
        paired.append(f"{label} {fmt(median(rs), '{:.2f}')}")
    print("  median of per-round ratios:    " + "   ".join(paired))
    if arm == CONTROL_ARM:
        print("  (the control: how far two copies of the same tool differ under this "
              "protocol)")
        return medians, ratios
    # Runs side by side are pairs: judge the pairs' ratios. Runs one after
    # the other are not, and the ratio of the medians is what compares them.
    side_by_side = args.order in ("paired", "together")
    prefix, basis = ("paired ", "median of per-round ratios") if side_by_side \
        else ("", "ratio of the medians")
    for label, key in (("p50", "p50_us"), ("p99", "p99_us")):
        r = ratios[prefix + label]
        ok = r is not None and GOAL_LOW <= r <= GOAL_HIGH
        print(f"  goal {label} ratio in {GOAL_LOW}-{GOAL_HIGH} ({basis}): "
              f"{'met' if ok else 'MISSED'}")
    r = ratios[prefix + "cpu/wakeup"]
    print(f"  goal latprobe cpu/wakeup <= cyclictest's ({basis}): "
          f"{'met' if r is not None and r <= 1.0 else 'MISSED'}")
    return medians, ratios


def save_figures(result, cond, ratios, args):
    """The goal figures of a condition, as print_condition judges them."""
    prefix = "paired " if args.order in ("paired", "together") else ""
    for label in ("p50", "p99"):
        result.figure(f"{cond} {label}, latprobe / cyclictest", ratios[prefix + label],
                      goal=f"in {GOAL_LOW}-{GOAL_HIGH}")
    result.figure(f"{cond} CPU per wakeup, latprobe / cyclictest", ratios[prefix + "cpu/wakeup"],
                  goal="<= 1.0")


def run_rounds(cond, arm, args, load, rng, workdir):
    """Runs args.rounds rounds of the two tools of `arm` under the current
    condition; returns {tool: [result per round]}."""
    runs = {tool: [] for tool in arm}
    for rnd in range(args.rounds):
        order = list(arm)
        if args.order == "random":
            rng.shuffle(order)
        elif rnd % 2 == 1:
            order.reverse()
        # paired: both at once, each pinned to its own CPU (the first tool of
        # `order` to the first of --pair-cpus, so the CPUs swap every round),
        # both waking at the same offset past the second, drawn per round.
        places = {tool: None for tool in arm}
        if args.order == "paired":
            align_us = rng.randrange(min(args.interval, 1000000))
            for tool, cpu in zip(order, args.pair_cpus):
                places[tool] = (cpu, align_us)
        # Alone in turn, or both at once (one slot: the same noise for both).
        slots = [order] if args.order in ("together", "paired") else [[tool] for tool in order]
        for tools in slots:
            if load is not None and not load.alive():
                raise RuntimeError("stress-ng died")
            pgid = load.pgid() if load is not None else None
            label = " + ".join(tools)
            for attempt in range(args.retries + 1):
                suffix = f"-retry{attempt}" if attempt else ""
                jobs = [TOOLS[tool][0](args, workdir, f"{cond}-r{rnd + 1}-{tool}{suffix}",
                                       places[tool]) for tool in tools]
                waited, before = 0.0, None
                if args.max_bg is not None:
                    waited, before = wait_quiet(pgid, args.max_bg, args.max_wait)
                print(f"  {cond} round {rnd + 1}/{args.rounds}: {label}"
                      + (f" (retry {attempt})" if attempt else "")
                      + (f" after waiting {waited:.0f} s for quiet" if waited > 1.5 else "")
                      + " ...", file=sys.stderr, flush=True)
                paired = args.order == "paired"
                ran = run_tools(jobs, workdir, args.interval, args.duration, pgid,
                                [places[t][0] for t in tools] if paired else None,
                                round(args.swap_every / 0.5) if paired else 0)
                results_now = {}
                for tool, (argv, tag, _), r in zip(tools, jobs, ran):
                    res = TOOLS[tool][1](args, workdir, tag, argv, r, places[tool])
                    res["round"] = rnd + 1
                    res["position"] = order.index(tool) + 1
                    res["attempts"] = attempt + 1
                    res["waited_s"] = waited
                    if places[tool] is not None:
                        res["cpu"], res["align_us"] = places[tool]
                        res["cpu_swaps"] = r[6]
                    results_now[tool] = res
                time.sleep(args.gap)
                bg_pct = ran[0][5]
                if args.max_bg is None or bg_pct is None or bg_pct <= args.max_bg:
                    break
                if before is not None and before > args.max_bg:
                    # Never quiet even before the run: redoing it won't help.
                    print(f"    background used {bg_pct:.0f} % of a CPU during the run; "
                          f"the machine did not get quiet in {args.max_wait:g} s",
                          file=sys.stderr, flush=True)
                    break
                print(f"    background used {bg_pct:.0f} % of a CPU during the run "
                      f"(> {args.max_bg:g})", file=sys.stderr, flush=True)
            for tool in tools:
                runs[tool].append(results_now[tool])
    return runs


def pool(files, order=None):
    """Pools the rounds of earlier --json-out files (those run with --order
    `order`, when given): per condition and arm, the median and quartiles of
    the per-round ratios latprobe / cyclictest (and cyclictest-2 /
    cyclictest for the control)."""
    pairs = {}
    used = 0
    for name in files:
        with open(name) as f:
            data = json.load(f)
        if order and data["meta"].get("order") != order:
            continue
        used += 1
        for cond, c in data["conditions"].items():
            pairs.setdefault((cond, MAIN_ARM), []).extend(
                zip(c["runs"][MAIN_ARM[0]], c["runs"][MAIN_ARM[1]]))
            if "control" in c:
                runs = c["control"]["runs"]
                pairs.setdefault((cond, CONTROL_ARM), []).extend(
                    zip(runs[CONTROL_ARM[0]], runs[CONTROL_ARM[1]]))
    keys = [("p50", "p50_us"), ("p99", "p99_us"), ("p99.9", "p999_us"), ("max", "max_us"),
            ("sampled %", "sampled_pct"), ("cpu/wakeup", "cpu_ns_per_wakeup"),
            ("steady cpu/wakeup", "steady_proc_ns_per_wakeup")]
    for (cond, (anchor, probe)), ps in pairs.items():
        print(f"{cond}: {len(ps)} rounds from {used} files; per-round ratio {probe} / {anchor}")
        print(f"  {'':18} {'median':>7} {'q1':>6} {'q3':>6}  {probe} higher")
        for label, key in keys:
            r = [b[key] / a[key] for a, b in ps if a.get(key) and b.get(key) is not None]
            if len(r) < 2:
                continue
            q1, _, q3 = statistics.quantiles(r, n=4)
            print(f"  {label:18} {statistics.median(r):7.2f} {q1:6.2f} {q3:6.2f}  "
                  f"{sum(x > 1 for x in r)}/{len(r)}")
        for label, key in keys[:2]:
            print(f"  pooled median {label}: {anchor} {statistics.median(a[key] for a, _ in ps):g} "
                  f"us, {probe} {statistics.median(b[key] for _, b in ps):g} us")
    return 0


def timer_slack_ns():
    try:
        with open("/proc/self/timerslack_ns") as f:
            return int(f.read())
    except OSError:
        return None


def set_timer_slack(ns):
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_TIMERSLACK = 29
    if libc.prctl(PR_SET_TIMERSLACK, ctypes.c_ulong(ns), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_TIMERSLACK)")


def read_first_line(path):
    try:
        with open(path) as f:
            return f.readline().strip()
    except OSError:
        return None


def interrupt_on_sigterm():
    """A kill ends the script as Ctrl-C does: the tools and the load are
    stopped and the work directory removed."""
    def handler(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


def main():
    interrupt_on_sigterm()
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3, help="rounds per condition (default 3)")
    p.add_argument("--duration", type=int, default=20, help="seconds per run (default 20)")
    p.add_argument("--interval", type=int, default=1000, help="wakeup interval in us (default 1000)")
    p.add_argument("--conditions", default="idle,loaded",
                   help="comma-separated: idle, loaded (default both)")
    p.add_argument("--stress-cpus", type=int, default=2,
                   help="stress-ng --cpu N for the loaded condition (default 2)")
    p.add_argument("--settle", type=float, default=2.0,
                   help="seconds between starting the load and the first run (default 2)")
    p.add_argument("--gap", type=float, default=1.0, help="seconds between runs (default 1)")
    p.add_argument("--order", choices=("paired", "alternate", "random", "together"),
                   default="paired",
                   help="paired: both at the same time, each pinned to one of --pair-cpus "
                        "(swapped every round), both waking at the same offset past the "
                        "second (cyclictest --secaligned, latprobe --align-us; a new offset "
                        "each round), so a round's two runs see the same host and the same "
                        "timer phase (default); alternate: one after the other, cyclictest "
                        "first in odd rounds; random: one after the other, shuffled; "
                        "together: both at once, unpinned, unaligned")
    p.add_argument("--pair-cpus", default="0,1",
                   help="the two CPUs of --order paired (default 0,1)")
    p.add_argument("--swap-every", type=float, default=1.0,
                   help="--order paired: the two measuring threads trade CPUs this often, "
                        "in s, a multiple of 0.5 (default 1; 0: never). One vCPU of a VM "
                        "can be noisier than the other for minutes; trading, each tool gets "
                        "the same share of each")
    p.add_argument("--control", action="store_true",
                   help="also run cyclictest against a second cyclictest with the same "
                        "protocol and print their ratios: how far apart two copies of the "
                        "same tool land on this machine")
    p.add_argument("--seed", type=int, default=None, help="seed for --order random")
    p.add_argument("--max-bg", type=float, default=20.0,
                   help="background CPU (anything but the tool and the load we started) "
                        "allowed, in %% of one CPU: wait for it before each run and redo a run "
                        "that saw more (default 20; a negative value disables both)")
    p.add_argument("--max-wait", type=float, default=30.0,
                   help="longest wait for a quiet machine before a run, s (default 30)")
    p.add_argument("--retries", type=int, default=1,
                   help="redo a run that saw more background than --max-bg, if the machine "
                        "was quiet before it, up to N times (default 1); the last attempt is "
                        "kept either way and marked (noisy)")
    p.add_argument("--hist-limit", type=int, default=20000,
                   help="cyclictest -h, in us (default 20000). cyclictest writes every "
                        "bucket to --histfile at exit: -h 100000 (latprobe's limit) costs it "
                        "~25 ms of CPU, ~1.3 us per wakeup of a 20 s run, in latprobe's favour")
    p.add_argument("--timer-slack", type=int, default=None,
                   help="set this script's timer slack (ns) before spawning both tools")
    p.add_argument("--latprobe", default=os.path.join(root, "build", "app", "latprobe"),
                   help="latprobe binary (default build/app/latprobe of this tree)")
    p.add_argument("--cyclictest", default=shutil.which("cyclictest") or "cyclictest",
                   help="cyclictest binary (default from PATH)")
    p.add_argument("--stress-ng", default=shutil.which("stress-ng") or "stress-ng",
                   help="stress-ng binary (default from PATH)")
    p.add_argument("--latprobe-arg", action="append", default=[],
                   help="extra argument for `latprobe run` (repeatable)")
    p.add_argument("--cyclictest-arg", action="append", default=[],
                   help="extra argument for cyclictest (repeatable)")
    p.add_argument("--keep", default=None, help="keep the tools' files in this directory")
    p.add_argument("--json-out", default=None, help="write every figure to this JSON file")
    benchlib.add_save_option(p)
    p.add_argument("--pool", nargs="+", metavar="JSON",
                   help="run nothing: pool the rounds of earlier --json-out files")
    p.add_argument("--pool-order", default=None,
                   help="with --pool: only the files run with this --order")
    args = p.parse_args()
    if args.pool:
        return pool(args.pool, args.pool_order)

    # The tools run in the work directory: relative paths would not resolve.
    args.latprobe = os.path.abspath(args.latprobe)
    args.cyclictest = os.path.abspath(args.cyclictest)
    for tool in (args.latprobe, args.cyclictest):
        if not (os.path.isfile(tool) and os.access(tool, os.X_OK)):
            print(f"cyclictest_compare: {tool} not found or not executable", file=sys.stderr)
            return 2
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    for c in conditions:
        if c not in ("idle", "loaded"):
            print(f"cyclictest_compare: unknown condition {c!r}", file=sys.stderr)
            return 2
    if "loaded" in conditions and not shutil.which(args.stress_ng) \
            and not os.access(args.stress_ng, os.X_OK):
        print(f"cyclictest_compare: {args.stress_ng} not found", file=sys.stderr)
        return 2
    latprobe_options = latprobe_run_options(args.latprobe)
    args.latprobe_flags = latprobe_run_flags(latprobe_options)
    if args.order == "paired":
        if "--align-us" not in latprobe_options:
            print(f"cyclictest_compare: {args.latprobe} has no --align-us: use --order "
                  f"alternate, or a newer latprobe", file=sys.stderr)
            return 2
        try:
            args.pair_cpus = [int(c) for c in args.pair_cpus.split(",")]
        except ValueError:
            args.pair_cpus = []
        usable = os.sched_getaffinity(0)
        if len(args.pair_cpus) != 2 or args.pair_cpus[0] == args.pair_cpus[1] \
                or not set(args.pair_cpus) <= usable:
            print(f"cyclictest_compare: --pair-cpus wants two different CPUs of "
                  f"{sorted(usable)}, e.g. 0,1 (or use --order alternate)", file=sys.stderr)
            return 2
    if args.timer_slack is not None:
        set_timer_slack(args.timer_slack)
    if args.max_bg is not None and args.max_bg < 0:
        args.max_bg = None

    result = benchlib.Result("cyclictest_compare", args.save, latprobe=args.latprobe)
    workdir = args.keep or tempfile.mkdtemp(prefix="cyclictest_compare.")
    os.makedirs(workdir, exist_ok=True)
    rng = random.Random(args.seed)
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernel": platform.release(), "nproc": os.cpu_count(),
        "timer_slack_ns": timer_slack_ns(),
        "autogroup": read_first_line("/proc/sys/kernel/sched_autogroup_enabled"),
        "cpuidle_driver": read_first_line("/sys/devices/system/cpu/cpuidle/current_driver"),
        "rounds": args.rounds, "duration_s": args.duration, "interval_us": args.interval,
        "order": args.order, "seed": args.seed, "workdir": workdir,
        "pair_cpus": args.pair_cpus if args.order == "paired" else None,
        "control": args.control,
    }
    print(f"cyclictest_compare  {meta['date']}  Linux {meta['kernel']}  {meta['nproc']} CPUs  "
          f"timer slack {meta['timer_slack_ns']} ns  autogroup {meta['autogroup']}  "
          f"cpuidle {meta['cpuidle_driver']}")
    print(f"latprobe {args.latprobe} {' '.join(args.latprobe_flags)}\n"
          f"cyclictest {args.cyclictest}  files in {workdir}")
    total = len(conditions) * args.rounds * (2 if args.control else 1) \
        * (1 if args.order in ("together", "paired") else 2) * (args.duration + args.gap + 1)
    print(f"about {total / 60:.1f} min", flush=True)

    results = {"meta": meta, "conditions": {}}
    load = None
    rc = 0
    try:
        for cond in conditions:
            if cond == "loaded":
                load = StressLoad(args.stress_ng, args.stress_cpus, workdir)
                load.start()
                time.sleep(args.settle)
            runs = run_rounds(cond, MAIN_ARM, args, load, rng, workdir)
            control = run_rounds(cond, CONTROL_ARM, args, load, rng, workdir) \
                if args.control else None
            if load is not None:
                load.stop()
                load = None
            title = cond + (f" (stress-ng --cpu {args.stress_cpus}, own session)"
                            if cond == "loaded" else "")
            medians, ratios = print_condition(title, runs, args)
            results["conditions"][cond] = {"runs": runs, "medians": medians, "ratios": ratios}
            save_figures(result, cond, ratios, args)
            if control is not None:
                medians, ratios = print_condition(title + ", control", control, args, CONTROL_ARM)
                results["conditions"][cond]["control"] = {"runs": control, "medians": medians,
                                                          "ratios": ratios}
            sys.stdout.flush()
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print(f"cyclictest_compare: {e}", file=sys.stderr)
        rc = 2
    except KeyboardInterrupt:
        print("cyclictest_compare: interrupted", file=sys.stderr)
        rc = 130
    finally:
        if load is not None:
            load.stop()
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(results, f, indent=1)
    if rc == 0:
        result.save()
    print("\ncolumns: latency in us (truncated, nearest-rank); smpl% = samples / "
          "(duration / interval);\ncpu ms = user+sys of the tool process (rusage); "
          "ns/wk = that / samples;\nss ns/wk, loop ns/wk = steady-state CPU of the process / of "
          "the measuring thread alone,\nper wakeup (switch-in) of the measuring thread, from "
          "/proc/PID/task/*/schedstat\n(diagnostic; startup and exit excluded);\nbg% = CPU used meanwhile by everything "
          "else but the load we started, in % of one CPU.")
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
