"""Every built-in kind draws its puzzles and answers as SVG: valid XML that
shows what it should (the givens, the cage labels, one colour per piece, the
highlighted cells), and `csp solve --svg` writes one picture per puzzle."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import csp
from csp import problems
from csp.cli import main
from csp.problems import pictures
from csp.problems.cages import SIGNS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SVG = "{http://www.w3.org/2000/svg}"

INPUTS = {
    "sudoku": "examples/sudoku.txt", "kakuro": "examples/kakuro-grid.txt",
    "shikaku": "examples/shikaku.txt", "polyomino": "tests/data/polyomino/pent_6x10.txt",
    "queens": "8", "lattice": "examples/lattice.txt", "langford": "7",
    "latin": "examples/latin.txt", "magic": "4", "polycube": "examples/soma.txt",
    "futoshiki": "examples/futoshiki.txt", "killer": "examples/killer.txt",
    "kenken": "examples/kenken.txt", "wordsquare": "examples/words3.txt",
    "nonogram": "examples/nonogram.non", "skyscrapers": "examples/skyscrapers.txt",
    "starbattle": "examples/starbattle.txt", "hitori": "examples/hitori.txt",
}


def first(name: str):
    kind = problems.get(name)
    argument = INPUTS[name]
    text = kind.inline(argument) if kind.inline and kind.inline(argument) else \
        (ROOT / argument).read_text()
    puzzle = problems.read(kind, text)[0]
    problem = kind.declare(puzzle)
    solution = csp.solve(problem).solution
    return kind, puzzle, kind.decode(puzzle, solution, problem)


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def fills(root: ET.Element, tag: str = "rect") -> Counter:
    return Counter(e.get("fill") for e in root.iter(f"{SVG}{tag}"))


def test_every_builtin_kind_draws():
    assert all(problems.get(name).draw is not None for name in problems.BUILTIN)
    assert set(INPUTS) == set(problems.BUILTIN)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_puzzle_and_answer_are_valid_svg(name):
    kind, puzzle, answer = first(name)
    for svg in (kind.draw(puzzle), kind.draw(puzzle, answer)):
        root = parsed(svg)
        assert root.find(f"{SVG}title") is not None
    # an answer shows more than the puzzle alone
    assert len(kind.draw(puzzle, answer)) > len(kind.draw(puzzle)) or name == "lattice"


def test_sudoku_shows_the_givens_then_every_digit():
    kind, puzzle, answer = first("sudoku")
    givens = sum(1 for d in puzzle.givens if d)
    assert len(texts(parsed(kind.draw(puzzle)))) == givens
    shown = parsed(kind.draw(puzzle, answer))
    digits = texts(shown)
    assert len(digits) == 81 and "".join(digits) == kind.format(puzzle, answer)
    bold = [t for t in shown.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
    assert len(bold) == givens


@pytest.mark.parametrize("name, ops", [("killer", ""), ("kenken", "+\u2212\u00d7\u00f7")])
def test_cages_carry_their_labels(name, ops):
    kind, puzzle, answer = first(name)
    labels = texts(parsed(kind.draw(puzzle)))
    expected = [f"{cage.target}{SIGNS.get(cage.op, cage.op)}" for cage in puzzle.cages]
    assert all(op in ops for label in expected for op in label.lstrip("0123456789"))
    assert sorted(labels) == sorted(expected)
    assert len(texts(parsed(kind.draw(puzzle, answer)))) == len(puzzle.cages) + puzzle.n ** 2
    if name == "killer":  # the cages outlined, dashed, inside the block lines
        dashed = [e for e in parsed(kind.draw(puzzle)).iter(f"{SVG}line")
                  if e.get("stroke-dasharray")]
        assert len(dashed) >= len(puzzle.cages) * 4


def test_polyomino_pieces_in_distinct_colours():
    kind, puzzle, answer = first("polyomino")
    colours = fills(parsed(kind.draw(puzzle, answer)))
    pieces = [pictures.colour(k) for k in range(len(puzzle.pieces))]
    assert len(set(pieces)) == len(puzzle.pieces) == 12
    assert all(colours[c] == 5 for c in pieces)  # five cells of each pentomino
    alone = fills(parsed(kind.draw(puzzle)))  # the pieces drawn below the map
    assert all(alone[c] == 5 for c in pieces)


def test_shikaku_rectangles_coloured_apart():
    [puzzle] = problems.get("shikaku").parse((ROOT / "examples/shikaku.txt").read_text())
    answer = {(0, 0): 0, (1, 0): 0, (0, 1): 1, (0, 2): 1, (1, 1): 1, (1, 2): 1}
    root = parsed(problems.get("shikaku").draw(puzzle, answer))
    assert sorted(texts(root)) == ["2", "4"]
    colours = fills(root)
    assert colours[pictures.PALETTE[0]] == 2 and colours[pictures.PALETTE[1]] == 4


def test_kakuro_clues_and_black_cells():
    kind, puzzle, answer = first("kakuro")
    root = parsed(kind.draw(puzzle))
    assert sorted(texts(root)) == sorted(str(s) for *_, s in puzzle.hints)
    dark = fills(root)["#3a3a3a"]
    assert dark == puzzle.rows * puzzle.cols - len(puzzle.white)
    assert len(texts(parsed(kind.draw(puzzle, answer)))) == len(puzzle.hints) + len(answer)


def test_queens_langford_futoshiki_polycube_lattice_show_their_parts():
    kind, puzzle, answer = first("queens")
    assert len(list(parsed(kind.draw(puzzle, answer)).iter(f"{SVG}polygon"))) == 8
    kind, puzzle, answer = first("langford")
    assert len(list(parsed(kind.draw(puzzle, answer)).iter(f"{SVG}path"))) == 7
    kind, puzzle, answer = first("futoshiki")
    assert len(list(parsed(kind.draw(puzzle)).iter(f"{SVG}polyline"))) == len(puzzle.signs)
    kind, puzzle, answer = first("polycube")
    root = parsed(kind.draw(puzzle, answer))
    assert [t for t in texts(root) if t.startswith("z = ")] == ["z = 1", "z = 2", "z = 3"]
    assert Counter(texts(root))["V"] == 3 + 1  # three cells and the piece's name
    kind, puzzle, answer = first("lattice")
    root = parsed(kind.draw(puzzle, answer))
    numbers = sorted(int(t) for t in texts(root))
    assert numbers == list(range(1, 11))  # every board named once
    assert len([t for t in texts(parsed(kind.draw(puzzle))) if t.startswith("board")]) == 10


def test_marks_are_highlighted():
    kind, puzzle, answer = first("sudoku")
    marks = [(0, 1), (4, 4), (8, 8)]
    root = parsed(kind.draw(puzzle, answer, marks))
    framed = [e for e in root.iter(f"{SVG}rect") if e.get("stroke") == pictures.MARK]
    assert len(framed) == 3


def test_text_is_escaped():
    svg = pictures.Svg(10, 10, title="a < b & c")
    svg.text(1, 1, "<&>")
    root = parsed(str(svg))
    assert texts(root) == ["<&>"] and root.find(f"{SVG}title").text == "a < b & c"


def test_show_is_a_picture_for_jupyter():
    kind, puzzle, answer = first("kenken")
    picture = problems.show("kenken", puzzle, answer)
    assert picture._repr_svg_() == str(picture) == kind.draw(puzzle, answer)


def test_solve_svg_writes_one_picture_per_puzzle(capsys, tmp_path):
    out = tmp_path / "pictures"
    assert main(["solve", "killer", str(EXAMPLES / "killer.txt"), "--svg", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["killer-1.svg", "killer-2.svg"]
    root = parsed((out / "killer-2.svg").read_text())
    assert len(texts(root)) == 81 + 32  # the digits and the 32 cage sums
    # no solution: the puzzle alone
    bad = tmp_path / "none.txt"
    bad.write_text("11.\n...\n...\n")
    assert main(["solve", "latin", str(bad), "--svg", str(out)]) == 1
    assert texts(parsed((out / "latin-1.svg").read_text())) == ["1", "1"]


def test_svg_errors_are_clear(capsys, tmp_path):
    trivial = problems.Kind(name="nodraw", description="a word a line", parse=str.split,
                            declare=lambda word, form=None: csp.ExactCover(["x"]),
                            decode=lambda word, solution, problem: word,
                            format=lambda word, answer: answer)
    problems.register(trivial)
    try:
        (tmp_path / "w.txt").write_text("a\n")
        assert main(["solve", "nodraw", str(tmp_path / "w.txt"), "--svg", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert "nodraw puzzles cannot be drawn: the kind declares no draw" in err
        assert "the kinds that draw: sudoku" in err and "Traceback" not in err
    finally:
        problems.unregister("nodraw")
    (tmp_path / "file").write_text("")
    code = main(["solve", "queens", "4", "--svg", str(tmp_path / "file")])
    assert code == 2 and "not a directory" in capsys.readouterr().err
    code = main(["solve", "queens", "4", "--svg", str(tmp_path), "--count"])
    assert code == 2 and "drop --count" in capsys.readouterr().err


def test_a_failing_draw_is_reported_not_raised():
    def broken(puzzle, answer=None, marks=()):
        raise ZeroDivisionError("oops")

    kind = problems.Kind(name="broken", description="", parse=str.split,
                         declare=lambda w, form=None: None, decode=lambda *a: None,
                         format=lambda p, a: "", draw=broken)
    with pytest.raises(csp.InputError, match="the broken kind's draw failed: ZeroDivisionError"):
        problems.draw(kind, "x")
