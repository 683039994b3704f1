"""Why a puzzle is not unique, and which givens would make it so.

`explain(kind, puzzle)` lists the puzzle's solutions (up to `limit`, within
`time_limit`), compares them cell by cell (the kind's `cells(puzzle,
answer)`; for a kind that declares none, the declared problem's variables or
the option covering each primary item), and reports:

- where the first two solutions differ;
- the fewest cells in which two of the solutions found differ (a small
  difference is where the puzzle's author must look);
- givens that make the puzzle unique, each a cell of the first solution
  written into the puzzle (the kind's `with_given`), each checked by a count
  with `limit=2`; when no single given will do, a set of givens found
  greedily (each the given that rules out most of the solutions left), also
  checked.

>>> from csp import problems
>>> kind = problems.get("latin")
>>> [puzzle] = kind.parse("12.\\n...\\n...")
>>> why = explain(kind, puzzle)
>>> why.count, why.complete, why.smallest[2]
(2, True, [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)])
>>> [(given.cells, given.values) for given in why.givens][:2]
[([(1, 0)], [3]), ([(1, 1)], [1])]
>>> print(why.givens[0].text)
12.
3..
...
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.problems.kind import Kind
from csp.result import Status

LIMIT = 100
"""The most solutions listed by default."""
PAIRS = 20_000
"""The most pairs of solutions compared for the smallest difference."""
TRIES = 60
"""The most single givens tried; and the most givens in a greedy set."""


@dataclass
class Given:
    """Givens that make the puzzle unique: the cells, their values (from the
    first solution), the new puzzle and its text (`format_puzzle`)."""

    cells: list[Any]
    values: list[Any]
    puzzle: Any
    text: str | None


@dataclass
class Explanation:
    """What `explain` found; `str()` of it is the report `csp solve
    --why-not-unique` prints."""

    kind: Kind
    puzzle: Any
    answers: list[Any]
    """The solutions found, as the kind's answers, in the search's order."""
    cells: list[dict[Any, Any]]
    """Each solution as `{cell: value}`."""
    status: Status
    differing: list[Any] = field(default_factory=list)
    """The cells where the first two solutions differ."""
    smallest: tuple[int, int, list[Any]] | None = None
    """Two solutions (indices into `answers`) that differ in the fewest cells, and those cells."""
    open: list[Any] = field(default_factory=list)
    """The cells that are not the same in every solution found."""
    givens: list[Given] = field(default_factory=list)
    why_no_givens: str | None = None

    @property
    def count(self) -> int:
        return len(self.answers)

    @property
    def complete(self) -> bool:
        """Whether every solution was found (the search was not stopped)."""
        return self.status is Status.COMPLETE

    @property
    def unique(self) -> bool:
        return self.complete and self.count == 1

    def __str__(self) -> str:
        if self.count == 0:
            return "no solution" if self.complete else f"no solution found ({self.status})"
        if self.count == 1:
            return "unique: 1 solution" if self.complete else \
                f"1 solution found, not proven unique ({self.status})"
        many = f"{self.count} solutions" if self.complete else \
            f"at least {self.count} solutions ({self.status})"
        lines = [f"not unique: {many}",
                 f"solutions 1 and 2 differ in {_cells(self.differing)}"]
        if self.smallest is not None:
            i, j, where = self.smallest
            lines.append(f"the fewest: solutions {i + 1} and {j + 1} differ in {_cells(where)}")
        lines.append(f"{len(self.open)} cells differ among the solutions found")
        if self.givens:
            lines.append("givens that make it unique (each checked by a count with limit 2):")
            lines += [f"  {', '.join(f'{name(c)} = {v}' for c, v in zip(g.cells, g.values))}"
                      for g in self.givens]
        elif self.why_no_givens:
            lines.append(self.why_no_givens)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The explanation as JSON-ready data (cells as lists)."""
        return {
            "count": self.count, "status": self.status.value, "complete": self.complete,
            "differing": [_json(c) for c in self.differing],
            "smallest": None if self.smallest is None else {
                "solutions": [self.smallest[0] + 1, self.smallest[1] + 1],
                "cells": [_json(c) for c in self.smallest[2]]},
            "open": len(self.open),
            "givens": [{"cells": [_json(c) for c in g.cells],
                        "values": [_json(v) for v in g.values], "puzzle": g.text}
                       for g in self.givens],
        }


