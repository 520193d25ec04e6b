#!/bin/bash
# Builds the .deb with cpack and checks it as a user would meet it: its
# name, control fields and Depends, the files it installs, stripped
# binaries, and that the desktop entry, AppStream metainfo, man page and
# bash completion validate and cover what the binary does.
# Run by CTest as packaging_deb (packaging/CMakeLists.txt).
set -euo pipefail

usage() {
    echo "usage: $0 --cpack CPACK --config CPackConfig.cmake --work DIR --version V" \
        "--app-id ID --gui ON|OFF --icon-sizes 16,32,..." >&2
    exit 2
}

cpack="" config="" work="" version="" app_id="" gui=OFF icon_sizes=""
while [ $# -gt 0 ]; do
    case $1 in
        --cpack) cpack=$2 ;;
        --config) config=$2 ;;
        --work) work=$2 ;;
        --version) version=$2 ;;
        --app-id) app_id=$2 ;;
        --gui) gui=$2 ;;
        --icon-sizes) icon_sizes=$2 ;;
        *) usage ;;
    esac
    shift 2
done
[ -n "$cpack" ] && [ -n "$config" ] && [ -n "$work" ] && [ -n "$version" ] && [ -n "$app_id" ] ||
    usage
case $gui in ON | on | TRUE | true | 1) gui=1 ;; *) gui=0 ;; esac

failures=0
pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

rm -rf "$work"
mkdir -p "$work"

# --- build the package --------------------------------------------------------
echo "== cpack -G DEB"
if ! "$cpack" -G DEB --config "$config" -B "$work" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log"
    echo "FAIL: cpack -G DEB"
    exit 1
fi
arch=$(dpkg --print-architecture)
deb="$work/latprobe_${version}_${arch}.deb"
if [ ! -f "$deb" ]; then
    ls -l "$work"
    echo "FAIL: no $(basename "$deb") (CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)"
    exit 1
fi
pass "built $(basename "$deb")"

# --- control fields -----------------------------------------------------------
echo "== dpkg-deb -I"
dpkg-deb -I "$deb" | tee "$work/info.txt"
field() { dpkg-deb -f "$deb" "$1"; }
check "Package: latprobe" [ "$(field Package)" = latprobe ]
check "Version: $version" [ "$(field Version)" = "$version" ]
check "Architecture: $arch" [ "$(field Architecture)" = "$arch" ]
check "Maintainer is set" [ -n "$(field Maintainer)" ]
check "Section: utils" [ "$(field Section)" = utils ]
check "Description has a synopsis and a long text" \
    [ "$(field Description | wc -l)" -ge 5 ]
depends=$(field Depends)
echo "Depends: $depends"
for lib in libc6 libstdc++6 libfmt libtracefs1 libtraceevent1 libsystemd0; do
    check "Depends lists $lib" grep -q "$lib" <<<"$depends"
done
if [ "$gui" = 1 ]; then
    for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqcustomplot; do
        check "Depends lists $lib" grep -q "$lib" <<<"$depends"
    done
fi

# --- contents -----------------------------------------------------------------
echo "== dpkg-deb -c"
dpkg-deb -c "$deb" | tee "$work/contents.txt"
files=$(awk '{print $6}' "$work/contents.txt")
expect=(
    ./usr/bin/latprobe
    ./usr/share/man/man1/latprobe.1.gz
    ./usr/share/bash-completion/completions/latprobe
    ./usr/share/doc/latprobe/README.md
    ./usr/share/doc/latprobe/copyright
)
if [ "$gui" = 1 ]; then
    expect+=(
        ./usr/libexec/latprobe/latprobe-gui
        ./usr/share/applications/latprobe.desktop
        "./usr/share/metainfo/$app_id.metainfo.xml"
        ./usr/share/icons/hicolor/scalable/apps/latprobe.svg
    )
    IFS=, read -ra sizes <<<"$icon_sizes"
    for s in "${sizes[@]}"; do
        expect+=("./usr/share/icons/hicolor/${s}x${s}/apps/latprobe.png")
    done
