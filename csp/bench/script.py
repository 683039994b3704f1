"""What the scripts of `bench/` share: their options and their report.

- `arguments(doc, ...)`: the script's parser, described by its docstring,
  with the options every script spells one way (`--repeat`, `--out`,
  `--time-limit`, `--backends`, `--quiet` and `--tries`, `--knuth`);
- `invocation(path, argv)`: the command line that made a report, for its
  first line;
- `Report`: the report as it is made: each line printed at once (a long
  run shows its rows as they come), kept, and written to `--out` at the end.

>>> parser = arguments("A benchmark.\\n\\nMore.", repeat=5, out="file")
>>> args = parser.parse_args(["--out", "t.md"])
>>> args.repeat, str(args.out)
(5, 't.md')
>>> report = Report()
>>> report.table(["x", "y"])
| x | y |
|---|---|
>>> report.row([1, "2.5 s"])
| 1 | 2.5 s |
>>> report.text().splitlines()[-1]
'| 1 | 2.5 s |'
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from csp.backends import parse_names


def arguments(doc: str | None, *, repeat: int | None = 3, out: str | None = None,
              time_limit: float | None = None, backends: Sequence[str] | None = None,
              quiet: bool = False, knuth: bool = False) -> argparse.ArgumentParser:
    """The parser of a bench script, with the shared options it asks for.

    Args:
        doc: the script's docstring; its first paragraph describes the parser.
        repeat: the default of `--repeat` (timed runs), or None for no option.
        out: `"file"` (`--out FILE`: the report is also written there) or
            `"dir"` (`--out DIR`, default `bench-out`: the script writes its
            files there), or None.
        time_limit: the default of `--time-limit` (seconds), or None for none.
        backends: the default of `--backends` (names, comma-separated or
            not), or None for no option.
        quiet: add `--quiet CORES` and `--tries N`: run again while other
            processes were busy (`csp.bench.quiet`).
        knuth: add `--knuth DIR`, the folder of `bench/knuth/build.sh`'s programs.

    Returns:
        An `argparse.ArgumentParser` the script adds its own options to.
    """
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    if repeat is not None:
        parser.add_argument("--repeat", type=int, default=repeat,
                            help=f"timed runs of each measurement (default {repeat})")
    if out == "file":
        parser.add_argument("--out", type=Path, help="also write the report to this file")
    elif out == "dir":
        parser.add_argument("--out", type=Path, default=Path("bench-out"),
                            help="the folder of the files written (default bench-out)")
    if time_limit is not None:
        parser.add_argument("--time-limit", type=float, default=time_limit,
                            help=f"seconds per run (default {time_limit:g})")
    if backends is not None:
        parser.add_argument("--backends", type=parse_names, default=list(backends),
                            help=f"backends, comma-separated (default {','.join(backends)})")
    if quiet:
        parser.add_argument("--quiet", type=float, default=None, metavar="CORES",
                            help="run a measurement again (up to --tries times) while other "
                                 "processes used more than CORES cores on average during it; "
                                 "default: never")
        parser.add_argument("--tries", type=int, default=10,
                            help="runs at most, with --quiet (default 10)")
    if knuth:
        parser.add_argument("--knuth", type=Path,
                            help="the folder of bench/knuth/build.sh's programs")
    return parser


def invocation(script: str, argv: Sequence[str] | None = None) -> str:
    """`python bench/NAME.py ARGS`: how `script` (its `__file__`) was run."""
    path = Path(script).resolve()
    shown = "/".join(path.parts[path.parts.index("bench"):]) if "bench" in path.parts \
        else path.name
    given = list(sys.argv[1:] if argv is None else argv)
    return " ".join(["python", shown, *(shlex.quote(a) for a in given)])


class Report:
    """Lines printed as they come and kept, for `--out`."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, *lines: str) -> None:
        """Print each line now (flushed), and keep it."""
        for line in lines:
            print(line, flush=True)
            self.lines.append(line)

    def table(self, columns: Sequence[str]) -> None:
        """A Markdown table's heading and rule; its rows follow with `row`."""
        self("| " + " | ".join(columns) + " |", "|" + "---|" * len(columns))

    def row(self, cells: Sequence[object]) -> None:
        """One row of the table."""
        self("| " + " | ".join(str(cell) for cell in cells) + " |")

    def text(self) -> str:
        """Everything reported so far."""
        return "\n".join(self.lines) + "\n"

    def write(self, path: Path | None) -> None:
        """Write the report to `path` (nothing when None)."""
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.text(), encoding="utf-8")


__all__ = ["Report", "arguments", "invocation"]
