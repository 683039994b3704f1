"""Compile `bitmask`'s numba kernels while the package is built, so that the
first run after `pip install .` loads them instead of compiling for a minute.

`setup.py`'s `build_py` runs `python -m csp._prebuilt DIR` on the package it
is building: the kernels are compiled by a few small solves, with numba's
cache pointed at a temporary directory, and the cache files are copied into
`DIR/csp/_prebuilt/<kernel directory>/`, which the wheel then carries as
package data (pip records them, so `pip uninstall` removes them). At run
time `csp._numba_cache` copies them into the user's cache directory, where
numba finds them, before any kernel is loaded. The build also leaves a copy
in the building user's cache (`deposit`), which a checkout of the same
sources adopts (`csp._numba_cache.adopt_copies`): the README's
`pip install -e '.[test]'` after `pip install .` then compiles nothing.

It works because the cache is portable: a kernel's cache stamp is a hash of
its modules' sources (`csp._numba_cache.kernel_stamp`), not their paths or
modification times. numba still keys each entry by its own version and the
machine's CPU, so a wheel built elsewhere, or for another numba, simply
compiles on first use, as before. A build without numba skips the step
(`CSP_PREBUILD=0` does too).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from csp._numba_cache import KERNELS

if TYPE_CHECKING:
    from csp import Model


PREBUILT = "_prebuilt"
"""The package directory that holds the copied cache files."""

DEPOSIT_DIR = "CSP_DEPOSIT_DIR"
"""setup.py passes the building user's NUMBA_CACHE_DIR (its own is a
temporary directory) under this name: the deposit goes where that user's
numba, and `adopt_copies`, will look."""


def warm() -> None:
    """Compile every kernel a solve, a count and a family can need."""
    import csp
    from csp import AllDifferent, Model, Sum, Table
    from csp.backends.bitmask import BitmaskBackend

    m = Model("warm")
    cells = {(r, c): m.var((r, c), range(1, 5)) for r in range(4) for c in range(4)}
    for k in range(4):
        m.add(AllDifferent([cells[k, c] for c in range(4)]))
        m.add(AllDifferent([cells[r, k] for r in range(4)]))
    m.add(Sum([cells[0, 0], cells[0, 1]]) == 3)
    m.add(Sum([cells[1, 0], cells[1, 1], cells[2, 2]], [1, 2, -1]) <= 6)
    m.add(Table([cells[3, 0], cells[3, 1]], [(1, 2), (2, 1), (3, 4), (4, 3)]))
    m.add(Table([cells[2, 0], cells[2, 1]], [(1, 1), (2, 2)], forbidden=True))
    m.add(cells[3, 3] != cells[0, 3])
    csp.count(m, "bitmask")
    BitmaskBackend(learn_after=0).count(m)  # (the same kernels, with learning's paths run)
    list(csp.solutions(m, "bitmask", limit=2))
    list(csp.solve_family(m, [{(0, 0): 1}, {(0, 0): 2}], "bitmask", count=True))
    csp.count(_native_kinds(), "bitmask")


def _native_kinds() -> Model:
    """A model with every kind bitmask's kernel propagates natively (logic,
    reified sums and equalities, != on a sum, Element, Count, GlobalCardinality,
    Regular, Circuit, Connected). One kernel serves every model, so the solves
    above compile these propagators too; this solve keeps that true if one of
    them ever gets an entry point of its own."""
    from csp import Circuit, Connected, Count, Element, GlobalCardinality, Model, Regular, Sum
    from csp.logic import Or

    m = Model("warm-kinds")
    x = [m.var(f"x{i}", range(3)) for i in range(4)]
    b = [m.bool(f"b{i}") for i in range(4)]
    m.add(Or([x[0] == 1, b[0]]))
    m.add(b[1] == (Sum([x[1], x[2]]) <= 2))
    m.add(b[2] == (x[2] == x[3]))
    m.add(Sum([x[0], x[3]]) != 2)
    m.add(Element([x[1], x[2], 2], x[0]) == x[3])
    m.add(Count(x, 1) >= 1)
    m.add(GlobalCardinality(x, [0, 2], [1, 1]))
    m.add(Regular(b, [(0, 0, 0), (0, 1, 1), (1, 1, 1), (1, 0, 2), (2, 0, 2)], 0, [1, 2]))
    m.add(Circuit([m.var(f"s{i}", range(4)) for i in range(4)]))
    m.add(Connected(b, [(0, 1), (1, 2), (2, 3)]))
    m.add(b[0] ^ b[3])
    return m


def collect(cache_dir: Path, package: Path) -> int:
    """Copy the cache files of `package`'s kernels from numba's `cache_dir`
    into `package/_prebuilt/`; the number of files copied."""
    from csp._numba_cache import cache_subpath

    copied = 0
    for kernel in KERNELS:
        source = cache_dir / cache_subpath(package / kernel)
        if not source.is_dir():
            continue
        target = package / PREBUILT / kernel
        target.mkdir(parents=True, exist_ok=True)
        for entry in source.iterdir():
            if entry.suffix in (".nbi", ".nbc"):
                shutil.copy2(entry, target / entry.name)
                copied += 1
    return copied


def deposit(cache_dir: Path, package: Path, user_cache: Path | None,
            kernels: tuple[str, ...] = KERNELS) -> int:
    """Copy the compiled kernels of `package` from numba's `cache_dir` into
    the building user's cache too, as `<kernel directory>_built` (replaced by
    each build: no build leaves more than one), where `csp._numba_cache.adopt_copies`
    finds them for a checkout of the same sources: a later `pip install -e .`
    of this checkout loads them even if the installed copy never ran a
    kernel. The number of files copied (0 without a writable cache)."""
    from csp._numba_cache import cache_subpath

    if user_cache is None:
        return 0
    copied = 0
    for kernel in kernels:
        source = cache_dir / cache_subpath(package / kernel)
        target = user_cache / f"{Path(kernel).name}_built"
        if not source.is_dir():
            continue
        partial = user_cache / f".{target.name}.{os.getpid()}"  # (not a kernel directory's name)
        try:
            shutil.copytree(source, partial)
            shutil.rmtree(target, ignore_errors=True)
            os.replace(partial, target)  # whole, for a process adopting from it
        except OSError:
            shutil.rmtree(partial, ignore_errors=True)
            continue  # only a shortcut: a checkout then compiles, as before
        copied += sum(1 for _ in target.iterdir())
    return copied


def main(argv: list[str]) -> int:
    """`python -m csp._prebuilt BUILD_DIR`, with NUMBA_CACHE_DIR set by the
    caller (a temporary directory), and CSP_DEPOSIT_DIR to the building user's
    own NUMBA_CACHE_DIR, if they set one (else the deposit goes to the
    per-user cache that `csp._numba_cache` would choose)."""
    from csp._numba_cache import user_cache_dir

    package = Path(argv[0]).resolve() / "csp"
    cache_dir = Path(os.environ["NUMBA_CACHE_DIR"])
    warm()
    copied = collect(cache_dir, package)
    chosen = os.environ.get(DEPOSIT_DIR)
    deposit(cache_dir, package, Path(chosen) if chosen else user_cache_dir())
    print(f"csp: {copied} compiled kernel files prebuilt into {package / PREBUILT}",
          file=sys.stderr)
    return 0 if copied else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
