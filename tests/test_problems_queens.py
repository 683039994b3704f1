"""N queens: the exact cover with secondary diagonals, on every backend."""

from __future__ import annotations

import itertools
import json

import pytest
from budget import finished, limit

import csp
from csp.errors import InputError
from csp.problems import queens


def counts(shared_data):
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    return {row["n"]: row["solutions"] for row in rows}


def test_parse_and_round_trip():
    assert queens.parse("# sizes\n8\n\n4\n") == [queens.Queens(8, 2), queens.Queens(4, 4)]
    assert queens.format_puzzle(queens.Queens(8)) == "8"
    with pytest.raises(InputError, match="line 2: 'x' is not a board size"):
        queens.parse("8\nx\n")


def test_declaration_has_primary_rows_columns_and_secondary_diagonals():
    xc = queens.declare(queens.Queens(8))
    assert (xc.n_primary, len(xc.secondary), xc.n_options) == (16, 30, 64)


def test_counts_n_1_to_11(shared_data, csp_backend):
    # Every backend up to n = 8; beyond, as far as it goes within the budget
    # (the backends that count by enumerating stop about there).
    for n, expected in counts(shared_data).items():
        if n > 11:
            break
        result = csp.count(queens.declare(queens.Queens(n)), csp_backend, time_limit=limit(n <= 8))
        if not finished(result.status):
            break
        assert result.count == expected, n


def test_every_solution_of_6_and_8_is_a_placement(csp_backend):
    for n in (6, 8):
        puzzle = queens.Queens(n)
        xc = queens.declare(puzzle)
        found = set()
        for solution in csp.solutions(xc, csp_backend):
            assert not xc.check(solution)
            found.add(queens.decode(puzzle, solution, xc))
        # the oracle: permutations with no two queens on one diagonal
        expected = {tuple(c + 1 for c in p) for p in itertools.permutations(range(n))
                    if len({r + c for r, c in enumerate(p)}) == n
                    and len({r - c for r, c in enumerate(p)}) == n}
        assert found == expected


def test_format():
    puzzle = queens.Queens(4)
    xc = queens.declare(puzzle)
    texts = sorted(queens.format(puzzle, queens.decode(puzzle, s, xc)) for s in csp.solutions(xc))
    assert texts == ["2 4 1 3", "3 1 4 2"]
