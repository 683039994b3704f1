"""Lattice Practices: the contest's samples and every case of the shared data."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from budget import Budget, finished

import csp
from csp import symmetry as sym
from csp.errors import InputError
from csp.problems import lattice

SAMPLE_ANSWERS = [40, 6]


def cases(shared_data):
    text = (shared_data / "lattice" / "lattice_input.txt").read_text()
    expected = [int(x) for x in (shared_data / "lattice" / "lattice_expected.txt").read_text()
                .split()]
    puzzles = lattice.parse(text)
    assert len(puzzles) == len(expected)
    return list(zip(puzzles, expected))


def count(puzzle, form="exact-cover", backend="auto", **options):
    problem = lattice.declare(puzzle, form)
    return sym.count(problem, lattice.symmetry(puzzle, problem), backend, **options)


# -- reading -------------------------------------------------------------------------------


def test_parse_sample():
    puzzles = lattice.parse(lattice.SAMPLE)
    assert [p.boards[0] for p in puzzles] == ["10000", "10101"]
    assert all(p.n == 5 and len(p.boards) == 10 for p in puzzles)


def test_white_space_anywhere_and_end():
    text = "  10000\n01000 00100\n\n11000 01100 11111\t01110 11100\n10110\n11110 END\nEND\n01"
    [puzzle] = lattice.parse(text.replace(" END", ""))
    assert puzzle.boards == lattice.parse(lattice.SAMPLE)[0].boards
    assert puzzle.line == 1


def test_generalised_sizes():
    [small] = lattice.parse("011 101 110 100 010 001\nEND")
    assert small.n == 3 and len(small.boards) == 6
    problem = lattice.declare(small)
    plain = csp.count(problem).count
    classes = csp.count(problem, up_to_symmetry=lattice.symmetry(small, problem)).count
    assert classes <= plain


@pytest.mark.parametrize("text, message, line", [
    ("10000 01200 00100", "notch '2'", 1),
    ("10000\n0100 00100", "has 4 notches", 2),
    ("10000 01000 00100\nEND", "has 3 boards", 1),
])
def test_bad_input(text, message, line):
    with pytest.raises(InputError, match=message) as info:
        lattice.parse(text)
    assert info.value.line == line


def test_one_bad_data_set_does_not_stop_the_others():
    text = "1x000 01000\n" + lattice.SAMPLE
    found = list(lattice.puzzles(text))
    assert isinstance(found[0], InputError)
    assert [p.boards[0] for p in found[1:]] == ["10000", "10101"]


# -- the answers -----------------------------------------------------------------------------


@pytest.mark.parametrize("form", lattice.FORMS)
def test_samples(form):
    for puzzle, expected in zip(lattice.parse(lattice.SAMPLE), SAMPLE_ANSWERS):
        assert count(puzzle, form).count == expected
        assert count(puzzle, form, prune=False).count == expected


def test_sample_nodes_beat_the_published_search():
    # Published for the first sample: 61,793 nodes plain, 16,708 with canonical
    # forms during the search, 2,381 with best-first ordering.
    puzzle = lattice.parse(lattice.SAMPLE)[0]
    plain = count(puzzle, prune=False)
    pruned = count(puzzle)
    assert plain.count == pruned.count == 40
    assert plain.stats.extra["raw_solutions"] == 320
    assert pruned.stats.nodes < plain.stats.nodes
    assert pruned.stats.nodes < 2381
    model_plain = count(puzzle, "model", "bitmask", prune=False)
    model_pruned = count(puzzle, "model", "bitmask")
    assert model_plain.count == model_pruned.count == 40
    assert model_pruned.stats.nodes < model_plain.stats.nodes


def test_every_shared_case_native(shared_data):
    for puzzle, expected in cases(shared_data):
        assert count(puzzle).count == expected, puzzle.boards
    for puzzle, expected in cases(shared_data)[::2]:
        assert count(puzzle, "model", "bitmask").count == expected, puzzle.boards


def test_every_shared_case_exact_cover_on_every_backend(shared_data, csp_backend):
    # python-constraint does not finish the lowered exact cover (200 0/1
    # variables) in minutes: as far as a backend goes within the budget
    budget = Budget(seconds=10)
    for puzzle, expected in cases(shared_data)[:3]:
        result = count(puzzle, backend=csp_backend, time_limit=budget.limit(False))
        if not finished(result.status):
            break
        assert result.count == expected, puzzle.boards


def test_every_shared_case_model_on_every_backend(shared_data, csp_backend):
    # on the model form python-constraint takes about a second
    for puzzle, expected in cases(shared_data)[1:2]:
        assert count(puzzle, "model", csp_backend).count == expected, puzzle.boards


@pytest.mark.slow
def test_every_shared_case_every_backend(shared_data, csp_backend):
    budget = Budget(seconds=300)
    for puzzle, expected in cases(shared_data):
        for form in ("exact-cover", "model"):
            result = count(puzzle, form, csp_backend, time_limit=budget.limit(False))
            if not finished(result.status):
                pytest.skip(f"{csp_backend} did not finish the {form} form within the budget")
            assert result.count == expected


def test_lattices_listed_are_valid_and_distinct():
    puzzle = lattice.parse(lattice.SAMPLE)[1]
    problem = lattice.declare(puzzle)
    group = lattice.symmetry(puzzle, problem)
    listed = list(csp.solutions(problem, up_to_symmetry=group))
    assert len(listed) == 6
    matrices = set()
    for solution in listed:
        assert problem.check(solution) == []
        answer = lattice.decode(puzzle, solution, problem)
        assert sorted(b for b, _ in answer.values()) == list(range(10))
        matrices.add(tuple(lattice.notches(puzzle, answer)))
        assert lattice.format(puzzle, answer).count("board") == 10
    assert len(matrices) == 6


def brute_force(boards):
    """Distinct notch matrices up to the square's 8 symmetries (with complement
    on the transposing ones), by trying every matrix of given patterns."""
    n = len(boards[0])
    bag = sorted(min(b, b[::-1]) for b in boards)
    patterns = sorted({p for b in boards for p in (b, b[::-1])})
    valid = []
    for rows in itertools.product(patterns, repeat=n):
        cols = ["".join("1" if rows[i][j] == "0" else "0" for i in range(n)) for j in range(n)]
        if sorted(min(x, x[::-1]) for x in list(rows) + cols) == bag:
            valid.append([[int(ch) for ch in row] for row in rows])

    def images(matrix):
        for transpose in (False, True):
            a = [[1 - matrix[j][i] for j in range(n)] for i in range(n)] if transpose else matrix
            for flip_i in (False, True):
                b = a[::-1] if flip_i else a
                for flip_j in (False, True):
                    yield tuple(tuple(row[::-1] if flip_j else row) for row in b)

    return len({min(images(matrix)) for matrix in valid})


@pytest.mark.parametrize("text", [
    "01 01 10 00",  # three copies of one board: exchanging them changes nothing
    "011 101 110 100 010 001",
    "001 001 011 110 000 101",
    "000 111 010 101 011 110",
])
def test_small_lattices_against_brute_force(text):
    [puzzle] = lattice.parse(text)
    expected = brute_force(puzzle.boards)
    for form in lattice.FORMS:
        for prune in (True, False):
            assert count(puzzle, form, prune=prune).count == expected, (form, prune)


# -- boards with the same notches ------------------------------------------------------------


def brute_force_by_slots(boards):
    """Distinct lattices by placing the physical boards: every remaining board in
    every slot, either way round (V0.., then H0.., each crossing checked as the
    H boards go in). A lattice is the pattern in each slot, so placements that
    differ only by which of two equal boards sits where are one lattice; its
    images are generated by mirroring (the V slots reversed, every H board read
    backwards), flipping (the same with V and H exchanged) and turning over (V
    and H exchanged)."""
    n = len(boards[0])
    found = set()

    def place(vertical, horizontal, left):
        if len(horizontal) == n:
            found.add((tuple(vertical), tuple(horizontal)))
            return
        for board in [b for b, k in left.items() if k]:
            left[board] -= 1
            for pattern in {board, board[::-1]}:
                if len(vertical) < n:
                    place(vertical + [pattern], horizontal, left)
                elif all(pattern[i] != vertical[i][len(horizontal)] for i in range(n)):
                    place(vertical, horizontal + [pattern], left)
            left[board] += 1

    place([], [], Counter(boards))

    def moves(one):
        v, h = one
        yield v[::-1], tuple(p[::-1] for p in h)
        yield tuple(p[::-1] for p in v), h[::-1]
        yield h, v

    classes = set()
    for one in found:
        orbit, frontier = {one}, [one]
        while frontier:
            for image in moves(frontier.pop()):
                assert image in found  # a move maps a lattice to a lattice
                if image not in orbit:
                    orbit.add(image)
                    frontier.append(image)
        classes.add(min(orbit))
    return len(classes)


def every_count(puzzle):
    """The count up to symmetry of both declarations, with and without pruning."""
    counts = set()
    for form in lattice.FORMS:
        for prune in (True, False):
            counts.add(count(puzzle, form, prune=prune).count)
    return counts


def boards_of(matrix, seed):
    """The 2n boards of a notch matrix (rows; columns complemented), each maybe
    reversed, shuffled: a data set with at least one lattice."""
    n = len(matrix)
    rows = ["".join(map(str, row)) for row in matrix]
    cols = ["".join(str(1 - matrix[i][j]) for i in range(n)) for j in range(n)]
    rng = random.Random(seed)
    boards = [b[::-1] if rng.random() < 0.5 else b for b in rows + cols]
    rng.shuffle(boards)
    return " ".join(boards)


def duplicate_heavy(n, seeds):
    """Data sets of notch matrices whose rows are drawn from two or three rows."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        pool = [[rng.randint(0, 1) for _ in range(n)] for _ in range(rng.choice((1, 2, 3)))]
        found.append(boards_of([list(rng.choice(pool)) for _ in range(n)], seed))
    return found


