"""The grid helpers against brute force and published counts."""

from __future__ import annotations

import itertools

import pytest

from csp import grid

PENTOMINOES = {  # the 12 free pentominoes
    "F": [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)], "I": [(0, c) for c in range(5)],
    "L": [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)], "N": [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)],
    "P": [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)], "T": [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
    "U": [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)], "V": [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)],
    "W": [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)], "X": [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
    "Y": [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)], "Z": [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
}


def test_pentomino_orientations_are_the_published_counts():
    # 63 fixed pentominoes (OEIS A001168), 18 one-sided (A000988)
    assert sum(len(grid.orientations(p, reflect=True)) for p in PENTOMINOES.values()) == 63
    # a piece is chiral when its mirror image is no rotation of it
    chiral = [name for name, p in PENTOMINOES.items()
              if len(grid.orientations(p, reflect=True)) == 2 * len(grid.orientations(p))]
    assert len(PENTOMINOES) + len(chiral) == 18


def test_tetracube_orientations():
    # the 8 tetracubes have 86 fixed orientations in space (OEIS A038119 counts 8 free)
    line = [(x, 0, 0) for x in range(4)]
    square = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]
    screw = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
    assert len(grid.orientations(line)) == 3
    assert len(grid.orientations(square)) == 3
    assert len(grid.orientations(screw)) == 12
    assert len(grid.orientations(screw, reflect=True)) == 24
    # an orientation keeps the cells' count and is normalised
    for shape in grid.orientations(screw, reflect=True):
        assert len(set(shape)) == 4 and grid.normalise(shape) == shape


@pytest.mark.parametrize("name", sorted(PENTOMINOES))
def test_placements_match_brute_force(name):
    board = set(grid.box(5, 6))
    expected = set()
    for shape in grid.orientations(PENTOMINOES[name], reflect=True):
        for dr, dc in itertools.product(range(-5, 6), repeat=2):
            cells = tuple(sorted((r + dr, c + dc) for r, c in shape))
            if set(cells) <= board:
                expected.add(cells)
    found = grid.placements(PENTOMINOES[name], board, reflect=True)
    assert len(found) == len(set(found)) and set(found) == expected


def test_symmetries_of_boxes_and_shapes():
    assert [len(grid.symmetries(grid.box(*dims))) for dims in
            [(3, 3), (2, 5), (3, 3, 3), (3, 3, 2), (2, 3, 4), (7,)]] == [8, 4, 48, 16, 8, 2]
    # an irregular set keeps only the moves that map it onto itself
    assert len(grid.symmetries([(0, 0), (0, 1), (1, 0)])) == 2
    for move in grid.symmetries(grid.box(3, 3, 3)):
        assert sorted(map(move, grid.box(3, 3, 3))) == grid.box(3, 3, 3)
    identity = grid.symmetries(grid.box(2, 3, 4))[0]
    assert all(identity(cell) == cell for cell in grid.box(2, 3, 4))
    # the moves are distinct
    cube = grid.box(3, 3, 3)
    assert len({tuple(map(move, cube)) for move in grid.symmetries(cube)}) == 48


def test_units_and_regions():
    assert [len(u) for u in grid.rows(2, 3) + grid.columns(2, 3)] == [3, 3, 2, 2, 2]
    nine = grid.blocks(9)
    assert sorted(itertools.chain(*nine)) == grid.box(9, 9)
    assert nine[4][0] == (3, 3) and grid.block_of((8, 8), 9) == 8
    assert grid.blocks(6)[1] == [(0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5)]
    assert grid.neighbours((1, 1, 1), grid.box(3, 3, 3)) == [
        (0, 1, 1), (2, 1, 1), (1, 0, 1), (1, 2, 1), (1, 1, 0), (1, 1, 2)]
    assert grid.regions(["a.b", "#bb"]) == {"a": [(0, 0)], "b": [(0, 2), (1, 1), (1, 2)]}
    assert grid.connected(grid.regions(["a.b", "#bb"])["b"])
