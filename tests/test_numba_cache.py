"""numba's on-disk cache lives in a per-user directory, never inside the package.

An installed copy that wrote its cache next to its sources left
`site-packages/csp/.../__pycache__` behind after `pip uninstall`, and that
directory then shadowed a later editable install (`import csp` found an empty
namespace package). Each test runs in a fresh process: the cache directory is
chosen when the kernels are first imported.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Prints the cache directory in use, after checking that every kernel of both
# compiled backends would write under it (without compiling them: that takes
# minutes), and compiles one small cached function to see numba write there.
SCRIPT = """
import os, sys, numba
from numba import njit
import importlib, pkgutil
import csp.backends.bitmask, csp.backends.dlx
root = numba.config.CACHE_DIR
modules = [importlib.import_module(f"{package.__name__}.{info.name}")
           for package in (csp.backends.bitmask, csp.backends.dlx)
           for info in pkgutil.iter_modules(package.__path__)]
for module in modules:
    for name, obj in vars(module).items():
        cache = getattr(obj, "_cache", None)
        if cache is not None and hasattr(cache, "_cache_path"):
            assert cache._cache_path.startswith(root), (name, cache._cache_path)

@njit(cache=True)
def twice(x):
    return 2 * x

assert twice(21) == 42
print(root)
"""


def _run(tmp_path: Path, env_changes: dict[str, str | None]) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    script = tmp_path / "script.py"  # numba caches only functions defined in a file
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _cache_files(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_cache_goes_to_the_user_cache_directory(tmp_path: Path) -> None:
    used = _run(tmp_path, {"NUMBA_CACHE_DIR": None, "XDG_CACHE_HOME": str(tmp_path)})
    assert Path(used) == tmp_path / "csp" / "numba"
    assert _cache_files(tmp_path / "csp" / "numba"), "numba wrote no cache there"


def test_the_users_numba_cache_dir_wins(tmp_path: Path) -> None:
    used = _run(tmp_path, {"NUMBA_CACHE_DIR": str(tmp_path / "mine"),
                           "XDG_CACHE_HOME": str(tmp_path)})
    assert Path(used) == tmp_path / "mine"
    assert not (tmp_path / "csp").exists()


def test_an_unwritable_cache_home_falls_back(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    (tmp_path / "tmp").mkdir()
    used = _run(tmp_path, {"NUMBA_CACHE_DIR": None, "XDG_CACHE_HOME": str(blocker),
                 "TMPDIR": str(tmp_path / "tmp")})
    assert Path(used).parent == tmp_path / "tmp"


def test_no_kernel_module_writes_its_cache_beside_its_source() -> None:
    # Every module that decorates with cache=True must import the chooser first.
    for path in (ROOT / "csp").rglob("*.py"):
        text = path.read_text()
        if re.search(r"^@njit\(.*cache=True|partial\(njit, cache=True", text, re.MULTILINE):
            assert "import csp._numba_cache" in text, path


# Two kernel modules, the second inlining the first's function: numba alone
# stamps `twice` with b.py's source only, and would run a's old code after an
# edit to a.py.
KERNEL_A = """
import csp._numba_cache
from numba import njit

@njit(cache=True, inline="always")
def base():
    return {value}
"""
KERNEL_B = """
import csp._numba_cache
from numba import njit
from kern.a import base

@njit(cache=True)
def twice():
    return 2 * base()
"""
RUN_B = """
from kern.b import twice
print(twice(), twice.stats.cache_hits.get(twice.signatures[0], 0) if twice.signatures else 0)
"""


def test_an_edit_to_a_kernel_module_recompiles_the_kernels_that_use_it(tmp_path: Path) -> None:
    package = tmp_path / "kern"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "b.py").write_text(KERNEL_B)
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{tmp_path}",
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", RUN_B], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    (package / "a.py").write_text(KERNEL_A.format(value=21))
    assert run() == ["42", "0"]  # compiled, and cached
    assert run() == ["42", "1"]  # loaded from the cache
    (package / "a.py").write_text(KERNEL_A.format(value=50))
    assert run() == ["100", "0"]  # b's cache is stale: recompiled


class _Compiling:
    """A search whose first slice compiles for 0.3 s (as a first run does), then
    finds its one solution at once: only the compiling is slow."""

    @staticmethod
    def make(time_limit: float):
        import time

        import csp._numba_cache as cache
        from csp.backends.base import EXHAUSTED, FOUND, SlicedSearch
        from csp.result import Stats

        class Search(SlicedSearch):
            backend = "compiling"
            slices = 0

            def _advance(self, count_only: bool, budget: int) -> int:
                self.slices += 1
                if self.slices == 1:
                    time.sleep(0.3)
                    cache._NOTICE.seconds += 0.3  # what numba's compile events add up
                return FOUND if self.slices == 1 else EXHAUSTED

            def _solution(self) -> tuple[int, ...]:
                return (0,)

            def _measure(self, stats: Stats) -> None:
                stats.solutions = 1

        return Search(time_limit=time_limit)


def test_compiling_is_not_charged_to_the_time_limit() -> None:
    # A first run compiles inside its first slice: a 0.1 s limit must still see
    # the search (which takes no time) through, not stop it as TIME_LIMIT.
    search = _Compiling.make(time_limit=0.1)
    assert list(search) == [(0,)]
    assert search.status is not None and search.status.value == "COMPLETE"


KERNEL = """
import csp._numba_cache  # a kernel module: stamped by its sources, not its path
from numba import njit


