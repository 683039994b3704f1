"""The reformulations: each lowering is a bijection on solutions (round trips
checked against brute force), and `lower` dispatches."""

from __future__ import annotations

import itertools

import pytest

from csp import AllDifferent, ExactCover, InputError, Model, Relation, Sum, Table
from csp.reformulate import (
    MAX_COLOUR_VALUES,
    allowed_tuples,
    exact_cover_to_model,
    lower,
    model_to_exact_cover,
)

TINY_XCC = "a b c | x y\na x:0\nb x:0 y\nc y:1\na b x:1\n"


def xc_solutions(xc: ExactCover) -> set[tuple[int, ...]]:
    """Every solution of a small exact cover, by trying every set of options."""
    return {
        combo
        for size in range(xc.n_options + 1)
        for combo in itertools.combinations(range(xc.n_options), size)
        if not xc.check(combo)
    }


def model_solutions(m: Model) -> list[dict]:
    """Every solution of a small model: plain backtracking in declaration
    order, testing each constraint once its scope is assigned."""
    names = list(m.variables)
    position = {x: i for i, x in enumerate(names)}
    due: list[list] = [[] for _ in names]  # constraints complete at each depth
    for c in m.constraints:
        due[max((position[x] for x in c.scope), default=0)].append(c)
    found: list[dict] = []

    def extend(assignment: dict) -> None:
        depth = len(assignment)
        if depth == len(names):
            found.append(dict(assignment))
            return
        for value in m.variables[names[depth]].domain:
            assignment[names[depth]] = value
            if all(c.holds(assignment) for c in due[depth]):
                extend(assignment)
            del assignment[names[depth]]

    extend({})
    if not names and all(c.holds({}) for c in m.constraints):
        return [{}]
    return found if names else []


def xcc_search(xc: ExactCover) -> list[tuple[int, ...]]:
    """A naive Algorithm X with colours, independent of every backend."""
    options = [xc.option(k) for k in range(xc.n_options)]
    covering: dict = {item: [] for item in xc.primary}
    for k, option in enumerate(options):
        for name, _ in option:
            if name in covering:
                covering[name].append(k)
    found: list[tuple[int, ...]] = []

    def extend(chosen: list[int], used: dict) -> None:
        free = [p for p in xc.primary if p not in used]
        if not free:
            found.append(tuple(sorted(chosen)))
            return
        def fits(option: list) -> bool:
            return all(name not in used or (colour is not None and used[name] == colour)
                       for name, colour in option)

        # Branch on the item with the fewest options that still fit (MRV).
        candidates = min(
            ([k for k in covering[item] if fits(options[k])] for item in free), key=len
        )
        for k in candidates:
            extend(chosen + [k], {**used, **{name: colour for name, colour in options[k]}})

    extend([], {})
    return found


def test_exact_cover_to_model_round_trip_with_colours() -> None:
    xc = ExactCover.from_text(TINY_XCC)
    m, decode = exact_cover_to_model(xc)
    lowered = [decode(s) for s in model_solutions(m)]
    assert sorted(lowered) == sorted(xc_solutions(xc)) == [(2, 3)]


@pytest.mark.parametrize("text", [
    "a b\na\nb\na b\n",
    "a | x\na x:1\na x:2\na x\n",
    "a b | x\na x:1\nb x:1\nb x:2\na x\nb\n",
    "a b c | x y\na x:1 y\nb x:1\nc y:2\nc x:2\nb y:2\nc\n",
    "a b | z\na z:1\nb z:1\na b\n",
])
def test_exact_cover_to_model_is_a_bijection(text: str) -> None:
    xc = ExactCover.from_text(text)
    m, decode = exact_cover_to_model(xc)
    lowered = [decode(s) for s in model_solutions(m)]
    assert len(lowered) == len(set(lowered)), "two model solutions decode alike"
    assert set(lowered) == xc_solutions(xc)