def test_equal_boards_are_not_group_elements():
    # Ten boards of two types: exchanging equal boards would make 5! 5! 8 elements.
    [puzzle] = lattice.parse("11111 " * 5 + "00000 " * 5)
    for form in lattice.FORMS:
        problem = lattice.declare(puzzle, form)
        group = lattice.symmetry(puzzle, problem)
        assert len(group) == 8
        assert csp.count(problem).count == 2  # all shallow or all deep vertical boards
        assert csp.count(problem, up_to_symmetry=group).count == 1  # turning over: one class


def test_a_data_set_of_equal_boards_does_not_stop_the_others():
    text = lattice.SAMPLE.replace("\n", "\n" + "11111 " * 5 + "00000 " * 5 + "\n", 1)
    puzzles = lattice.parse(text)
    assert [puzzle.line for puzzle in puzzles] == [1, 2, 3]
    assert [count(puzzle).count for puzzle in puzzles] == [40, 1, 6]


@pytest.mark.parametrize("text", [
    " ".join(boards)
    for boards in itertools.combinations_with_replacement(["00", "01", "10", "11"], 4)
])
def test_every_two_notch_data_set_against_brute_force(text):
    [puzzle] = lattice.parse(text)
    assert every_count(puzzle) == {brute_force_by_slots(puzzle.boards)}


