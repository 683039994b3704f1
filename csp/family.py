"""Families: many puzzles of one shape, the structure declared and compiled once.

A *shape* is an `ExactCover` or a `Model` that holds everything the puzzles
of a collection share (a blank 9x9 sudoku); a puzzle is the shape plus its
*givens*:

- for an exact cover, the indices of the options it forces (the given digits'
  options);
- for a model, `{variable: value}` (or an iterable of values): its fixed
  domains.

`solve_family` solves each puzzle in turn and yields a `Result` per puzzle, in
order. A backend with the `FAMILY` capability (`dlx`, `bitmask`) builds its
structure once and solves every puzzle in one compiled loop, with no Python
work per puzzle; any other backend gets each puzzle as its own problem. A
shape in the other form is lowered once, and the givens with it.

>>> from csp import ExactCover
>>> shape = ExactCover.from_text("a b\\na\\nb\\na b\\n")
>>> [r.solution for r in solve_family(shape, [[0], [2], []])]
[(0, 1), (2,), (0, 1)]
>>> [r.count for r in solve_family(shape, [[0], [2], [0, 2]], count=True)]
[1, 1, 0]

`family(kind, puzzles)` makes the shape and the givens of a puzzle kind's
puzzles (kinds that declare `shape`, `declare_shape` and `givens`); puzzles
of different shapes are an `InputError` naming the first one that differs.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from csp import dispatch
from csp.backends.base import FAMILY, Backend, Progress, check_progress
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Assignment, Model, Variable
from csp.result import Result
from csp.solve import count as count_of
from csp.solve import solve

Givens = Any
"""A puzzle's givens: option indices (exact cover) or `{variable: value(s)}` (model)."""


def solve_family(
    shape: ExactCover | Model,
    givens: Iterable[Givens],
    backend: str | Backend = "auto",
    *,
    count: bool = False,
    progress: Progress | None = None,
) -> Iterator[Result]:
    """Solve (`count`: count) each puzzle `shape` + `givens[j]`; yield its `Result`.

    A result's `solution` is the puzzle's first solution in the terms of the
    shape (None if it has none, or with `count`); `count` its number of
    solutions (1 or 0 without `count`); `status` COMPLETE when its search was
    exhausted. Bad givens (an option or a variable the shape does not have, a
    value outside a domain) are an `InputError` naming the puzzle, before any
    search.

    Args:
        shape: what the puzzles share, an `ExactCover` or a `Model`.
        givens: per puzzle, the option indices it forces (exact cover) or
            `{variable: value or values}` (model).
        backend: a name, `"auto"` or a backend object; one with the `family`
            capability solves all in one compiled loop.
        count: count each puzzle's solutions instead of finding the first.
        progress: called now and then with the statistics so far.

    Returns:
        An iterator of one `Result` per puzzle, in order.

    Raises:
        InputError: bad givens, naming the puzzle; or the backend refuses the shape.
        BackendUnavailable: an unknown backend, or one whose package is missing.
    """
    progress = check_progress(progress)
    puzzles = [_checked(shape, g, j) for j, g in enumerate(givens)]
    plan = dispatch.prepare(shape, backend)
    chosen = plan.backend
    # A cover with multiplicities is solved by another algorithm than the
    # family loop's (Algorithm M, not C): its puzzles go one by one.
    bounded = isinstance(plan.target, ExactCover) and bool(plan.target.bounds)
    if FAMILY in chosen.capabilities and isinstance(plan.target, chosen.native) and not bounded:
        lowered = _lowered_givens(shape, plan.target, puzzles)
        if lowered is not None:
            for result in chosen.solve_family(plan.target, lowered, count=count,  # type: ignore[attr-defined]
                                            progress=progress):
                yield _decoded(result, plan, shape)
            return
    yield from _one_by_one(shape, puzzles, chosen, count)