@pytest.mark.parametrize("text", [
    TINY_XCC,
    "a | x\na x:1\na x:2\na x\n",
    "a b | x\na x:1\nb x:1\nb x:2\na x\nb\n",
    "a b c | x y\na x:1 y\nb x:1\nc y:2\nc x:2\nb y:2\nc\n",
    "a b c | x\na x:1\nb x:2\nc x:3\na b x\nb c x:3\nc\nb\n",
])
def test_many_colours_as_flags_is_a_bijection(text: str) -> None:
    # The encoding of an item with more colours than a colour variable may
    # have values, forced here on small instances to compare with brute force.
    xc = ExactCover.from_text(text)
    m, decode = exact_cover_to_model(xc, max_colour_values=2)
    assert any(len(name) == 3 and name[0] == "colour" for name in m.variables)
    lowered = [decode(s) for s in model_solutions(m)]
    assert len(lowered) == len(set(lowered)), "two model solutions decode alike"
    assert set(lowered) == xc_solutions(xc)


def many_colours(n: int) -> ExactCover:
    """Primary items p0..p{n-1}, one secondary item s; pK alone or pK with s
    coloured K: 1 + n solutions (s takes at most one colour)."""
    xc = ExactCover([f"p{k}" for k in range(n)], ["s"])
    for k in range(n):
        xc.add_option([f"p{k}", ("s", str(k))])
        xc.add_option([f"p{k}"])
    return xc


def test_seventy_colours_lower_for_every_backend(csp_backend: str) -> None:
    from csp import count

    xc = many_colours(70)
    m, decode = exact_cover_to_model(xc)
    # No variable wider than the bitmask backend's 64-bit masks ...
    assert max(len(v.domain) for v in m.variables.values()) <= MAX_COLOUR_VALUES
    # ... and linear size: each option appears in a bounded number of constraints.
    assert len(m.constraints) <= 3 * xc.n_options + xc.n_items
    result = count(xc, backend=csp_backend)
    assert (result.count, result.status.value) == (71, "COMPLETE")
    # Up to 63 colours the single colour variable is kept.
    m63, _ = exact_cover_to_model(many_colours(63))
    assert len(m63.variables[("colour", "s")].domain) == 64


def test_exact_cover_to_model_uncoverable_item() -> None:
    xc = ExactCover(["a", "b"])
    xc.add_option(["a"])
    m, _ = exact_cover_to_model(xc)
    assert model_solutions(m) == []


def small_model() -> Model:
    m = Model()
    a, b, c = m.var("a", range(1, 4)), m.var(("b", 2), range(0, 4)), m.var(3, [-1, 1, 2])
    d = m.var("d", range(3))
    m.add(AllDifferent([a, b, c]))
    m.add(Sum([a, b, c], [2, -1, 1]) <= 4)
    m.add(Table([a, d], [(1, 0), (2, 2), (3, 1), (3, 2)]))
    m.add(Table([b, d], [(0, 0)], forbidden=True))
    m.add(Relation([c, d], lambda x, y: x + y >= 1))
    m.add(b != 3)
    m.add(a == c)
    return m


@pytest.mark.parametrize("build", [
    small_model,
    lambda: _queens_model(5),
    lambda: _sum_model(">="),
    lambda: _sum_model("=="),
])
def test_model_to_exact_cover_round_trip(build) -> None:
    m = build()
    xc, decode = model_to_exact_cover(m)
    lowered = [decode(s) for s in xcc_search(xc)]
    expected = model_solutions(m)
    assert sorted(map(sorted_items, lowered)) == sorted(map(sorted_items, expected))
    for s in lowered:
        assert list(s) == list(m.variables)  # in declaration order


def sorted_items(solution: dict) -> list:
    return sorted(solution.items(), key=repr)


def _queens_model(n: int) -> Model:
    m = Model()
    q = [m.var(i, range(n)) for i in range(n)]
    up = [m.var(("up", i), range(2 * n - 1)) for i in range(n)]
    for i in range(n):
        m.add(Sum([up[i], q[i]], [1, -1]) == i)
    m.add(AllDifferent(q))
    m.add(AllDifferent(up))
    return m