@pytest.mark.parametrize("text", [
    "000 000 000 111 111 111",
    "010 010 010 101 101 101",
    "011 110 011 001 100 001",
    "111 111 111 111 111 111",  # all six equal: no lattice
    "101 101 010 010 010 101",
    *duplicate_heavy(3, range(12)),
])
def test_three_notch_data_sets_with_equal_boards_against_brute_force(text):
    [puzzle] = lattice.parse(text)
    expected = brute_force_by_slots(puzzle.boards)
    assert expected == brute_force(puzzle.boards)  # two brute forces agree
    assert every_count(puzzle) == {expected}


@pytest.mark.parametrize("text", [
    "11111 " * 5 + "00000 " * 5,
    "10101 " * 5 + "00000 11111 00000 11111 00000",
    "01100 " * 10,  # ten equal boards: none fits
    *duplicate_heavy(5, range(4)),
])
def test_five_notch_data_sets_with_equal_boards_against_brute_force(text):
    [puzzle] = lattice.parse(text)
    expected = brute_force_by_slots(puzzle.boards)
    assert expected == brute_force(puzzle.boards)
    assert every_count(puzzle) == {expected}


def test_lattices_of_equal_boards_decode_to_every_board_once():
    [puzzle] = lattice.parse("10101 " * 5 + "00000 11111 00000 11111 00000")
    for form in lattice.FORMS:
        problem = lattice.declare(puzzle, form)
        group = lattice.symmetry(puzzle, problem)
        listed = list(csp.solutions(problem, up_to_symmetry=group))
        assert len(listed) == brute_force_by_slots(puzzle.boards)
        for solution in listed:
            answer = lattice.decode(puzzle, solution, problem)
            assert sorted(b for b, _ in answer.values()) == list(range(10))
            assert all(pattern in puzzle.patterns(b) for b, pattern in answer.values())


def test_too_many_placements_of_one_type_is_a_bad_data_set():
    # 20 notches, 40 boards: 20 equal boards could take C(40, 20) sets of slots
    text = ("0" * 20 + " ") * 20 + ("1" * 20 + " ") * 20 + "\n" + lattice.SAMPLE
    found = list(lattice.puzzles(text))
    assert isinstance(found[0], InputError) and found[0].line == 1
    assert "too many" in found[0].message
    assert [p.boards[0] for p in found[1:]] == ["10000", "10101"]
