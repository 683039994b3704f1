"""The `bitmask` backend on real puzzles with known answers, and on random models
checked against brute force and the constraints' own checkers."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_models import brute_force, overlapping_all_differents

import csp
from csp import AllDifferent, InputError, Model, Relation, Status, Sum, Table
from csp.backends.bitmask import BitmaskBackend
from csp.problems import kakuro, sudoku

BITMASK = BitmaskBackend()


def _lines(path: Path, n: int) -> list[tuple[str, str]]:
    """The first n `<puzzle> <solution>` lines of a 9x9 file."""
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(p, s) for p, s in rows[:n]]


# -- sudoku -------------------------------------------------------------------------

SUDOKU_SETS = [
    ("norvig_top95.txt", 63),
    ("norvig_hardest.txt", 7),
    ("michael404_9x9.txt", 16),
    ("magictour_top1465.txt", 40),
    ("royle_17clue_sample1000.txt", 40),
]


@pytest.mark.parametrize("name,n", SUDOKU_SETS)
def test_hard_sudokus_known_solution_and_unique(shared_data: Path, name: str, n: int) -> None:
    for line, expected in _lines(shared_data / "sudoku" / name, n):
        [puzzle] = sudoku.parse(line)
        model = sudoku.declare(puzzle, form="model")
        search = BITMASK.solutions(model, limit=1)
        first = next(search)
        assert model.problems(first) == []
        assert sudoku.format(puzzle, sudoku.decode(puzzle, first)) == expected
        result = BITMASK.count(model)
        assert (result.count, result.status) == (1, Status.COMPLETE), line


def test_sudoku_with_38_solutions_and_with_none(shared_data: Path) -> None:
    special = json.loads((shared_data / "sudoku" / "sudoku9_special.json").read_text())
    for entry in special["puzzles"]:
        [puzzle] = sudoku.parse(entry["puzzle"])
        model = sudoku.declare(puzzle, form="model")
        assert BITMASK.count(model).count == entry["solution_count"]
        found = {sudoku.format(puzzle, sudoku.decode(puzzle, s)) for s in BITMASK.solutions(model)}
        assert len(found) == entry["solution_count"]
        if "all_solutions" in entry:
            assert found == set(entry["all_solutions"])


def _large(shared_data: Path) -> list[dict]:
    return json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())["puzzles"]


def _large_puzzle(entry: dict, text: str | None = None) -> sudoku.Sudoku:
    [puzzle] = sudoku.parse(text or entry["puzzle"], symbols=entry["symbols"])
    return puzzle


def test_16x16_unique_and_several(shared_data: Path) -> None:
    for entry in _large(shared_data):
        if entry["size"] != 16:
            continue
        puzzle = _large_puzzle(entry)
        model = sudoku.declare(puzzle, form="model")
        if entry.get("solution_count") == 1:
            result = BITMASK.count(model)
            assert (result.count, result.status) == (1, Status.COMPLETE)
            [only] = BITMASK.solutions(model)
            assert sudoku.format(puzzle, sudoku.decode(puzzle, only)) == entry["solution"]
        else:
            search = BITMASK.solutions(model, limit=entry["solution_count_at_least"])
            found = list(search)
            assert search.status is Status.SOLUTION_LIMIT
            assert len({tuple(sorted(s.items())) for s in found}) == len(found) >= 2
            assert all(model.problems(s) == [] for s in found)


def test_large_sudoku_with_clashing_givens_has_none(shared_data: Path) -> None:
    for entry in _large(shared_data):
        if entry["size"] not in (16, 25) or "solution" not in entry:
            continue
        # Copy the first given of row 0 into a blank of the same row: no solution.
        text = entry["puzzle"]
        n = entry["size"]
        given = next(k for k in range(n) if text[k] != ".")
        blank = next(k for k in range(n) if text[k] == ".")
        clashing = text[:blank] + text[given] + text[blank + 1:]
        model = sudoku.declare(_large_puzzle(entry, clashing), form="model")
        result = BITMASK.count(model)
        assert (result.count, result.status) == (0, Status.COMPLETE)


def _unique_large(shared_data: Path, size: int) -> None:
    # Listing every solution proves uniqueness and checks the answer in one search.
    for entry in _large(shared_data):
        if entry["size"] != size:
            continue
        puzzle = _large_puzzle(entry)
        model = sudoku.declare(puzzle, form="model")
        search = BITMASK.solutions(model)
        found = list(search)
        assert search.status is Status.COMPLETE, entry["name"]
        assert [sudoku.format(puzzle, sudoku.decode(puzzle, s)) for s in found] == [
            entry["solution"]], entry["name"]


def test_25x25_sudokus_are_unique(shared_data: Path) -> None:
    # The minimal 25x25 puzzles defeat search by singles alone: these need the
    # matching-based all-different, the row/box intersections and dom/wdeg ties.
    _unique_large(shared_data, 25)


@pytest.mark.slow
def test_36x36_sudokus_are_unique(shared_data: Path) -> None:
    _unique_large(shared_data, 36)


# -- kakuro -------------------------------------------------------------------------


def test_kakuro_collection(shared_data: Path) -> None:
    data = json.loads((shared_data / "kakuro" / "kakuro.json").read_text())
    counts = []
    for entry in data["puzzles"]:
        [puzzle] = kakuro.parse("\n".join(entry["grid"]))
        model = kakuro.declare(puzzle)
        result = BITMASK.count(model)
        assert result.status is Status.COMPLETE
        assert result.count == entry["solution_count"], entry["name"]
        counts.append(result.count)
        solutions = list(BITMASK.solutions(model))
        assert len(solutions) == result.count
        assert all(model.problems(s) == [] for s in solutions)
        if entry.get("solution"):
            answer = kakuro.decode(puzzle, solutions[0])
            rows = ["".join(str(answer[(r, c)]) if (r, c) in answer else "#"
                            for c in range(puzzle.cols)) for r in range(puzzle.rows)]
            assert rows == entry["solution"], entry["name"]
    assert 12 in counts


def test_kakuro_problems_md_sample() -> None:
    examples = Path(__file__).resolve().parents[1] / "examples"
    # the sample of docs/developing/problems.md
    [puzzle] = kakuro.parse((examples / "kakuro.txt").read_text())
    model = kakuro.declare(puzzle)
    [only] = BITMASK.solutions(model)
    answer = (examples / "kakuro.answer.txt").read_text()
    assert kakuro.format(puzzle, kakuro.decode(puzzle, only)) == answer.strip()


# -- the search interface ---------------------------------------------------------


def _queens(n: int) -> Model:
    m = Model(f"{n} queens")
    q = [m.var(i, range(n)) for i in range(n)]
    m.add(AllDifferent(q))
    for i, j in itertools.combinations(range(n), 2):
        m.add(Relation([q[i], q[j]], lambda a, b, d=j - i: abs(a - b) != d))
    return m


def test_queens_counts_against_oeis(shared_data: Path) -> None:
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())
    rows = rows["rows"] if isinstance(rows, dict) else rows
    for row in rows:
        if row["n"] <= 8:
            assert BITMASK.count(_queens(row["n"])).count == row["solutions"]


def test_limit_laziness_and_resume() -> None:
    model = _queens(8)
    everything = list(BITMASK.solutions(model))
    assert len(everything) == 92
    search = BITMASK.solutions(model)
    first = [next(search) for _ in range(5)]
    assert search.status is None  # lazy: still going
    assert search.stats.solutions == 5
    rest = list(search)
    assert first + rest == everything
    assert search.status is Status.COMPLETE
    limited = BITMASK.solutions(model, limit=3)
    assert list(limited) == everything[:3] and limited.status is Status.SOLUTION_LIMIT
    # Counting the rest after a few solutions.
    search = BITMASK.solutions(model)
    next(search)
    assert search.count().count == 92
    assert BITMASK.solutions(model, limit=0).result().count == 0


def test_stats_and_auto_backend() -> None:
    m = _queens(6)
    result = csp.count(m)
    assert result.backend == "bitmask" and result.count == 4
    assert result.stats.nodes > 0 and result.stats.failures > 0
    assert result.stats.solutions == 4


def test_domain_limits() -> None:
    m = Model()
    m.var("wide", range(65))
    with pytest.raises(InputError, match=r"'wide'.*dlx, cpsat or python-constraint"):
        BITMASK.count(m)
    m = Model()
    x, y = m.var("x", range(-32, 32)), m.var("y", range(64))
    m.add(x == y)
    m.add(Sum([x]) >= 31)
    assert [sorted(s.items()) for s in BITMASK.solutions(m)] == [[("x", 31), ("y", 31)]]
    m = Model()
    a, _ = m.var("a", range(3)), m.var("b", [])
    m.add(a != 1)
    assert BITMASK.count(m).count == 0


def test_no_variables() -> None:
    assert BITMASK.count(Model()).count == 1
    m = Model()
    m.add(Table([], []))
    assert BITMASK.count(m).count == 0


# -- random models against brute force ---------------------------------------------


@st.composite
def models(draw) -> Model:
    m = Model()
    n = draw(st.integers(1, 5))
    for i in range(n):
        values = draw(st.sets(st.integers(-4, 6), max_size=5))
        m.var(f"v{i}", values)
    names = list(m.variables)

    def scope(lo: int = 1, hi: int = 4) -> list[str]:
        return draw(st.lists(st.sampled_from(names), min_size=lo, max_size=min(hi, n),
                             unique=True))

    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["alldiff", "sum", "table", "forbid", "cmp", "rel"]))
        if kind == "alldiff":
            m.add(AllDifferent(scope(min(2, n))))
        elif kind == "sum":
            xs = scope()
            weights = draw(st.one_of(
                st.none(), st.lists(st.integers(-3, 3), min_size=len(xs), max_size=len(xs))))
            op = draw(st.sampled_from(["==", "<=", ">="]))
            rhs = draw(st.integers(-10, 15))
            s = Sum(xs, weights)
            m.add(s == rhs if op == "==" else s <= rhs if op == "<=" else s >= rhs)
        elif kind in ("table", "forbid"):
            xs = scope()
            rows = draw(st.lists(st.tuples(*[st.integers(-4, 6)] * len(xs)), max_size=12))
            m.add(Table(xs, rows, forbidden=kind == "forbid"))
        elif kind == "cmp":
            x = m.variables[draw(st.sampled_from(names))]
            if n > 1 and draw(st.booleans()):
                y = m.variables[draw(st.sampled_from([v for v in names if v != x.name]))]
            else:
                y = draw(st.integers(-4, 6))
            m.add(x == y if draw(st.booleans()) else x != y)
        else:
            xs = scope(1, 3)
            m.add(Relation(xs, lambda *v: sum(v) % 3 != 1))
    return m


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_random_models_againstbrute_force(m: Model) -> None:
    names = list(m.variables)
    found = [tuple(s[v] for v in names) for s in BITMASK.solutions(m)]
    for values in found:
        assert m.problems(dict(zip(names, values))) == []
    assert len(set(found)) == len(found)
    assert set(found) == brute_force(m)
    assert BITMASK.count(m).count == len(found)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sets(st.integers(1, 6), min_size=1, max_size=6), min_size=2, max_size=5),
       st.integers(3, 20))
def test_random_kakuro_runs(domains: list[set[int]], total: int) -> None:
    # All-different sums take the subset-table path, over mixed digit domains.
    m = Model()
    xs = [m.var(i, d) for i, d in enumerate(domains)]
    m.add(AllDifferent(xs))
    m.add(Sum(xs) == total)
    found = {tuple(s[i] for i in range(len(xs))) for s in BITMASK.solutions(m)}
    assert found == brute_force(m)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(overlapping_all_differents())
def test_overlapping_all_differents_againstbrute_force(m: Model) -> None:
    # The matching-based consistency and the intersection reasoning remove
    # values; a wrong removal loses a solution, which the brute force shows.
    names = list(m.variables)
    found = {tuple(s[v] for v in names) for s in BITMASK.solutions(m)}
    assert found == brute_force(m)
    assert BITMASK.count(m).count == len(found)
