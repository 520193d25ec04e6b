"""What the benchmarks share, in one place (Python 3 standard library only):

- a result as data: a small JSON file under tests/bench/results/ with the
  date, the commit, the machine, the command and the figures with their
  goals. Every benchmark saves through it (`--save`), and summary.py reads
  what it writes:

      import benchlib
      benchlib.add_save_option(parser)
      args = parser.parse_args()
      result = benchlib.Result("soak", args.save, latprobe=args.latprobe)
      ...
      result.figure("ring overflows", total, goal="== 0")
      result.save()

  A goal is written as it reads: "<= 10", ">= 90", "== 0", "in 0.9-1.1";
  a figure without one is shown, not judged;
- where the binaries are;
- for the GUI benchmarks: a private Xvfb, CPU time of a process and of its
  threads from /proc, the machine's background load.
"""

import datetime
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
SCREEN = "1280x800x24"


def repo_root():
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def default_binary(name):
    return os.path.join(repo_root(), "build", "app", name)


FORMAT = "latprobe bench result"
VERSION = 1
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")

# What `latprobe sysinfo` prints that says what the figures ran on.
SYSINFO_KEYS = ("kernel", "machine", "cpu", "governor", "hz", "preemption", "scheduler",
                "autogroup", "virtualization")


def add_save_option(parser):
    parser.add_argument(
        "--save", nargs="?", const=True, default=None, metavar="FILE",
        help="save the result as JSON: FILE, or tests/bench/results/NAME-DATE.json "
             "(summary.py prints the latest of each)")


def commit():
    """The checkout's commit, with "-dirty" when it has changes."""
    def git(*argv):
        out = subprocess.run(["git", "-C", repo_root(), *argv], capture_output=True, text=True)
        return out.stdout.strip() if out.returncode == 0 else ""
    head = git("rev-parse", "--short=12", "HEAD")
    if not head:
        return "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "app", "core", "ui",
                "tests", "resources")
    return head + ("-dirty" if dirty else "")


def sysinfo(latprobe):
    """The machine as `latprobe sysinfo` describes it (the same code that
    describes it in a run file), or as Python sees it without a binary."""
    info = {}
    try:
        out = subprocess.run([latprobe, "sysinfo"], capture_output=True, text=True,
                             timeout=30)
        for line in out.stdout.split("\n"):
            if not line.strip():
                break
            key, _, value = line.partition(" ")
            if key in SYSINFO_KEYS:
                info[key] = value.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    info.setdefault("kernel", platform.release())
    info.setdefault("machine", platform.machine())
    info["cpus"] = os.cpu_count()
    return info


def noise_check(latprobe):
    """latprobe's own noise check (3 s: gaps per CPU and a fixed loop's
    steadiness), from a run that measures nothing else for long."""
    with tempfile.TemporaryDirectory(prefix="benchlib-") as work:
        out = os.path.join(work, "noise.json")
        cmd = [latprobe, "--quiet", "run", "--duration", "0.2", "--consumers", "wakeup",
               "--no-progress", "--no-trace", "--no-auto-capture", "--no-library", "-o", out]
        try:
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=60)
            with open(out) as f:
                check = json.load(f).get("noise_check", {})
        except (OSError, ValueError, subprocess.TimeoutExpired):
            return {"verdict": "not run"}
    cpus = check.get("cpus", [])
    return {
        "verdict": check.get("verdict", "not run"),
        "lost_pct_worst": round(max((c.get("lost_pct", 0) for c in cpus), default=0), 2),
        "loop_cv_pct": round(check.get("loop_cv_pct") or 0, 2),
    }


def goal_met(value, goal):
    """Whether `value` meets `goal` ("<= 10", "in 0.9-1.1"); None without
    a goal or a value."""
    if goal is None or value is None or isinstance(value, str):
        return None
    m = re.fullmatch(r"\s*in\s+(-?[\d.]+)\s*-\s*(-?[\d.]+)\s*", goal)
    if m:
        return float(m.group(1)) <= value <= float(m.group(2))
    m = re.fullmatch(r"\s*(<=|>=|==|<|>)\s*(-?[\d.]+)\s*", goal)
    if not m:
        raise ValueError(f"benchlib: goal {goal!r}: write <= N, >= N, == N, < N, > N "
                         f"or in A-B")
    bound = float(m.group(2))
    return {"<=": value <= bound, ">=": value >= bound, "==": value == bound,
            "<": value < bound, ">": value > bound}[m.group(1)]


