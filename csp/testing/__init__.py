"""`csp.testing`: the contract every backend must keep, and the reference
problems it is checked on.

The contract is a pytest module, `csp.testing.contract`; the pytest plug-in
`csp.testing.plugin` (registered for every pytest run where csp is installed,
through the `pytest11` entry point) adds the option `--csp-backend NAME`
(repeatable; by default every available backend, plug-ins included) and
parametrizes the argument `csp_backend` of any test over the chosen names.
An outside author's test file is then one line:

    from csp.testing.contract import *  # noqa: F401,F403

and `pytest --csp-backend mine` runs the contract on their backend only.

The reference problems carry their answers from outside any backend (OEIS,
the count of 4x4 sudoku grids, brute force), and every solution a backend
returns is checked by the problem's own checker (`ExactCover.check`,
`Model.problems`), never by another backend.

>>> import csp
>>> csp.count(queens_cover(6)).count, csp.count(queens_model(6)).count
(4, 4)
>>> len(brute_force(every_kind_model())) == csp.count(every_kind_model()).count
True
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import Any

from csp.constraints import AllDifferent, Relation, Sum, Table
from csp.exactcover import ExactCover
from csp.model import Model

QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 16: 14_772_512}
"""N queens: the number of solutions (OEIS A000170)."""

SUDOKU_4X4_GRIDS = 288
"""Complete 4x4 sudoku grids: the solutions of the empty 4x4 puzzle."""

COLOURED_TEXT = "a b c | x y\na x:red\nb x:red y:0\nc y:1\nb c\nc y:0\na b x:blue\n"
"""A coloured exact cover (Knuth's format): options 0 and 1 may share x since
they agree on its colour, which option 5 does not."""

COLOURED_SOLUTIONS = [(0, 1, 4), (0, 3), (2, 5), (4, 5)]
"""Its solutions (by brute force over every subset of options)."""

BOUNDED_TEXT = "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n"
"""A cover with multiplicities and colours: Knuth's example opening DLX3,
whose one solution is options 1, 3 and 4."""

ROOKS = 90
"""4x4, two rooks in each row, one or two in each column (`rooks_cover`): DLX3's count."""


def queens_cover(n: int) -> ExactCover:
    """N queens as Knuth's exact cover: rows and columns primary, diagonals secondary."""
    from csp.problems import queens

    xc = queens.declare(queens.Queens(n))
    assert isinstance(xc, ExactCover)
    return xc


def queens_model(n: int) -> Model:
    """N queens as a CSP: all-different on the queens and on both diagonals
    (the diagonals are variables tied to the queens by sums)."""
    m = Model(f"queens {n}")
    q = [m.var(("q", i), range(n)) for i in range(n)]
    up = [m.var(("up", i), range(2 * n - 1)) for i in range(n)]
    down = [m.var(("down", i), range(2 * n - 1)) for i in range(n)]
    for i in range(n):
        m.add(Sum([up[i], q[i]], [1, -1]) == i)
        m.add(Sum([down[i], q[i]]) == n - 1 + i)
    for group in (q, up, down):
        m.add(AllDifferent(group))
    return m


def sudoku_4x4(form: str = "exact-cover") -> ExactCover | Model:
    """The empty 4x4 sudoku: SUDOKU_4X4_GRIDS solutions."""
    from csp.problems import sudoku

    [puzzle] = sudoku.parse("." * 16)
    return sudoku.declare(puzzle, form)


def rooks_cover() -> ExactCover:
    """ROOKS's cover: rows exactly twice (`2|r`), columns once or twice (`1:2|c`)."""
    rows, columns = [f"r{i}" for i in range(4)], [f"c{j}" for j in range(4)]
    xc = ExactCover(rows + columns, bounds={**dict.fromkeys(rows, 2),
                                            **dict.fromkeys(columns, (1, 2))})
    for row, column in itertools.product(rows, columns):
        xc.add_option([row, column])
    return xc


def two_queens_cover(n: int) -> ExactCover:
    """n x n: two queens in each row and column (`2|r`, `2|c`), at most two on
    each diagonal (`0:2|a`, `0:2|b`): Knuth's DLX3 counts 92, 1097, 19448 and
    477136 for n = 5..8."""
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    diagonals = [f"{d}{k}" for d in "ab" for k in range(2 * n - 1)]
    xc = ExactCover(lines + diagonals, bounds={**dict.fromkeys(lines, 2),
                                               **dict.fromkeys(diagonals, (0, 2))})
    for i, j in itertools.product(range(n), range(n)):
        xc.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"])
    return xc


def coloured_cover() -> ExactCover:
    """The exact cover of COLOURED_TEXT."""
    return ExactCover.from_text(COLOURED_TEXT)


def every_kind_model() -> Model:
    """A small model with a constraint of every kind (AllDifferent, Sum,
    Table, Compare, and a Relation, which is a Table), odd variable names
    and negative values; `brute_force` gives its solutions."""
    m = Model("every kind")
    a = m.var(("a", 1), range(-2, 3))
    b = m.var(frozenset({1}), range(0, 4))
    c = m.var(3, [1, 2, 5])
    d = m.var(None, range(3))
    m.add(AllDifferent([a, b, c]))
    m.add(Sum([a, b, c], [2, -1, 3]) >= 4)
    m.add(Sum([b, d]) <= 4)
    m.add(Sum([a, d], [1, 1]) == 2)
    m.add(Table([c, d], [(1, 0), (2, 2), (5, 1), (5, 2)]))
    m.add(Table([a, b], [(0, 0), (1, 3)], forbidden=True))
    m.add(Relation([b, d], lambda x, y: x != y + 1))
    m.add(c != 2)
    m.add(a != b)
    m.add(Table([d], [(0,)], forbidden=True))
    return m


def pigeonhole(n: int) -> Model:
    """n pigeons in n - 1 holes as pairwise `!=`: no solution, and a search
    that cannot see it without trying (no all-different to reason on)."""
    m = Model(f"{n} pigeons")
    pigeons = [m.var(i, range(n - 1)) for i in range(n)]
    for x, y in itertools.combinations(pigeons, 2):
        m.add(x != y)
    return m


def permutations_model(n: int) -> Model:
    """The n! permutations of range(n): far too many to count in a short run."""
    m = Model(f"permutations of {n}")
    m.add(AllDifferent([m.var(i, range(n)) for i in range(n)]))
    return m


def brute_force(problem: ExactCover | Model) -> set[Hashable]:
    """Every solution of a small problem by trying everything, normalised
    (`normal`): the oracle a backend is compared with."""
    if isinstance(problem, ExactCover):
        return {chosen for size in range(problem.n_options + 1)
                for chosen in itertools.combinations(range(problem.n_options), size)
                if not problem.check(chosen)}
    names = list(problem.variables)
    found = set()
    for values in itertools.product(*(problem.variables[x].domain for x in names)):
        assignment = dict(zip(names, values))
        if not problem.problems(assignment):
            found.add(normal(assignment))
    return found


def normal(solution: Any) -> Hashable:
    """A solution as a hashable value: a tuple of options as it is, an
    assignment as a frozenset of (variable, value) pairs."""
    if isinstance(solution, dict):
        return frozenset(solution.items())
    return tuple(solution)


def wrong(problem: ExactCover | Model, solution: Any) -> Sequence[str]:
    """What the problem's own checker finds wrong with `solution` ([] if nothing)."""
    if isinstance(problem, ExactCover):
        if not isinstance(solution, tuple) or list(solution) != sorted(solution):
            return [f"{solution!r} is not a sorted tuple of option indices"]
        return problem.check(solution)
    if not isinstance(solution, dict):
        return [f"{solution!r} is not a dict of values"]
    return problem.problems(solution)


__all__ = [
    "BOUNDED_TEXT",
    "COLOURED_SOLUTIONS",
    "COLOURED_TEXT",
    "QUEENS",
    "ROOKS",
    "SUDOKU_4X4_GRIDS",
    "brute_force",
    "coloured_cover",
    "every_kind_model",
    "normal",
    "permutations_model",
    "pigeonhole",
    "queens_cover",
    "queens_model",
    "rooks_cover",
    "sudoku_4x4",
    "two_queens_cover",
    "wrong",
]