@njit(cache=True)
def triple(x):
    return 3 * x
"""

LOAD = """
import sys
sys.path.insert(0, sys.argv[1])
import csp._numba_cache as cache
import kernels.k as k
assert k.triple(14) == 42
print(cache.compiling_seconds())
"""


def _python(code: str, *args: str, cache: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _copies(tmp_path: Path, **sources: str) -> list[Path]:
    """Per keyword, a directory of tmp_path holding the package `kernels`
    whose module k.py is that source."""
    roots = []
    for name, source in sources.items():
        root = tmp_path / name
        (root / "kernels").mkdir(parents=True)
        (root / "kernels" / "__init__.py").write_text("")
        (root / "kernels" / "k.py").write_text(source)
        roots.append(root)
    return roots


def test_kernels_compiled_elsewhere_load_without_compiling(tmp_path: Path) -> None:
    # What `pip install .` does (csp/_prebuilt.py): compile in the build tree,
    # ship the cache files in the package, adopt them into the user's cache.
    from csp._numba_cache import adopt_prebuilt, cache_subpath

    built, installed = _copies(tmp_path, build=KERNEL, site=KERNEL)
    first = tmp_path / "build-cache"
    assert float(_python(LOAD, str(built), cache=first)) > 0  # compiled there
    prebuilt = installed / "_prebuilt" / "kernels"
    prebuilt.mkdir(parents=True)
    for entry in (first / cache_subpath(built / "kernels")).iterdir():
        (prebuilt / entry.name).write_bytes(entry.read_bytes())
    user = tmp_path / "user-cache"
    copied = adopt_prebuilt(str(user), installed / "_prebuilt")
    assert copied == len(list(prebuilt.iterdir())) >= 2
    assert adopt_prebuilt(str(user), installed / "_prebuilt") == 0  # never twice
    assert float(_python(LOAD, str(installed), cache=user)) == 0  # loaded, not compiled


def test_an_upgrade_replaces_the_stale_kernels_of_the_same_path(tmp_path: Path) -> None:
    # An upgrade installed into the same site-packages has the same cache
    # directory (numba names it by path): the old version's index, of the same
    # name, must not keep the new build's kernels out.
    from csp._numba_cache import adopt_prebuilt, cache_subpath

    new = KERNEL.replace("3 * x", "x + x + x")  # (the same line: the same file names)
    built, installed = _copies(tmp_path, build=new, site=KERNEL)
    user = tmp_path / "user-cache"
    assert float(_python(LOAD, str(installed), cache=user)) > 0  # the old version ran
    first = tmp_path / "build-cache"
    assert float(_python(LOAD, str(built), cache=first)) > 0
    prebuilt = installed / "_prebuilt" / "kernels"
    prebuilt.mkdir(parents=True)
    for entry in (first / cache_subpath(built / "kernels")).iterdir():
        (prebuilt / entry.name).write_bytes(entry.read_bytes())
    (installed / "kernels" / "k.py").write_text(new)  # the upgrade
    stale = {entry.name for entry in (user / cache_subpath(installed / "kernels")).iterdir()}
    assert stale >= {entry.name for entry in prebuilt.iterdir()}  # the names clash
    assert adopt_prebuilt(str(user), installed / "_prebuilt") == len(stale)
    assert adopt_prebuilt(str(user), installed / "_prebuilt") == 0  # current now: kept
    assert float(_python(LOAD, str(installed), cache=user)) == 0  # loaded, not compiled


def test_a_checkout_loads_the_kernels_compiled_for_another_copy(tmp_path: Path) -> None:
    # CI's (and a developer's) order: `pip install .` compiles the kernels of
    # site-packages/csp, then `pip install -e .` runs the same sources from the
    # checkout, which numba caches apart (by path): adopted, not compiled again.
    from csp._numba_cache import adopt_copies, cache_subpath

    installed, checkout, edited = _copies(tmp_path, site=KERNEL, checkout=KERNEL,
                                          edited=KERNEL.replace("3 * x", "x + x + x"))
    cache = tmp_path / "cache"
    assert float(_python(LOAD, str(installed), cache=cache)) > 0  # compiled for site-packages
    # Other sources: nothing adopted (numba would refuse the stamp anyway).
    assert adopt_copies(str(cache), edited, ("kernels",)) == 0
    copied = adopt_copies(str(cache), checkout, ("kernels",))
    assert copied == len(list((cache / cache_subpath(installed / "kernels")).glob("*.nb*"))) >= 2
    assert adopt_copies(str(cache), checkout, ("kernels",)) == 0  # it has its own now
    assert float(_python(LOAD, str(checkout), cache=cache)) == 0  # loaded, not compiled
    assert float(_python(LOAD, str(edited), cache=cache)) > 0


def test_a_build_leaves_its_kernels_for_a_checkout_of_the_same_sources(tmp_path: Path) -> None:
    # `pip install .` then `pip install -e .` of the checkout, the installed
    # copy never having run a kernel (the README's sudoku is solved by dlx):
    # the build's deposit is what the checkout adopts.
    from csp._numba_cache import adopt_copies, cache_subpath
    from csp._prebuilt import deposit

    built, checkout = _copies(tmp_path, build=KERNEL, checkout=KERNEL)
    build_cache, user = tmp_path / "build-cache", tmp_path / "user-cache"
    assert float(_python(LOAD, str(built), cache=build_cache)) > 0
    user.mkdir()
    (user / "kernels_built").mkdir()
    (user / "kernels_built" / "old.nbi").write_text("a previous build's")
    deposited = deposit(build_cache, built, user, ("kernels",))
    files = sorted(p.name for p in (build_cache / cache_subpath(built / "kernels")).iterdir())
    assert deposited == len(files) >= 2
    assert sorted(p.name for p in (user / "kernels_built").iterdir()) == files  # replaced whole
    assert [p.name for p in user.iterdir()] == ["kernels_built"]  # nothing half-made left
    assert adopt_copies(str(user), checkout, ("kernels",)) == len(files)
    assert float(_python(LOAD, str(checkout), cache=user)) == 0  # loaded, not compiled


def test_the_build_deposits_where_the_users_numba_cache_dir_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # setup.py points the build's NUMBA_CACHE_DIR at a temporary directory and
    # passes the user's own as CSP_DEPOSIT_DIR: a user who chose a cache
    # directory gets the deposit there, where their checkout looks.
    import csp._prebuilt as prebuilt
    from csp._numba_cache import user_cache_dir

    went: list[Path | None] = []
    monkeypatch.setattr(prebuilt, "warm", lambda: None)  # (compiling is tested above)
    monkeypatch.setattr(prebuilt, "collect", lambda cache, package: 1)
    monkeypatch.setattr(prebuilt, "deposit", lambda cache, package, user: went.append(user) or 1)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "build-cache"))
    monkeypatch.setenv(prebuilt.DEPOSIT_DIR, str(tmp_path / "mine"))
    assert prebuilt.main([str(tmp_path)]) == 0
    monkeypatch.setenv(prebuilt.DEPOSIT_DIR, "")  # the user set none
    assert prebuilt.main([str(tmp_path)]) == 0
    assert went == [tmp_path / "mine", user_cache_dir()]


def test_the_build_time_warm_up_solves_every_native_kind_of_bitmask() -> None:
    pytest.importorskip("ortools", reason="cpsat's count is the reference")
    import csp

    # csp._prebuilt's second model must reach the kernel as it is (no
    # decomposition), one constraint of each kind bitmask's kernel propagates,
    # and count what CP-SAT counts.
    from csp._prebuilt import _native_kinds
    from csp.backends.bitmask import BitmaskBackend
    from csp.backends.bitmask.compile_globals import KINDS
    from csp.dispatch import taker

    m = _native_kinds()
    takes = taker(BitmaskBackend.capabilities)
    assert all(takes(c) for c in m.constraints)
    kinds = set().union(*(c.kinds() for c in m.constraints))
    assert KINDS | {"Logic", "SumNotEqual"} <= kinds
    assert csp.count(m, "bitmask").count == csp.count(m, "cpsat").count > 0
