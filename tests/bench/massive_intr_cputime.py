#!/usr/bin/env python3
"""massive_intr as its author describes it, beside latprobe's: same spread?

massive_intr (Satoru Takeuchi) runs N processes that each work 8 ms, sleep
1 ms and count their loops; the spread of the loop counts says how evenly the
scheduler shared the CPUs. Here "work 8 ms" is 8 ms of the process's own CPU
time (CLOCK_THREAD_CPUTIME_ID), so a process preempted mid-work finishes
later and its loops count the CPU it got. The reference is a small C program
compiled with `cc` into a temp dir at run time (Python would be too slow to
spin on a clock) and removed afterwards; it runs in a session of its own, as
latprobe's load groups do.

Each round runs, one after the other and nothing else, the reference for
--duration seconds and

    latprobe run --duration D --idle 0 --no-noise-check --consumers wakeup \\
        --load massive_intr:N --out RUN

whose per-worker loop counts are the run file's loads[0].per_worker. The
order alternates between rounds. Printed per round: max/min of the loop
counts of both and the difference, and latprobe's max/min of the CPU time
the kernel gave each worker. Goal: latprobe's max/min within --goal (0.02)
of the reference's in every round.

    python3 tests/bench/massive_intr_cputime.py              # 3 rounds x 2 x 10 s, ~1 min
    python3 tests/bench/massive_intr_cputime.py --rounds 1 --duration 3   # smoke
    python3 tests/bench/massive_intr_cputime.py --control    # the reference against itself

--control runs the reference in latprobe's place: the spread two runs of
the same program show on this machine, the floor under any goal.

--save keeps the result under tests/bench/results/ (benchlib.py); the
control's as massive_intr_cputime_control.

Exit status: 0 when every round meets the goal, 1 when one does not, 2 when
a program could not be built or run. Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import benchlib

REFERENCE_C = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* argv: processes, work ns, sleep ns, duration ns. Prints one line per
   process: loops, CPU ns. */
int main(int argc, char **argv)
{
    if (argc != 5)
        return 2;
    const int n = atoi(argv[1]);
    const long long work = atoll(argv[2]), sleep_ns = atoll(argv[3]);
    const long long duration = atoll(argv[4]);
    int go[2];
    if (pipe(go) != 0)
        return 2;
    for (int i = 0; i < n; ++i) {
        const pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (pid == 0) {
            char c;
            close(go[1]);
            /* Every process starts when the parent closes the pipe. */
            while (read(go[0], &c, 1) > 0) {
            }
            const long long end = now(CLOCK_MONOTONIC) + duration;
            const struct timespec pause = {sleep_ns / 1000000000LL, sleep_ns % 1000000000LL};
            unsigned long loops = 0;
            while (now(CLOCK_MONOTONIC) < end) {
                const long long start = now(CLOCK_THREAD_CPUTIME_ID);
                while (now(CLOCK_THREAD_CPUTIME_ID) - start < work) {
                }
                nanosleep(&pause, NULL);
                ++loops;
            }
            printf("%lu %lld\n", loops, now(CLOCK_THREAD_CPUTIME_ID));
            fflush(stdout);
            _exit(0);
        }
    }
    close(go[1]);
    while (wait(NULL) > 0) {
    }
    return 0;
}
"""


def max_over_min(values):
    return max(values) / min(values) if values and min(values) > 0 else float("inf")


def build_reference(work_dir):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        raise RuntimeError("no C compiler (cc, gcc, clang): install one")
    src = os.path.join(work_dir, "massive_intr_cputime.c")
    exe = os.path.join(work_dir, "massive_intr_cputime")
    with open(src, "w") as f:
        f.write(REFERENCE_C)
    subprocess.run([cc, "-O2", "-o", exe, src], check=True)
    return exe


def run_reference(exe, workers, work_ms, sleep_ms, duration):
    out = subprocess.run([exe, str(workers), str(int(work_ms * 1e6)), str(int(sleep_ms * 1e6)),
                          str(int(duration * 1e9))],
                         capture_output=True, text=True, check=True, start_new_session=True,
                         timeout=duration + 60)
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    if len(rows) != workers:
        raise RuntimeError(f"reference printed {len(rows)} of {workers} workers")
    return [int(r[0]) for r in rows], [int(r[1]) / 1e9 for r in rows]


