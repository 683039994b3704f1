"""The backend contract: what every backend must do, as pytest tests.

Each test takes `csp_backend`, a backend's name, which the plug-in
`csp.testing.plugin` parametrizes over the backends chosen by
`--csp-backend NAME` (repeatable), or over every available one. Import the
tests into a test file of your own to run them:

    from csp.testing.contract import *  # noqa: F401,F403

The backend is driven both through `csp.solve/count/solutions/crosscheck`
(so through dispatch: lowering, adaptation, decoding) and directly (its own
`solutions` and `count` on its native form). What it declares decides what is
expected of it: a backend with `SPLIT` must split its search correctly; an
exact-cover backend without `COLOURS` must have coloured covers refused
before solving; a backend that counts only (`COUNTS_ONLY`) keeps the
contract's counting part, and `solve` and `solutions` must refuse it before
solving. Every solution is checked by the problem's own checker.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from typing import Any

import pytest

import csp
from csp import ExactCover, InputError, Model, Result, Stats, Status, dispatch
from csp.backends.base import (
    COLOURS,
    COUNTS_ONLY,
    MULTIPLICITIES,
    OUTSIDE,
    SLICED,
    SPLIT,
    Backend,
    Search,
    SlicedSearch,
    Splitting,
    validate,
)
from csp.errors import Refused
from csp.testing import (
    BOUNDED_TEXT,
    COLOURED_SOLUTIONS,
    QUEENS,
    ROOKS,
    SUDOKU_4X4_GRIDS,
    brute_force,
    coloured_cover,
    every_kind_model,
    normal,
    permutations_model,
    pigeonhole,
    queens_cover,
    queens_model,
    rooks_cover,
    sudoku_4x4,
    wrong,
)
from csp.testing.language import OWN, joined, language_models, reified_together

SHORT = 0.3
"""The time limit of the long searches, in seconds."""
SLACK = 3.0
"""How far past a time limit a backend may stop: generous on a shared machine,
but far below what the searches would take to finish."""


def _backend(name: str) -> Backend:
    return csp.backends.get(name)


def _native(name: str, cover: ExactCover, model: Model) -> ExactCover | Model:
    """Of a problem in both forms, the one the backend solves natively."""
    return cover if _backend(name).native is ExactCover else model


def _refused(name: str, problem: ExactCover | Model) -> bool:
    """Whether the backend refuses `problem` before solving, as it may: an
    exact-cover backend without COLOURS, given a coloured cover or a model
    (whose lowering to an exact cover colours the variables' items). The
    refusal must then be an InputError naming the backends that take it."""
    backend = _backend(name)
    if COLOURS in backend.capabilities or backend.native is not ExactCover:
        return False
    try:
        dispatch.prepare(problem, name)
    except InputError as err:
        assert "does not take colours" in str(err) and "backends that take it: " in str(err), err
        return True
    return False


def _takes(name: str, problem: ExactCover | Model) -> ExactCover | Model:
    """`problem`, or a skip if the backend refuses it as it may (`_refused`)."""
    if _refused(name, problem):
        pytest.skip(f"{name} takes no colours, and {problem!r} needs them")
    return problem


def _lists(name: str) -> bool:
    """Whether the backend lists solutions (not one that counts only)."""
    return COUNTS_ONLY not in _backend(name).capabilities


def _listing(name: str) -> None:
    """Skip a test of listing solutions for a backend that counts only."""
    if not _lists(name):
        pytest.skip(f"{name} counts only ({COUNTS_ONLY!r}): no solutions to list")


def _long(name: str) -> ExactCover | Model:
    """A search far too long to finish in SHORT seconds, full of solutions."""
    return _native(name, queens_cover(16), permutations_model(13))


def _all_checked(problem: ExactCover | Model, search: Search, what: Any = None) -> list[Any]:
    """The solutions `search` lists, each checked by `problem`'s checker and
    none twice; a failure names `what` (the reference problem) if given."""
    found = list(search)
    for solution in found:
        assert wrong(problem, solution) == [], (solution if what is None else
                                                 f"{what}: {solution} {wrong(problem, solution)}")
    assert len({normal(s) for s in found}) == len(found), (
        "a solution came twice" if what is None else f"{what}: a solution came twice")
    return found


# -- the protocol -------------------------------------------------------------------


def test_contract_protocol(csp_backend: str) -> None:
    backend = _backend(csp_backend)
    assert validate(backend, probe=True) == []
    assert backend.name == csp_backend
    assert isinstance(backend, Backend)
    if SPLIT in backend.capabilities:
        assert isinstance(backend, Splitting)
    assert csp_backend in csp.backends.available()


# -- counts on reference problems, every solution checked --------------------------


def test_contract_queens_cover(csp_backend: str) -> None:
    for n in (1, 2, 3, 4, 6, 8):
        xc = queens_cover(n)
        result = csp.count(xc, csp_backend)
        assert (n, result.count, result.status) == (n, QUEENS[n], Status.COMPLETE)
        if not _lists(csp_backend):
            continue
        search = csp.solutions(xc, csp_backend)
        assert len(_all_checked(xc, search)) == QUEENS[n]
        assert search.status is Status.COMPLETE


def test_contract_queens_model(csp_backend: str) -> None:
    m = _takes(csp_backend, queens_model(6))
    result = csp.count(m, csp_backend)
    assert (result.count, result.status) == (QUEENS[6], Status.COMPLETE)
    if _lists(csp_backend):
        assert len(_all_checked(m, csp.solutions(m, csp_backend))) == QUEENS[6]


def test_contract_counts_only(csp_backend: str) -> None:
    # A backend that counts only is refused, before solving, what lists
    # solutions, with the backends that list them.
    if _lists(csp_backend):
        pytest.skip(f"{csp_backend} lists solutions")
    for run in (csp.solve, csp.solutions):
        with pytest.raises(InputError, match="counts solutions but does not list them; "
                           "backends that list them: "):
            run(queens_cover(6), csp_backend)
    assert csp.count(queens_cover(6), csp_backend).count == QUEENS[6]


def test_contract_sudoku(csp_backend: str) -> None:
    for form in ("exact-cover", "model"):
        problem = sudoku_4x4(form)
        if _refused(csp_backend, problem):
            continue
        assert csp.count(problem, csp_backend).count == SUDOKU_4X4_GRIDS, form
        if not _lists(csp_backend):
            continue
        first = csp.solve(problem, csp_backend)
        assert first.status is Status.SOLUTION_LIMIT and wrong(problem, first.solution) == []


def test_contract_every_constraint_kind(csp_backend: str) -> None:
    m = _takes(csp_backend, every_kind_model())
    expected = brute_force(m)
    assert expected, "the reference model must have solutions"
    assert csp.count(m, csp_backend).count == len(expected)
    if _lists(csp_backend):
        found = _all_checked(m, csp.solutions(m, csp_backend))
        assert {normal(s) for s in found} == expected


@pytest.mark.parametrize("inside", ["alone", "logic", "reified"])
def test_contract_model_language(csp_backend: str, inside: str) -> None:
    # Every kind of constraint, alone, inside logic and reified: taken (as it
    # is or decomposed) and agreeing with the checkers, or refused before
    # solving with a Refused that names the backends that take it.
    models = language_models(inside)
    taken = []
    for kind, m in models.items():
        try:
            dispatch.prepare(m, csp_backend)
        except Refused as err:
            named = str(err).rsplit("backends that take it: ", 1)
            assert len(named) == 2, err
            assert named[1] == (", ".join(dispatch.takers(m)) or "none available"), err
            assert csp_backend not in dispatch.takers(m)
            with pytest.raises(Refused):
                csp.count(m, csp_backend)
            continue
        taken.append(kind)
    together = _reified_together(csp_backend, taken) if inside == "reified" else None
    for kind in taken:
        if together is True and kind not in OWN:
            continue
        m = models[kind]
        expected = _expected(kind, inside)
        if _lists(csp_backend):
            found = _all_checked(m, csp.solutions(m, csp_backend), (kind, inside))
            assert {normal(s) for s in found} == expected, (kind, inside)
        result = csp.count(m, csp_backend)
        assert (result.count, result.status) == (len(expected), Status.COMPLETE), (kind, inside)
    assert together is not False, ("every kind reified agrees alone, but not together: "
                                   "reified_together(kinds) disagrees with joined(...)")


def _reified_together(name: str, kinds: list[str]) -> bool | None:
    """For a backend whose solver runs outside (`OUTSIDE`: a process per
    call), the reified kinds checked in one model (`reified_together`) rather
    than one each: whether it agreed (the caller then checks each kind alone,
    to name the one at fault), or None if the backend refuses it."""
    if OUTSIDE not in _backend(name).capabilities:
        return None
    shared = [kind for kind in kinds if kind not in OWN]
    if not shared:
        return None
    m = reified_together(shared)
    try:
        dispatch.prepare(m, name)
    except Refused:
        return None
    expected = joined({kind: _expected(kind, "reified") for kind in shared})
    if _lists(name):
        found = list(csp.solutions(m, name))
        distinct = {normal(s) for s in found}
        if len(distinct) != len(found) or distinct != expected or any(wrong(m, s) for s in found):
            return False
    result = csp.count(m, name)
    return (result.count, result.status) == (len(expected), Status.COMPLETE)


_BRUTE: dict[tuple[str, str], set[Any]] = {}


def _expected(kind: str, inside: str) -> set[Any]:
    """The solutions of a reference model by brute force, once per run."""
    if (kind, inside) not in _BRUTE:
        _BRUTE[kind, inside] = brute_force(language_models(inside)[kind])
    return _BRUTE[kind, inside]


def test_contract_both_forms_directly(csp_backend: str) -> None:
    # The backend's own methods, on every form it says it accepts.
    backend = _backend(csp_backend)
    for problem in (queens_cover(6), queens_model(6)):
        if not isinstance(problem, backend.accepts):
            continue
        result = backend.count(problem)
        assert isinstance(result, Result)
        assert (result.count, result.status) == (QUEENS[6], Status.COMPLETE)
        if not _lists(csp_backend):
            continue
        search = backend.solutions(problem)
        assert isinstance(search, Search)
        assert len(_all_checked(problem, search)) == QUEENS[6]


def test_contract_crosscheck(csp_backend: str) -> None:
    for problem in (queens_cover(6), every_kind_model()):
        if _refused(csp_backend, problem):
            continue
        # the reference: another backend that takes the problem as it is declared
        others = [name for name in dispatch.listers(problem) if name != csp_backend]
        if not others:
            pytest.skip("no other backend to compare with")
        report = csp.crosscheck(problem, backends=[csp_backend, others[0]])
        assert report.agree, str(report)


# -- limits, laziness, statuses --------------------------------------------------------


def test_contract_limits(csp_backend: str) -> None:
    _listing(csp_backend)
    xc = queens_cover(8)
    for limit in (0, 1, 5):
        search = csp.solutions(xc, csp_backend, limit=limit)
        assert len(_all_checked(xc, search)) == limit
        assert search.status is Status.SOLUTION_LIMIT
    # a limit beyond the count: everything, and the search is complete
    search = csp.solutions(queens_cover(6), csp_backend, limit=100)
    assert len(list(search)) == QUEENS[6] and search.status is Status.COMPLETE
    with pytest.raises(ValueError):
        list(csp.solutions(xc, csp_backend, limit=-1))


def test_contract_solve(csp_backend: str) -> None:
    _listing(csp_backend)
    for problem in (queens_cover(8), queens_model(8)):
        if _refused(csp_backend, problem):
            continue
        result = csp.solve(problem, csp_backend)
        assert result.status is Status.SOLUTION_LIMIT and result.count == 1
        assert wrong(problem, result.solution) == []
        assert result.backend == csp_backend
    none = csp.solve(queens_cover(3), csp_backend)
    assert (none.count, none.status, none.solution) == (0, Status.COMPLETE, None)


def test_contract_resume(csp_backend: str) -> None:
    # Lazy: take some solutions, then go on where the search stopped.
    _listing(csp_backend)
    for problem in (queens_cover(8), queens_model(8)):
        if _refused(csp_backend, problem):
            continue
        search = csp.solutions(problem, csp_backend)
        first = list(itertools.islice(search, 5))
        assert search.status is None, "the search ended after 5 of 92 solutions"
        assert search.stats.solutions >= 5
        rest = list(search)
        assert search.status is Status.COMPLETE
        everything = first + rest
        assert len({normal(s) for s in everything}) == len(everything) == QUEENS[8]
        assert all(wrong(problem, s) == [] for s in everything)


def test_contract_first_of_a_huge_space_comes_at_once(csp_backend: str) -> None:
    _listing(csp_backend)
    problem = _long(csp_backend)
    started = time.perf_counter()
    search = csp.solutions(problem, csp_backend)
    first = next(search)
    assert wrong(problem, first) == []
    assert search.status is None
    search.close()
    assert time.perf_counter() - started < 30  # a sanity bound, not a benchmark


def test_contract_time_limit(csp_backend: str) -> None:
    problem = _long(csp_backend)
    started = time.perf_counter()
    result = csp.count(problem, csp_backend, time_limit=SHORT)
    assert result.status is Status.TIME_LIMIT and result.count < QUEENS[16]
    assert time.perf_counter() - started < SHORT + SLACK
    if not _lists(csp_backend):
        return
    search = csp.solutions(problem, csp_backend, time_limit=SHORT)
    started = time.perf_counter()
    found = sum(1 for _ in search)
    assert search.status is Status.TIME_LIMIT and found == search.stats.solutions
    assert time.perf_counter() - started < SHORT + SLACK


def test_contract_time_limit_without_solutions(csp_backend: str) -> None:
    # The limit must cut in during the search, not at the next solution. A
    # backend that proves the pigeonhole principle (CP-SAT) ends COMPLETE.
    runs = [csp.count, lambda *a, **k: csp.solutions(*a, **k).result()]
    for run in runs[:2 if _lists(csp_backend) else 1]:
        started = time.perf_counter()
        result = run(pigeonhole(13), csp_backend, time_limit=SHORT)
        assert result.count == 0
        assert result.status in (Status.TIME_LIMIT, Status.COMPLETE)
        assert time.perf_counter() - started < SHORT + SLACK


def test_contract_time_limit_values(csp_backend: str) -> None:
    xc = queens_cover(6)
    for run in (csp.count, csp.solutions):
        with pytest.raises(ValueError, match="seconds >= 0, not nan"):
            run(xc, csp_backend, time_limit=math.nan)
        with pytest.raises(ValueError, match="must be >= 0"):
            run(xc, csp_backend, time_limit=-1)
    assert csp.count(xc, csp_backend, time_limit=math.inf).count == QUEENS[6]
    zero = csp.count(_long(csp_backend), csp_backend, time_limit=0)
    assert zero.status is Status.TIME_LIMIT


def test_contract_progress(csp_backend: str) -> None:
    seen: list[Stats] = []
    result = csp.count(_long(csp_backend), csp_backend, time_limit=1.0, progress=seen.append)
    assert result.status is Status.TIME_LIMIT
    assert seen, "progress was never called in a second of search"
    assert all(isinstance(stats, Stats) for stats in seen)
    assert [s.time for s in seen] == sorted(s.time for s in seen)


def test_contract_close(csp_backend: str) -> None:
    _listing(csp_backend)
    search = csp.solutions(queens_cover(8), csp_backend)
    first = next(search)
    search.close()
    assert search.status is Status.INTERRUPTED
    assert search.stats.solutions >= 1
    assert list(search) == []
    assert wrong(queens_cover(8), first) == []


def test_contract_ctrl_c(csp_backend: str) -> None:
    # Ctrl-C is simulated by a progress callback that raises KeyboardInterrupt
    # once solutions were counted (a solver in a JVM counts nothing in its
    # first second, ACE says its count at its restarts): the search ends
    # INTERRUPTED and keeps at least what it had said it found.
    calls = seen = 0
    lists = _lists(csp_backend)

    def progress(stats: Stats) -> None:
        nonlocal calls, seen
        calls += 1
        seen = max(seen, stats.solutions)
        if calls >= 2 and (stats.solutions > 0 or not lists or calls >= 50):
            raise KeyboardInterrupt

    started = time.perf_counter()
    result = csp.count(_long(csp_backend), csp_backend, time_limit=60, progress=progress)
    assert result.status is Status.INTERRUPTED
    assert result.count >= seen and result.count == result.stats.solutions
    assert time.perf_counter() - started < 30


# -- empty problems, colours, statistics ----------------------------------------------


def test_contract_empty_problems(csp_backend: str) -> None:
    assert csp.count(Model(), csp_backend).count == 1
    no_values = Model()
    no_values.var("x", [])
    assert csp.count(no_values, csp_backend).count == 0
    no_options = ExactCover(["a"])
    result = csp.count(no_options, csp_backend)
    assert (result.count, result.status) == (0, Status.COMPLETE)
    uncovered = ExactCover(["a", "b"])
    uncovered.add_option(["a"])
    assert csp.count(uncovered, csp_backend).count == 0
    if _lists(csp_backend):
        assert list(csp.solutions(Model(), csp_backend)) == [{}]
        assert csp.solve(no_options, csp_backend).solution is None
        assert list(csp.solutions(uncovered, csp_backend)) == []


def test_contract_colours(csp_backend: str) -> None:
    backend = _backend(csp_backend)
    xc = coloured_cover()
    if isinstance(xc, backend.accepts) and COLOURS not in backend.capabilities:
        # Refused before solving, naming the backends that take colours.
        for run in (csp.count, csp.solutions, csp.solve):
            with pytest.raises(InputError, match=r"does not take colours.*backends that take it: "
                               r".*dlx"):
                run(xc, csp_backend)
        return
    assert csp.count(xc, csp_backend).count == len(COLOURED_SOLUTIONS)
    plain = ExactCover.from_text("a b c | x\na x\nb x\nc\na b\n")
    assert csp.count(plain, csp_backend).count == len(brute_force(plain))
    if _lists(csp_backend):
        assert sorted(_all_checked(xc, csp.solutions(xc, csp_backend))) == COLOURED_SOLUTIONS
        assert sorted(csp.solutions(plain, csp_backend)) == sorted(brute_force(plain))  # type: ignore[type-var]


def test_contract_multiplicities(csp_backend: str) -> None:
    # Bounds on primary items: taken natively (MULTIPLICITIES), lowered to a
    # model for a backend that takes one, else refused before solving.
    backend = _backend(csp_backend)
    rooks = rooks_cover()
    if MULTIPLICITIES not in backend.capabilities and Model not in backend.accepts:
        with pytest.raises(InputError, match="does not take multiplicities"):
            csp.count(rooks, csp_backend)
        return
    result = csp.count(rooks, csp_backend)
    assert (result.count, result.status) == (ROOKS, Status.COMPLETE)
    bounded = _takes(csp_backend, ExactCover.from_text(BOUNDED_TEXT))
    assert csp.count(bounded, csp_backend).count == len(brute_force(bounded))
    if _lists(csp_backend):
        assert len(_all_checked(rooks, csp.solutions(rooks, csp_backend))) == ROOKS
        assert sorted(csp.solutions(bounded, csp_backend)) == sorted(brute_force(bounded))  # type: ignore[type-var]


def test_contract_statistics(csp_backend: str) -> None:
    names = {f.name for f in dataclasses.fields(Stats)}
    for problem in (queens_cover(6), queens_model(6)):
        if _refused(csp_backend, problem):
            continue
        result = csp.count(problem, csp_backend)
        stats = result.stats
        assert isinstance(stats, Stats) and set(vars(stats)) == names
        assert stats.solutions == result.count == QUEENS[6]
        assert stats.time >= 0 and isinstance(stats.extra, dict)
        for counter in (stats.nodes, stats.failures, stats.updates):
            assert counter is None or (isinstance(counter, int) and counter >= 0)
        assert result.backend == csp_backend
        if _lists(csp_backend):
            search = csp.solutions(problem, csp_backend)
            assert len(list(search)) == search.stats.solutions == QUEENS[6]


# -- splitting --------------------------------------------------------------------------


def test_contract_split(csp_backend: str) -> None:
    backend: Any = _backend(csp_backend)
    if SPLIT not in backend.capabilities:
        pytest.skip(f"{csp_backend} does not declare {SPLIT!r}")
    xc = queens_cover(8) if backend.native is ExactCover else queens_model(8)
    for depth in (1, 2):
        prefixes = [tuple(p) for p in backend.split(xc, (), depth)]
        assert prefixes and len(set(prefixes)) == len(prefixes)
        counts = [backend.count_chosen(xc, prefix) for prefix in prefixes]
        assert all(isinstance(c, Result) and c.complete for c in counts)
        assert sum(c.count for c in counts) == QUEENS[8], depth
        chosen = [s for prefix in prefixes for s in backend.choose(xc, prefix)]
        assert len({normal(s) for s in chosen}) == len(chosen) == QUEENS[8]
    from csp import parallel

    assert parallel.count(xc, csp_backend, workers=1).count == QUEENS[8]
    if backend.native is ExactCover:
        from csp.problems import queens

        group = queens.symmetry(queens.Queens(8), xc)
        assert csp.count(xc, csp_backend, up_to_symmetry=group).count == 12


# -- searches in slices -------------------------------------------------------------------


def test_contract_sliced(csp_backend: str) -> None:
    # A SLICED backend's search runs in the caller's process (race's home
    # member): a SlicedSearch, whose count is the backend's count.
    backend: Any = _backend(csp_backend)
    if SLICED not in backend.capabilities:
        pytest.skip(f"{csp_backend} does not declare {SLICED!r}")
    problem = queens_cover(6) if backend.native is ExactCover else queens_model(6)
    search = backend.solutions(problem)
    assert isinstance(search, SlicedSearch)
    assert search.count().count == backend.count(problem).count == QUEENS[6]
