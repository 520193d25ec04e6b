#!/bin/sh
# Installs every build, test and benchmark dependency of latprobe from
# Debian 12. Idempotent: apt-get skips what is already there.
# The asan and tsan presets build with clang-14; its sanitizer and libFuzzer
# runtimes are in libclang-rt-14-dev (only recommended by clang-14), and
# llvm-14 has the llvm-symbolizer that puts names in sanitizer reports.
set -eu

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        exec sudo "$0" "$@"
    fi
    echo "install-deps.sh: needs root (run it with sudo)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    build-essential cmake ninja-build pkg-config \
    clang-14 libclang-rt-14-dev llvm-14 \
    qt6-base-dev qt6-base-dev-tools libqcustomplot-dev \
    libgl-dev \
    libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev zlib1g-dev libboost-math-dev \
    xvfb xauth imagemagick \
    rt-tests stress-ng procps \
    dpkg-dev file desktop-file-utils appstream man-db bash-completion \
    >/dev/null
