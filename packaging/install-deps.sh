#!/bin/sh
# Installs every build, test and benchmark dependency of latprobe from
# Debian 12. Idempotent: what is already installed is left alone, and when
# nothing is missing apt is not run at all.
# The asan and tsan presets build with clang-14; its sanitizer and libFuzzer
# runtimes are in libclang-rt-14-dev (only recommended by clang-14), and
# llvm-14 has the llvm-symbolizer that puts names in sanitizer reports.
# clang-format-14 checks the layout (the clang_format test), clang-tidy-14
# runs the `tidy` target; lld links in half GNU ld's time. libsystemd-dev
# is sd-bus, for scx_loader's D-Bus service; the knobs tests run a private
# bus of their own (dbus-daemon).
set -eu

packages="
    build-essential cmake ninja-build pkg-config lld
    clang-14 libclang-rt-14-dev llvm-14 clang-format-14 clang-tidy-14
    qt6-base-dev qt6-base-dev-tools libqcustomplot-dev
    libgl-dev
    libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev zlib1g-dev libboost-math-dev
    libtracefs-dev libtraceevent-dev libsystemd-dev
    dbus-daemon
    xvfb xauth imagemagick
    rt-tests stress-ng procps trace-cmd
    dpkg-dev file desktop-file-utils appstream man-db bash-completion
"

say() { echo "install-deps.sh: $*"; }

missing=""
for p in $packages; do
    if [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" != "ii " ]; then
        missing="$missing $p"
    fi
done
if [ -z "$missing" ]; then
    say "all $(echo $packages | wc -w) packages are installed"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        say "missing:$missing; asking sudo to install them"
        exec sudo "$0" "$@"
    fi
    say "needs root to install:$missing (run it with sudo)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT

say "updating the package lists (apt-get update)"
if ! apt-get update -qq >"$log" 2>&1; then
    cat "$log" >&2
    say "apt-get update failed" >&2
    exit 1
fi

# apt's own output goes to the log, shown only on failure; its status lines
# (APT::Status-Fd) become one dot per 5 % downloaded, then installed.
say "installing$missing, with what they need"
{
    apt-get install -y -qq --no-install-recommends -o APT::Status-Fd=3 $missing \
        3>&1 >"$log" 2>&1 || echo "failed:$?"
} | awk -F: '
    function progress(stage, pct) {
        if (stage != now) {
            if (now != "") printf " done\n"
            printf "    %s ", stage
            now = stage
            dots = 0
        }
        while (dots < int(pct / 5)) { printf "."; dots++ }
        fflush()
    }
    /^dlstatus:/ { progress("downloading", $3) }
    /^pmstatus:/ { progress("installing ", $3) }
    /^failed:/ { rc = $2 }
    END {
        if (now != "") printf (rc ? "\n" : " done\n")
        exit rc
    }' || {
    tail -n 30 "$log" >&2
    say "apt-get install failed (its last lines are above)" >&2
    exit 1
}
say "done"
