"""Polycube packing: the Soma cube (11,520 packings, 240 up to symmetry) and small
boxes on every backend against a brute-force oracle."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import csp
from csp import grid
from csp.errors import InputError
from csp.problems import polycube

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SMALL = """\
# an L, a square, a V and a single cube in a 2x2x3 box
box 2 2 3
L 0,0,0 1,0,0 2,0,0 0,1,0
O 0,0,0 1,0,0 0,1,0 1,1,0
V 0,0,0 1,0,0 0,1,0
S 0,0,0
"""


def brute_force(puzzle):
    """Every packing, as a frozenset of (piece, cells), by trying all combinations."""
    box = set(puzzle.cells)
    options = [[(k, cells) for cells in grid.placements(p, box, puzzle.reflect)]
               for k, p in enumerate(puzzle.pieces)]
    found = set()
    for choice in itertools.product(*options):
        cells = [c for _, placed in choice for c in placed]
        if len(set(cells)) == len(cells) == len(box):
            found.add(frozenset(choice))
    return found


def test_soma_cube():
    [soma] = polycube.parse((EXAMPLES / "soma.txt").read_text())
    xc = polycube.declare(soma)
    assert xc.n_options == 688
    group = polycube.symmetry(soma, xc)
    assert len(group) == 48
    # 1.5 s each on dlx (bitmask takes over a minute on the lowered cover)
    assert csp.count(xc, "dlx").count == 11_520
    assert csp.count(xc, "dlx", up_to_symmetry=group).count == 240


def test_soma_screws_are_mirror_images():
    [soma] = polycube.parse((EXAMPLES / "soma.txt").read_text())
    a, b = soma.pieces[soma.names.index("A")], soma.pieces[soma.names.index("B")]
    assert b not in grid.orientations(a) and b in grid.orientations(a, reflect=True)
    # without the B screw, no reflection of the cube maps the pieces onto pieces
    text = (EXAMPLES / "soma.txt").read_text().replace("B 0,0,1 1,0,1 1,1,1 1,1,0", "B " + " ".join(
        ",".join(map(str, c)) for c in a))
    [twins] = polycube.parse(text)
    assert len(polycube.symmetry(twins)) == 24


@pytest.mark.parametrize("reflect", [False, True])
def test_small_box_on_every_backend(csp_backend, reflect):
    [puzzle] = polycube.parse(SMALL, reflect=reflect)
    xc = polycube.declare(puzzle)
    found = set()
    for solution in csp.solutions(xc, csp_backend):
        assert not xc.check(solution)
        found.add(frozenset(xc.data[k] for k in solution))
    assert found == brute_force(puzzle) and found
    answer = polycube.decode(puzzle, next(iter(csp.solutions(xc, csp_backend))), xc)
    assert sorted(answer) == puzzle.cells


def test_format_and_several_puzzles_with_a_bad_one():
    text = ("box 2 1 2\na 0,0,0 0,0,1\nb 0,0,0 1,0,0\n"
            "box 2 2 2\nq 0,0,0 1,0,x\n"
            "box 1 1 2\nc 0,0,0 0,0,1\n")
    first, bad, last = polycube.puzzles(text)
    assert isinstance(bad, InputError) and (bad.line, bad.token) == (5, "1,0,x")
    xc = polycube.declare(first)
    assert sorted(polycube.format(first, polycube.decode(first, s, xc))
                  for s in csp.solutions(xc)) == ["aa bb", "ab ab", "ba ba", "bb aa"]
    assert last.sides == (1, 1, 2) and last.line == 6


@pytest.mark.parametrize("text, message", [
    ("box 2 2\n", "not 'box X Y Z'"),
    ("a 0,0,0\n", "a puzzle starts with 'box X Y Z'"),
    ("box 1 1 2\na 0,0,0\na 0,0,0\n", "piece name 'a' is not one new letter"),
    ("box 1 1 2\na 0,0,0 0,0,0\n", "piece a repeats a cell"),
    ("box 1 1 3\na 0,0,0 0,0,1\n", r"the pieces have 2 cells \(a 2\) but the box has 3"),
])
def test_errors(text, message):
    with pytest.raises(InputError, match=message):
        polycube.parse(text)


def test_two_screws_and_one_mirror_screw_keep_only_the_rotations():
    a = "0,0,0 1,0,0 1,1,0 1,1,1"
    b = "0,0,1 1,0,1 1,1,1 1,1,0"
    [puzzle] = polycube.parse(f"box 2 2 3\nA {a}\nC {a}\nB {b}\n")
    xc = polycube.declare(puzzle)
    group = polycube.symmetry(puzzle, xc)
    assert len(group) == 8  # the 2x2x3 box's rotations; its 8 reflections would pair A, C with B
    count = csp.count(xc, "dlx").count
    assert count == len(brute_force(puzzle))
    assert csp.count(xc, "dlx", up_to_symmetry=group).count <= count
