"""The registry of backends: name -> backend, imported lazily.

The first entry of each form is its default: `backend="auto"` picks the
compiled backend native to the problem's form. A backend whose optional
dependency is missing is listed by `known()` but not by `available()`, and
asking for it raises `BackendUnavailable` naming the extra to install;
`import csp` never fails because of it.

>>> "dlx" in available()
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from csp.errors import BackendUnavailable


@dataclass(frozen=True)
class Entry:
    name: str
    module: str
    cls: str
    extra: str | None  # the pip extra that installs its dependency
    requires: str | None  # the module that dependency provides
    form: str  # its native form: "exact-cover" or "model"


REGISTRY: dict[str, Entry] = {
    entry.name: entry
    for entry in (
        Entry("dlx", "csp.backends.dlx", "DLXBackend", None, None, "exact-cover"),
        Entry("bitmask", "csp.backends.bitmask", "BitmaskBackend", None, None, "model"),
        Entry("cpsat", "csp.backends.cpsat", "CPSATBackend", "cpsat", "ortools", "model"),
        Entry("python-constraint", "csp.backends.pyconstraint", "PythonConstraintBackend",
              "pyconstraint", "constraint", "model"),
    )
}

_instances: dict[str, Any] = {}
_errors: dict[str, str] = {}


def known() -> list[str]:
    """Every backend name, installed or not."""
    return list(REGISTRY)


def available() -> list[str]:
    """The names of the backends that can run here."""
    return [name for name in REGISTRY if _load(name) is not None]


def get(name: str) -> Any:
    """The backend called `name`; `BackendUnavailable` says why it cannot run."""
    _entry(name)
    backend = _load(name)
    if backend is None:
        raise BackendUnavailable(_errors[name])
    return backend


def native_form(name: str) -> str:
    """The form backend `name` solves natively, `"exact-cover"` or `"model"`,
    known without importing it.

    >>> native_form("dlx"), native_form("cpsat")
    ('exact-cover', 'model')
    """
    return _entry(name).form


def _entry(name: str) -> Entry:
    if name not in REGISTRY:
        raise BackendUnavailable(
            f"unknown backend {name!r}; the backends are: {', '.join(REGISTRY)}"
        )
    return REGISTRY[name]


def default_for(problem: Any) -> str:
    """The backend `auto` means for this problem: the compiled one native to its form."""
    from csp.exactcover import ExactCover
    from csp.model import Model

    if isinstance(problem, ExactCover):
        return "dlx"
    if isinstance(problem, Model):
        return "bitmask"
    raise TypeError(f"expected an ExactCover or a Model, not {type(problem).__name__}")


def _load(name: str) -> Any:
    if name in _instances:
        return _instances[name]
    if name in _errors:
        return None
    entry = REGISTRY[name]
    if entry.requires is not None:
        try:
            importlib.import_module(entry.requires)
        except ImportError:
            _errors[name] = (
                f"backend {name!r} needs the {entry.requires!r} package: "
                f"pip install 'csp-workbench[{entry.extra}]'"
            )
            return None
    try:
        module = importlib.import_module(entry.module)
    except ModuleNotFoundError as err:
        if err.name != entry.module:
            raise
        _errors[name] = f"backend {name!r} is not part of this version of csp"
        return None
    backend = getattr(module, entry.cls)()
    _instances[name] = backend
    return backend
