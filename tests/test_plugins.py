"""Plug-ins found by entry point: good ones join the registry, broken ones
are listed by `broken()` with the reason and never break `import csp`.

The plug-in packages are faked the way `importlib.metadata` finds installed
ones: a directory on `sys.path` holding the modules and a
`<name>.dist-info` with `METADATA` and `entry_points.txt` (as pip would
write; installing them with pip would take far longer).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import csp
from csp import backends, problems

GOOD_BACKEND = '''
from csp.backends.dlx import DLXBackend

class Renamed(DLXBackend):
    name = "dlx-again"
'''

WRONG_COUNT = '''
from csp.backends.dlx import DLXBackend

class Liar(DLXBackend):
    name = "liar"

    def count(self, problem, **limits):
        return 1  # an int, not a csp.Result
'''

KIND = '''
from csp.problems.queens import KIND as QUEENS
import dataclasses

KIND = dataclasses.replace(QUEENS, name="queens-again")
NOT_A_KIND = 42
'''

ENTRY_POINTS = """
[csp.backends]
dlx-again = fake_plugin.good:Renamed
missing-module = fake_plugin.nowhere:Backend
missing-class = fake_plugin.good:Nowhere
dlx = fake_plugin.good:Renamed
liar = fake_plugin.wrong:Liar

[csp.problems]
queens-again = fake_plugin.kind:KIND
not-a-kind = fake_plugin.kind:NOT_A_KIND
sudoku = fake_plugin.kind:KIND
broken-import = fake_plugin.nowhere:KIND
"""


def fake_distribution(root: Path) -> Path:
    """A fake installed distribution `fake-plugin` under `root`."""
    package = root / "fake_plugin"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "good.py").write_text(GOOD_BACKEND)
    (package / "wrong.py").write_text(WRONG_COUNT)
    (package / "kind.py").write_text(KIND)
    info = root / "fake_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(ENTRY_POINTS))
    return root


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The fake plug-in, visible to csp for the length of one test."""
    root = fake_distribution(tmp_path)
    monkeypatch.syspath_prepend(str(root))
    backends.reload()
    problems.reload()
    yield root
    monkeypatch.undo()
    for module in [m for m in sys.modules if m.startswith("fake_plugin")]:
        del sys.modules[module]
    backends.reload()
    problems.reload()


def test_a_good_plugin_backend_joins_the_registry(installed: Path) -> None:
    assert "dlx-again" in backends.available()
    assert backends.REGISTRY["dlx-again"].distribution == "fake-plugin"
    xc = csp.ExactCover.from_text("a b\na\nb\na b\n")
    assert csp.count(xc, "dlx-again").count == 2


def test_broken_plugin_backends_are_listed_with_the_reason(installed: Path) -> None:
    broken = backends.broken()
    assert "ModuleNotFoundError" in broken["missing-module"]
    assert "fake_plugin.nowhere" in broken["missing-module"]
    assert "AttributeError" in broken["missing-class"] and "Nowhere" in broken["missing-class"]
    assert "the name 'dlx' is taken by the built-in" in broken["dlx (fake-plugin)"]
    assert "count returned a int, not a csp.Result" in broken["liar"]
    for why in broken.values():
        assert "fake-plugin" in why  # each names its distribution
    available = backends.available()
    assert not set(broken) & set(available)
    assert available[0] == "dlx" and csp.count(csp.ExactCover(["a"]), "dlx").count == 0
    with pytest.raises(csp.BackendUnavailable, match="liar.*not a csp.Result"):
        csp.count(csp.ExactCover(["a"]), "liar")


def test_plugin_kinds_good_and_broken(installed: Path) -> None:
    assert "queens-again" in problems.names()
    assert problems.get("queens-again").name == "queens-again"
    broken = problems.broken()
    assert "int, not a csp.problems.Kind" in broken["not-a-kind"]
    assert "the name 'sudoku' is taken by the built-in" in broken["sudoku (fake-plugin)"]
    assert "ModuleNotFoundError" in broken["broken-import"]
    with pytest.raises(csp.InputError, match="unknown puzzle kind 'not-a-kind'"):
        problems.get("not-a-kind")


def test_csp_list_and_import_csp_survive_broken_plugins(installed: Path) -> None:
    env_path = f"{installed}:{':'.join(p for p in sys.path if p)}"
    done = subprocess.run(
        [sys.executable, "-c", "import csp, csp.cli; csp.cli.main(['list'])"],
        capture_output=True, text=True, env={"PYTHONPATH": env_path}, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "queens-again" in out and "not-a-kind" in out and "BROKEN" in out
    assert "backend liar is broken" in out and "dlx-again" in out


def test_reload_forgets_plugins(installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "dlx-again" in backends.available()
    monkeypatch.syspath_prepend(str(installed.parent))  # keep sys.path valid after undo
    sys.path.remove(str(installed))
    backends.reload()
    problems.reload()
    assert "dlx-again" not in backends.available()
    assert not any("fake-plugin" in why for why in backends.broken().values())
    assert "queens-again" not in problems.names()


def test_crosscheck_leaves_out_a_backend_that_refuses_by_its_capabilities() -> None:
    from csp.backends.dlx import DLXBackend

    class PlainDLX(DLXBackend):
        name = "plain-dlx"
        capabilities = frozenset({"split"})  # no colours: a model is refused

    backends.register(PlainDLX)
    try:
        from csp.testing import every_kind_model

        m = every_kind_model()  # its lowering to an exact cover needs colours
        report = csp.crosscheck(m)
        assert report.agree and "plain-dlx" not in [run.backend for run in report.runs]
        assert any(note.startswith("plain-dlx left out: ") for note in report.notes)
        named = csp.crosscheck(m, backends=["plain-dlx", "dlx"])
        assert not named.agree and named.failed
    finally:
        backends.unregister("plain-dlx")
