"""`csp rate` and `csp.rating`: the weakest rung of `bitmask` techniques that
settles a puzzle at the root, checked against the shared sudoku collections:
Gordon Royle's 17-clue puzzles (mostly solved by singles) rate below Norvig's
top95 and hardest sets, and agrees in rank with Sukaku Explainer's published
grades of the Sudoku Exchange puzzle bank."""

from __future__ import annotations

import json
import statistics

import pytest

import csp
from csp import problems, rating
from csp.bench.measure import spearman
from csp.cli import main


def scores(shared_data, name, limit=None):
    kind = problems.get("sudoku")
    lines = (shared_data / "sudoku" / name).read_text().split("\n")
    found = []
    for line in [line for line in lines if line.strip()][:limit]:
        [puzzle] = kind.parse(line.split()[0])
        found.append(rating.rate(rating.model_of(kind, puzzle)))
    return found


def test_the_easy_collection_rates_below_the_hard_ones(shared_data):
    easy = scores(shared_data, "royle_17clue_sample1000.txt", 200)
    top95 = scores(shared_data, "norvig_top95.txt")
    hardest = scores(shared_data, "norvig_hardest.txt")
    assert all(r.level is not None for r in easy + top95 + hardest)
    mean = {name: statistics.mean(r.score for r in found)
            for name, found in (("easy", easy), ("top95", top95), ("hardest", hardest))}
    assert mean["easy"] < mean["hardest"] and mean["easy"] < mean["top95"]
    assert statistics.median(r.score for r in easy) < statistics.median(r.score for r in top95)
    # none of top95 falls to singles; most of the 17-clue puzzles do
    assert not any(r.level == "singles" for r in top95)
    assert sum(r.level == "singles" for r in easy) > len(easy) / 3


def test_the_rating_follows_sukaku_explainers_published_grades(shared_data):
    # Sukaku Explainer grades by the hardest technique of its solution path:
    # below 1.5 only hidden singles, 2.5-2.9 pointing and claiming (our
    # intersections), 3.0-4.x pairs, X-wings and triples, 5 and up chains.
    kind = problems.get("sudoku")
    graded: dict[str, list[rating.Rating]] = {}
    for line in (shared_data / "sudoku" / "sudoku_exchange_rated.txt").read_text().splitlines():
        text, grade = line.split()
        [puzzle] = kind.parse(text)
        graded.setdefault(grade, []).append(rating.rate(rating.model_of(kind, puzzle)))
    assert all(r.solutions == 1 and r.level for found in graded.values() for r in found)
    assert {r.level for r in graded["<1.5"]} == {"singles"}
    assert not any(r.level == "singles" for grade, found in graded.items()
                   if not grade.startswith("<") for r in found)
    # below 2.5 nothing needs probing; from 4.0 nearly everything does (matching
    # finds every subset at once, so a few that SE solves by a chain fall to it)
    assert not any(r.level in ("probing", "search") for r in graded["<2.5"])
    hard = [r for grade, found in graded.items() if not grade.startswith("<")
            and float(grade) >= 4.0 for r in found]
    assert sum(r.level in ("probing", "search") for r in hard) >= 0.95 * len(hard)
    numeric = [(float(grade), r.score) for grade, found in graded.items()
               if not grade.startswith("<") for r in found]
    low = [(1.2 if grade == "<1.5" else 2.0, r.score) for grade in ("<1.5", "<2.5")
           for r in graded[grade]]
    assert spearman(*zip(*numeric)) > 0.5
    assert spearman(*zip(*(low + numeric))) > 0.7


def test_each_rung_settles_what_the_rung_below_does():
    kind = problems.get("sudoku")
    # Norvig's first top95 puzzle needs more than singles; every rung at or
    # above its rating settles it, no rung below does.
    [puzzle] = kind.parse("4.....8.5.3..........7......2.....6.....8.4......"
                          "1.......6.3.7.5..2.....1.4......")
    model = rating.model_of(kind, puzzle)
    found = rating.rate(model)
    below = rating.LEVELS[:rating.LEVELS.index(found.level)]
    assert not any(rating.settles(model, level) for level in below)
    assert all(rating.settles(model, level) for level in
               rating.LEVELS[rating.LEVELS.index(found.level):-1])


def test_not_unique_and_no_solution_are_not_rated():
    kind = problems.get("latin")
    [two, none] = kind.parse("12.\n...\n...\n\n11.\n...\n...")
    assert str(rating.rate(rating.model_of(kind, two))) == \
        "not rated: not unique (2 solutions or more)"
    assert str(rating.rate(rating.model_of(kind, none))) == "not rated: no solution"


def test_score_orders_the_levels():
    ladder = [rating.Rating(level, 1, nodes=10 if level == "search" else 0)
              for level in rating.LEVELS]
    assert [r.score for r in ladder] == sorted(r.score for r in ladder)
    assert [r.difficulty for r in ladder] == ["easy", "medium", "hard", "extreme", "extreme"]
    with pytest.raises(csp.InputError, match="unknown level"):
        rating.rate(csp.Model(), up_to="guessing")


def test_cli(shared_data, capsys, tmp_path):
    path = shared_data / "sudoku" / "norvig_hardest.txt"
    assert main(["rate", "sudoku", str(path), "--stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 8 and lines[-1].startswith("puzzles=7 easy=")
    assert all(line.split()[0] in rating.DIFFICULTIES for line in lines[:-1])
    assert main(["rate", "sudoku", str(path), "--json"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(o["level"] in rating.LEVELS and o["solutions"] == 1 for o in objects)
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("12\n..\n\n1x\n..\n\n12.\n...\n...\n")
    assert main(["rate", "latin", str(mixed)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "easy (singles)\nnot rated: not unique (2 solutions or more)\n"
    assert "line 4" in captured.err
    assert main(["rate", "queens", "8"]) == 1
    assert main(["rate", "sudoku", str(path), "--reflect"]) == 2
    assert "--reflect does not apply to sudoku puzzles" in capsys.readouterr().err