def run_latprobe(binary, workers, work_ms, sleep_ms, duration, work_dir, k):
    out = os.path.join(work_dir, f"run-{k}.json")
    cmd = [binary, "--quiet", "run", "--duration", str(duration), "--idle", "0",
           "--no-noise-check", "--no-progress", "--consumers", "wakeup",
           "--load", f"massive_intr:{workers}:work_ms={work_ms}:sleep_ms={sleep_ms}",
           "--out", out]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, timeout=duration + 120)
    with open(out) as f:
        load = json.load(f)["loads"][0]
    cpu = [s for s in load.get("per_worker_cpu_s", []) if s >= 0]
    return load["per_worker"], cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="default 3")
    ap.add_argument("--duration", type=float, default=10, help="seconds per run (default 10)")
    ap.add_argument("--workers", type=int, default=8, help="default 8")
    ap.add_argument("--work-ms", type=float, default=8, help="default 8")
    ap.add_argument("--sleep-ms", type=float, default=1, help="default 1")
    ap.add_argument("--goal", type=float, default=0.02,
                    help="largest |latprobe - reference| of max/min (default 0.02)")
    ap.add_argument("--latprobe", default=benchlib.default_binary("latprobe"),
                    help="default build/app/latprobe")
    ap.add_argument("--control", action="store_true",
                    help="run the reference again in latprobe's place (the machine's noise)")
    benchlib.add_save_option(ap)
    args = ap.parse_args()

    if not args.control and not os.access(args.latprobe, os.X_OK):
        print(f"massive_intr_cputime: {args.latprobe} is not built: cmake --build build",
              file=sys.stderr)
        return 2
    result = benchlib.Result("massive_intr_cputime_control" if args.control
                                else "massive_intr_cputime", args.save, latprobe=args.latprobe)
    work_dir = tempfile.mkdtemp(prefix="latprobe-massive-")
    try:
        exe = build_reference(work_dir)
        if args.control:
            print("control: the reference in latprobe's place (columns lp*)")
        print(f"{args.workers} workers, work {args.work_ms:g} ms of CPU, sleep "
              f"{args.sleep_ms:g} ms, {args.duration:g} s per run, goal |diff| <= {args.goal}")
        print(f"{'round':>5}  {'order':<14}  {'ref loops':>13}  {'ref max/min':>11}  "
              f"{'lp loops':>13}  {'lp max/min':>10}  {'diff':>6}  {'lp cpu max/min':>14}")
        met = 0
        worst = 0.0
        for r in range(args.rounds):
            order = ["reference", "latprobe"] if r % 2 == 0 else ["latprobe", "reference"]
            results = {}
            for who in order:
                if who == "reference" or args.control:
                    results[who] = run_reference(exe, args.workers, args.work_ms, args.sleep_ms,
                                                 args.duration)
                else:
                    results[who] = run_latprobe(args.latprobe, args.workers, args.work_ms,
                                                args.sleep_ms, args.duration, work_dir, r)
            ref_loops, _ = results["reference"]
            lp_loops, lp_cpu = results["latprobe"]
            ref, lp = max_over_min(ref_loops), max_over_min(lp_loops)
            diff = lp - ref
            met += abs(diff) <= args.goal
            worst = max(worst, abs(diff))
            cpu = f"{max_over_min(lp_cpu):.3f}" if lp_cpu else "-"
            print(f"{r + 1:>5}  {order[0][:3] + ' first':<14}  "
                  f"{min(ref_loops):>6}-{max(ref_loops):<6}  {ref:>11.3f}  "
                  f"{min(lp_loops):>6}-{max(lp_loops):<6}  {lp:>10.3f}  {diff:>+6.3f}  "
                  f"{cpu:>14}", flush=True)
        print(f"goal met in {met} of {args.rounds} rounds")
        result.figure(f"worst |latprobe - reference| of loop max/min, {args.rounds} rounds", worst,
                      goal=f"<= {args.goal:g}")
        result.save()
        return 0 if met == args.rounds else 1
    except (RuntimeError, subprocess.SubprocessError, OSError, KeyError, IndexError,
            ValueError) as e:
        print(f"massive_intr_cputime: {e}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
