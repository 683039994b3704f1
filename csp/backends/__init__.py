"""The registry of backends: name -> backend, open to other packages.

Three sources fill it, in this order (the order `available()` lists and
`backend="auto"` searches):

1. the built-in backends, imported lazily (`dlx` first for an exact cover,
   `bitmask` first for a model: the first available backend native to a
   problem's form is its default);
2. plug-ins: every installed distribution's entry points in the group
   `csp.backends` (name = the backend's name, value = `module:Class`);
3. `register(backend)` at run time.

A backend whose optional dependency is missing is listed by `known()` but not
by `available()`, and asking for it raises `BackendUnavailable` naming the
extra to install. A plug-in that cannot load (an import error, a missing
protocol member, a name that clashes, a probe answered wrongly) is listed by
`broken()` with the reason, naming its distribution and entry point; it never
breaks `import csp` or the other backends.

>>> "dlx" in available()
True
>>> get("dlx").native.__name__, native_form("cpsat")
('ExactCover', 'model')
"""

from __future__ import annotations

import importlib
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from csp.backends.base import Backend, validate
from csp.errors import BackendUnavailable
from csp.plugins import Plugin, PluginGroup

GROUP = "csp.backends"
"""The entry-point group a package declares its backends in."""


@dataclass(frozen=True)
class Entry:
    """Where a backend comes from, known before it is imported."""

    name: str
    module: str
    cls: str
    extra: str | None = None  # the pip extra that installs its dependency
    requires: str | None = None  # the modules that dependency provides (comma-separated)
    form: str | None = None  # its native form, if known without importing it
    origin: str = "built-in"  # "built-in", "plug-in", or "register()"
    distribution: str | None = None  # a plug-in's distribution
    dependency: str | None = None  # the distribution it runs on (for its version)
    program: str | None = None  # a program it runs, which must be on PATH
    debian: str | None = None  # the Debian packages that install that program
    locate: str | None = None  # "package:glob": a file of a package, found without importing it
    plugin: Plugin | None = None  # a plug-in's entry point


BUILTIN: tuple[Entry, ...] = (
    Entry("dlx", "csp.backends.dlx", "DLXBackend", form="exact-cover"),
    Entry("bitmask", "csp.backends.bitmask", "BitmaskBackend", form="model"),
    Entry("cpsat", "csp.backends.cpsat", "CPSATBackend", "cpsat", "ortools", "model",
          dependency="ortools"),
    Entry("python-constraint", "csp.backends.pyconstraint", "PythonConstraintBackend",
          "python-constraint", "constraint", "model", dependency="python-constraint2"),
    Entry("sat", "csp.backends.sat", "SATBackend", "sat", "pysat", "model",
          dependency="python-sat"),
    Entry("choco", "csp.backends.choco", "ChocoBackend", "choco", "pychoco", "model",
          dependency="pychoco"),
    Entry("ace", "csp.backends.ace", "AceBackend", "ace", None, "model", dependency="pycsp3",
          program="java", debian="default-jre-headless", locate="pycsp3:solvers/ace/ACE-*.jar"),
    Entry("gecode", "csp.backends.gecode", "GecodeBackend", None, "csp.io.flatzinc", "model",
          program="fzn-gecode", debian="flatzinc"),
    Entry("ganak", "csp.backends.ganak", "GanakBackend", "ganak", "pyganak,pysat", "model",
          dependency="pyganak"),
    Entry("race", "csp.backends.race", "Race", form="model"),
)

BUILTIN_NAMES = tuple(entry.name for entry in BUILTIN)

ALIASES = {"pyconstraint": "python-constraint"}
"""Old names that still resolve (the extra was `pyconstraint`)."""

REGISTRY: dict[str, Entry] = {entry.name: entry for entry in BUILTIN}
"""Every backend known so far, by name; plug-ins join on first use."""

PLUGINS = PluginGroup(GROUP, "plug-in")
"""The entry points of `csp.backends`, read on first use."""

_instances: dict[str, Any] = {}
_errors: dict[str, str] = {}  # name -> why it cannot run (missing extra, broken plug-in)
_broken = PLUGINS.broken  # plug-ins that failed to load, and why


def known() -> list[str]:
    """Every backend name, installed or not (broken plug-ins excepted)."""
    _read_plugins()
    return [name for name in REGISTRY if name not in _broken]


def is_known(name: str) -> bool:
    """Whether `name` names a known backend: a name, an alias, or `name:options`.

    >>> is_known("race:dlx+cpsat"), is_known("nonesuch")
    (True, False)
    """
    return ALIASES.get(name, name).partition(":")[0] in known()


def entry(name: str) -> Entry:
    """Where the backend `name` (a name, an alias, or `name:options`) comes from."""
    return _entry(ALIASES.get(name, name).partition(":")[0])


def available() -> list[str]:
    """The names of the backends that can run here."""
    _read_plugins()
    return [name for name in REGISTRY if _load(name) is not None]


def engines() -> list[str]:
    """The available backends that search on their own: those that run other
    backends (capability `portfolio`, as `race`) left out. The witnesses of
    `crosscheck` and the fallbacks of `auto`."""
    from csp.backends.base import PORTFOLIO

    return [name for name in available() if PORTFOLIO not in get(name).capabilities]


