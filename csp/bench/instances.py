"""The benchmark instances: each a problem (or a collection of puzzles) with
its known answer.

An `Instance` offers one or more *forms* (`"exact-cover"`, `"model"`); each
solver takes the form it prefers among those offered (a backend that is not
native to any of them gets the first form lowered by `csp.reformulate`). A
collection is timed as a whole, and every puzzle's count is checked.

Where the answers come from:

- sudoku, kakuro, shikaku, polyomino, N queens n <= 11: the files of the
  shared data directory (`solution_count`, `answers.json`, `nqueens.json`);
- N queens 12-14: OEIS A000170 (14200, 73712, 365596);
- pentominoes 5x12: 1010 tilings up to the 4 symmetries of the board
  (data README), so 4040 raw;
- the sudoku with clues removed and the word squares: no published figure;
  the count written here was found by four independent exact-cover solvers
  (csp's `dlx`, `xcover`, `miniexact`, `exact-cover`) and `cpsat`, which all
  agreed, and every run is checked against it.

Everything is built at run time from the data files and the recipes below:
nothing depends on a solver's output except those two recorded counts.

>>> [i.name for i in suite("tiny")]
['queens-6', 'word-square-3x3-20words']
>>> inst = get("queens-6")
>>> inst.expected, inst.forms
((4,), ('exact-cover',))
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from csp.exactcover import ExactCover

Builder = Callable[[str], list[Any]]
"""form -> the problems of the instance in that form (one per puzzle)."""


class Missing(Exception):
    """An instance cannot be built here (no data directory, no puzzle module)."""


@dataclass
class Instance:
    """One benchmark row: a problem or collection, its forms and known counts."""

    name: str
    family: str
    forms: tuple[str, ...]
    expected: tuple[int | None, ...]
    """The known count of each puzzle, in order (None: not known, as for the
    user's own instances)."""
    build: Builder
    source: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    spec: dict[str, Any] | None = None
    """How a worker process builds it again when no suite names it
    (`csp.bench.files.build`)."""

    @property
    def size(self) -> int:
        """The number of puzzles (1 for a single problem)."""
        return len(self.expected)

    def problems(self, form: str) -> list[Any]:
        if form not in self.forms:
            raise ValueError(f"{self.name} has no {form!r} form; it has {self.forms}")
        problems = self.build(form)
        if len(problems) != len(self.expected):
            raise ValueError(f"{self.name}: {len(problems)} problems but "
                             f"{len(self.expected)} known counts")
        return problems


# -- where the data lives ------------------------------------------------------------


def data_dir() -> Path:
    """The puzzle data with known answers.

    `$CSP_DATA` if set, else `../shared/data` beside the checkout, else the copy
    the tests carry in `tests/data` (a source checkout has at least that one).
    """
    env = os.environ.get("CSP_DATA")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[2]
    shared = checkout.parent / "shared" / "data"
    return shared if shared.is_dir() else checkout / "tests" / "data"


def _read(relative: str) -> str:
    path = data_dir() / relative
    if not path.is_file():
        raise Missing(f"data file {relative} not found under {data_dir()} (set CSP_DATA)")
    return path.read_text(encoding="utf-8")


def _json(relative: str) -> Any:
    return json.loads(_read(relative))


def _problem_module(kind: str) -> Any:
    import importlib

    try:
        return importlib.import_module(f"csp.problems.{kind}")
    except ModuleNotFoundError as err:
        raise Missing(f"csp.problems.{kind} is not part of this version of csp") from err


# -- N queens ------------------------------------------------------------------------

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184}
"""OEIS A000170 beyond the shared data's n <= 11."""


def _queens_count(n: int) -> int:
    if n in A000170:
        return A000170[n]
    rows = _json("nqueens/nqueens.json")
    rows = rows.get("rows", rows) if isinstance(rows, dict) else rows
    for row in rows:
        if int(row["n"]) == n:
            return int(row["solutions"])
    raise Missing(f"no known count for {n} queens")


