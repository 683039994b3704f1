"""The `sat` backend beyond the contract: its encodings on the cases they
treat specially, its refusals, and a hard sudoku proved unique."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pysat")

import csp  # noqa: E402
from csp import AllDifferent, ExactCover, InputError, Model, Status, Sum  # noqa: E402
from csp.backends.sat import cnf  # noqa: E402
from csp.testing import brute_force, normal  # noqa: E402


def _same_as_brute_force(problem: ExactCover | Model) -> None:
    found = list(csp.solutions(problem, "sat"))
    assert {normal(s) for s in found} == brute_force(problem)
    assert len(found) == len(brute_force(problem))
    assert csp.count(problem, "sat").count == len(found)


def test_a_colour_shared_by_all_options_of_an_item_needs_no_literal() -> None:
    xc = ExactCover.from_text("a b | x\na x:1\nb x:1\na b x:2\n")
    _same_as_brute_force(xc)


def test_sums_with_negative_weights_and_every_comparison() -> None:
    m = Model()
    x, y, z = m.var("x", range(-3, 4)), m.var("y", [0, 2, 5]), m.var("z", range(4))
    m.add(Sum([x, y, z], [2, -3, 1]) <= 1)
    m.add(Sum([x, z], [1, 1]) >= 0)
    m.add(Sum([y], [4]) == 8)
    _same_as_brute_force(m)


def test_all_different_with_as_many_values_as_variables_and_fewer() -> None:
    m = Model()
    m.add(AllDifferent([m.var(i, [1, 2, 3]) for i in range(3)]))
    _same_as_brute_force(m)
    pigeons = Model()
    pigeons.add(AllDifferent([pigeons.var(i, [1, 2, 3]) for i in range(4)]))
    result = csp.count(pigeons, "sat")
    assert (result.count, result.status) == (0, Status.COMPLETE)


def test_a_domain_too_large_is_refused_before_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cnf, "MAX_LITERALS", 1000)  # the real bound, 2,000,000, is slow to show
    m = Model()
    m.var("x", range(1001))
    with pytest.raises(InputError, match=r"variable 'x' has 1,001 values.*sat's encoding"
                                         r".*backends that take it: .*cpsat"):
        csp.count(m, "sat")


def test_a_sum_whose_partial_sums_do_not_collide_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cnf, "MAX_TRANSITIONS", 1000)
    m = Model()
    xs = [m.var(i, range(10)) for i in range(4)]
    m.add(Sum(xs, [1, 10, 100, 1000]) == 1234)  # 10, 100, 1000 partial sums
    with pytest.raises(InputError, match=r"over 1,000 \(partial sum, value\) transitions in "
                                         r"sat's encoding of sums; backends that take it: "
                                         r".*bitmask"):
        csp.solve(m, "sat")
    monkeypatch.setattr(cnf, "MAX_TRANSITIONS", 20_000)  # 11,110 needed
    assert csp.solve(m, "sat").solution == {0: 4, 1: 3, 2: 2, 3: 1}


def test_a_hard_sudoku_is_proved_unique(shared_data: Path) -> None:
    from csp.problems import sudoku

    puzzle, answer = (shared_data / "sudoku" / "michael404_9x9.txt").read_text().split(
        "\n")[0].split()
    [parsed] = sudoku.parse(puzzle)
    for form in ("model", "exact-cover"):
        problem = sudoku.declare(parsed, form)
        search = csp.solutions(problem, "sat", limit=2)
        found = list(search)
        assert search.status is Status.COMPLETE and len(found) == 1
        assert sudoku.format(parsed, sudoku.decode(parsed, found[0], problem)) == answer
        assert search.stats.nodes is not None and search.stats.failures is not None
        assert search.stats.extra["propagations"] > 0