def broken() -> dict[str, str]:
    """The plug-ins that could not be loaded: name -> the reason."""
    _read_plugins()
    for name in list(REGISTRY):
        _load(name)
    return dict(_broken)


def by_name(backend: Any) -> tuple[Any, ...]:
    """The `__reduce__` of a backend configured by name (`name:options`, a
    class made on the fly): it is sent elsewhere (to a worker process) as its
    name, which holds its options, and rebuilt there by `backends.get`."""
    return (get, (backend.name,))


def get(backend: str | Backend) -> Backend:
    """The backend called `backend` (or `backend` itself, checked against the
    protocol).

    Args:
        backend: a name (a built-in's, a plug-in's, a registered one's, an old
            alias; `name:options` for a backend that takes options, as
            `race:dlx+cpsat`), or a backend object.

    Returns:
        The backend object, loaded on first use.

    Raises:
        BackendUnavailable: an unknown name (listing the known ones), a
            backend whose package is missing (with the `pip install` line), a
            broken plug-in (with why), or an object that is no backend.

    >>> get("dlx").name, sorted(get("dlx").capabilities)[:2]
    ('dlx', ['colours', 'family'])
    """
    if not isinstance(backend, str):
        problems = validate(backend)
        if problems:
            raise BackendUnavailable(f"{backend!r} is not a backend: {'; '.join(problems)}")
        return backend
    name = ALIASES.get(backend, backend)
    base, colon, options = name.partition(":")
    _entry(base)
    loaded = _load(base)
    if loaded is None:
        raise BackendUnavailable(_errors[base])
    if not colon:
        return loaded
    # `name:options`: a backend that takes options answers a configured copy.
    configured = getattr(loaded, "configured", None)
    if configured is None:
        raise BackendUnavailable(f"backend {base!r} takes no options, as in {name!r}")
    return configured(options)


def name_of(backend: str | Backend) -> str:
    """A backend's name, given its name (or an alias) or the backend."""
    return ALIASES.get(backend, backend) if isinstance(backend, str) else backend.name


def native_form(backend: str | Backend) -> str:
    """The form a backend solves natively, `"exact-cover"` or `"model"`
    (for a built-in, known without importing it)."""
    if isinstance(backend, str):
        entry = _entry(ALIASES.get(backend, backend).partition(":")[0])
        if entry.form is not None:
            return entry.form
    return form_of(get(backend).native)


def form_of(native: type) -> str:
    from csp.exactcover import ExactCover

    return "exact-cover" if issubclass(native, ExactCover) else "model"


def default_for(problem: Any) -> str:
    """The backend `auto` means for this problem: the first available engine
    native to its form (the compiled built-in)."""
    from csp.exactcover import ExactCover
    from csp.model import Model

    if not isinstance(problem, (ExactCover, Model)):
        raise TypeError(f"expected an ExactCover or a Model, not {type(problem).__name__}")
    form = "exact-cover" if isinstance(problem, ExactCover) else "model"
    # The form first, known without importing a built-in: `auto` never
    # imports the optional backends' packages (OR-Tools takes seconds).
    # A portfolio (`race`) runs engines rather than being one: not a default.
    from csp.backends.base import PORTFOLIO

    for name in _builtins_then_known():
        if native_form(name) == form and (backend := _load(name)) is not None \
                and PORTFOLIO not in backend.capabilities:
            return name
    raise BackendUnavailable(f"no available backend is native to the {form} form")


def _builtins_then_known() -> Iterator[str]:
    """`known()` in its order (the built-ins lead it), the plug-ins read only
    if the caller goes past the built-ins."""
    yield from BUILTIN_NAMES
    yield from known()


def parse_names(text: str) -> list[str]:
    """Backend names as every command line of csp writes them: one argument,
    the names separated by commas (spaces are taken as separators too), so
    that the paths after the option are never taken for names.

    >>> parse_names("dlx,cpsat"), parse_names("dlx, cpsat race:dlx+sat")
    (['dlx', 'cpsat'], ['dlx', 'cpsat', 'race:dlx+sat'])
    """
    return [name for name in re.split(r"[,\s]+", text) if name]


def register(backend: Backend | type, *, replace: bool = False) -> Backend:
    """Add a backend (an object, or a class taking no arguments) at run time.

    It is checked against the protocol; a name already taken is an error
    unless `replace` (a built-in is never replaced).

    Args:
        backend: a backend object, or its class.
        replace: replace a plug-in or registered backend of the same name.

    Returns:
        The registered backend object.

    Raises:
        BackendUnavailable: not a backend (what it lacks), or a name taken.

    >>> from csp.backends.dlx import DLXBackend
    >>> class Mine(DLXBackend):
    ...     name = "mine"
    >>> register(Mine).name in available()
    True
    >>> unregister("mine")
    """
    instance = backend() if isinstance(backend, type) else backend
    problems = validate(instance)
    if problems:
        raise BackendUnavailable(f"cannot register {backend!r}: {'; '.join(problems)}")
    name = instance.name
    if name in REGISTRY and (not replace or REGISTRY[name].origin == "built-in"):
        raise BackendUnavailable(f"a backend named {name!r} exists already "
                                 f"({REGISTRY[name].origin})")
    cls = type(instance)
    REGISTRY[name] = Entry(name, cls.__module__, cls.__qualname__, form=form_of(instance.native),
                           origin="register()")
    _instances[name] = instance
    _errors.pop(name, None)
    _broken.pop(name, None)
    return instance