else
    echo "NOTE: built without the GUI: no latprobe-gui, desktop entry, metainfo or icons"
fi
for f in "${expect[@]}"; do
    check "contains $f" grep -qxF "$f" <<<"$files"
done
check "nothing outside /usr" bash -c '! grep -v "^\./usr/\|^\./$" <<<"$1"' _ "$files"
check "nothing under /usr/local" bash -c '! grep -q "^\./usr/local/" <<<"$1"' _ "$files"
check "binaries are mode 0755 and owned by root" \
    bash -c '! grep -E "\./usr/(bin|libexec)/.*[^/]$" "$1" | grep -v "^-rwxr-xr-x root/root"' \
    _ "$work/contents.txt"

root="$work/root"
dpkg-deb -x "$deb" "$root"
bins=("$root/usr/bin/latprobe")
[ "$gui" = 1 ] && bins+=("$root/usr/libexec/latprobe/latprobe-gui")
for b in "${bins[@]}"; do
    desc=$(file -b "$b")
    check "${b#"$root"} is stripped" bash -c '[[ $1 == *", stripped"* ]]' _ "$desc"
done
latprobe="$root/usr/bin/latprobe"
check "latprobe --version says $version" [ "$("$latprobe" --version)" = "latprobe $version" ]
# The report header and the run file carry the same version.
"$latprobe" -q run -d 0.3 --consumers wakeup --no-noise-check --no-progress \
    -o "$work/run.json" >"$work/report.txt" 2>&1 || true
check "report header says latprobe $version" grep -q "^latprobe $version " "$work/report.txt"
check "run file says version $version" grep -q "\"version\": *\"$version\"" "$work/run.json"
if [ "$gui" = 1 ]; then
    # `latprobe` alone must find the GUI where this package put it, whatever
    # prefix the build tree had: it runs until timeout stops it (124), where
    # a missing GUI would fail at once.
    QT_QPA_PLATFORM=offscreen timeout -s TERM 4 env -u DISPLAY -u WAYLAND_DISPLAY \
        "$latprobe" >"$work/gui.txt" 2>&1 && rc=0 || rc=$?
    check "latprobe alone opens the packaged latprobe-gui" [ "$rc" = 124 ]
fi

# --- desktop entry and AppStream ----------------------------------------------
if [ "$gui" = 1 ]; then
    echo "== desktop-file-validate"
    check "desktop-file-validate latprobe.desktop" \
        desktop-file-validate "$root/usr/share/applications/latprobe.desktop"
    echo "== appstreamcli validate --no-net"
    check "appstreamcli validate --no-net $app_id.metainfo.xml" \
        appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml"
    check "metainfo carries release $version" \
        grep -q "<release version=\"$version\"" "$root/usr/share/metainfo/$app_id.metainfo.xml"
fi

# --- man page -----------------------------------------------------------------
echo "== man --warnings"
man_page="$root/usr/share/man/man1/latprobe.1.gz"
MANWIDTH=80 man --warnings -l "$man_page" >"$work/man.txt" 2>"$work/man.err" || true
if [ -s "$work/man.err" ]; then
    cat "$work/man.err"
    fail "man page renders without warnings"
else
    pass "man page renders without warnings"
fi
check "man page is not empty" [ "$(wc -l <"$work/man.txt")" -gt 200 ]
check "man page carries version $version" grep -q "latprobe $version" "$work/man.txt"
check "man page lines fit 80 columns" [ "$(LC_ALL=C.UTF-8 wc -L <"$work/man.txt")" -le 80 ]