def explain(kind: Kind, puzzle: Any, *, backend: Any = "auto", limit: int = LIMIT,
            time_limit: float | None = None, proposals: int = 3) -> Explanation:
    """List up to `limit` solutions of `puzzle` and explain how they differ
    (see the module's text); propose up to `proposals` givens."""
    import csp

    started = time.perf_counter()
    problem = kind.declare(puzzle)
    search = csp.solutions(problem, backend, limit=limit, time_limit=time_limit)
    answers: list[Any] = []
    cells: list[dict[Any, Any]] = []
    for solution in search:
        answer = kind.decode(puzzle, solution, problem)
        answers.append(answer)
        cells.append(_cells_of(kind, puzzle, answer, solution, problem))
    assert search.status is not None
    found = Explanation(kind, puzzle, answers, cells, search.status)
    if len(answers) < 2:
        return found
    found.differing = differing(cells[0], cells[1])
    found.smallest = _smallest(cells)
    found.open = sorted({c for other in cells[1:] for c in differing(cells[0], other)}, key=_key)
    if kind.with_given is None:
        found.why_no_givens = f"({kind.name} puzzles take no givens: the kind declares no " \
                              "with_given)"
        return found
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - started))
    found.givens = _givens(kind, puzzle, answers[0], cells, found.open, backend, proposals, left)
    if not found.givens:
        found.why_no_givens = "no givens found that make it unique"
    return found


def differing(a: Mapping[Any, Any], b: Mapping[Any, Any]) -> list[Any]:
    """The cells where two solutions differ (a cell one of them lacks included).

    >>> differing({(0, 0): 1, (0, 1): 2}, {(0, 0): 1, (0, 1): 3})
    [(0, 1)]
    """
    return sorted((c for c in a.keys() | b.keys() if a.get(c) != b.get(c)), key=_key)


def _smallest(cells: list[dict[Any, Any]]) -> tuple[int, int, list[Any]]:
    best: tuple[int, int, list[Any]] | None = None
    for i, j in itertools.islice(itertools.combinations(range(len(cells)), 2), PAIRS):
        where = differing(cells[i], cells[j])
        if best is None or len(where) < len(best[2]):
            best = (i, j, where)
    assert best is not None
    return best


def _givens(kind: Kind, puzzle: Any, first: Any, cells: list[dict[Any, Any]], open_cells: list[Any],
            backend: Any, wanted: int, time_limit: float | None) -> list[Given]:
    """Single givens that make the puzzle unique, the most telling first; if
    none, one set of givens chosen greedily."""
    started = time.perf_counter()

    def out_of_time() -> bool:
        return time_limit is not None and time.perf_counter() - started > time_limit

    found: list[Given] = []
    for cell in _ranked(open_cells, cells, cells[0])[:TRIES]:
        if len(found) >= wanted or out_of_time():
            break
        given = _given(kind, puzzle, first, [cell], cells[0])
        if given is not None and _unique(kind, given.puzzle, backend):
            found.append(given)
    if found or out_of_time():
        return found
    greedy = _greedy(kind, puzzle, cells[0], backend, out_of_time)
    return [] if greedy is None else [greedy]


