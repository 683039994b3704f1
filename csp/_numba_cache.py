"""Where numba keeps the compiled kernels: a per-user cache, never the package.

Left alone, numba writes its cache into `__pycache__` next to the kernel's
source, i.e. inside `site-packages/csp/...` for an installed copy. pip does
not record those files, so `pip uninstall` leaves the directories behind, and
they then shadow a later editable install as an empty namespace package
(`import csp` finds `site-packages/csp/` first). Pointing the cache elsewhere
keeps the installed tree exactly what pip installed.

Every module with an `@njit(cache=True)` kernel imports this one first. The
user's own `NUMBA_CACHE_DIR` always wins.

numba stamps a cached function with its own file's source only, so a kernel
that calls or inlines a function of another module would keep running that
function's old code after an edit to it (numba issue 6845): a kernel split
into modules needs more. Here a cached function of a module that imports this
one is stamped with the sources of every such module of its directory (its
kernel's modules): an edit to any of them recompiles them all, an edit to any
other file (a backend's Python driver) recompiles nothing.

Compiled kernels come from elsewhere when they can: those the package was
built with (`adopt_prebuilt`), and those compiled for another copy of the
same sources, such as the installed copy a checkout replaces
(`adopt_copies`).
"""

from __future__ import annotations

import glob
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numba
from numba.core import caching, event

from csp._cache import cache_home


def _candidates() -> list[Path]:
    """The cache directories to try, best first."""
    found = []
    home = cache_home()
    if home is not None:
        found.append(home / "numba")
    # The temporary directory is shared between users: the uid keeps them apart.
    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    found.append(Path(tempfile.gettempdir()) / f"csp-numba-{uid}")
    return found


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def user_cache_dir() -> Path | None:
    """The per-user directory for numba's cache (the first writable of
    XDG_CACHE_HOME or ~/.cache, then the temporary directory), or None."""
    return next((path for path in _candidates() if _writable(path)), None)


def configure() -> str | None:
    """Point numba's on-disk cache at a per-user directory, unless the user
    chose one (NUMBA_CACHE_DIR). Returns the directory in use, or None when
    none is writable (numba then falls back to its own choice)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    path = user_cache_dir()
    if path is None:
        return None
    # numba reads the variable only when it is first imported, and it may
    # have been imported already: set its live config too.
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    numba.config.CACHE_DIR = str(path)  # type: ignore[attr-defined]
    return str(path)


def cache_subpath(kernel_directory: Path) -> str:
    """The directory, under numba's cache directory, of the kernels of
    `kernel_directory` (numba's own rule: the directory's name and a hash of
    its absolute path)."""
    locator = getattr(caching, "_UserProvidedCacheLocator", None) or \
        caching.UserProvidedCacheLocator
    return str(locator.get_suitable_cache_subpath(str(kernel_directory / "kernel.py")))


KERNELS = ("backends/bitmask",)
"""The kernel directories (relative to the package) compiled at build time
(`csp._prebuilt`): `bitmask`'s, the default for a model. `dlx` runs its C
kernel, built by setup.py; its numba twin is a fallback that compiles on use."""

PREBUILT = Path(__file__).resolve().parent / "_prebuilt"
"""Where an installed package keeps the kernels compiled when it was built."""


def adopt_prebuilt(cache_dir: str | None, prebuilt: Path = PREBUILT) -> int:
    """Copy the kernels compiled when the package was built (`csp._prebuilt`)
    into `cache_dir` where numba looks for them, unless there already; the
    number of files copied.

    A file already there for these sources (stamped with them,
    `kernel_stamp`), numba's own or adopted before, is never replaced. A stale
    one is: an upgrade installed into the same path has the same cache
    directory, and its old index would otherwise keep the new build's files
    out, so that the first run after the upgrade compiled."""
    if cache_dir is None or not prebuilt.is_dir():
        return 0
    package = prebuilt.parent
    copied = 0
    for kernel in sorted({index.parent for index in prebuilt.rglob("*.nbi")}):
        sources = package / kernel.relative_to(prebuilt)
        target = Path(cache_dir) / cache_subpath(sources)
        stamp = None
        for index in sorted(kernel.glob("*.nbi")):
            final = target / index.name
            if final.exists():
                stamp = stamp or kernel_stamp(str(sources))
                if _stamped(final, stamp):
                    continue
            done, whole = _copy_index(index, target)
            copied += done
            if not whole:
                return copied  # a read-only cache: numba compiles, as before
    return copied


def adopt_copies(cache_dir: str | None, package: Path = PREBUILT.parent,
                 kernels: tuple[str, ...] = KERNELS) -> int:
    """Copy into `cache_dir` the kernels that numba compiled for other copies
    of the same sources, for each kernel directory of `package` (`KERNELS`)
    whose cache has no index yet; the number of files copied.

    numba files its cache under a hash of the kernels' path, so an installed
    copy and a checkout, or two checkouts, compile apart: CI's `pip install .`
    compiles the kernels (and leaves a copy in `<kernel directory>_built`,
    `csp._prebuilt.deposit`), then `pip install -e .` ran the same sources
    from the checkout and compiled them again, in every test process at once.
    Only an index stamped with these sources (`kernel_stamp`) is copied, with
    its data files, and each function's from the first copy that has it."""
    if cache_dir is None:
        return 0
    copied = 0
    for kernel in kernels:
        directory = package / kernel
        target = Path(cache_dir) / cache_subpath(directory)
        if not directory.is_dir() or any(target.glob("*.nbi")):
            continue
        stamp = kernel_stamp(str(directory))
        for other in sorted(target.parent.glob(f"{glob.escape(directory.name)}_*")):
            if other == target:
                continue
            for index in other.glob("*.nbi"):
                if (target / index.name).exists() or not _stamped(index, stamp):
                    continue
                done, whole = _copy_index(index, target)
                copied += done
                if not whole:
                    return copied  # a read-only cache: numba compiles, as before
    return copied


