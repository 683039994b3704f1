"""`csp generate` and `csp.generate`: distinct puzzles in the kind's own input
format, each unique (proven again here on a second backend), at the
difficulty asked for, the same for the same seed; and bad requests refused."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import csp
from csp import generation, problems, rating
from csp.cli import main

DATA = Path(__file__).parent / "data"
SECOND = "cpsat" if "cpsat" in csp.backends.available() else "dlx"


def proven_elsewhere(kind, puzzle) -> bool:
    """Unique by a complete count on a backend the generator did not use."""
    problem = kind.declare(puzzle, "model" if "model" in kind.forms else None)
    result = csp.count(problem, SECOND)
    return result.count == 1 and result.status is csp.Status.COMPLETE


def read_back(kind, text):
    [puzzle] = problems.read(kind, text)
    assert not isinstance(puzzle, csp.InputError), puzzle
    return puzzle


def test_a_hundred_sudokus(capsys):
    assert main(["generate", "sudoku", "--count", "100", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.split()
    assert len(lines) == len(set(lines)) == 100
    kind = problems.get("sudoku")
    for line in lines:
        assert len(line) == 81
        assert proven_elsewhere(kind, read_back(kind, line))


def test_the_same_seed_makes_the_same_puzzles_and_a_prefix_is_a_prefix():
    kind = problems.get("sudoku")
    ten = [m.text for m in csp.generate(kind, "9", count=10, seed="author")]
    again = [m.text for m in generation.generate("sudoku", "9", count=3, seed="author")]
    assert again == ten[:3]
    other = [m.text for m in csp.generate(kind, "9", count=3, seed="other")]
    assert not set(other) & set(ten)


@pytest.mark.parametrize("difficulty", rating.DIFFICULTIES)
def test_sudoku_at_each_difficulty(difficulty):
    kind = problems.get("sudoku")
    made = list(csp.generate(kind, "9", count=4, seed=difficulty, difficulty=difficulty))
    assert len(made) == 4
    for puzzle in made:
        assert puzzle.rating.difficulty == difficulty
        again = read_back(kind, puzzle.text)
        # the rating of the puzzle read back agrees with the generator's
        assert rating.rate(rating.model_of(kind, again)).difficulty == difficulty
        assert proven_elsewhere(kind, again)


@pytest.mark.parametrize("name, size, difficulty", [
    ("sudoku", "4", None), ("sudoku", "2x3", "extreme"), ("sudoku", "16", None),
    ("latin", "5", None), ("latin", "7", "hard"),
    ("futoshiki", "5", None), ("futoshiki", "6", "extreme"),
    ("killer", "4", None), ("killer", "6", "easy"),
    ("kenken", "4", None), ("kenken", "5", "hard"),
    ("kakuro", "5", None), ("shikaku", "6", None), ("shikaku", "9x7", "extreme"),
    ("nonogram", "6", None), ("nonogram", "7x5", "easy"), ("starbattle", "6", None),
    ("skyscrapers", "4", None),
])
def test_every_kind_that_generates(name, size, difficulty):
    kind = problems.get(name)
    made = list(csp.generate(kind, size, count=2, seed=3, difficulty=difficulty))
    assert len(made) == 2 and made[0].text != made[1].text
    for puzzle in made:
        again = read_back(kind, puzzle.text)
        assert kind.format_puzzle(again).rstrip("\n") == puzzle.text
        assert proven_elsewhere(kind, again)
        if difficulty is not None:
            assert puzzle.rating.difficulty == difficulty


def test_a_blank_compiled_once_judges_as_each_puzzle_declared_anew():
    """The generator's quick searches (the blank's model compiled once, the
    givens as domains) agree with each puzzle declared and searched anew:
    uniqueness, the second solution, and which rung settles it; on puzzles
    with one solution and with 38 (sudoku9_special.json, counted by
    enumeration), and on a latin square."""
    special = json.loads((DATA / "sudoku" / "sudoku9_special.json").read_text())
    lines = [DATA.joinpath("sudoku", "royle_17clue_sample1000.txt").read_text().split()[0],
             "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
             special["puzzles"][0]["puzzle"]]
    made = [("latin", m.puzzle) for m in csp.generate("latin", "6", count=2, seed=1)]
    sudoku = problems.get("sudoku")
    puzzles = [("sudoku", p) for line in lines for p in problems.read(sudoku, line)] + made
    for name, puzzle in puzzles:
        kind = problems.get(name)
        quick, slow = generation.Judge(kind, "auto"), generation.Judge(kind, "dlx")
        assert quick.quick(puzzle) is not None and slow.quick(puzzle) is None
        model = kind.declare(puzzle, "model")
        solutions = csp.count(model, SECOND).count
        assert quick.unique(puzzle) == slow.unique(puzzle) == (solutions == 1)
        for level in rating.LEVELS[:-1]:
            assert quick.settles(puzzle, level) == rating.settles(model, level)
        answer = next(iter(csp.solutions(model, SECOND)))
        intended = quick.cells(puzzle, kind.decode(puzzle, answer, model))
        other = quick.other(puzzle, intended)
        assert (other is None) == (solutions == 1)
        if other is not None:
            assert other != intended and other.keys() == intended.keys()


def test_a_search_counts_to_its_limit_without_reading_solutions_back():
    from csp.backends.bitmask import Prepared

    [puzzle] = problems.read(problems.get("sudoku"), json.loads(
        (DATA / "sudoku" / "sudoku9_special.json").read_text())["puzzles"][0]["puzzle"])
    kind = problems.get("sudoku")
    blank = kind.declare_shape(puzzle, "model")
    prepared = Prepared(blank)
    givens = kind.givens(puzzle, blank)
    assert prepared.solutions(givens).count().count == 38
    limited = prepared.solutions(givens, limit=2).count()
    assert (limited.count, limited.status) == (2, csp.Status.SOLUTION_LIMIT)
    assert prepared.solutions({**givens, "r1c1": 0}, limit=2).count().count == 0


def test_the_kinds_that_generate():
    assert set(generation.makers()) == {"sudoku", "latin", "futoshiki", "killer", "kenken",
                                        "kakuro", "shikaku", "nonogram", "starbattle",
                                        "skyscrapers"}


def test_small_sudokus_are_drawn_uniformly():
    """Up to 6x6 a grid is drawn exactly uniformly: the 288 4x4 grids, 2,880
    draws, a chi-square far below what a biased sampler gives."""
    maker = problems.get("sudoku").maker
    import random

    rng = random.Random(5)
    seen = Counter(maker.solution((4, (2, 2)), rng) for _ in range(2880))
    assert len(seen) == 288
    chi2 = sum((k - 10) ** 2 / 10 for k in seen.values())
    assert chi2 < 287 + 6 * (2 * 287) ** 0.5  # mean 287, sd 24: six sd


def test_json_and_svg(capsys, tmp_path):
    assert main(["generate", "kenken", "--size", "4", "--count", "2", "--seed", "1", "--json",
                 "--svg", str(tmp_path)]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["number"] for o in objects] == [1, 2]
    assert all(o["difficulty"] in rating.DIFFICULTIES for o in objects)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kenken-1.svg", "kenken-2.svg"]


def test_multi_line_puzzles_are_separated_and_read_back(capsys):
    assert main(["generate", "latin", "--size", "4", "--count", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n\n") == 2
    assert len([p for p in problems.read(problems.get("latin"), out)]) == 3


@pytest.mark.parametrize("name, size", [("nonogram", "5"), ("starbattle", "5"),
                                        ("skyscrapers", "4")])
def test_several_puzzles_of_a_file_format_read_back_as_that_file(capsys, name, size):
    """Nonograms are written as a .nonpack (each closed by `====`), star
    battles and skyscrapers as janko.at's blocks; `csp solve` reads them all
    back, each unique."""
    assert main(["generate", name, "--size", size, "--count", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    kind = problems.get(name)
    read = problems.read(kind, out)
    assert len(read) == 2 and not any(isinstance(p, csp.InputError) for p in read)
    assert [kind.format_puzzle(p) for p in read] == [t + "\n" for t in out.strip().split("\n\n")]
    assert all(proven_elsewhere(kind, p) for p in read)


def test_a_kind_that_cannot_generate_names_those_that_can(capsys):
    assert main(["generate", "queens"]) == 2
    err = capsys.readouterr().err
    assert "queens puzzles cannot be generated; the kinds that can: sudoku" in err


@pytest.mark.parametrize("argv, message", [
    (["sudoku", "--size", "7"], "a 7x7 grid has no box shape but 1x7"),
    (["sudoku", "--size", "3"], "a sudoku is at least 4x4"),
    (["sudoku", "--size", "101"], "over the maximum of 100"),
    (["sudoku", "--size", "0x3"], "is not ROWSxCOLUMNS"),
    (["latin", "--size", "1"], "2 to 64"),
    (["futoshiki", "--size", "10"], "2 to 9"),
    (["killer", "--size", "x"], "is not a whole number"),
    (["kakuro", "--size", "2x9"], "3 to 30"),
    (["shikaku", "--size", "1"], "2 to 40"),
    (["shikaku", "--difficulty", "medium"], "only easy and extreme"),
    (["latin", "--difficulty", "medium"], "intersections never arise, no puzzle is medium"),
    (["nonogram", "--size", "1"], "2 to 40"),
    (["nonogram", "--difficulty", "hard"], "no all-different constraint"),
    (["starbattle", "--size", "8:2"], "9 to 30 cells a side for 2 star(s)"),
    (["starbattle", "--difficulty", "medium"], "no puzzle is medium"),
    (["skyscrapers", "--size", "10"], "3 to 9"),
])
def test_impossible_requests_are_refused_before_work(capsys, argv, message):
    assert main(["generate", *argv]) == 2
    assert message in capsys.readouterr().err


def test_an_unreachable_difficulty_says_so(capsys, monkeypatch):
    monkeypatch.setattr(generation, "ATTEMPTS", 20)
    assert main(["generate", "latin", "--size", "3", "--difficulty", "hard", "--seed", "1"]) == 2
    assert "no hard latin puzzle made of 20 solutions drawn for puzzle 1" in \
        capsys.readouterr().err


def test_a_time_limit_writes_what_it_has(capsys):
    code = main(["generate", "sudoku", "--count", "1000", "--seed", "1", "--time-limit", "0.5"])
    captured = capsys.readouterr()
    made = captured.out.split()
    assert code == 3 and 0 <= len(made) < 1000
    assert f"made {len(made)} of the 1000 sudoku puzzles asked for within --time-limit 0.5" \
        in captured.err


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", rating.DIFFICULTIES)
def test_a_hundred_sudokus_at_each_difficulty(difficulty):
    kind = problems.get("sudoku")
    made = list(csp.generate(kind, "9", count=100, seed=1, difficulty=difficulty))
    assert len({m.text for m in made}) == 100
    for puzzle in made:
        assert puzzle.rating.difficulty == difficulty
        assert proven_elsewhere(kind, read_back(kind, puzzle.text))