def queens(n: int) -> Instance:
    def build(form: str) -> list[Any]:
        module = _problem_module("queens")
        return [module.declare(module.Queens(n))]

    return Instance(f"queens-{n}", "queens", ("exact-cover",), (_queens_count(n),), build,
                    "OEIS A000170" if n in A000170 else "nqueens/nqueens.json", {"n": n})


def queens_text(n: int) -> str:
    """N queens in Knuth's format, written by hand (rows `r`, columns `c`
    primary; diagonals `a`, `b` secondary): the file the whole-process
    benchmarks give `csp xc --count`, and Knuth's programs.

    >>> queens_text(4).splitlines()[:2]
    ['r0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6', 'r0 c0 a0 b3']
    """
    lines = [" ".join([f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)] + ["|"]
                      + [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)])]
    lines += [f"r{r} c{c} a{r + c} b{r - c + n - 1}" for r in range(n) for c in range(n)]
    return "\n".join(lines) + "\n"


# -- pentominoes ---------------------------------------------------------------------


def pentominoes(board: str) -> Instance:
    """The 12 pentominoes with reflections on a board `RxC` (6x10, 5x12, 4x15, 3x20,
    8x8-hole); every tiling counted, mirror images of the board included."""
    if board == "5x12":
        # not a file of its own: the 6x10 file's pieces on a 5x12 map
        expected = 4 * 1010
        source = "pieces of polyomino/pent_6x10.txt; 1010 distinct x 4 (data README)"
    else:
        answers = _json("polyomino/answers.json")["answers"]
        entry = answers[f"pent_{board.replace('-', '_')}"]
        expected = int(entry["count_with_reflections"])
        source = f"polyomino/{entry['file']}, answers.json count_with_reflections"

    def build(form: str) -> list[Any]:
        module = _problem_module("polyomino")
        if board == "5x12":
            text = _read("polyomino/pent_6x10.txt")
            pieces = text.split("\n\n", 1)[1]
            text = "\n".join(["#" * 14] + ["#" + "." * 12 + "#"] * 5 + ["#" * 14]) + "\n\n" + pieces
        else:
            text = _read(f"polyomino/pent_{board.replace('-', '_')}.txt")
        [puzzle] = module.parse(text, reflect=True)
        return [module.declare(puzzle)]

    return Instance(f"pentominoes-{board}", "polyomino", ("exact-cover",), (expected,), build,
                    source, {"board": board, "reflect": True})


# -- sudoku --------------------------------------------------------------------------


def _sudoku_build(lines: Sequence[str], symbols: str | None = None) -> Builder:
    def build(form: str) -> list[Any]:
        module = _problem_module("sudoku")
        out = []
        for line in lines:
            [puzzle] = module.parse(line, symbols=symbols)
            out.append(module.declare(puzzle, form=form))
        return out

    return build


def sudoku_file(relative: str, first: int | None = None) -> Instance:
    """The 9x9 puzzles of a `<puzzle> <solution>` file, each unique."""
    lines = [line.split()[0] for line in _read(f"sudoku/{relative}").splitlines()
             if line.strip() and not line.startswith("#")]
    if first is not None:
        lines = lines[:first]
    stem = relative.rsplit(".", 1)[0]
    name = f"sudoku-{stem}" + (f"-first{first}" if first is not None else "")
    return Instance(name, "sudoku", ("exact-cover", "model"), (1,) * len(lines),
                    _sudoku_build(lines), f"sudoku/{relative}", {"puzzles": len(lines)})


def sudoku_many() -> Instance:
    """`manySolutions` of sudoku9_special.json: 38 solutions."""
    entries = _json("sudoku/sudoku9_special.json")["puzzles"]
    [entry] = [e for e in entries if "manySolutions" in e["name"]]
    return Instance("sudoku-38-solutions", "sudoku", ("exact-cover", "model"),
                    (int(entry["solution_count"]),), _sudoku_build([entry["puzzle"]]),
                    "sudoku/sudoku9_special.json")


