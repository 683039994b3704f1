"""`Kind`: everything `csp solve` needs to know of a puzzle kind, typed.

A kind is a plain dataclass of functions, so a puzzle of another package is
declared the same way as a built-in one and registered by an entry point in
the group `csp.problems` whose value is a `Kind` object.

>>> from csp import ExactCover
>>> def declare(n, form=None):
...     xc = ExactCover([f"p{i}" for i in range(n)])
...     for i in range(n):
...         _ = xc.add_option([f"p{i}"], i)
...     return xc
>>> trivial = Kind(
...     name="trivial", description="a size n per line: n items, one option each",
...     parse=lambda text: [int(line) for line in text.split()],
...     declare=declare,
...     decode=lambda n, solution, problem: [problem.data[k] for k in solution],
...     format=lambda n, answer: " ".join(map(str, answer)))
>>> import csp
>>> [n] = trivial.parse("3")
>>> problem = trivial.declare(n)
>>> trivial.format(n, trivial.decode(n, csp.solve(problem).solution, problem))
'0 1 2'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

FORMS = ("exact-cover", "model")
"""The two forms a puzzle may be declared in."""


@dataclass(frozen=True)
class Kind:
    """A puzzle kind.

    - `parse(text, **options)`: the puzzles of a file, as an iterable; an item
      may be a `csp.InputError` (a bad puzzle: it is reported with its line and
      the others are still solved); raising `InputError` rejects the whole file;
    - `declare(puzzle, form=None)`: the `ExactCover` or `Model` (form None: the
      kind's own choice);
    - `decode(puzzle, solution, problem)`: a solution of the declared problem
      as the kind's answer;
    - `format(puzzle, answer)`: the answer as text.

    Optional parts: `forms` it can be declared in (`default_form` first),
    `parse_options` (the `csp solve` flags it reads: `symbols`, `boxes`,
    `reflect`), `symmetry(puzzle, problem)` returning the problem's
    `csp.symmetry.Group` (for `--up-to-symmetry`), `up_to_symmetry` (its
    answer is always a number of classes), `inline(argument)` (the puzzle
    given on the command line instead of a file: its text, or None), and
    `form_notes` (a note per form, for `csp list`).

    A kind whose files hold many puzzles of one shape may declare the three
    parts of a family (see `csp.family`), so that `csp solve` builds the
    structure once and solves each puzzle as that structure plus its givens:
    `shape(puzzle)` (a hashable: equal for puzzles that share a structure,
    e.g. the grid size), `declare_shape(puzzle, form=None)` (the structure
    without the puzzle's givens) and `givens(puzzle, problem)` (the puzzle's
    forced option indices in that exact cover, or `{variable: value}` in that
    model). `decode` then receives the shape's problem.

    The parts for puzzle authors (`docs/authors.md`), each optional:
    `format_puzzle(puzzle)` (the puzzle written back in its input format),
    `draw(puzzle, answer=None, marks=())` (an SVG picture of the puzzle, or
    of its answer, with the cells `marks` highlighted), `cells(puzzle,
    answer)` (the answer as `{cell: value}`, the cells `draw` knows: what
    `explain_uniqueness` compares), `with_given(puzzle, answer, cell)` (the
    puzzle with one more clue, taken from `answer` at `cell`; None where
    none fits), `maker` (a `csp.generate.Maker`: how the kind makes puzzles)
    and `apart(puzzle)` (whether `csp solve` puts a blank line between this
    puzzle's answer and the others'; by default, when an answer spans
    several lines).
    """

    name: str
    description: str
    parse: Callable[..., Iterable[Any]]
    declare: Callable[..., Any]
    decode: Callable[[Any, Any, Any], Any]
    format: Callable[[Any, Any], str]
    forms: tuple[str, ...] = ("exact-cover",)
    parse_options: tuple[str, ...] = ()
    symmetry: Callable[[Any, Any], Any] | None = None
    up_to_symmetry: bool = False
    inline: Callable[[str], str | None] | None = None
    form_notes: dict[str, str] = field(default_factory=dict)
    shape: Callable[[Any], Any] | None = None
    declare_shape: Callable[..., Any] | None = None
    givens: Callable[[Any, Any], Any] | None = None
    format_puzzle: Callable[[Any], str] | None = None
    draw: Callable[..., str] | None = None
    cells: Callable[[Any, Any], Mapping[Any, Any]] | None = None
    with_given: Callable[[Any, Any, Any], Any] | None = None
    maker: Any = None
    apart: Callable[[Any], bool] | None = None

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise TypeError(f"puzzle kind {self.name!r}: {'; '.join(problems)}")

    @property
    def default_form(self) -> str:
        return self.forms[0]

    def problems(self) -> list[str]:
        """What is wrong with this kind's declaration ([] if nothing)."""
        found = []
        if not isinstance(self.name, str) or not self.name or any(c.isspace()
                                                                    for c in self.name):
            found.append(f"its name {self.name!r} is not one word")
        if not isinstance(self.description, str):
            found.append("its description is not a string")
        for part in ("parse", "declare", "decode", "format"):
            if not callable(getattr(self, part)):
                found.append(f"its {part} is not callable")
        if not self.forms or any(f not in FORMS for f in self.forms):
            found.append(f"its forms {self.forms!r} are not among {FORMS}")
        family = (self.shape, self.declare_shape, self.givens)
        if any(part is not None for part in family) and not all(map(callable, family)):
            found.append("it declares a family without all of shape, declare_shape and givens")
        for part in ("format_puzzle", "draw", "cells", "with_given", "apart"):
            if getattr(self, part) is not None and not callable(getattr(self, part)):
                found.append(f"its {part} is not callable")
        if self.maker is not None and (self.format_puzzle is None or self.cells is None):
            found.append("it makes puzzles (maker) but cannot write them (format_puzzle) or "
                         "compare their solutions (cells)")
        if self.up_to_symmetry and self.symmetry is None:
            found.append("it counts up to symmetry but declares no symmetry")
        return found


__all__ = ["FORMS", "Kind"]