def unregister(name: str) -> None:
    """Remove a backend added by `register` or a plug-in (not a built-in)."""
    entry = _entry(name)
    if entry.origin == "built-in":
        raise BackendUnavailable(f"{name!r} is built in and cannot be removed")
    del REGISTRY[name]
    tables: tuple[dict[str, Any], ...] = (_instances, _errors, _broken)
    for table in tables:
        table.pop(name, None)


def reload() -> None:
    """Forget the plug-ins read so far and what was loaded: the next call
    reads the entry points again (after installing or removing a plug-in in
    a running process; the tests use it). Built-ins stay; `register()`ed
    backends are dropped with the plug-ins."""
    for name in [name for name, entry in REGISTRY.items() if entry.origin != "built-in"]:
        del REGISTRY[name]
    _instances.clear()
    _errors.clear()
    PLUGINS.reload()


def _entry(name: str) -> Entry:
    if name not in REGISTRY:
        # Only a name not known yet needs the plug-ins: a run that names a
        # built-in never reads every installed distribution's entry points.
        _read_plugins()
    if name not in REGISTRY:
        raise BackendUnavailable(
            f"unknown backend {name!r}; the backends are: {', '.join(known())}"
        )
    return REGISTRY[name]


def _read_plugins() -> None:
    """Add the entry points of the group `csp.backends`, once, without importing them."""
    for plugin in PLUGINS.read():
        if plugin.name in REGISTRY:
            PLUGINS.clash(plugin, REGISTRY[plugin.name].origin)
            continue
        REGISTRY[plugin.name] = Entry(plugin.name, plugin.module, plugin.attribute,
                                      origin="plug-in", distribution=plugin.distribution,
                                      plugin=plugin)


def _load(name: str) -> Backend | None:
    if name in _instances:
        return _instances[name]
    if name in _errors:
        return None
    entry = REGISTRY[name]
    if entry.origin == "plug-in":
        return _load_plugin(entry)
    why = missing_part(entry)
    if why is not None:
        _errors[name] = why
        return None
    module = importlib.import_module(entry.module)
    backend = getattr(module, entry.cls)()
    _instances[name] = backend
    return backend


def missing_part(entry: Entry) -> str | None:
    """What a built-in backend lacks here, with how to install it (the pip
    extra, the Debian packages), or None if it has everything."""
    for module in (entry.requires or "").split(","):
        if not module:
            continue
        try:
            importlib.import_module(module)
        except ImportError:
            if entry.extra is None:  # a module of csp's own that this copy lacks
                return f"backend {entry.name!r} needs the module {module!r}, missing here"
            return (f"backend {entry.name!r} needs the {module!r} package: "
                    f"pip install 'csp-workbench[{entry.extra}]'")
    if entry.locate is not None:
        package, _, pattern = entry.locate.partition(":")
        if not _located(package, pattern):
            return (f"backend {entry.name!r} needs {pattern!r} of the {package!r} package: "
                    f"pip install 'csp-workbench[{entry.extra}]'")
    if entry.program is not None and shutil.which(entry.program) is None:
        how = f": apt-get install {entry.debian}" if entry.debian else ""
        return f"backend {entry.name!r} needs the program {entry.program!r} on PATH{how}"
    return None


def _located(package: str, pattern: str) -> bool:
    """Whether `package` is installed with a file matching `pattern` (its
    module is found, never imported: pycsp3's import touches the process)."""
    import glob
    import importlib.util
    import os

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return False
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    return any(glob.glob(os.path.join(place, pattern)) for place in places)


def missing() -> dict[str, str]:
    """The known backends that cannot run here: name -> what to install."""
    available()
    return {name: why for name, why in _errors.items() if name not in _broken}


def _load_plugin(entry: Entry) -> Backend | None:
    assert entry.plugin is not None
    try:
        target = entry.plugin.load()
        backend = target() if isinstance(target, type) else target
        problems = validate(backend, probe=True)
        if not problems and backend.name != entry.name:
            problems = [f"its name is {backend.name!r}, not the entry point's {entry.name!r}"]
    except Exception as err:  # noqa: BLE001 - any failure of a plug-in is reported, not raised
        problems = [f"it failed to load: {type(err).__name__}: {err}"]
    if problems:
        _errors[entry.name] = PLUGINS.refuse(entry.plugin, "; ".join(problems))
        return None
    _instances[entry.name] = backend
    return backend


__all__ = [
    "Backend",
    "Entry",
    "available",
    "broken",
    "default_for",
    "engines",
    "entry",
    "get",
    "is_known",
    "known",
    "missing",
    "name_of",
    "native_form",
    "parse_names",
    "register",
    "reload",
    "unregister",
]
