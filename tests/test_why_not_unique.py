"""`--why-not-unique` on the known puzzles with several solutions of
tests/data: the cells where two solutions differ, the fewest, and givens
that make each puzzle unique (checked here again on a second backend)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

import csp
from csp import problems
from csp.cli import main
from csp.problems import pictures, uniqueness

SECOND = "cpsat" if "cpsat" in csp.backends.available() else "dlx"


def special(shared_data, name):
    data = json.loads((shared_data / "sudoku" / "sudoku9_special.json").read_text())
    return next(p for p in data["puzzles"] if p["name"] == name)


def shikaku_text(shared_data, name):
    data = json.loads((shared_data / "shikaku" / "shikaku.json").read_text())
    entry = next(p for p in data["puzzles"] if p["name"] == name)
    rows = [row.replace(".", "0") for row in entry["grid"]]
    return f"{entry['cols']} {entry['rows']}\n" + "\n".join(rows) + "\n", entry


def unique_elsewhere(kind, puzzle) -> bool:
    """Unique by a complete count on another backend than the one that proposed it."""
    result = csp.count(kind.declare(puzzle, "model" if "model" in kind.forms else None), SECOND)
    return result.count == 1 and result.status is csp.Status.COMPLETE


def test_sudoku_with_38_solutions(shared_data):
    entry = special(shared_data, "michael404-TestData9-manySolutions")
    kind = problems.get("sudoku")
    [puzzle] = kind.parse(entry["puzzle"])
    why = problems.explain_uniqueness("sudoku", puzzle)
    assert why.count == 38 and why.complete and not why.unique
    listed = {kind.format(puzzle, answer) for answer in why.answers}
    assert listed == set(entry["all_solutions"])
    # the cells named are those where the two solutions differ, and only those
    a, b = (kind.cells(puzzle, answer) for answer in why.answers[:2])
    assert why.differing == sorted(c for c in a if a[c] != b[c]) and why.differing
    i, j, fewest = why.smallest
    assert len(fewest) <= len(why.differing) and len(fewest) >= 4  # a sudoku never differs in fewer
    assert why.givens, "a set of givens that makes it unique"
    for given in why.givens:
        assert unique_elsewhere(kind, given.puzzle)
        [again] = kind.parse(given.text)
        assert again.givens == given.puzzle.givens


def test_sixteen_by_sixteen_with_several_solutions(shared_data):
    data = json.loads((shared_data / "sudoku" / "sudoku_large.json").read_text())
    entry = next(p for p in data["puzzles"]
                 if p["name"] == "michael404-TestData16-multipleSolutions")
    kind = problems.get("sudoku")
    [puzzle] = kind.parse(entry["puzzle"], symbols=entry["symbols"])
    why = uniqueness.explain(kind, puzzle, limit=100)
    assert why.count == 100 and not why.complete
    assert why.givens and all(unique_elsewhere(kind, g.puzzle) for g in why.givens)


@pytest.mark.parametrize("name, count", [("janko-sikaku-127", 2),
                                         ("codingame-shikaku-solver-test2", 20)])
def test_shikaku_with_several_solutions(shared_data, name, count):
    text, entry = shikaku_text(shared_data, name)
    kind = problems.get("shikaku")
    [puzzle] = kind.parse(text)
    why = uniqueness.explain(kind, puzzle)
    assert why.count == count == entry["solution_count"] and why.complete
    assert why.differing and why.smallest[2]
    assert why.givens
    for given in why.givens:
        assert unique_elsewhere(kind, given.puzzle)
        [again] = kind.parse(given.text)
        assert again.clues == given.puzzle.clues


def test_kakuro_names_the_cells_and_says_it_takes_no_givens(shared_data):
    data = json.loads((shared_data / "kakuro" / "kakuro.json").read_text())
    entry = next(p for p in data["puzzles"] if p["name"] == "cross_sums_4")
    [puzzle] = problems.get("kakuro").parse("\n".join(entry["grid"]))
    why = uniqueness.explain(problems.get("kakuro"), puzzle)
    assert why.count == 12 and why.differing and not why.givens
    assert "take no givens" in str(why)


def test_a_unique_puzzle_says_so():
    [puzzle] = problems.get("latin").parse("12\n..")
    why = uniqueness.explain(problems.get("latin"), puzzle)
    assert why.unique and str(why) == "unique: 1 solution"


def test_a_kind_without_cells_compares_its_problem():
    """A plug-in kind that declares no `cells`: the items' options are compared."""
    xc_text = "a b\na\nb\na b\n"
    kind = problems.Kind(name="plain", description="", parse=lambda text: [text],
                         declare=lambda text, form=None: csp.ExactCover.from_text(text),
                         decode=lambda text, solution, problem: tuple(solution),
                         format=lambda text, answer: str(answer))
    why = uniqueness.explain(kind, xc_text)
    assert why.count == 2 and why.differing == ["a", "b"]
    assert "take no givens" in str(why)


def test_cli_report_and_highlighted_pictures(shared_data, tmp_path, capsys):
    entry = special(shared_data, "michael404-TestData9-manySolutions")
    (tmp_path / "multi.txt").write_text(entry["puzzle"] + "\n")
    out = tmp_path / "svg"
    code = main(["solve", "sudoku", str(tmp_path / "multi.txt"), "--why-not-unique",
                 "--svg", str(out)])
    report = capsys.readouterr().out
    assert code == 0
    assert report.startswith("not unique: 38 solutions\nsolutions 1 and 2 differ in 4 cells: ")
    assert "givens that make it unique (each checked by a count with limit 2):" in report
    pictures_made = sorted(out.iterdir())
    assert len(pictures_made) == 2
    for path in pictures_made:
        root = ET.fromstring(path.read_text())
        marked = [e for e in root.iter("{http://www.w3.org/2000/svg}rect")
                  if e.get("stroke") == pictures.MARK]
        assert len(marked) == 4
    code = main(["solve", "sudoku", str(tmp_path / "multi.txt"), "--why-not-unique", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 38 and data["complete"] and len(data["differing"]) == 4
    code = main(["solve", "sudoku", str(tmp_path / "multi.txt"), "--why-not-unique", "--count"])
    assert code == 2 and "--why-not-unique lists solutions itself" in capsys.readouterr().err