# --- the man page and completion cover the binary's options -------------------
# Options of `latprobe run` and `latprobe report`, as the binary lists them.
completion="$root/usr/share/bash-completion/completions/latprobe"
man_src=$(zcat "$man_page")
for sub in run report; do
    opts=$("$latprobe" "$sub" --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z-]+' | grep -oE -- '--[a-z-]+' |
        grep -vx -- --help)
    [ -n "$opts" ] || fail "no options found in latprobe $sub --help"
    for o in $opts; do
        roff=${o//-/\\-}
        check "man page documents $sub $o" grep -qF -- "$roff" <<<"$man_src"
        check "completion offers $sub $o" grep -qE -- "(^|[ \"])$o( |\"|$)" "$completion"
    done
done
for sub in run report compare runs sysinfo; do
    check "man page documents the $sub command" grep -qE "^\.B $sub$|^\.B latprobe $sub" <<<"$man_src"
done
# The load kinds and each one's keys: tst_loaddocs checks the man page and
# the completion against the kinds' table itself.

# --- bash completion, as bash-completion calls it -----------------------------
check "completion parses" bash -n "$completion"
bash_completion=/usr/share/bash-completion/bash_completion
if [ -r "$bash_completion" ]; then
    echo "== bash completion"
    cat >"$work/complete.sh" <<'EOF'
source "$1"
source "$2"
compopt() { :; }
# Splits a command line the way readline does for COMP_WORDS: at blanks,
# and around runs of COMP_WORDBREAKS characters.
complete_line() {
    local line=$1 w run
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMP_WORDS=()
    read -ra ws <<<"$line"
    for w in "${ws[@]}"; do
        while [ -n "$w" ]; do
            run=""
            if [[ $COMP_WORDBREAKS == *"${w:0:1}"* ]]; then
                while [ -n "$w" ] && [[ $COMP_WORDBREAKS == *"${w:0:1}"* ]]; do
                    run+=${w:0:1}
                    w=${w:1}
                done
            else
                while [ -n "$w" ] && [[ $COMP_WORDBREAKS != *"${w:0:1}"* ]]; do
                    run+=${w:0:1}
                    w=${w:1}
                done
            fi
            COMP_WORDS+=("$run")
        done
    done
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _latprobe latprobe
    echo "${COMPREPLY[*]}"
}
cd "$3"
complete_line "$4"
EOF
    mkdir -p "$work/files"
    touch "$work/files/a.json" "$work/files/b.txt"
    completes() { # completes LINE EXPECTED-WORDS...
        local line=$1 got
        shift
        got=$(bash "$work/complete.sh" "$bash_completion" "$completion" "$work/files" "$line" 2>&1)
        local ok=1 want
        for want in "$@"; do
            [[ " $got " == *" $want "* ]] || ok=0
        done
        if [ $ok = 1 ]; then
            pass "completion of '$line' offers $*"
        else
            fail "completion of '$line' offers $* (got: $got)"
        fi
    }
    completes "latprobe " run report compare runs sysinfo
    completes "latprobe --v" --version --verbose
    completes "latprobe run --sc" --scenario
    completes "latprobe run --preset " default desktop pro interbench
    completes "latprobe run --scenario " quick ramp contest interbench a.json
    completes "latprobe run --policy " other fifo rr batch idle
    completes "latprobe run --load mass" massive_intr:
    completes "latprobe run --load burn:2 " massive_intr: custom:
    completes "latprobe run --load massive_intr:8:" work_ms= sleep_ms= nice= session=
    completes "latprobe run --load massive_intr:8:policy=" batch idle
    completes "latprobe run --load ring:4:" threads= nice= session=
    completes "latprobe run --load burn:1:" threads= cpus=
    completes "latprobe run -o " a.json
    completes "latprobe run --variant off:auto" autogroup=
    completes "latprobe run --variant off:autogroup=" 0 1
    completes "latprobe run --variant short:autogroup=0," 0,slice_us= 0,load_weight= 0,scx=
    completes "latprobe run --variant p:preempt=" none voluntary full lazy
    completes "latprobe report --format " text md csv json
    completes "latprobe report --format=" text md csv json
    completes "latprobe report " a.json
    completes "latprobe compare " a.json
else
    echo "NOTE: bash-completion is not installed: completion only syntax-checked"
fi

echo
if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "package checks passed: $(basename "$deb")"