def family(kind: Any, puzzles: Sequence[Any], form: str | None = None
           ) -> tuple[ExactCover | Model, list[Givens]]:
    """The shape shared by a kind's `puzzles` and each puzzle's givens.

    The kind's `shape(puzzle)` says which puzzles share a structure; the
    first puzzle whose shape differs from the first one's is an `InputError`
    naming it (its number in `puzzles`, and its line if it has one).

    Args:
        kind: a `csp.problems.Kind` that declares `shape`, `declare_shape`
            and `givens` (sudoku and latin do).
        puzzles: the kind's puzzles, as its `parse` gives them.
        form: `"exact-cover"` or `"model"`; None: the kind's own.

    Returns:
        `(shape, givens)`, ready for `solve_family`.

    Raises:
        InputError: no puzzle, a kind without a shape, or puzzles of two shapes.
    """
    if not puzzles:
        raise InputError("a family needs at least one puzzle")
    if kind.shape is None:
        raise InputError(f"{kind.name} puzzles do not declare a shape shared by a collection")
    first = kind.shape(puzzles[0])
    for j, puzzle in enumerate(puzzles):
        other = kind.shape(puzzle)
        if other != first:
            line = getattr(puzzle, "line", None)
            where = f"puzzle {j + 1}" + (f" (line {line})" if line is not None else "")
            raise InputError(f"{where} has the shape {other}, not the family's {first} "
                             "(that of puzzle 1)", line=line)
    problem = kind.declare_shape(puzzles[0], form)
    return problem, [kind.givens(puzzle, problem) for puzzle in puzzles]


def with_givens(shape: ExactCover | Model, givens: Givens) -> ExactCover | Model:
    """One puzzle of a family as a problem of its own: the shape with the
    puzzle's options forced (an exact cover; option indices and payloads
    unchanged) or its variables' domains cut (a model; the constraints
    shared). Quicker than declaring the puzzle anew: the generators check
    many puzzles of one shape.

    >>> shape = ExactCover.from_text("a b\\na\\nb\\na b\\n")
    >>> import csp
    >>> csp.count(shape).count, csp.count(with_givens(shape, [0])).count
    (2, 1)
    """
    checked = _checked(shape, givens, 0)
    if isinstance(shape, ExactCover):
        return _with_forced(shape, checked)
    return _with_domains(shape, checked)


# -- checking and translating givens -------------------------------------------------


def _checked(shape: ExactCover | Model, givens: Givens, j: int) -> Any:
    """The givens of puzzle j in a normal form: an int64 array of options for
    an exact cover; `{name: tuple of values}` for a model."""
    if isinstance(shape, ExactCover):
        if isinstance(givens, Mapping):
            raise InputError(f"puzzle {j + 1}: the givens of an exact cover are option "
                             "indices, not a mapping")
        if isinstance(givens, (str, bytes)):
            raise InputError(f"puzzle {j + 1}: the givens of an exact cover are option "
                             f"indices, not the text {givens!r}")
        listed = list(givens)
        if not set(map(type, listed)) <= {int}:  # the common case, plain ints, checked at once
            wrong = [k for k in listed
                     if isinstance(k, bool) or not isinstance(k, (int, np.integer))]
            if wrong:
                raise InputError(f"puzzle {j + 1}: option {wrong[0]!r} is not an option "
                                 "index (a whole number)", token=wrong[0])
        # An option given twice is forced once: dlx's family loop would
        # otherwise try to cover its items twice and find no solution.
        forced = sorted(set(map(int, listed)))
        if forced and (forced[0] < 0 or forced[-1] >= shape.n_options):
            bad = next(k for k in forced if k < 0 or k >= shape.n_options)
            raise InputError(f"puzzle {j + 1}: no option {bad} in the shape "
                             f"({shape.n_options} options)", token=bad)
        return np.array(forced, dtype=np.int64)
    if not isinstance(givens, Mapping):
        raise InputError(f"puzzle {j + 1}: the givens of a model are a mapping "
                         "{variable: value or values}")
    fixed: dict[Hashable, tuple[int, ...]] = {}
    for key, values in givens.items():
        name = key.name if isinstance(key, Variable) else key
        variable = shape.variables.get(name)
        if variable is None:
            raise InputError(f"puzzle {j + 1}: variable {name!r} is not in the shape",
                             token=name)
        allowed = (values,) if isinstance(values, (int, np.integer)) else tuple(values)
        outside = [v for v in allowed if v not in variable.domain]
        if outside:
            raise InputError(f"puzzle {j + 1}: value {outside[0]!r} is not in the domain of "
                             f"{name!r}", token=name)
        fixed[name] = allowed
    return fixed