def _sum_model(op: str) -> Model:
    m = Model()
    xs = [m.var(i, range(-1, 3)) for i in range(4)]
    s = Sum(xs, [1, 2, -1, 3])
    m.add(s >= 3 if op == ">=" else s == 3)
    m.add(AllDifferent(xs[:3]))
    return m


@pytest.mark.parametrize("seed", range(4))
def test_model_to_exact_cover_is_a_bijection_on_random_models(seed: int) -> None:
    """The vectorised lowering against brute force on the fuzzer's random
    models (all-differents that are and are not permutations, items for
    values only one variable can take, tables, sums, unary filters)."""
    import random

    from csp.fuzz.generate import random_model

    rng = random.Random(f"lowering:{seed}")
    for _ in range(60):
        m = random_model(rng).build()
        xc, decode = model_to_exact_cover(m)
        lowered = [decode(s) for s in xcc_search(xc)]
        assert sorted(map(sorted_items, lowered)) == sorted(map(sorted_items, model_solutions(m)))


def test_model_to_exact_cover_far_apart_values() -> None:
    """Values spread far apart (numbered by sorting, not by a table over
    their range) and an empty all-different."""
    m = Model()
    xs = [m.var(i, [-10**9, 3, 10**12]) for i in range(3)]
    m.add(AllDifferent(xs[:2]))
    m.add(AllDifferent([]))
    m.add(Sum(xs) >= 3)
    xc, decode = model_to_exact_cover(m)
    lowered = [decode(s) for s in xcc_search(xc)]
    assert sorted(map(sorted_items, lowered)) == sorted(map(sorted_items, model_solutions(m)))
    assert len(lowered) == 14  # 6 pairs apart times 3, less the 4 whose sum is below 3


def test_model_to_exact_cover_permutation_items_are_primary() -> None:
    m = Model()
    xs = [m.var(i, range(3)) for i in range(3)]
    m.add(AllDifferent(xs))
    xc, decode = model_to_exact_cover(m)
    assert ("diff", 0, 1) in xc.primary
    assert len(xcc_search(xc)) == 6


def test_round_trip_both_ways() -> None:
    xc = ExactCover.from_text(TINY_XCC)
    m, decode_m = exact_cover_to_model(xc)
    xc2, decode_x = model_to_exact_cover(m)
    back = sorted(decode_m(decode_x(s)) for s in xcc_search(xc2))
    assert back == sorted(xc_solutions(xc))


def test_empty_model_and_empty_domain() -> None:
    xc, decode = model_to_exact_cover(Model())
    assert [decode(s) for s in xcc_search(xc)] == [{}]
    m = Model()
    m.var("a", [])
    m.var("b", [1])
    xc, _ = model_to_exact_cover(m)
    assert xcc_search(xc) == []


def test_sum_expansion_bound_is_stated() -> None:
    m = Model()
    xs = [m.var(i, range(10)) for i in range(6)]
    m.add(Sum(xs) >= 0)
    with pytest.raises(InputError, match="over 1,000 allowed tuples"):
        model_to_exact_cover(m, max_tuples=1000)


def test_allowed_tuples_respects_apart() -> None:
    from csp.constraints import Linear

    c = Linear(["x", "y", "z"], [1, 1, 1], "==", 6)
    rows = allowed_tuples(c, [range(1, 5)] * 3, [[], [0], [0, 1]])
    assert sorted(rows) == sorted(itertools.permutations([1, 2, 3]))


def test_lower_dispatch() -> None:
    xc = ExactCover.from_text(TINY_XCC)
    same, decode = lower(xc, ExactCover)
    assert same is xc and decode((0,)) == (0,)
    m, _ = lower(xc, Model)
    assert isinstance(m, Model)
    back, _ = lower(m, ExactCover)
    assert isinstance(back, ExactCover)
    with pytest.raises(TypeError):
        lower("not a problem", Model)
