"""A script of bench/ loaded as a module, for the tests of what it builds on."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load(name: str) -> ModuleType:
    """bench/`name`.py as module `name`. It is put in sys.modules first:
    dataclasses look their module up there while a class is built, and a
    script imports its neighbours (bench_learning imports qwh) by name."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
