"""mkdocs hooks: the pages written from the code, so that they cannot drift.

- `reference/api/<module>.md`, one per public module (`public_modules`), and
  their index, rendered by mkdocstrings from the docstrings;
- `<!-- csp:cli -->` in a page: every subcommand's `--help`, from the
  parser `csp.cli.build_parser` builds;
- `<!-- csp:kinds -->`: every built-in puzzle kind's format, from its
  module's documentation, with its example file;
- `<!-- csp:capabilities -->`: every built-in backend's capabilities.

`tests/test_docs.py` imports this file to check what it makes.
"""

from __future__ import annotations

import ast
import io
import textwrap
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "csp"
API = "reference/api"


def public_modules() -> list[str]:
    """Every module of `csp` a user may import: no part of its name starts
    with `_`; the subcommands are documented by the command-line page."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts) or parts[:2] == ["csp", "commands"]:
            continue
        found.append(".".join(parts))
    return found


def summary(module: str) -> str:
    """The first line of a module's docstring (read without importing it)."""
    path = PACKAGE.parent / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")


def api_page(module: str) -> str:
    return f"# `{module}`\n\n::: {module}\n    options:\n      show_root_heading: false\n"


def api_index() -> str:
    rows = [f"| [`{module}`]({module}.md) | {summary(module).replace('|', '/')} |"
            for module in public_modules()]
    return ("# Python API\n\nEvery public module, its documentation written from its "
            "docstrings. Start with `csp` (the names most programs need), then the "
            "module of what you do.\n\n| module | what it holds |\n|---|---|\n"
            + "\n".join(rows) + "\n")


def cli_reference() -> str:
    """Every subcommand's help, as `csp COMMAND --help` prints it."""
    from csp.cli import COMMANDS, build_parser

    parser = build_parser()
    subparsers = next(action for action in parser._actions  # noqa: SLF001 - argparse has no API
                      if action.__class__.__name__ == "_SubParsersAction")
    out = ["## `csp`\n", "```text", _help(parser), "```\n"]
    for name in COMMANDS:
        out += [f"## `csp {name}`\n", "```text", _help(subparsers.choices[name]), "```\n"]
    return "\n".join(out)


def _help(parser) -> str:  # type: ignore[no-untyped-def]
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        parser.print_help()
    return buffer.getvalue().rstrip()


def kinds_reference() -> str:
    """Each built-in kind: its one-line description, its module's account of
    the format (up to the examples that run), and its example file."""
    import importlib

    from csp import problems

    out = []
    for name, module_name in problems.BUILTIN.items():
        module = importlib.import_module(module_name)
        kind = problems.get(name)
        doc = (module.__doc__ or "").split("\n>>>")[0].strip()
        out += [f"### `{name}`\n", f"*{kind.description}*\n", _markdown(doc) + "\n"]
        example = _example(name)
        if example is not None:
            text = example.read_text().rstrip()
            out += [f"`{example.relative_to(ROOT)}`:\n", "```text", text, "```\n"]
    return "\n".join(out)


def _markdown(doc: str) -> str:
    """A module docstring as Markdown: its indented blocks stay code blocks
    (a blank line before each, as Markdown needs)."""
    lines = doc.splitlines()
    out: list[str] = []
    for line in lines:
        if line.startswith("    ") and out and out[-1].strip() and not out[-1].startswith("    "):
            out.append("")
        out.append(line)
    return textwrap.dedent("\n".join(out))


EXAMPLE_SUFFIXES = (".txt", ".non")
"""The example files' suffixes: plain text, and the kinds' own (nonogram's `.non`)."""


def _example(name: str) -> Path | None:
    for candidate in sorted((ROOT / "examples").glob(f"{name}*")):
        if candidate.suffix in EXAMPLE_SUFFIXES and not candidate.name.endswith(".answer.txt"):
            return candidate
    return None


def capabilities_reference() -> str:
    """Each built-in backend: its native form, what it accepts, its capabilities."""
    from csp import backends

    rows = ["| backend | native form | accepts | capabilities |", "|---|---|---|---|"]
    for name in backends.BUILTIN_NAMES:
        try:
            backend = backends.get(name)
        except backends.BackendUnavailable as err:
            rows.append(f"| `{name}` | {backends.native_form(name)} | "
                        f"not installed here: {err} | |")
            continue
        accepts = ", ".join(backends.form_of(form) for form in backend.accepts)
        rows.append(f"| `{name}` | {backends.form_of(backend.native)} | {accepts} | "
                    f"{', '.join(f'`{c}`' for c in sorted(backend.capabilities))} |")
    return "\n".join(rows) + "\n"


MARKERS = {"<!-- csp:cli -->": cli_reference, "<!-- csp:kinds -->": kinds_reference,
           "<!-- csp:capabilities -->": capabilities_reference}


def on_files(files, config):  # type: ignore[no-untyped-def]
    from mkdocs.structure.files import File

    files.append(File.generated(config, f"{API}/index.md", content=api_index()))
    for module in public_modules():
        files.append(File.generated(config, f"{API}/{module}.md", content=api_page(module)))
    return files


def on_page_markdown(markdown, page, config, files):  # type: ignore[no-untyped-def]
    for marker, make in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
