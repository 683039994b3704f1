"""Counting and listing up to symmetry: groups, validation, canonical forms, pruning.

Real data: N queens (OEIS A002562, from the shared nqueens.json) and the
pentomino boxes (shared polyomino/answers.json); random problems with random
valid groups against a brute-force count of orbits, on every backend.
"""

from __future__ import annotations

import itertools
import json

import pytest
from budget import examples
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import csp
from csp import symmetry as sym
from csp.constraints import Table
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problems import polyomino, queens


def queens_rows(shared_data):
    rows = json.loads((shared_data / "nqueens" / "nqueens.json").read_text())["rows"]
    return {row["n"]: row for row in rows}


# -- groups and validation ------------------------------------------------------------------


def tiny() -> ExactCover:
    xc = ExactCover(["a", "b"])
    for items in (["a"], ["b"], ["a", "b"]):
        xc.add_option(items)
    return xc


def test_closure_and_canonical_forms():
    xc = queens.declare(queens.Queens(5))
    group = queens.symmetry(queens.Queens(5), xc)
    assert len(group) == 8
    solution = next(iter(csp.solutions(xc)))
    orbit = group.orbit(solution)
    assert orbit[0] == group.canonical(solution)
    assert all(xc.check(image) == [] for image in orbit)
    assert all(group.canonical(image) == orbit[0] for image in orbit)
    assert sum(group.is_canonical(image) for image in orbit) == 1


def test_rank_changes_the_representative_not_the_count():
    puzzle = queens.Queens(6)
    xc = queens.declare(puzzle)
    generators = queens.symmetry(puzzle, xc).generators
    for rank in ("index", "search", list(reversed(range(xc.n_options)))):
        group = sym.Group(xc, generators, rank=rank)
        [listed] = csp.solutions(xc, up_to_symmetry=group)
        assert group.is_canonical(listed)


def test_a_non_symmetry_names_the_first_offending_option():
    xc = ExactCover(["a", "b", "c"])
    for items in (["a"], ["b", "c"], ["b"], ["c"]):
        xc.add_option(items)
    # Swapping options 0 and 1 maps {a} to {b, c}: no item map explains it.
    with pytest.raises(InputError, match=r"option 0 \(a\) to option 1 \(b c\)"):
        sym.Group(xc, [[1, 0, 2, 3]])
    sym.Group(xc, [[0, 1, 3, 2]])  # b <-> c is one


def test_a_non_symmetry_blames_an_option_it_moves():
    xc = ExactCover.from_text("a b c\na b\nc\na\nb c\n")
    # Options 1 (c) and 2 (a) are exchanged, option 0 (a b) stays: item a, in
    # options 0 and 2, would have to become an item in options 0 and 1.
    with pytest.raises(InputError) as info:
        sym.Group(xc, [[0, 2, 1, 3]])
    message = str(info.value)
    assert "option 0 (a b) to option 0" not in message
    assert "sends option 2 (a) to option 1 (c)" in message
    assert "item 'a', in options 0 and 2, would go to an item in exactly options 0 and 1" \
        in message
    assert info.value.token == 2


def test_a_non_symmetry_of_colours_says_which_colours():
    xc = ExactCover(["p", "q"], ["x"])
    for option in (["p", ("x", 0)], ["p", ("x", 1)], ["q", ("x", 0)], ["q", ("x", 1)]):
        xc.add_option(option)
    # Exchanging options 0 and 1 only splits x's colour classes {0, 2} and {1, 3}.
    with pytest.raises(InputError, match=r"item 'x'.*options 1 and 2; options 0 and 3 of one "
                       "colour each"):
        sym.Group(xc, [[1, 0, 2, 3]])


def test_bad_generators_are_input_errors():
    xc = tiny()
    with pytest.raises(InputError, match="2 entries; the problem has 3 options"):
        sym.Group(xc, [[1, 0]])
    with pytest.raises(InputError, match="not a permutation"):
        sym.Group(xc, [[0, 0, 2]])
    with pytest.raises(InputError, match="not an option number"):
        sym.Group(xc, [{0: 7}])
    with pytest.raises(InputError, match="no option covers its mapped items"):
        sym.induced(xc, {"a": "b", "b": "b"})


def test_colour_relabelling_is_a_symmetry_of_an_exact_cover():
    xc = ExactCover(["p", "q"], ["x"])
    xc.add_option(["p", ("x", 0)])
    xc.add_option(["p", ("x", 1)])
    xc.add_option(["q", ("x", 0)])
    xc.add_option(["q", ("x", 1)])
    group = sym.Group(xc, [sym.induced(xc, {}, lambda item, colour: 1 - colour)])
    assert csp.count(xc).count == 2
    assert csp.count(xc, up_to_symmetry=group).count == 1


