#!/usr/bin/env bash
# Every table of bench/RESULTS.md, measured again, one area after another:
#
#     bench/all.sh OUT            # hours on 2 cores: run it on a quiet machine
#     bench/all.sh OUT --list     # the commands only
#
# Each area's output goes to OUT/AREA.txt (and the files its command writes,
# under OUT/), headed by the command and `uptime`: copy each table into its
# section of bench/RESULTS.md with that line, and the story of what moved into
# bench/HISTORY.md. Needs `pip install -e '.[all,peers,bench]'`; Knuth's
# programs are built into OUT/knuth (the areas that need them say so and skip
# when they cannot be built). The A/B of two kernels (RESULTS.md's last
# table) compares two checkouts and is not here: its section says how.
set -u
out=${1:-}
if [ -z "$out" ]; then
    echo "usage: $0 OUT [--list]" >&2
    exit 2
fi
list=${2:-}
cd "$(dirname "$0")/.."
mkdir -p "$out"

areas=(
    "ssxcc|bench/knuth/build.sh $out/knuth && python bench/knuth/bench_ssxcc.py --knuth $out/knuth/bin --repeat 3"
    "dlx-engines|python bench/bench_dlx_engines.py --repeat 3 --out $out/dlx-engines.md"
    "full|csp bench --suite full --peers --repeat 3 --time-limit 30 --out $out/full"
    "bitmask-large|python bench/bench_bitmask.py --sets 25x25 36x36 --backends bitmask,cpsat --hard-limit 120"
    "bitmask-small|python bench/bench_bitmask.py --backends bitmask,cpsat"
    "bitmask-globals|python bench/bench_bitmask_globals.py --backends bitmask,cpsat"
    "learning|python bench/bench_learning.py --set reporting --limit 60"
    "race|python bench/bench_hard.py --sizes 36 --backends bitmask,cpsat,race --n9 0 --time-limit 60 --repeat 3 --quiet 0.15 --tries 3"
    "parallel|python bench/bench_parallel.py --repeat 5 --out $out/parallel.md"
    "lowering|python bench/bench_family.py --only lowering"
    "memo|bench/knuth/build.sh $out/knuth && python bench/bench_memo.py --dlx6 $out/knuth/bin/dlx6 --repeat 3"
    "fuzz|python bench/bench_fuzz.py --models 10000 --seed 1022 --jobs 2 --out $out/fuzz"
    "kinds|python bench/bench_kinds.py --time-limit 60"
)

status=0
for area in "${areas[@]}"; do
    name=${area%%|*}
    command=${area#*|}
    if [ "$list" = "--list" ]; then
        echo "$name: $command"
        continue
    fi
    {
        echo "command: $command"
        echo "uptime: $(uptime)"
        echo
    } > "$out/$name.txt"
    echo "$name ..." >&2
    bash -c "$command" >> "$out/$name.txt" 2>&1 || { status=1; echo "$name: exit $?" >&2; }
done
exit "$status"
