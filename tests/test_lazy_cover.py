"""An exact cover declared from arrays makes its Python lists (entries, item
index, payloads) only when something reads them, and reads the same as one
declared option by option, whatever is read first."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import csp
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.problems import sudoku
from csp.reformulate import model_to_exact_cover

INDPTR, INDICES, COLOURS = [0, 2, 4, 5], [0, 2, 1, 2, 1], [0, 1, 0, 1, 0]


def by_options() -> ExactCover:
    xc = ExactCover(["a", "b"], ["x"])
    for items, payload in ((["a", ("x", "red")], "p0"), (["b", ("x", "red")], "p1"),
                           (["b"], "p2")):
        xc.add_option(items, data=payload)
    return xc


def by_arrays(check: bool = True) -> ExactCover:
    return ExactCover.from_arrays(["a", "b"], ["x"], np.array(INDPTR), np.array(INDICES),
                                  np.array(COLOURS), colour_names=["red"],
                                  data=lambda: ["p0", "p1", "p2"], check=check)


def reading(xc: ExactCover) -> tuple:
    arrays = xc.arrays()
    return ([xc.option_text(k) for k in range(xc.n_options)], xc.data, xc.check((0, 2)),
            xc.check((1,)), [a.tolist() for a in arrays.values()], xc.n_options)


@pytest.mark.parametrize("check", [True, False])
def test_arrays_and_options_read_the_same(check: bool) -> None:
    assert reading(by_arrays(check)) == reading(by_options())


@pytest.mark.parametrize("first", ["add_option", "set_bounds", "pickle", "data"])
def test_any_first_reader_sees_the_same_cover(first: str) -> None:
    lazy, eager = by_arrays(check=False), by_options()
    for xc in (lazy, eager):
        if first == "add_option":
            assert xc.add_option(["a", ("x", "blue")], data="p3") == 3
        elif first == "set_bounds":
            xc.set_bounds("b", (0, 2))
        elif first == "data":
            assert xc.data[1] == "p1"
    if first == "pickle":
        lazy = pickle.loads(pickle.dumps(lazy))  # a lambda's payloads travel as a list
    assert reading(lazy) == reading(eager)
    assert lazy.bounds == eager.bounds
    assert csp.count(lazy).count == csp.count(eager).count


def test_payloads_of_the_wrong_length_are_refused_when_read() -> None:
    xc = ExactCover.from_arrays(["a"], [], [0, 1], [0], data=lambda: ["p0", "extra"])
    with pytest.raises(InputError, match="2 payloads for 1 options"):
        _ = xc.data


def test_a_lowered_sudoku_reads_its_payloads_and_decodes() -> None:
    [puzzle] = sudoku.parse("1..." "..2." ".3.." "...4")
    m = sudoku.declare_model(puzzle)
    xc, decode = model_to_exact_cover(m)
    assert xc.data[:3] == [("r1c1", 1), ("r1c2", 1), ("r1c2", 2)]  # r1c1 is given: only 1
    solutions = list(csp.solutions(xc))
    assert len(solutions) == csp.count(m).count > 0
    assert all(xc.is_solution(s) and m.is_solution(decode(s)) for s in solutions)
    copy = pickle.loads(pickle.dumps(xc))
    assert copy.data == xc.data and copy.option_text(5) == xc.option_text(5)
