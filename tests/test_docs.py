"""The house a newcomer reads: the README's length and commands, the site's
generated pages, the licence, the size of modules.

The site's pages run their examples as doctests (pytest collects docs/*.md);
`mkdocs build --strict` runs in CI (`.ci/run`). These tests check what the
pages are made of, without building the site.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _hooks():
    path = ROOT / "tools" / "mkdocs_hooks.py"
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_fits_on_a_few_screens() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


def _shell_commands(text: str) -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readmes_two_commands_verbatim() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    commands = _shell_commands(readme)
    install = "pip install . && csp solve sudoku examples/sudoku.txt"
    tests = "pip install -e '.[test]' && pytest"
    assert install in commands and tests in commands
    assert commands.index(install) < commands.index(tests)
    for command in (install, tests):
        assert command in ci, command
    assert "mkdocs build --strict" in ci
    # The first screen names the distribution and the venv step.
    first = "\n".join(readme.splitlines()[:40])
    assert "csp-workbench" in first and "python3 -m venv" in first
    assert "pip install csp` installs someone else" in first


def test_every_public_module_has_a_reference_page_with_a_summary() -> None:
    hooks = _hooks()
    modules = hooks.public_modules()
    for name in ("csp", "csp.solve", "csp.exactcover", "csp.io.knuth", "csp.backends.base",
                 "csp.problems.sudoku", "csp.plugins", "csp.problem"):
        assert name in modules
    assert not [m for m in modules if m.startswith("csp.commands")]
    empty = [module for module in modules if not hooks.summary(module)]
    assert empty == [], f"modules without a docstring (an empty reference page): {empty}"
    index = hooks.api_index()
    for module in modules:
        assert f"]({module}.md)" in index
        assert f"::: {module}" in hooks.api_page(module)


def test_the_cli_page_covers_every_subcommand() -> None:
    from csp.cli import COMMANDS

    page = _hooks().cli_reference()
    for name in COMMANDS:
        assert f"## `csp {name}`" in page
        assert f"usage: csp {name}" in page


def test_the_formats_page_covers_every_kind() -> None:
    from csp import problems

    page = _hooks().kinds_reference()
    for name in problems.BUILTIN:
        assert f"### `{name}`" in page
        assert problems.get(name).description in page


def test_the_licence_is_mit_as_the_metadata_says() -> None:
    # (tomllib is 3.11's; csp runs on 3.10)
    assert re.search(r'^license = "MIT"$', (ROOT / "pyproject.toml").read_text(), re.MULTILINE)
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


@pytest.mark.parametrize("page", ["CHANGELOG.md", "CONTRIBUTING.md", "tests/README.md",
                                  "bench/README.md"])
def test_the_house_pages_exist(page: str) -> None:
    assert (ROOT / page).read_text().strip()


def test_no_module_is_over_900_lines() -> None:
    long = {str(path.relative_to(ROOT)): n for path in (ROOT / "csp").rglob("*.py")
            if (n := len(path.read_text().splitlines())) > 900}
    assert long == {}


def test_bench_readme_lists_every_script() -> None:
    index = (ROOT / "bench" / "README.md").read_text()
    scripts = [path.relative_to(ROOT / "bench").as_posix()
               for path in (ROOT / "bench").rglob("*.py")]
    assert scripts and [s for s in scripts if f"`{s}`" not in index] == []