def test_model_symmetries_are_validated():
    m = Model()
    a, b = m.var("a", [0, 1, 2]), m.var("b", [0, 1, 2])
    m.add(a != b)
    m.add(Table([a], [(0,), (1,)]))
    swap = {("a", v): ("b", v) for v in range(3)} | {("b", v): ("a", v) for v in range(3)}
    with pytest.raises(InputError, match="forbidden combination pair \\('a', 2\\)"):
        sym.Group(m, [swap])  # b may be 2, a may not
    relabel = sym.relabel_values(m, ["a", "b"], {0: 1, 1: 0})
    group = sym.Group(m, [relabel])
    assert len(group) == 2
    assert csp.count(m).count == 4
    assert csp.count(m, up_to_symmetry=group).count == 2  # {a0 b1, a1 b0}, {a0 b2, a1 b2}


def test_up_to_symmetry_needs_a_group():
    with pytest.raises(InputError, match="needs the group"):
        csp.count(tiny(), up_to_symmetry=True)
    group = sym.Group(tiny(), [])
    with pytest.raises(InputError, match="another problem"):
        csp.count(tiny(), up_to_symmetry=group)
    xc = tiny()
    group = sym.Group(xc, [sym.induced(xc, {"a": "b", "b": "a"})])
    assert csp.count(xc, up_to_symmetry=True, symmetry=group).count == 2


def test_a_problem_carries_its_declared_group():
    xc = ExactCover.from_text("a b c d\na b\nc d\na c\nb d\n")
    group = sym.declare(xc, [sym.induced(xc, {"b": "c", "c": "b"})])
    assert xc.symmetry is group and len(group) == 2
    assert csp.count(xc).count == 2
    assert csp.count(xc, up_to_symmetry=True).count == 1
    assert len(list(csp.solutions(xc, up_to_symmetry=True))) == 1
    # Group(...).attach() is the same; an explicit group still wins.
    m = Model()
    m.var("a", [0, 1])
    m.var("b", [0, 1])
    m.add(Table(["a", "b"], [(0, 1), (1, 0)]))
    swap = sym.Group(m, [sym.relabel_values(m, ["a", "b"], {0: 1, 1: 0})]).attach()
    assert m.symmetry is swap
    assert csp.count(m, up_to_symmetry=True).count == 1
    assert csp.count(m, up_to_symmetry=True, symmetry=sym.Group(m, [])).count == 2
    m.symmetry = "rotations"
    with pytest.raises(InputError, match="not a csp.symmetry.Group"):
        csp.count(m, up_to_symmetry=True)


def test_puzzle_modules_declare_their_group_on_the_problem():
    puzzle = queens.Queens(6)
    xc = queens.declare(puzzle)
    group = queens.symmetry(puzzle, xc)
    assert xc.symmetry is group
    assert csp.count(xc, up_to_symmetry=True).count == 1
    [box] = polyomino.parse("....\n....\n\n##\n##\n\n##\n##", reflect=True)
    xc = polyomino.declare(box)
    assert polyomino.symmetry(box, xc) is xc.symmetry
    assert csp.count(xc, up_to_symmetry=True).count == 1


def test_grid_symmetries():
    square = [(r, c) for r in range(4) for c in range(4)]
    assert len(sym.grid_symmetries(square)) == 8
    holed = [cell for cell in square if cell != (0, 0)]
    assert len(sym.grid_symmetries(holed)) == 2  # identity and the main diagonal


# -- N queens (OEIS A002562) -------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 11))
def test_queens_up_to_symmetry(shared_data, n):
    expected = queens_rows(shared_data)[n]
    puzzle = queens.Queens(n)
    xc = queens.declare(puzzle)
    group = queens.symmetry(puzzle, xc)
    plain = sym.count(xc, group, prune=False)
    pruned = csp.count(xc, up_to_symmetry=group)
    assert plain.count == pruned.count == expected["distinct_up_to_symmetry"]
    assert plain.stats.extra["raw_solutions"] == expected["solutions"]
    assert pruned.stats.nodes <= plain.stats.nodes
    if n >= 8:
        assert pruned.stats.nodes < plain.stats.nodes
    # n = 10: 724 / 8 is no whole number, some solutions are their own images
    listed = list(csp.solutions(xc, up_to_symmetry=group))
    assert len(listed) == expected["distinct_up_to_symmetry"]
    assert len({group.canonical(s) for s in listed}) == len(listed)
    assert all(xc.check(s) == [] and group.is_canonical(s) for s in listed)


