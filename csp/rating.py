"""How hard a puzzle is for a person: the weakest deductions that solve it
without a guess.

A person solving a sudoku fills a cell when only one digit fits it, or a
digit when only one cell of a row takes it (*singles*); when those run out,
they look at where a box meets a row (*intersections*: a digit that must be
in the part they share is in no other cell of either), then at naked and
hidden pairs, triples, ... (*subsets*: all-different reasoned by matching,
Régin's filtering, which finds every such subset at once), then they try a
candidate and see it fail (*probing*); past that, they guess and backtrack
(*search*). The rating is the first rung of that ladder at which the
`bitmask` backend, with only the techniques of that rung switched on,
solves the puzzle by propagation at the root, without a single decision:

| level | bitmask techniques on | difficulty |
|---|---|---|
| 1 singles | each constraint's own propagation (all-different singles, sums, tables) | easy |
| 2 intersections | + `locked` | medium |
| 3 subsets | + `matching` | hard |
| 4 probing | + `probe` (failed-value probing at the root: Nishio, trial and error) | extreme |
| 5 search | all of them, and decisions (the nodes of the search proving it unique) | extreme |

A search rating also carries its nodes, which order the extreme puzzles
among themselves (`Rating.score`). Propagation removes only values that are
in no solution, so a puzzle settled at the root by any rung has exactly one
solution; a puzzle that needs search is counted to the end first, so a
rating always comes with a proof of uniqueness (or says there is none).

The ladder puts intersections below subsets as the human solving guides do
(Sudoku Explainer rates locked candidates 2.6-2.8, a naked pair 3.0, hidden
triples 4.0), and probing with search among the extreme: trying a candidate
to see it fail is what the guides call Nishio or trial and error, their
last resort before guessing. bench/RESULTS.md checks the scale against the
shared collections and a plain search's nodes.

>>> from csp.problems import sudoku
>>> [easy] = sudoku.parse(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> rating = rate(sudoku.declare(easy, "model"))
>>> rating.level, rating.difficulty, rating.nodes
('singles', 'easy', 0)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.result import Status

LEVELS = ("singles", "intersections", "subsets", "probing", "search")
"""The rungs of the ladder, weakest first."""
TECHNIQUES: dict[str, dict[str, bool]] = {
    "singles": {"locked": False, "matching": False, "probe": False},
    "intersections": {"locked": True, "matching": False, "probe": False},
    "subsets": {"locked": True, "matching": True, "probe": False},
    "probing": {"locked": True, "matching": True, "probe": True},
}
"""The `bitmask` switches of each rung below search."""
DIFFICULTY = {"singles": "easy", "intersections": "medium", "subsets": "hard",
              "probing": "extreme", "search": "extreme"}
DIFFICULTIES = ("easy", "medium", "hard", "extreme")


@dataclass(frozen=True)
class Rating:
    """A puzzle's rating: its level (None if it has no solution or several:
    `solutions` says how many were found), difficulty and, for `search`,
    the nodes of the search that proved it unique."""

    level: str | None
    solutions: int
    nodes: int = 0
    status: Status = Status.COMPLETE

    @property
    def difficulty(self) -> str | None:
        return None if self.level is None else DIFFICULTY[self.level]

    @property
    def score(self) -> float:
        """A number that orders ratings: the level's rank (1 to 5), and for
        search log10 of its nodes on top (so 5.0 for one node, 7.0 for 100).

        >>> Rating("subsets", 1).score, Rating("search", 1, nodes=100).score
        (3.0, 7.0)
        """
        if self.level is None:
            return math.nan
        return LEVELS.index(self.level) + 1 + (math.log10(self.nodes) if self.nodes else 0.0)

    def __str__(self) -> str:
        if self.level is None:
            if self.status in (Status.TIME_LIMIT, Status.INTERRUPTED):
                return f"not rated: the search stopped ({self.status})"
            return "not rated: no solution" if self.solutions == 0 else \
                "not rated: not unique (2 solutions or more)"
        nodes = f", {self.nodes:,} nodes" if self.level == "search" else ""
        return f"{self.difficulty} ({self.level}{nodes})"


def backend(level: str) -> Any:
    """The `bitmask` backend with the techniques of `level` switched on."""
    from csp.backends.bitmask import BitmaskBackend

    switches = TECHNIQUES.get(level, {})
    # Never learning: a rating's nodes are those of the plain propagation
    # search, whatever the puzzle's size (learning, on by default from
    # 1,000 failures without a solution, would change what they count).
    return BitmaskBackend(matching=switches.get("matching", True),
                          locked=switches.get("locked", True), probe=switches.get("probe", True),
                          learn=False)


def rate(problem: Model | ExactCover, *, time_limit: float | None = None,
         up_to: str = "search") -> Rating:
    """The rating of a declared puzzle (best a `Model`: an exact cover is
    rated through its lowering, where only singles and probing apply).

    It first counts to 2 with every technique on (the proof that there is
    one solution, and the nodes a search takes); a puzzle with none or
    several is not rated. Then it tries the rungs weakest first, each a
    propagation at the root, up to `up_to` (`generate` stops at the rung it
    aims for). `time_limit` bounds the whole rating (TIME_LIMIT: not rated).
    """
    import csp

    if up_to not in LEVELS:
        raise InputError(f"unknown level {up_to!r}; the levels are {', '.join(LEVELS)}")
    started = time.perf_counter()
    proof = csp.count(problem, backend("search"), limit=2, time_limit=time_limit)
    if proof.status not in (Status.COMPLETE, Status.SOLUTION_LIMIT) or proof.count != 1:
        return Rating(None, proof.count, status=proof.status)
    for level in LEVELS[:LEVELS.index(up_to)]:
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if left is not None and left <= 0:
            return Rating(None, 1, status=Status.TIME_LIMIT)
        if settles(problem, level, left):
            return Rating(level, 1)
    return Rating("search", 1, nodes=proof.stats.nodes or 0)


def settles(problem: Model | ExactCover, level: str, time_limit: float | None = None) -> bool:
    """Whether the techniques of `level` alone solve `problem` at the root,
    without a decision (then it has exactly one solution)."""
    import csp

    search = csp.solutions(problem, backend(level), limit=1, time_limit=time_limit)
    found = next(iter(search), None)
    search.close()
    return found is not None and search.stats.nodes == 0


def model_of(kind: Any, puzzle: Any) -> Model | ExactCover:
    """A puzzle declared for rating: its model if the kind has one (where
    all-different reasoning applies), else its default form."""
    return kind.declare(puzzle, "model" if "model" in kind.forms else None)


__all__ = ["DIFFICULTIES", "DIFFICULTY", "LEVELS", "TECHNIQUES", "Rating", "backend", "model_of",
           "rate", "settles"]