OPENED_COUNT = 52_276
"""Solutions of `sudoku_opened()`: no published figure; found by dlx, xcover,
miniexact, exact-cover and cpsat, which agree (see the module docstring)."""


def sudoku_opened(removed: int = 4) -> Instance:
    """A hard 9x9 with clues removed: Norvig's hardest (Inkala's "world's
    hardest", line 1 of norvig_hardest.txt) minus its first `removed` givens in
    row-major order: a count of many solutions."""
    line = _read("sudoku/norvig_hardest.txt").splitlines()[0].split()[0]
    givens = [k for k, ch in enumerate(line) if ch not in ".0"]
    cells = list(line)
    for k in givens[:removed]:
        cells[k] = "."
    opened = "".join(cells)
    if removed != 4:
        raise Missing("only the 4-clue-removed opening has a recorded count")
    return Instance(f"sudoku-hardest1-minus{removed}", "sudoku", ("exact-cover", "model"),
                    (OPENED_COUNT,), _sudoku_build([opened]),
                    f"norvig_hardest.txt line 1 minus its first {removed} givens",
                    {"puzzle": opened})


def sudoku_large(size: int) -> Instance:
    """The proven-unique N x N puzzles of sudoku_large.json."""
    entries = [e for e in _json("sudoku/sudoku_large.json")["puzzles"]
               if int(e["size"]) == size and str(e.get("solution_count")) == "1"]
    if not entries:
        raise Missing(f"no unique {size}x{size} sudoku in the data")
    symbols = {e["symbols"] for e in entries}

    def build(form: str) -> list[Any]:
        module = _problem_module("sudoku")
        return [module.declare(module.parse(e["puzzle"], symbols=e["symbols"])[0], form=form)
                for e in entries]

    return Instance(f"sudoku-{size}x{size}", "sudoku", ("exact-cover", "model"),
                    (1,) * len(entries), build, "sudoku/sudoku_large.json",
                    {"puzzles": len(entries), "symbols": sorted(symbols)})


# -- kakuro, shikaku ------------------------------------------------------------------


def kakuro(max_cells: int | None = None) -> Instance:
    """The kakuro collection (optionally only boards of at most `max_cells` cells)."""
    entries = _json("kakuro/kakuro.json")["puzzles"]
    if max_cells is not None:
        entries = [e for e in entries if int(e["rows"]) * int(e["cols"]) <= max_cells]

    def build(form: str) -> list[Any]:
        module = _problem_module("kakuro")
        return [module.declare(module.parse("\n".join(e["grid"]))[0]) for e in entries]

    name = "kakuro" + (f"-upto{max_cells}cells" if max_cells else "-all")
    return Instance(name, "kakuro", ("model",),
                    tuple(int(e["solution_count"]) for e in entries), build,
                    "kakuro/kakuro.json", {"puzzles": len(entries)})


def _shikaku_text(entry: dict[str, Any]) -> str:
    rows = [row.split() for row in entry["grid"]]
    body = "\n".join(" ".join("0" if t == "." else t for t in row) for row in rows)
    return f"{len(rows[0])} {len(rows)}\n{body}\n"


def shikaku(largest: int | None = None, smallest: int | None = None) -> Instance:
    """The `largest` (or `smallest`) shikaku boards by area, ties in file order."""
    entries = _json("shikaku/shikaku.json")["puzzles"]
    ranked = sorted(range(len(entries)),
                    key=lambda k: (int(entries[k]["rows"]) * int(entries[k]["cols"]), k))
    if largest is not None:
        chosen, name = ranked[-largest:], f"shikaku-largest{largest}"
    else:
        chosen, name = ranked[:smallest], f"shikaku-smallest{smallest}"
    chosen = sorted(chosen)
    picked = [entries[k] for k in chosen]

    def build(form: str) -> list[Any]:
        module = _problem_module("shikaku")
        return [module.declare(module.parse(_shikaku_text(e))[0]) for e in picked]

    return Instance(name, "shikaku", ("exact-cover",),
                    tuple(int(e["solution_count"]) for e in picked), build,
                    "shikaku/shikaku.json",
                    {"puzzles": [e["name"] for e in picked]})


