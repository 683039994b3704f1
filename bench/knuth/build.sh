#!/usr/bin/env bash
# Build Knuth's exact-cover programs DLX2, DLX3, DLX6 and SSXCC from their public CWEB
# sources, as reference points for bench/ (they are Knuth's, not part of csp).
#
#     bench/knuth/build.sh SCRATCH
#
# Puts SCRATCH/bin/{dlx2,dlx3,dlx6,ssxcc} (DLX6 counts by memoizing, see
# bench/bench_memo.py). The sources come from the ascherer/cwebtest
# mirror of Knuth's programs and `ctangle` from ascherer/cweb (which ships a
# bootstrap ctangle.c), each given by an environment variable as a directory of
# files, a git directory (read at HEAD), or a URL to clone; by default:
#
#     CWEBTEST=https://github.com/ascherer/cwebtest  CWEB=https://github.com/ascherer/cweb
#
# A `ctangle` already on PATH is used as it is. Anything missing (no C compiler,
# no sources and no network): a line saying what, and exit 0 with nothing built,
# so that the benchmarks that use these programs skip them.
set -u

scratch=${1:-}
if [ -z "$scratch" ]; then
    echo "usage: $0 SCRATCH   (a folder for the sources and the programs)" >&2
    exit 2
fi
CWEBTEST=${CWEBTEST:-https://github.com/ascherer/cwebtest}
CWEB=${CWEB:-https://github.com/ascherer/cweb}
mkdir -p "$scratch/src" "$scratch/bin" || exit 2
src=$(cd "$scratch/src" && pwd)
bin=$(cd "$scratch/bin" && pwd)

skip() {
    echo "knuth: skipped, nothing built: $*" >&2
    exit 0
}

# fetch SOURCE FILE...: copy FILEs from SOURCE (a directory, a git directory or
# a URL to clone) into $src.
fetch() {
    local from=$1
    shift
    if [ -n "${from%%*://*}" ] && [ -d "$from" ] && [ ! -d "$from/objects" ]; then
        for f in "$@"; do cp "$from/$f" "$src/$f" 2>/dev/null || return 1; done
        return 0
    fi
    local gitdir=$from
    if [ ! -d "$from/objects" ]; then
        gitdir="$src/$(basename "$from").git"
        [ -d "$gitdir" ] || git clone -q --bare --depth 1 "$from" "$gitdir" 2>/dev/null || return 1
    fi
    for f in "$@"; do git --git-dir="$gitdir" show "HEAD:$f" >"$src/$f" 2>/dev/null || return 1; done
}

cc=${CC:-$(command -v cc || command -v gcc || command -v clang || true)}
[ -n "$cc" ] || skip "no C compiler (cc, gcc or clang) on PATH"

fetch "$CWEBTEST" dlx2.w dlx3.w dlx6.w ssxcc.w gb_flip.w boilerplate.w ||
    skip "cannot read Knuth's sources from $CWEBTEST (set CWEBTEST to a copy of ascherer/cwebtest)"

ctangle=$(command -v ctangle || true)
if [ -z "$ctangle" ]; then
    fetch "$CWEB" common.c common.h ctangle.c ||
        skip "no ctangle on PATH, and cannot read its sources from $CWEB (set CWEB to a copy of ascherer/cweb)"
    "$cc" -O2 -w -o "$src/ctangle" "$src/ctangle.c" "$src/common.c" || skip "ctangle did not compile"
    ctangle=$src/ctangle
fi

# tangle NAME: NAME.c from NAME.w. ctangle's status may be 1 for a harmless
# message (gb_flip.w includes SGB's boilerplate.w, which only TeX needs).
tangle() {
    rm -f "$1.c"
    "$ctangle" "$1.w" >"$1.log" 2>&1
    [ $? -le 1 ] && [ -s "$1.c" ] || skip "ctangle failed on $1.w (see $src/$1.log)"
}

cd "$src" || exit 2
tangle gb_flip
for program in dlx2 dlx3 dlx6 ssxcc; do
    tangle "$program"
    "$cc" -O3 -w -o "$bin/$program" "$program.c" gb_flip.c || skip "$program did not compile"
done
echo "knuth: built $bin/dlx2 $bin/dlx3 $bin/dlx6 $bin/ssxcc"
