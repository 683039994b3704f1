"""Polyomino tiling: the puzzle-box format (2-D and 1-D), rotations and reflections."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from budget import Budget, finished

import csp
from csp.errors import InputError
from csp.problems import polyomino

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def answers(puzzle, backend, limit=None, time_limit=None):
    """Every answer `backend` finds (None if it ran out of `time_limit`)."""
    xc = polyomino.declare(puzzle)
    found = []
    search = csp.solutions(xc, backend, limit=limit, time_limit=time_limit)
    for solution in search:
        assert not xc.check(solution)
        found.append(polyomino.format(puzzle, polyomino.decode(puzzle, solution, xc)))
    return found if finished(search.status) else None


def shared(shared_data):
    data = json.loads((shared_data / "polyomino" / "answers.json").read_text())["answers"]
    return {name: (shared_data / "polyomino" / entry["file"], entry)
            for name, entry in data.items()}


def test_problems_md_box_reads_dot_padded_pieces():
    [puzzle] = polyomino.parse((EXAMPLES / "polyomino-box.txt").read_text())
    assert (puzzle.free_cells, len(puzzle.pieces)) == (42, 9)
    assert [len(p) for p in puzzle.pieces] == [5, 5, 5, 5, 5, 5, 4, 4, 4]
    assert puzzle.pieces[1] == ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3))  # '#/####'
    again = polyomino.parse(polyomino.format_puzzle(puzzle))
    assert again == [puzzle]


def test_shared_files_round_trip(shared_data):
    for path, _ in shared(shared_data).values():
        text = path.read_text()
        [puzzle] = polyomino.parse(text)
        assert polyomino.format_puzzle(puzzle) == text


def test_orientations():
    f = ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1))
    assert len(polyomino.orientations(f)) == 4
    assert len(polyomino.orientations(f, reflect=True)) == 8
    assert len(polyomino.orientations(((0, 0), (0, 1), (1, 0), (1, 1)), reflect=True)) == 1


@pytest.mark.parametrize("text, message", [
    ("#.#\n#x#\n\n#\n", r"line 2: map row 2, column 2: 'x' is neither"),
    ("###\n#.\n\n#\n", "line 2: map row 2 has 2 cells, the first has 3: the map is not rect"),
    ("#..#\n", "no pieces after the map"),
    ("#..#\n\n#\n", r"the pieces have 1 cells \(a 1\) but the map has 2 free cells"),
    ("#...#\n\n##\n.\n#\n#\n", r"have 4 cells \(a 2, b 1, c 1\) but the map has 3"),
    ("#..#\n\n#*\n", r"line 3: piece a, column 2: '\*' is not"),
])
def test_bad_input(text, message):
    with pytest.raises(InputError, match=message):
        polyomino.parse(text)


def test_a_line_without_a_wall_separates_pieces_and_takes_no_letter():
    # docs/developing/problems.md: pieces are separated by lines that contain no '#'; so a line
    # of dots between 1-D pieces is a separator, not an empty piece 'b'.
    dotted = "#.#.........#..#\n\n#..#.##\n.......\n#.#..##\n##...##\n"
    [puzzle] = polyomino.parse(dotted)
    assert puzzle == polyomino.parse((EXAMPLES / "polyomino-1d.txt").read_text())[0]
    assert answers(puzzle, "dlx") == ["#b#bccbbacca#aa#"]
    # the same in 2-D: blocks of dots between the pieces, as in docs/developing/problems.md's sample
    [box] = polyomino.parse("...\n...\n\n.....\n.##..\n.....\n\n.....\n.##..\n.##..\n")
    assert box.pieces == (((0, 0), (0, 1)), ((0, 0), (0, 1), (1, 0), (1, 1)))


def test_1d_puzzle_of_problems_md(csp_backend):
    [puzzle] = polyomino.parse((EXAMPLES / "polyomino-1d.txt").read_text())
    assert answers(puzzle, csp_backend) == ["#b#bccbbacca#aa#"]


def test_problems_md_box_has_9_solutions(csp_backend):
    [puzzle] = polyomino.parse((EXAMPLES / "polyomino-box.txt").read_text())
    # the problem's own backend must list them; the others within the budget
    required = csp_backend == csp.backends.default_for(polyomino.declare(puzzle))
    found = answers(puzzle, csp_backend, time_limit=Budget().limit(required))
    if found is None:
        pytest.skip(f"{csp_backend} did not finish within the budget")
    assert len(set(found)) == len(found) == 9
    # each answer is the map with every free cell lettered
    for text in found:
        assert all((ch == "#") == (old == "#") for ch, old in
                   zip(text.replace("\n", ""), "".join(puzzle.board)))


QUICK = [("onesided_tet_4x7", False), ("pent_3x20", False), ("pent_3x20", True),
         ("pent_8x8_hole", False), ("pent_4x15", False), ("pent_6x10", False),
         ("pent_8x8_hole", True)]
"""(file, reflect): what the problem's own backend counts in seconds."""


@pytest.mark.parametrize("name, reflect", QUICK)
def test_shared_counts(shared_data, name, reflect):
    path, entry = shared(shared_data)[name]
    [puzzle] = polyomino.parse(path.read_text(), reflect=reflect)
    expected = entry["count_with_reflections"] if reflect else entry["count_rotations_only"]
    assert csp.count(polyomino.declare(puzzle)).count == expected


def test_shared_counts_on_every_backend(shared_data, csp_backend):
    # as many of QUICK as the backend counts within the budget, smallest first
    budget = Budget(seconds=4)
    for name, reflect in QUICK[:2]:
        path, entry = shared(shared_data)[name]
        [puzzle] = polyomino.parse(path.read_text(), reflect=reflect)
        expected = entry["count_with_reflections"] if reflect else entry["count_rotations_only"]
        result = csp.count(polyomino.declare(puzzle), csp_backend, time_limit=budget.limit(False))
        if not finished(result.status):
            break
        assert result.count == expected, name


@pytest.mark.parametrize("name", ["pent_4x15", "pent_6x10"])
def test_shared_counts_with_reflections(shared_data, name):
    # 9356 tilings of 6x10: the classic benchmark, a few seconds on dlx
    path, entry = shared(shared_data)[name]
    [puzzle] = polyomino.parse(path.read_text(), reflect=True)
    assert csp.count(polyomino.declare(puzzle), "dlx").count == entry["count_with_reflections"]


def test_distinct_up_to_board_symmetry_agrees(shared_data):
    # the images of a tiling under the board's symmetries are tilings too:
    # the classes of the raw answers are the published figure
    path, entry = shared(shared_data)["pent_3x20"]
    [puzzle] = polyomino.parse(path.read_text(), reflect=True)
    found = set(answers(puzzle, "dlx"))
    assert len(found) == entry["count_with_reflections"]

    def images(text):
        rows = text.splitlines()
        flips = [rows, [r[::-1] for r in rows], rows[::-1], [r[::-1] for r in rows[::-1]]]
        return frozenset("\n".join(f) for f in flips)

    classes = {images(text) for text in found}
    assert all(image in found for c in classes for image in c)
    assert len(classes) == entry["distinct_up_to_board_symmetry"]
