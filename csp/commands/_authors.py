"""What `csp solve` does for puzzle authors: `--svg DIR` (a picture per
puzzle) and `--why-not-unique` (where the solutions differ, and givens that
make the puzzle unique); and the blank line between two puzzles' answers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from csp.errors import InputError
from csp.problems.kind import Kind
from csp.result import Stats, Status


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("for puzzle authors (docs/authors.md)")
    group.add_argument("--svg", metavar="DIR",
                       help="write a picture of each puzzle to DIR/KIND-N.svg (N: the puzzle's "
                       "number in the file): solved, or the puzzle alone if no solution was "
                       "found; with --why-not-unique, the two solutions that differ least, "
                       "the differing cells highlighted")
    group.add_argument("--why-not-unique", action="store_true",
                       help="list up to --limit solutions (default 100) and say where they "
                       "differ, the fewest cells two of them differ in, and givens that make "
                       "the puzzle unique (each checked by a count with limit 2)")


def check(kind: Kind, args: argparse.Namespace) -> Path | None:
    """Refuse what cannot be done before any work; the directory of `--svg`,
    made if missing."""
    if args.why_not_unique and (args.count or args.all or args.up_to_symmetry
                                or kind.up_to_symmetry):
        raise InputError("--why-not-unique lists solutions itself: drop --count, --all and "
                         "--up-to-symmetry (a kind that counts up to symmetry cannot take it)")
    if args.svg is None:
        return None
    if args.count:
        raise InputError("--svg draws each puzzle's answer: drop --count")
    return picture_directory(kind, args.svg)


def picture_directory(kind: Kind, name: str) -> Path:
    """The directory of `--svg`, made if missing, for a kind that draws."""
    if kind.draw is None:
        from csp import problems

        problems.draw(kind, None)  # raises the error that names the kinds that draw
    where = Path(name)
    if where.exists() and not where.is_dir():
        raise InputError(f"--svg {name}: not a directory")
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"--svg {name}: cannot make the directory: {err.strerror}") from None
    return where


def write(kind: Kind, puzzle: Any, answer: Any, where: Path, name: str,
          marks: Any = ()) -> None:
    """Draw `puzzle` (solved if `answer` is not None) into `where/name.svg`."""
    from csp import problems

    svg = problems.draw(kind, puzzle, answer, marks)
    path = where / f"{name}.svg"
    try:
        path.write_text(svg, encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot write {path}: {err.strerror}") from None


def explain(kind: Kind, puzzle: Any, args: argparse.Namespace, number: int,
            where: Path | None, gap: Gap) -> tuple[Status, Stats, int]:
    """`--why-not-unique` for one puzzle: print the report (one JSON object with
    `--json`), draw the two solutions that differ least; return how the
    listing ended, its statistics and the number of solutions found."""
    from csp.problems.uniqueness import explain as explained

    why = explained(kind, puzzle, backend=args.backend, limit=args.limit or 100,
                    time_limit=args.time_limit)
    if args.json:
        print(json.dumps(why.to_dict()))
    else:
        report = str(why)
        if why.givens and why.givens[0].text is not None:
            report += "\nthe puzzle with the first of them:\n" + why.givens[0].text.rstrip("\n")
        gap.before(puzzle, report)
        print(report)
    if where is not None:
        if why.smallest is not None:
            i, j, cells = why.smallest
            for k in (i, j):
                write(kind, puzzle, why.answers[k], where,
                      f"{kind.name}-{number}-solution-{k + 1}", cells)
        else:
            write(kind, puzzle, why.answers[0] if why.answers else None, where,
                  f"{kind.name}-{number}")
    return why.status, Stats(solutions=why.count), why.count


class Gap:
    """A blank line between two puzzles' answers when either spans several
    lines, as a file of such puzzles separates them (a kind may say
    otherwise for a puzzle: `Kind.apart`, e.g. kakuro's algospot format)."""

    def __init__(self, kind: Kind, json_lines: bool) -> None:
        self.kind = kind
        self.off = json_lines
        self.last: bool | None = None  # None: nothing printed yet

    def before(self, puzzle: Any, text: str) -> None:
        """Call before printing the first text of a puzzle's answer."""
        if self.off:
            return
        apart = self.kind.apart(puzzle) if self.kind.apart is not None else True
        wide = "\n" in text.strip("\n") and apart
        if self.last is not None and (wide or self.last) and apart:
            sys.stdout.write("\n")
        self.last = wide
