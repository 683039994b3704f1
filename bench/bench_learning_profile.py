"""Where a conflict of `bitmask`'s learning spends its time (issue 28): the
kernel's own cycle counters, on the tuning set only.

The counters are not in the kernel, where every search would pay for them.
They are a patch, bench/learning_profile.patch (about 100 lines: a
`llvm.readcyclecounter` before and after each part, and some counts), that
this script applies to a copy of the `csp` package in the user's cache, then
runs that copy in a child process with a numba cache of its own. Only files
whose patched text changed are rewritten, so the patched kernels compile once
(3 to 4 minutes), not at every run. When an edit of the kernel makes the
patch fail, the script says so with git's message: update the patch (`git
diff` of the counters on a branch).

    python bench/bench_learning_profile.py --config "{'learn_after': 0}"
    python bench/bench_learning_profile.py --qwh 30:330:0-9 --config "{}" \\
        --config "{'learn_after': 0}"
    python bench/bench_learning_profile.py --sudoku michael404-TestData25-minimal1
    python bench/bench_learning_profile.py --blanked 0,4 --limit 30 \\
        --config "{'learn_after': 0, 'restart_margin': 140, 'learn_restart': 50}"
    python bench/bench_learning_profile.py --qwh-count 30:315:40,63,68 --limit 30 \\
        --config "{}"

`--sudoku` takes the large sudokus of bench_learning.py's tuning half only,
each counted (uniqueness proved), as `bench_learning.py` does; `--blanked`
the sudoku tuning set of bench_learning_tune.py (seeds of
`bench_learning.blanked`), counted too; `--qwh-count` quasigroups counted, as
bench_learning_tune.py's (seeds reported on as never run are refused by both
quasigroup options).

Per configuration: the CPU seconds and conflicts over the instances (first
solutions or counts, as bench_learning_tune.py), then each part of the
kernel with its share of the kernel's cycles and its microseconds per
conflict (its share of the CPU seconds, over the conflicts); an indented
part is inside the one above it. Then counts per conflict, and the cycles
spent in `narrow` itself (inside the parts where it is called). Shares are
exact to a few percent: a counter read costs about 25 cycles, and a part of
a few hundred cycles is read twice.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from csp._cache import cache_home

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PATCH = BENCH / "learning_profile.patch"

# (slot k of st[CY + k], its name, its depth in the table): cycles.
PARTS = [
    (0, "the kernel (search)", 0),
    (1, "branching (choose)", 1),
    (2, "undo before a level's next value", 1),
    (3, "a decision's propagation", 1),
    (9, "the asserted literal's propagation", 1),
    (10, "learned clauses (in both propagations)", 2),
    (11, "all-different singles", 2),
    (12, "all-different matching and intersections", 2),
    (13, "other constraints", 2),
    (4, "conflict analysis", 1),
    (5, "explanations", 2),
    (18, "all-different reasons", 3),
    (23, "Hall sets: domains before the narrowing", 4),
    (24, "Hall sets: the matching", 4),
    (25, "Hall sets: their literals", 4),
    (27, "hidden singles", 4),
    (19, "sums and generic reasons", 3),
    (20, "learned clauses as reasons", 3),
    (21, "intersections", 3),
    (6, "minimisation", 2),
    (7, "storing the clause (and reductions)", 1),
    (8, "undo of a backjump", 1),
    (15, "undo of a restart", 1),
]
COUNTS = [
    (14, "narrowings"),
    (16, "literals made false, their watches visited"),
    (17, "watches visited"),
    (30, "clause literals read looking for a new watch"),
    (31, "narrowings by learned clauses"),
    (32, "levels jumped over by backjumps"),
    (33, "narrowings undone by backjumps"),
    (34, "narrowings by the asserted literals' propagation"),
    (35, "narrowings undone by restarts"),
    (22, "Hall-set explanations"),
    (28, "hidden-single explanations"),
]
NARROW_CYCLES = 36  # st[CY + 36]: the cycles spent inside `narrow` itself, wherever it is called


def _cache() -> Path:
    home = cache_home()
    if home is None:
        sys.exit("bench_learning_profile: no home directory for the patched copy; "
                 "set XDG_CACHE_HOME to an absolute path")
    return home / "learning-profile"


def stage(into: Path) -> Path:
    """This checkout's `csp` package with the patch applied, in `into`/csp;
    SystemExit if the patch does not apply."""
    shutil.copytree(ROOT / "csp", into / "csp", ignore=shutil.ignore_patterns("__pycache__"))
    # (`git apply` outside a repository works as `patch` does, and says why not.)
    done = subprocess.run(["git", "apply", str(PATCH)], cwd=into, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{PATCH.name} does not apply to this checkout's kernel; update it "
                         f"(see its script's docstring):\n{done.stderr.strip()}")
    return into / "csp"


def _sync(source: Path, target: Path) -> None:
    """Make `target` hold `source`'s files, rewriting only those that differ:
    numba's cache keys on the files' times, which then stay."""
    wanted = {path.relative_to(source) for path in source.rglob("*") if path.is_file()}
    for rel in sorted(wanted):
        new, old = source / rel, target / rel
        if not old.is_file() or old.read_bytes() != new.read_bytes():
            old.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(new, old)
    for path in target.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts \
                and path.relative_to(target) not in wanted:
            path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qwh", action="append", metavar="N:HOLES:SEEDS",
                        help="quasigroups with holes of bench/qwh.py (repeatable; default: "
                             "those of bench_learning_tune.py)")
    parser.add_argument("--qwh-count", action="append", default=[], metavar="N:HOLES:SEEDS",
                        help="quasigroups with holes of bench/qwh.py, counted (repeatable; "
                             "then no quasigroup to a first solution unless --qwh is given)")
    parser.add_argument("--sudoku", action="append", default=[], metavar="NAME",
                        help="a large sudoku of bench_learning.py's tuning half, counted "
                             "(repeatable; then no quasigroup unless --qwh is given)")
    parser.add_argument("--blanked", default="", metavar="SEEDS",
                        help="the sudokus of bench_learning_tune.py --blanked, as 0,4 or 0-5, "
                             "counted (then no quasigroup unless --qwh is given)")
    parser.add_argument("--config", action="append", default=[], metavar="DICT",
                        help="BitmaskBackend options (repeatable; default {'learn_after': 0})")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    import qwh  # (bench/, beside this script)
    from bench_learning import TUNING

    for name in args.sudoku:  # (before the patched kernels are built, which takes minutes)
        if name not in TUNING:
            parser.error(f"--sudoku {name}: not of the tuning half ({', '.join(TUNING)})")
    if args.qwh or args.qwh_count:  # (the tuning script's refusal; imported only when needed)
        from bench_learning_tune import refuse_untunable
        refuse_untunable(parser, args.qwh or [], args.qwh_count)
    try:
        args.blanked = tuple(qwh.seeds(args.blanked))
    except ValueError:
        parser.error(f"--blanked {args.blanked}: not seeds, e.g. 0,4 or 0-5")
    if args.child:
        _child(parser, args)
        return
    if shutil.which("git") is None:
        parser.error("needs git, to apply the patch")
    cache = _cache()
    with tempfile.TemporaryDirectory() as tmp:
        _sync(stage(Path(tmp)), cache / "src" / "csp")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache / "numba"),
               PYTHONPATH=os.pathsep.join([str(cache / "src"), os.environ.get("PYTHONPATH", "")]))
    child = subprocess.run([sys.executable, __file__, "--child", *sys.argv[1:]], env=env,
                           check=False)
    raise SystemExit(child.returncode)


def _child(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The measurement, in the process that imports the patched copy."""
    from bench_learning import _bitmask, sudokus
    from bench_learning_tune import DEFAULT_QWH, _options, instances

    from csp.backends.bitmask import BitmaskBackend, layout
    from csp.bench import measure

    if not hasattr(layout, "CY"):
        parser.error(f"imported an unpatched csp ({layout.__file__})")
    configs = [_options(text) for text in args.config] or [{"learn_after": 0}]
    for options in configs:
        try:
            BitmaskBackend(**options)
        except (TypeError, ValueError) as err:
            parser.error(f"--config {options}: {err}")
    chosen = [(name, m, False) for name, m in sudokus(tuple(args.sudoku))] if args.sudoku else []
    chosen += instances([], False, args.blanked, tuple(args.qwh_count))
    if args.qwh or not (args.sudoku or args.blanked or args.qwh_count):
        chosen += instances(args.qwh or list(DEFAULT_QWH), False)
    print(measure.header(f"bench_learning_profile: {len(chosen)} tuning instances, "
                         f"{args.limit:g} s limit; CPU s"))
    print("instances: " + " ".join(name for name, _, _ in chosen))
    # Compiles or loads the kernels, outside the figures: a second's search is
    # enough, where the whole first instance (up to the limit) would be run twice.
    _bitmask(chosen[0][1], min(args.limit, 1.0), True, learn_after=0)
    for options in configs:
        total: dict[str, int] = {}
        seconds = 0.0
        for name, m, first in chosen:
            spent, answer, _, _, extra = _bitmask(m, args.limit, first, **options)
            if answer == "WRONG":
                raise SystemExit(f"{name}: a wrong solution with {options}")
            seconds += spent
            for key, value in extra.items():
                total[key] = total.get(key, 0) + value
        conflicts = max(total.get("conflicts", 0), 1)
        kernel = max(total["cy0"], 1)
        print(f"\nbitmask {options}: {seconds:.1f} CPU s, {total.get('conflicts', 0):,} "
              f"conflicts, {1e6 * seconds / conflicts:.0f} us a conflict")
        print("| part | share of the kernel's cycles | us a conflict |\n|---|---|---|")
        for k, label, depth in PARTS:
            share = total[f"cy{k}"] / kernel
            print(f"| {'. ' * depth}{label} | {100 * share:.1f}% "
                  f"| {1e6 * seconds * share / conflicts:.1f} |")
        counts = [(total[f"cy{k}"], label) for k, label in COUNTS]
        counts += [(total.get("propagations", 0), "propagator runs"),
                   (total.get("strong", 0), "strong runs")]
        print("a conflict: " + ", ".join(f"{n / conflicts:.1f} {label}" for n, label in counts))
        narrowings, in_narrow = total["cy14"], total[f"cy{NARROW_CYCLES}"]
        if narrowings:
            share = in_narrow / kernel
            print(f"narrow itself (inside the parts above): {100 * share:.1f}% of the kernel's "
                  f"cycles, {1e6 * seconds * share / conflicts:.1f} us a conflict, "
                  f"{in_narrow / narrowings:.0f} cycles a narrowing")
        hall = total["cy22"]
        if hall:
            print(f"Hall sets: {total['cy26'] / hall:.2f} cells each; "
                  f"{100 * total['cy29'] / hall:.0f}% are one cell fixed before the narrowing")


if __name__ == "__main__":
    main()
