#!/bin/sh
# The plain CMake path that distribution packagers and IDEs take: no
# preset, CMake's default generator on Linux (Unix Makefiles, which unlike
# Ninja creates no output directory a custom command did not make itself),
# no unity build. Configures SOURCE into a fresh WORK directory, builds the
# TARGETS, and removes WORK whatever happens.
#
#   tools/check-plain-build.sh SOURCE WORK TARGET...
#
# Debug without debug info: the generator and the generated files are what
# is checked, not the optimiser.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 SOURCE WORK TARGET..." >&2; exit 2; }
source=$1
work=$2
shift 2
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT INT TERM
log=$work/log
if ! cmake -S "$source" -B "$work/build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS_DEBUG=-g0 -DCMAKE_CXX_FLAGS_DEBUG=-g0 >"$log" 2>&1; then
    cat "$log"
    echo "check-plain-build: configuring with Unix Makefiles failed (above)" >&2
    exit 1
fi
if ! cmake --build "$work/build" --parallel 2 --target "$@" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "check-plain-build: building $* with Unix Makefiles failed (above)" >&2
    exit 1
fi
echo "check-plain-build: $* built with Unix Makefiles"
