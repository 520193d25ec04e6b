"""Shared pieces of the GUI benchmarks: a private Xvfb, CPU time of a
process and of its threads from /proc, the machine's background load.

Standard library only; imported by gui_cost.py and gui_vs_headless.py.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
SCREEN = "1280x800x24"


def repo_root():
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def default_binary(name):
    return os.path.join(repo_root(), "build", "app", name)


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
