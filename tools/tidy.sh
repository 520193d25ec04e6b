#!/bin/bash
# Runs clang-tidy (Debian's clang-tidy-14, with the root .clang-tidy) over
# latprobe's sources, in parallel, through a build tree's compile_commands.json.
#
#   tools/tidy.sh BUILD_DIR                 every .cpp under app/ core/ ui/ tests/
#   tools/tidy.sh BUILD_DIR FILE.cpp...     only these translation units
#
# LATPROBE_CLANG_TIDY names the binary, LATPROBE_TIDY_JOBS the parallelism;
# LATPROBE_TIDY_HEADERS overrides the HeaderFilterRegex of .clang-tidy (which
# headers findings are reported from); LATPROBE_TIDY_REPORT, a regex on the
# path, keeps only the findings in the files it matches.
# Prints each finding once, however many files include its header, and
# exits 1 if there is any. tools/tidy-changed.sh runs it on a branch's changes.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: tools/tidy.sh BUILD_DIR [FILE.cpp...]}
shift
build=$(cd "$build" && pwd)
if [ ! -f "$build/compile_commands.json" ]; then
    echo "tidy.sh: no $build/compile_commands.json: configure that build first" >&2
    exit 2
fi

find_tool() {
    local name
    for name in "$@"; do
        if command -v "$name" >/dev/null 2>&1; then
            command -v "$name"
            return
        fi
    done
    echo "tidy.sh: $1 not found (packaging/install-deps.sh installs clang-tidy-14)" >&2
    exit 2
}
tidy=${LATPROBE_CLANG_TIDY:-$(find_tool clang-tidy-14 clang-tidy)}
runner=$(find_tool run-clang-tidy-14 run-clang-tidy)

# run-clang-tidy takes regexes on the paths in the database; build trees
# inside the checkout (the presets' build*/) hold only generated sources.
escape() { sed 's/[][\.*^$+?(){}|]/\\&/g' <<<"$1"; }
patterns=()
if [ $# -eq 0 ]; then
    patterns=("^$(escape "$src")/(app|core|ui|tests)/.*\.cpp$")
else
    for f in "$@"; do
        patterns+=("^$(escape "$(realpath -m "$f")")$")
    done
fi
args=(-p "$build" -clang-tidy-binary "$tidy" -quiet -j "${LATPROBE_TIDY_JOBS:-$(nproc)}")
if [ -n "${LATPROBE_TIDY_HEADERS+set}" ]; then
    args+=(-header-filter "$LATPROBE_TIDY_HEADERS")
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# run-clang-tidy always asks for colour: keep it for a terminal only.
strip() { sed -u 's/\x1b\[[0-9;]*m//g'; }
# Nor its command lines and clang's "N warnings generated." (counts of what
# the filters hid).
quieter() { grep --line-buffered -v -e ' warnings\? generated\.$' -e "^$tidy " || true; }
status=0
if [ -t 1 ]; then
    "$runner" "${args[@]}" "${patterns[@]}" 2>&1 | quieter | tee "$log" || status=$?
else
    "$runner" "${args[@]}" "${patterns[@]}" 2>&1 | strip | quieter | tee "$log" || status=$?
fi

findings=$(strip <"$log" | grep -E '^/.*:[0-9]+:[0-9]+: (warning|error): ' |
    grep -E "${LATPROBE_TIDY_REPORT:-.}" | sort -u || true)
count=$(grep -c . <<<"$findings" || true)
echo
if [ "$count" -eq 0 ]; then
    if [ "$status" -ne 0 ]; then
        echo "clang-tidy: run-clang-tidy failed (exit $status); see above" >&2
        exit 1
    fi
    echo "clang-tidy: no findings"
    exit 0
fi
echo "clang-tidy: $count finding(s):"
sed "s|^$src/||" <<<"$findings"
exit 1
