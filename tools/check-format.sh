#!/bin/bash
# Fails, naming the files, when a C++ source under app/ core/ ui/ tests/ is
# not as .clang-format lays it out. The fix: clang-format-14 -i FILE...
#
#   tools/check-format.sh [CLANG_FORMAT]
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
format=${1:-clang-format-14}
cd "$src"
mapfile -t files < <(find app core ui tests -name '*.cpp' -o -name '*.h' | sort)
if ! "$format" --dry-run -Werror "${files[@]}"; then
    echo "check-format.sh: misformatted (see above); run: $format -i FILE..." >&2
    exit 1
fi
echo "check-format.sh: ${#files[@]} files formatted as .clang-format says"