# -- lattice -------------------------------------------------------------------------


@dataclass(frozen=True)
class UpToSymmetry:
    """A problem whose answer counts its solutions up to a symmetry group."""

    problem: Any
    group: Any


def lattice(first: int | None = None) -> Instance:
    """Lattice Practices (ACM ICPC Tokyo 1998 B): every dataset of the shared data,
    counted up to the lattice's symmetries with `csp.problems.lattice`."""
    module = _problem_module("lattice")
    if not module.KIND.up_to_symmetry or module.KIND.symmetry is None:
        raise Missing("csp.problems.lattice does not count up to symmetry")
    expected = tuple(int(x) for x in _read("lattice/lattice_expected.txt").split())
    puzzles = module.parse(_read("lattice/lattice_input.txt"))
    if len(puzzles) != len(expected):
        raise Missing(f"lattice: {len(puzzles)} datasets but {len(expected)} answers")
    if first is not None:
        puzzles, expected = puzzles[:first], expected[:first]

    def build(form: str) -> list[Any]:
        out = []
        for puzzle in puzzles:
            problem = module.declare(puzzle, form)
            out.append(UpToSymmetry(problem, module.symmetry(puzzle, problem)))
        return out

    name = "lattice" if first is None else f"lattice-first{first}"
    return Instance(name, "lattice", module.KIND.forms, expected, build,
                    "lattice/lattice_input.txt + lattice_expected.txt",
                    {"datasets": len(puzzles), "up_to_symmetry": True})


# -- coloured word squares -------------------------------------------------------------


def word_list(length: int, alphabet: str, keep: int) -> list[str]:
    """A deterministic word list: the strings of `length` letters over `alphabet`
    whose SHA-256 (of the UTF-8 string) has a first byte below `keep`.

    There is no dictionary on every machine (/usr/share/dict is often absent),
    and a benchmark must be the same everywhere: this list depends on nothing
    but the three parameters.

    >>> word_list(2, "abc", 128)
    ['bb', 'bc', 'ca', 'cb', 'cc']
    """
    return [w for w in map("".join, itertools.product(alphabet, repeat=length))
            if hashlib.sha256(w.encode()).digest()[0] < keep]


def word_square(words: Sequence[str]) -> ExactCover:
    """Double word squares as an exact cover with colours: n x n grids whose rows
    and columns are 2n different words of the list.

    Primary items: each row and column (one word each). Secondary items: each
    cell, coloured by its letter, so that crossing words agree; and each word,
    uncoloured, so that it is used at most once.
    """
    n = len(words[0])
    lines = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    cells = [f"{i},{j}" for i in range(n) for j in range(n)]
    # item names must be tokens of Knuth's text format (no ':'), for `csp xc`
    xc = ExactCover(lines, cells + [f"w_{w}" for w in words], name=f"word squares {n}x{n}")
    for w in words:
        for i in range(n):
            xc.add_option([f"r{i}", f"w_{w}", *((f"{i},{j}", w[j]) for j in range(n))],
                          ("row", i, w))
        for j in range(n):
            xc.add_option([f"c{j}", f"w_{w}", *((f"{i},{j}", w[i]) for i in range(n))],
                          ("column", j, w))
    return xc


WORD_SQUARES = {
    # (length, alphabet, keep): the count, found by dlx, xcover and miniexact in agreement
    (3, "abcd", 96): 74,
    (4, "abcd", 48): 2294,
    (5, "abcd", 20): 2136,
    (5, "abcd", 24): 38778,
}


