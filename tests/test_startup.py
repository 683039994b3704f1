"""A run imports only what it uses: `import csp` and parsing a command line
never load numba, the parallel machinery, Dask or an optional backend's
package, and the plug-ins' entry points are read only when asked for.

Each check runs in a fresh interpreter and looks at `sys.modules`, so that
a module imported by an earlier test cannot hide a regression.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_plugins import installed  # noqa: F401  (the fake plug-in fixture)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"

NEVER = ("numba", "llvmlite", "dask", "distributed", "ortools", "constraint", "pysat",
         "csp.parallel", "csp.symmetry", "csp.fuzz", "csp.records", "csp.collection",
         "csp.bench", "csp.backends.dlx.links", "csp.backends.dlx.family_links")
"""Modules that neither `import csp` nor parsing a command line may load."""

PROBE = """
import json, sys
before = set(sys.modules)
{code}
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def loaded_by(code: str) -> set[str]:
    """The modules that `code` loads in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PROBE.format(code=code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def heavy(modules: set[str], never: tuple[str, ...] = NEVER) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in never))


def test_import_csp_loads_no_engine_and_no_pool() -> None:
    modules = loaded_by("import csp")
    assert heavy(modules) == []
    assert "importlib.metadata" not in modules  # no plug-in scan either
    assert "csp.exactcover" in modules  # the probe does see csp's own modules


@pytest.mark.parametrize("argv", [
    ["xc", str(DATA / "xc" / "knuth_dlx2_manual.dlx"), "--count"],
    ["solve", "sudoku", str(DATA / "sudoku" / "norvig_top95.txt")],
    ["solve", "queens", "8", "--count", "--backend", "bitmask"],
])
def test_parsing_a_command_line_loads_no_engine(argv: list[str]) -> None:
    modules = loaded_by(f"import csp.cli; csp.cli.build_parser({argv[0]!r}).parse_args({argv!r})")
    assert heavy(modules) == []
    # Only the subcommand run is imported, and no puzzle kind yet.
    assert heavy(modules, ("csp.commands.crosscheck", "csp.commands.bench",
                           "csp.commands.fuzz", "csp.problems.sudoku")) == []
    assert "importlib.metadata" not in modules


def test_the_whole_parser_loads_no_engine() -> None:
    """`csp --help` builds every subcommand: still no engine, no pool."""
    modules = loaded_by("import csp.cli; csp.cli.build_parser()")
    assert heavy(modules, ("numba", "dask", "distributed", "ortools", "csp.parallel")) == []


def test_counting_an_exact_cover_loads_no_pool_and_no_plugin_scan() -> None:
    path = DATA / "xc" / "knuth_dlx2_manual.dlx"
    modules = loaded_by(f"import csp.cli; csp.cli.main(['xc', {str(path)!r}, '--count'])")
    assert heavy(modules, ("dask", "distributed", "ortools", "csp.parallel", "csp.symmetry",
                           "csp.fuzz", "csp.records", "csp.collection")) == []
    assert "csp.backends.dlx" in modules


@pytest.mark.usefixtures("installed")
def test_help_names_the_plugins_read_when_shown(capsys: pytest.CaptureFixture[str]) -> None:
    """The help of `--backend` and of KIND is written when it is shown, so it
    still names the plug-ins (the fake one of test_plugins)."""
    from csp.cli import main

    for argv, plugin in ((["xc", "--help"], "dlx-again"), (["solve", "--help"], "queens-again")):
        with pytest.raises(SystemExit) as done, contextlib.redirect_stderr(io.StringIO()):
            main(argv)
        assert done.value.code == 0
        shown = capsys.readouterr().out
        assert plugin in shown and "bitmask" in shown, shown
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "sudoku" in capsys.readouterr().out  # the epilog describes every kind


def test_an_unknown_backend_name_still_reads_the_plugins(
        installed: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    """A name that is not built in makes the registry read the entry points."""
    from csp.cli import main

    path = DATA / "xc" / "knuth_dlx2_manual.dlx"
    assert main(["xc", str(path), "--count", "--backend", "dlx-again"]) == 0
    assert "backend=dlx-again" in capsys.readouterr().out