def test_self_symmetric_queens_are_counted_once(shared_data):
    # n = 6: the 4 solutions form one class of 4; n = 10: 724 solutions, 92 classes
    for n in (6, 10):
        row = queens_rows(shared_data)[n]
        assert row["solutions"] != 8 * row["distinct_up_to_symmetry"]


def test_queens_on_every_backend(shared_data, csp_backend):
    puzzle = queens.Queens(6)
    xc = queens.declare(puzzle)
    result = csp.count(xc, csp_backend, up_to_symmetry=queens.symmetry(puzzle, xc))
    assert result.count == queens_rows(shared_data)[6]["distinct_up_to_symmetry"]


# -- pentominoes -----------------------------------------------------------------------------


def pentomino(shared_data, name):
    answers = json.loads((shared_data / "polyomino" / "answers.json").read_text())["answers"]
    text = (shared_data / "polyomino" / f"{name}.txt").read_text()
    [puzzle] = polyomino.parse(text, reflect=True)
    return puzzle, answers[name]


@pytest.mark.parametrize("name", ["pent_3x20", "pent_8x8_hole", "pent_6x10"])
def test_pentominoes_up_to_symmetry(shared_data, name):
    puzzle, answer = pentomino(shared_data, name)
    xc = polyomino.declare(puzzle)
    group = polyomino.symmetry(puzzle, xc)
    assert len(group) == answer["board_symmetries"]
    result = csp.count(xc, up_to_symmetry=group)
    assert result.complete
    assert result.count == answer["distinct_up_to_board_symmetry"]
    assert result.stats.extra["raw_solutions"] <= answer["count_with_reflections"]


def test_pentomino_pruning_saves_nodes(shared_data):
    puzzle, answer = pentomino(shared_data, "pent_8x8_hole")
    xc = polyomino.declare(puzzle)
    group = polyomino.symmetry(puzzle, xc)
    plain = sym.count(xc, group, prune=False)
    pruned = sym.count(xc, group)
    assert plain.count == pruned.count == answer["distinct_up_to_board_symmetry"]
    assert plain.stats.extra["raw_solutions"] == answer["count_with_reflections"]
    assert pruned.stats.nodes < plain.stats.nodes


def test_one_sided_pieces_keep_only_rotations(shared_data):
    [puzzle] = polyomino.parse((shared_data / "polyomino" / "pent_3x20.txt").read_text())
    group = polyomino.symmetry(puzzle)
    assert len(group) == 2  # the half turn: a mirrored one-sided piece is another piece


# -- random problems against brute force -----------------------------------------------------


def usable(problem, backend):
    """Whether `backend` can enumerate `problem` at all. (python-constraint 2
    raises ValueError on some lowered exact covers, e.g. `p0 p1 p2 / p0 p1 /
    p1 p2`, even without symmetry: a backend bug, reported, not tested here.)"""
    try:
        list(csp.solutions(problem, backend))
    except ValueError:
        return False
    return True


def brute_orbits(solutions, group):
    return len({str(group.canonical(s)) for s in solutions})


@st.composite
def symmetric_exact_covers(draw):
    """A random exact cover closed under a random permutation of its items."""
    n_items = draw(st.integers(2, 6))
    n_secondary = draw(st.integers(0, 2))
    names = [f"p{i}" for i in range(n_items)]
    extra = [f"s{i}" for i in range(n_secondary)]
    perm = draw(st.permutations(range(n_items)))
    sperm = draw(st.permutations(range(n_secondary)))
    item_map = {f"p{i}": f"p{perm[i]}" for i in range(n_items)}
    item_map.update({f"s{i}": f"s{sperm[i]}" for i in range(n_secondary)})
    seeds = draw(st.lists(st.tuples(
        st.sets(st.integers(0, n_items - 1), min_size=1, max_size=3),
        st.sets(st.integers(0, max(0, n_secondary - 1)), max_size=n_secondary)),
        min_size=1, max_size=4))
    options: set[frozenset[str]] = set()
    for primary, secondary in seeds:
        option = frozenset([f"p{i}" for i in primary] + [f"s{i}" for i in secondary
                                                         if n_secondary])
        while option not in options:  # close the option set under the item map
            options.add(option)
            option = frozenset(item_map[name] for name in option)
    xc = ExactCover(names, extra)
    for option in sorted(options, key=sorted):
        xc.add_option(sorted(option))
    return xc, sym.induced(xc, item_map)