def _stamped(index: Path, stamp: str) -> bool:
    """Whether a numba cache index was written, by this numba, with the
    source stamp `stamp`. (Read as bytes: unpickling its signatures would
    import numba's type system, 45 ms.)"""
    try:
        with index.open("rb") as f:
            return bool(pickle.load(f) == numba.__version__ and stamp.encode() in f.read())
    except Exception:  # noqa: BLE001 - an unreadable index is only not adopted
        return False


def _copy_index(index: Path, target: Path) -> tuple[int, bool]:
    """Copy a numba cache index with its data files into `target`: the data
    first, then the index that names them, each file written whole (`_copy`),
    for another process may be loading from there. The number of files
    copied, and False if the cache could not be written (numba then compiles)."""
    base = index.name[: -len(".nbi")]
    copied = 0
    for entry in [*sorted(index.parent.glob(f"{glob.escape(base)}.*.nbc")), index]:
        if not _copy(entry, target / entry.name):
            return copied, False
        copied += 1
    return copied, True


def _copy(source: Path, final: Path) -> bool:
    """Copy one cache file whole (a copy, then a rename: another process may
    be loading from there); False if the cache cannot be written."""
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        partial = final.parent / f".{final.name}.{os.getpid()}"
        shutil.copyfile(source, partial)
        os.replace(partial, final)
    except OSError:
        return False
    return True


CACHE_DIR = configure()

_MARK = b"import csp._" + b"numba_cache"  # (split: this file is no kernel module)


def _is_kernel_module(path: str) -> bool:
    try:
        return _MARK in Path(path).read_bytes()
    except OSError:
        return False


_STAMPS: dict[tuple, str] = {}


def kernel_stamp(directory: str) -> str:
    """The stamp of every kernel module of `directory`: a hash of their names
    and sources (kept while no file there changes size or time)."""
    files = sorted((entry for entry in os.scandir(directory)
                    if entry.name.endswith(".py") and entry.is_file()), key=lambda f: f.name)
    key = (directory, *((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in files))
    if key not in _STAMPS:
        digest = hashlib.sha256()
        for entry in files:
            source = Path(entry.path).read_bytes()
            if _MARK in source:
                digest.update(entry.name.encode() + b"\0" + source + b"\0")
        _STAMPS[key] = "csp kernel " + digest.hexdigest()
    return _STAMPS[key]


class _KernelStamp:
    """A numba cache locator's mixin: the stamp of a function of a kernel
    module is its kernel's (`kernel_stamp`), not its own file's."""

    _py_file: str

    def get_source_stamp(self) -> str:
        return kernel_stamp(os.path.dirname(os.path.abspath(self._py_file)))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _is_kernel_module(py_file):
            return None
        return super().from_function(py_func, py_file)


def _install_kernel_stamps() -> list[type]:
    """Put the kernel-stamped locators first in numba's list (a numba without
    these classes keeps its own: only the cross-module stamp is lost)."""
    made = []
    for name in ("UserProvidedCacheLocator", "InTreeCacheLocator"):
        base = getattr(caching, name, None) or getattr(caching, "_" + name, None)
        if base is not None:
            made.append(type("Kernel" + name, (_KernelStamp, base), {}))
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if impl is None:
        return []
    rest = [c for c in impl._locator_classes if not issubclass(c, _KernelStamp)]
    impl._locator_classes = made + rest
    return made


KERNEL_LOCATORS = _install_kernel_stamps()
# A package's own build first, then copies compiled for other paths.
adopt_prebuilt(CACHE_DIR)
adopt_copies(CACHE_DIR)

NOTICE = "CSP_COMPILE_NOTICE"
"""Set to 0 to silence the line a compilation writes on stderr (the tests do)."""


class _CompileNotice(event.Listener):
    """One line on stderr when a backend's kernels are compiled, not loaded from
    the cache: the first run after installing takes seconds, and should not sit
    silent. numba sends "numba:compile" only on a cache miss."""

    def __init__(self) -> None:
        self.told: set[str] = set()
        self.depth = 0  # compilations nest (a kernel compiles the functions it calls)
        self.since = 0.0
        self.seconds = 0.0  # wall time spent compiling, all compilations

    def on_start(self, ev: event.Event) -> None:
        if self.depth == 0:
            self.since = time.perf_counter()
        self.depth += 1
        function = getattr(ev.data.get("dispatcher"), "py_func", None)
        module = getattr(function, "__module__", "") or ""
        if not module.startswith("csp.") or os.environ.get(NOTICE, "1") == "0":
            return
        part = module.split(".")[2] if module.startswith("csp.backends.") else module
        if part in self.told:
            return
        self.told.add(part)
        where = CACHE_DIR or "numba's default cache"
        print(f"csp: compiling the {part} kernels with numba (once: later runs load them "
              f"from {where})...", file=sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        self.depth = max(0, self.depth - 1)
        if self.depth == 0:
            self.seconds += time.perf_counter() - self.since


_NOTICE = _CompileNotice()
event.register("numba:compile", _NOTICE)


def compiling_seconds() -> float:
    """Wall seconds this process has spent compiling kernels so far (0 while
    every kernel loads from the cache): the search drivers leave it out of
    their time limits, which are for searching, not for a first run's compiling."""
    return _NOTICE.seconds