class Result:
    """One invocation of a benchmark: created as it starts (the date, and
    when it is to be saved the machine's noise, before the benchmark loads
    it), saved at the end. `save` is --save's value: None, True or a path."""

    def __init__(self, benchmark, save, latprobe=None, argv=None):
        self.benchmark = benchmark
        self.where = save
        self.latprobe = os.path.abspath(latprobe or default_binary("latprobe"))
        self.started = time.monotonic()
        self.data = {
            "format": FORMAT,
            "version": VERSION,
            "benchmark": benchmark,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "commit": commit(),
            "command": " ".join(argv if argv is not None else
                                ["python3", os.path.relpath(os.path.abspath(sys.argv[0]),
                                                            repo_root())]
                                + sys.argv[1:]),
            "machine": None,
            "figures": [],
        }
        self._noise = None
        if save:
            loadavg = os.getloadavg()[0]
            self._noise = noise_check(self.latprobe)
            self._noise["loadavg_at_start"] = round(loadavg, 2)

    def figure(self, name, value, unit="", goal=None, note=None, met=goal_met):
        """A figure of the result; `goal` as "<= 10" and the like. `met`
        overrides the goal's arithmetic where the script judges otherwise
        (an interval that spans the goal: None, undecided)."""
        if isinstance(value, float):
            value = round(value, 4)
        entry = {"name": name, "value": value, "unit": unit}
        if goal is not None:
            entry["goal"] = goal
            entry["met"] = goal_met(value, goal) if met is goal_met else met
        if note:
            entry["note"] = note
        self.data["figures"].append(entry)
        return entry.get("met")

    def note(self, text):
        self.data["note"] = text

    def save(self):
        """Writes the result when --save was given (alone: the default
        name); returns the path or None."""
        where = self.where
        if not where:
            return None
        self.data["machine"] = sysinfo(self.latprobe)
        noise = self._noise or {"verdict": "not run"}
        noise["loadavg_at_end"] = round(os.getloadavg()[0], 2)
        self.data["machine"]["noise"] = noise
        self.data["took_s"] = round(time.monotonic() - self.started)
        if where is True:
            stamp = self.data["date"][:19].replace(":", "").replace("-", "")
            where = os.path.join(RESULTS, f"{self.benchmark}-{stamp}.json")
        os.makedirs(os.path.dirname(os.path.abspath(where)), exist_ok=True)
        with open(where, "w") as f:
            json.dump(self.data, f, indent=1)
            f.write("\n")
        print(f"{self.benchmark}: result saved to {where}", file=sys.stderr)
        return where


def load(path):
    """A result file, checked: its format and version, else ValueError
    naming the file and the field."""
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: format: not a {FORMAT!r} file")
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: version: {data.get('version')!r} is not {VERSION} "
                         f"(this summary.py reads {VERSION})")
    for key in ("benchmark", "date", "figures"):
        if key not in data:
            raise ValueError(f"{path}: {key}: missing")
    return data


# ------------------------------------------------------------ the GUI benchmarks

class Xvfb:
    """An X server of our own on the first free display from :90 on."""

    def __init__(self, screen=SCREEN):
        if not shutil.which("Xvfb"):
            raise SystemExit("Xvfb is not installed (apt-get install xvfb)")
        self.proc = None
        for n in range(90, 140):
            if os.path.exists("/tmp/.X11-unix/X%d" % n) or os.path.exists("/tmp/.X%d-lock" % n):
                continue
            proc = subprocess.Popen(["Xvfb", ":%d" % n, "-screen", "0", screen, "-nolisten", "tcp"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if os.path.exists("/tmp/.X11-unix/X%d" % n):
                    self.proc, self.display = proc, ":%d" % n
                    return
                if proc.poll() is not None:
                    break
                time.sleep(0.05)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        raise SystemExit("could not start Xvfb")

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def stat_fields(path):
    """utime+stime (clock ticks) and comm of a /proc/.../stat file, or None."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    rest = text[text.rindex(")") + 2:].split()
    # rest[0] is field 3 (state); utime and stime are fields 14 and 15.
    return int(rest[11]) + int(rest[12]), comm


def threads_cpu(pid):
    """{tid: (ticks, comm)} for every thread of `pid`."""
    out = {}
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for tid in tids:
        f = stat_fields("/proc/%d/task/%s/stat" % (pid, tid))
        if f:
            out[int(tid)] = f
    return out


def process_cpu(pid):
    """utime+stime of the whole process so far, in ticks (live threads and
    the ones that exited), or None."""
    f = stat_fields("/proc/%d/stat" % pid)
    return f[0] if f else None


def machine_busy():
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    v = [int(x) for x in parts]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    total = sum(v[:8])
    return total - idle, total


def gui_env(display, config_dir, latprobe):
    env = dict(os.environ)
    env["DISPLAY"] = display
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("QT_QPA_PLATFORM", None)
    env["XDG_CONFIG_HOME"] = config_dir  # fresh settings: the default 1280x800 layout
    env["XDG_RUNTIME_DIR"] = config_dir
    env["LATPROBE_BINARY"] = latprobe
    # The window keeps its run in the library (autosaved every 10 s): a
    # library of the run's own, removed with the config dir, not the user's.
    env["LATPROBE_LIBRARY"] = os.path.join(config_dir, "runs")
    return env


def stop(proc, timeout=15):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def leftover_workers(pid):
    """Processes still carrying latprobe's worker names, children of pid or
    orphans (their parent gone): there should be none after a stop."""
    left = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                argv0 = f.read().split(b"\0")[0]
        except OSError:
            continue
        if argv0.startswith(b"latprobe:"):
            left.append(int(entry))
    return left


def temp_dir(prefix):
    return tempfile.mkdtemp(prefix=prefix)