def brute_exact_cover(xc):
    return [s for r in range(xc.n_options + 1)
            for s in itertools.combinations(range(xc.n_options), r) if not xc.check(s)]


EXAMPLES = 40
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def _orbits_on(backend, cases, brute, small=lambda problem: True):
    """`backend` counts random symmetric problems up to their symmetry as a
    brute force does (a backend outside the process takes fewer examples)."""
    @settings(SETTINGS, max_examples=examples(backend, EXAMPLES))
    @given(cases)
    def check(case):
        problem, generator = case
        assume(small(problem))
        group = sym.Group(problem, [generator])
        if usable(problem, backend):
            expected = brute_orbits(brute(problem), group)
            assert csp.count(problem, backend, up_to_symmetry=group).count == expected

    check()


def test_random_exact_covers_count_orbits_on_each_backend(csp_backend):
    # The brute force tries every subset of options: 2^16 at most.
    _orbits_on(csp_backend, symmetric_exact_covers(), brute_exact_cover,
               small=lambda xc: xc.n_options <= 16)


@SETTINGS
@given(symmetric_exact_covers())
def test_random_exact_covers_count_orbits(case):
    # What does not depend on a backend, once (not once per backend).
    xc, generator = case
    assume(xc.n_options <= 16)
    group = sym.Group(xc, [generator])
    expected = brute_orbits(brute_exact_cover(xc), group)
    for depth in (1, 2):
        assert sym.count(xc, group, depth=depth).count == expected
    assert sym.count(xc, group, prune=False).count == expected
    listed = list(csp.solutions(xc, up_to_symmetry=group))
    assert len(listed) == expected and all(group.is_canonical(s) for s in listed)


@st.composite
def symmetric_models(draw):
    """A random model closed under a random variable permutation and value relabelling."""
    n_vars = draw(st.integers(2, 4))
    size = draw(st.integers(2, 3))
    vperm = draw(st.permutations(range(n_vars)))
    dperm = draw(st.permutations(range(size)))
    m = Model()
    for i in range(n_vars):
        m.var(f"x{i}", range(size))

    def image(pair):
        (i, a), (j, b) = pair
        return ((vperm[i], dperm[a]), (vperm[j], dperm[b]))

    # Random forbidden pairs of assignments, closed under the symmetry.
    seeds = draw(st.lists(st.tuples(st.integers(0, n_vars - 1), st.integers(0, size - 1),
                                    st.integers(0, n_vars - 1), st.integers(0, size - 1)),
                          max_size=5))
    forbidden: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for i, a, j, b in seeds:
        if i == j:
            continue
        pair = ((i, a), (j, b))
        for _ in range(math_lcm(n_vars, size) * 2):
            (p, x), (q, y) = pair
            key, row = ((p, q), (x, y)) if p < q else ((q, p), (y, x))
            forbidden.setdefault(key, set()).add(row)
            pair = image(pair)
    for (p, q), rows in sorted(forbidden.items()):
        m.add(Table([f"x{p}", f"x{q}"], sorted(rows), forbidden=True))
    generator = {(f"x{i}", a): (f"x{vperm[i]}", dperm[a])
                 for i in range(n_vars) for a in range(size)}
    return m, generator


def math_lcm(a, b):
    import math

    return a * b // math.gcd(a, b)


def brute_model(m):
    names = list(m.variables)
    every = (dict(zip(names, values))
             for values in itertools.product(*(m.variables[v].domain for v in names)))
    return [s for s in every if m.is_solution(s)]


def test_random_models_count_orbits_on_each_backend(csp_backend):
    _orbits_on(csp_backend, symmetric_models(), brute_model)


@SETTINGS
@given(symmetric_models())
def test_random_models_count_orbits(case):
    m, generator = case
    group = sym.Group(m, [generator])
    expected = brute_orbits(brute_model(m), group)
    assert sym.count(m, group, prune=False).count == expected
    listed = list(csp.solutions(m, up_to_symmetry=group))
    assert len(listed) == expected and all(group.is_canonical(s) for s in listed)


def test_limit_and_time_limit():
    puzzle = queens.Queens(8)
    xc = queens.declare(puzzle)
    group = queens.symmetry(puzzle, xc)
    search = csp.solutions(xc, up_to_symmetry=group, limit=3)
    assert len(list(search)) == 3
    assert search.status is csp.Status.SOLUTION_LIMIT
    result = csp.count(xc, up_to_symmetry=group, time_limit=0)
    assert result.status is csp.Status.TIME_LIMIT