def _lowered_givens(shape: ExactCover | Model, target: Any, puzzles: list[Any]
                    ) -> list[Any] | None:
    """The givens in the terms of the backend's form; None when they cannot be
    said there (a model's domain cut to several values, on an exact cover)."""
    if target is shape or (isinstance(shape, Model) and isinstance(target, Model)):
        return puzzles  # the same form (a decomposed model keeps the declared names)
    if isinstance(shape, ExactCover):  # lowered to a model: one 0/1 variable per option
        return [{("option", int(k)): (1,) for k in forced} for forced in puzzles]
    # A model lowered to an exact cover: option k of the lowering is (x, v).
    option = {payload: k for k, payload in enumerate(target.data)}
    lowered = []
    for fixed in puzzles:
        pairs = [(name, values[0]) for name, values in fixed.items() if len(values) == 1]
        if len(pairs) != len(fixed) or any(pair not in option for pair in pairs):
            return None  # a cut domain, or a value a unary constraint removed
        lowered.append([option[pair] for pair in pairs])
    return lowered


def _decoded(result: Result, plan: dispatch.Plan, shape: ExactCover | Model) -> Result:
    if result.solution is not None:
        solution = result.solution if plan.decode is None else plan.decode(result.solution)
        if isinstance(shape, Model) and not isinstance(solution, Assignment):
            solution = Assignment(solution)
        result.solution = solution
    result.backend = plan.name
    return result


# -- one puzzle at a time, for a backend without FAMILY ------------------------------


def _one_by_one(shape: ExactCover | Model, puzzles: list[Any], backend: Backend,
                count: bool) -> Iterator[Result]:
    for givens in puzzles:
        problem = _with_forced(shape, givens) if isinstance(shape, ExactCover) else \
            _with_domains(shape, givens)
        yield count_of(problem, backend) if count else solve(problem, backend)


def _with_forced(xc: ExactCover, forced: np.ndarray) -> ExactCover:
    """`xc` with one more primary item per forced option, covered by that
    option alone: its solutions are those of `xc` that hold every forced option,
    with the same option indices."""
    arrays = xc.arrays()
    start, items, colours = arrays["start"], arrays["items"].astype(np.int64), arrays["colours"]
    forced = np.unique(forced)
    extra = len(forced)
    items = np.where(items >= xc.n_primary, items + extra, items)
    # Insert item n_primary + i as the first entry of option forced[i].
    at = start[forced]
    items = np.insert(items, at, xc.n_primary + np.arange(extra))
    colours = np.insert(colours, at, 0)
    counts = np.diff(start) + np.isin(np.arange(xc.n_options), forced)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    primary = xc.primary + [("forced", int(k)) for k in forced]
    # The arrays are a valid cover's plus one item per forced option: the
    # checks of from_arrays would only cost time (a generator makes thousands).
    forcing = ExactCover.from_arrays(primary, xc.secondary, indptr, items, colours,
                                     colour_names=xc.colours, data=xc.data, name=xc.name,
                                     check=False)
    for item, bound in xc.bounds.items():
        forcing.set_bounds(item, bound)
    return forcing


def _with_domains(m: Model, fixed: Mapping[Hashable, tuple[int, ...]]) -> Model:
    """A copy of `m` (sharing its constraints) whose variables in `fixed` have
    those domains."""
    puzzle = copy.copy(m)
    puzzle.variables = dict(m.variables)
    for name, values in fixed.items():
        kept = tuple(v for v in m.variables[name].domain if v in values)
        puzzle.variables[name] = Variable(name, kept, m)
    return puzzle


__all__ = ["Givens", "family", "solve_family", "with_givens"]