def _greedy(kind: Kind, puzzle: Any, first: dict[Any, Any], backend: Any,
            out_of_time: Callable[[], bool]) -> Given | None:
    """Givens added one at a time, each from the solution closest to the first
    (the first itself while the kind's cells keep their values), at the cell
    where most of the solutions found disagree with it; then the solutions of
    the new puzzle are listed again. The set, once unique, is checked by a count."""
    import csp

    chosen: list[Any] = []
    values: list[Any] = []
    current = puzzle
    for _ in range(TRIES):
        if out_of_time():
            return None
        problem = kind.declare(current)
        search = csp.solutions(problem, backend, limit=LIMIT)
        listed, seen = [], []
        for solution in search:
            listed.append(kind.decode(current, solution, problem))
            seen.append(_cells_of(kind, current, listed[-1], solution, problem))
        if len(listed) < 2:
            break
        anchor = min(range(len(seen)), key=lambda k: len(differing(seen[k], first)))
        where = sorted({c for other in seen for c in differing(seen[anchor], other)}, key=_key)
        for cell in _ranked(where, seen, seen[anchor]):
            assert kind.with_given is not None
            given = kind.with_given(current, listed[anchor], cell)
            if given is not None:
                chosen.append(cell)
                values.append(seen[anchor].get(cell))
                current = given
                break
        else:
            return None
    else:
        return None
    if not chosen or not _unique(kind, current, backend):
        return None
    text = kind.format_puzzle(current) if kind.format_puzzle is not None else None
    return Given(chosen, values, current, text)


def _ranked(where: list[Any], cells: list[dict[Any, Any]], anchor: dict[Any, Any]) -> list[Any]:
    """The cells, those where most solutions disagree with `anchor` first
    (a given there rules most of them out)."""
    return sorted(where, key=lambda c: (-sum(s.get(c) != anchor.get(c) for s in cells), _key(c)))


def _given(kind: Kind, puzzle: Any, first: Any, where: list[Any], values: Mapping[Any, Any]
           ) -> Given | None:
    assert kind.with_given is not None
    for cell in where:
        puzzle = kind.with_given(puzzle, first, cell)
        if puzzle is None:
            return None
    text = kind.format_puzzle(puzzle) if kind.format_puzzle is not None else None
    return Given(list(where), [values.get(c) for c in where], puzzle, text)


def _unique(kind: Kind, puzzle: Any, backend: Any) -> bool:
    """Proven unique: a search to the end with limit 2 finds one solution."""
    import csp

    result = csp.count(kind.declare(puzzle), backend, limit=2)
    return result.count == 1 and result.status is Status.COMPLETE


def _cells_of(kind: Kind, puzzle: Any, answer: Any, solution: Any, problem: Any
              ) -> dict[Any, Any]:
    """A solution as `{cell: value}`: the kind's `cells`, else the declared
    problem's variables, or the option covering each primary item."""
    if kind.cells is not None:
        try:
            return dict(kind.cells(puzzle, answer))
        except Exception as err:  # noqa: BLE001 - a plug-in's bug is reported, not a traceback
            raise InputError(f"the {kind.name} kind's cells failed: {type(err).__name__}: "
                             f"{err}") from err
    if isinstance(problem, ExactCover):
        covering: dict[Hashable, Any] = {}
        primary = set(problem.primary)
        for option in solution:
            for item, _ in problem.option(option):
                if item in primary:
                    covering[item] = option
        return covering
    return dict(solution)


def name(cell: Any) -> str:
    """A cell as the reports name it: `r1c2` for a board's (row, column),
    `x,y,z` in a box, else its text."""
    if isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(x, int) for x in cell):
        return f"r{cell[0] + 1}c{cell[1] + 1}"
    if isinstance(cell, tuple) and all(isinstance(x, int) for x in cell):
        return ",".join(map(str, cell))
    if isinstance(cell, tuple):
        return "".join(map(str, cell))
    return str(cell)


def _cells(where: list[Any]) -> str:
    shown = " ".join(name(c) for c in where[:30])
    more = f" ... ({len(where) - 30} more)" if len(where) > 30 else ""
    return f"{len(where)} cell{'s' * (len(where) != 1)}: {shown}{more}"


def _key(cell: Any) -> Any:
    return (str(type(cell)), cell) if isinstance(cell, tuple) else (str(type(cell)), str(cell))


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value if isinstance(value, (int, str, float, bool)) or value is None else str(value)


__all__ = ["Explanation", "Given", "differing", "explain", "name"]