def word_squares(length: int, alphabet: str, keep: int) -> Instance:
    key = (length, alphabet, keep)
    if key not in WORD_SQUARES:
        raise Missing(f"no recorded count for word squares {key}")
    words = word_list(length, alphabet, keep)

    def build(form: str) -> list[Any]:
        return [word_square(words)]

    return Instance(f"word-square-{length}x{length}-{len(words)}words", "word squares",
                    ("exact-cover",),
                    (WORD_SQUARES[key],), build,
                    f"word_list({length}, {alphabet!r}, {keep}): {len(words)} words",
                    {"length": length, "alphabet": alphabet, "keep": keep,
                     "words": len(words)})


# -- suites --------------------------------------------------------------------------

SUITES: dict[str, list[Callable[[], Instance]]] = {
    "tiny": [lambda: queens(6), lambda: word_squares(3, "abcd", 96)],
    "quick": [
        lambda: queens(8),
        lambda: queens(10),
        lambda: pentominoes("3x20"),
        lambda: sudoku_many(),
        lambda: sudoku_file("norvig_hardest.txt"),
        lambda: sudoku_large(16),
        lambda: kakuro(max_cells=100),
        lambda: shikaku(smallest=5),
        lambda: word_squares(4, "abcd", 48),
        lambda: lattice(first=2),
    ],
    "full": [
        lambda: queens(12),
        lambda: queens(13),
        lambda: queens(14),
        lambda: pentominoes("6x10"),
        lambda: pentominoes("5x12"),
        lambda: pentominoes("8x8-hole"),
        lambda: sudoku_many(),
        lambda: sudoku_opened(),
        lambda: sudoku_file("norvig_top95.txt"),
        lambda: sudoku_file("royle_17clue_sample1000.txt"),
        lambda: sudoku_large(16),
        lambda: sudoku_large(25),
        lambda: kakuro(),
        lambda: shikaku(largest=10),
        lambda: word_squares(5, "abcd", 24),
        lambda: lattice(),
    ],
}
"""Suite name -> instance factories, in report order."""

OTHERS: list[Callable[[], Instance]] = [
    *(lambda key=key: word_squares(*key) for key in WORD_SQUARES),
    *(lambda n=n: queens(n) for n in range(4, 16)),
    *(lambda board=board: pentominoes(board) for board in ("3x20", "4x15", "5x12", "6x10",
                                                            "8x8-hole")),
]
"""Instances in no suite that scripts (such as `bench/bench_dlx.py --small`) use:
`get` finds them by name too, so that a worker process can build them."""

NAMED: dict[str, Callable[[], Instance]] = {}
"""Instance name -> factory (filled from the suites and `OTHERS`)."""


def suite(name: str, skipped: list[tuple[str, str]] | None = None) -> list[Instance]:
    """The instances of suite `name` that can be built here; each one that cannot
    is appended to `skipped` as (what, why)."""
    if name not in SUITES:
        raise KeyError(f"unknown suite {name!r}; the suites are {', '.join(SUITES)}")
    out = []
    for k, factory in enumerate(SUITES[name]):
        try:
            instance = factory()
        except Missing as why:
            if skipped is not None:
                skipped.append((f"{name}[{k}]", str(why)))
            continue
        NAMED.setdefault(instance.name, factory)
        out.append(instance)
    return out


def get(name: str) -> Instance:
    """The instance called `name` (from any suite, or `OTHERS`).

    >>> get("word-square-5x5-73words").expected
    (2136,)
    """
    if name not in NAMED:
        for suite_name in SUITES:
            suite(suite_name)
            if name in NAMED:
                break
    if name not in NAMED:
        _register(OTHERS)
    if name not in NAMED:
        raise KeyError(f"unknown instance {name!r}")
    return NAMED[name]()


def _register(factories: Sequence[Callable[[], Instance]]) -> None:
    """Name the instances of `factories` that can be built here."""
    for factory in factories:
        try:
            NAMED.setdefault(factory().name, factory)
        except Missing:
            continue
