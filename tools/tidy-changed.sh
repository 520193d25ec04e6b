#!/bin/bash
# clang-tidy on what changed since BASE (committed or not), reporting
# findings only in the changed files:
#
#   tools/tidy-changed.sh BASE [BUILD_DIR]      e.g. tools/tidy-changed.sh main build
#
# A changed header is checked through its own .cpp, or else through a source
# that includes it. BUILD_DIR (default build) must have been built: its
# compile_commands.json gives each file's flags, and the suites include the
# files moc generates there.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: tools/tidy-changed.sh BASE [BUILD_DIR]}
build=${2:-$src/build}
cd "$src"

mapfile -t changed < <(git diff --name-only --diff-filter=d "$base" -- \
    'app/*.cpp' 'app/*.h' 'core/*.cpp' 'core/*.h' 'ui/*.cpp' 'ui/*.h' 'tests/*.cpp' 'tests/*.h')
if [ ${#changed[@]} -eq 0 ]; then
    echo "tidy-changed.sh: no C++ file changed since $base"
    exit 0
fi

sources=()
headers=()
for f in "${changed[@]}"; do
    case $f in
    *.cpp) sources+=("$f") ;;
    *.h)
        headers+=("$f")
        if [ -f "${f%.h}.cpp" ]; then
            sources+=("${f%.h}.cpp")
        else
            user=$(grep -rlF --include='*.cpp' "#include \"$(basename "$f")\"" app core ui tests |
                head -n 1 || true)
            if [ -n "$user" ]; then
                sources+=("$user")
            else
                echo "tidy-changed.sh: no source includes $f; not checked" >&2
            fi
        fi
        ;;
    esac
done
mapfile -t sources < <(printf '%s\n' "${sources[@]}" | sort -u)

# Findings in the changed files only (not in a source that only carries a
# changed header); '^$' matches no header at all.
alternatives() { printf '%s\n' "$@" | sed 's/[][\.*^$+?(){}|]/\\&/g' | paste -sd '|'; }
headerFilter='^$'
if [ ${#headers[@]} -gt 0 ]; then
    headerFilter="/($(alternatives "${headers[@]}"))$"
fi
LATPROBE_TIDY_HEADERS=$headerFilter LATPROBE_TIDY_REPORT="^$(alternatives "$src")/($(alternatives "${changed[@]}")):" \
    exec "$src/tools/tidy.sh" "$build" "${sources[@]}"
