"""One dispatch layer: resolve a backend, give it the problem in a form it
takes, and map its solutions back to the problem as declared.

Every caller (`csp.solve`, `csp.crosscheck`, `csp.symmetry`, `csp.parallel`,
`csp bench`) goes through `prepare`, so a plug-in backend gets exactly what a
built-in gets:

1. the name (or `"auto"`, or a backend object) is resolved by the registry;
2. a problem of a form the backend does not accept is lowered
   (`csp.reformulate`), and its solutions are decoded back;
3. what the backend declares it cannot take is settled *before solving*: a
   constraint of a kind a model backend does not list in its capabilities is
   decomposed (`csp.decompose`: into a `Table` of its allowed tuples where
   that is small, else by the standard decomposition of its kind, with
   auxiliary variables that solutions come back without), else refused with
   an `InputError` naming the constraint and the backends that do take it;
   a model lowered to an exact cover is first decomposed into the kinds the
   lowering takes (`LOWERED_KINDS`); colours on an exact-cover
   backend without `COLOURS` are refused the same way; bounds (multiplicities)
   on a backend without `MULTIPLICITIES` are lowered to a `Model` if the
   backend takes one, else refused.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b\\na\\nb\\na b\\n")
>>> plan = prepare(xc, "bitmask")
>>> plan.name, type(plan.target).__name__, plan.count().count
('bitmask', 'Model', 2)
>>> sorted(plan.solutions())
[(0, 1), (2,)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from csp import backends
from csp.backends.base import (
    COLOURS,
    COUNTS_ONLY,
    MEMO,
    MULTIPLICITIES,
    SPLIT,
    Backend,
    Progress,
    Search,
    preferred_form,
)
from csp.constraints import Compare, Constraint, Linear
from csp.errors import BackendUnavailable, InputError, Refused
from csp.exactcover import ExactCover
from csp.logic import Logic
from csp.model import Assignment, Model
from csp.problem import Problem
from csp.result import Result


@dataclass
class Plan:
    """A problem ready for one backend: `target` is what the backend gets,
    `decode` (None when it gets the problem as declared) maps its solutions back."""

    backend: Backend
    problem: Problem
    target: Problem
    decode: Callable[[Any], Any] | None = None
    note: str | None = None
    """Why `auto` chose another backend than the problem's default, if it did."""
    memo: dict[str, Any] = field(default_factory=dict)
    """Keywords of the backend's counts: the memo settings (`memo_keywords`)."""

    @property
    def name(self) -> str:
        return self.backend.name

    def __getstate__(self) -> dict[str, Any]:
        # Sent to other processes to count: the decode (a closure of the
        # lowering) maps solutions back, which counting never needs.
        return {**self.__dict__, "decode": None}

    def solutions(self, *, limit: int | None = None, time_limit: float | None = None,
                  progress: Progress | None = None) -> Search:
        if COUNTS_ONLY in self.backend.capabilities:
            raise Refused(f"backend {self.name!r} counts solutions but does not list them; "
                          "backends that list them: "
                          f"{', '.join(listers(self.problem)) or 'none available'}")
        search = self.backend.solutions(self.target, limit=limit, time_limit=time_limit,
                                        progress=_snapshots(progress))
        search.backend = self.name  # a subclass of a built-in answers to its own name
        if self.note is not None:
            search.stats.extra["note"] = self.note
        if self.decode is None and not isinstance(self.problem, Model):
            return search
        return Decoded(search, self.declared)

    def declared(self, solution: Any) -> Any:
        """A solution of the target as a solution of the problem as declared."""
        if self.decode is not None:
            solution = self.decode(solution)
        # A model's solution is an Assignment (`solution[x]` takes a Variable),
        # whatever a plug-in backend or a lowering returns.
        return _assignment(solution) if isinstance(self.problem, Model) else solution

    def count(self, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        result = checked(self.backend.count(self.target, time_limit=time_limit,
                                            progress=_snapshots(progress), **self.memo),
                         self.name)
        result.backend = self.name
        if self.note is not None:
            result.stats.extra["note"] = self.note
        return result


def _assignment(solution: Any) -> Assignment:
    return solution if isinstance(solution, Assignment) else Assignment(solution)


def _snapshots(progress: Progress | None) -> Progress | None:
    """The callback given a copy of the statistics each time, never the live object."""
    if progress is None:
        return None
    return lambda stats: progress(stats.copy())


def resolve(problem: Problem, backend: str | Backend = "auto") -> Backend:
    """The backend that `backend` (a name, `"auto"` or a backend) means for `problem`."""
    if isinstance(backend, str) and backend == "auto":
        backend = backends.default_for(problem)
    return backends.get(backend)


def prepare(problem: Problem, backend: str | Backend = "auto") -> Plan:
    """`problem` made ready for `backend`; a `Refused` (an `InputError`) if
    it cannot take it.

    With `"auto"`, a default backend that refuses the problem (see `refusal`)
    gives way to the first available one that takes it, and the plan's `note`
    says so (it reaches `stats.extra["note"]`).
    """
    if not isinstance(problem, (ExactCover, Model)):
        raise TypeError(f"expected an ExactCover or a Model, not {type(problem).__name__}")
    chosen = resolve(problem, backend)
    plan, refused = _plan(problem, chosen)
    if refused is None:
        return plan
    if isinstance(backend, str) and backend == "auto":
        for name in _fallbacks(problem, chosen.name):
            other, why_not = _plan(problem, backends.get(name))
            if why_not is None:
                other.note = f"auto: {refused}; solved with {name} instead"
                return other
    raise Refused(f"{refused}; backends that take it: "
                     f"{', '.join(takers(problem)) or 'none available'}")


def _plan(problem: Problem, chosen: Backend) -> tuple[Plan, str | None]:
    """The plan for `chosen`, or why `chosen` cannot take `problem`."""
    source, drop, refused = problem, None, None
    if isinstance(problem, Model):
        # Constraints the backend (or the lowering to an exact cover) does not
        # take are decomposed first; auxiliary variables are dropped on the way back.
        caps = model_capabilities(chosen)
        source, drop, refused = _decomposed(problem, chosen, caps)
        if refused is not None:  # (a refused plan is dropped: its target is never used)
            return Plan(chosen, problem, problem), refused
    if isinstance(source, Model) and preferred_form(chosen, problem) is ExactCover:
        # A model the backend is better served by as an exact cover (its `cover_kinds`).
        from csp import reformulate

        target, decode = reformulate.lower(source, ExactCover)
    elif isinstance(source, chosen.accepts) and not _lowers_bounds(source, chosen):
        target, decode = source, None
    elif isinstance(source, ExactCover) and _lowers_bounds(source, chosen):
        from csp import reformulate

        target, decode = reformulate.exact_cover_to_model(source)
    else:
        from csp import reformulate

        target, decode = reformulate.lower(source, chosen.native)
    adapted, refused = _adapt(target, chosen)
    if refused is not None and target is not problem and isinstance(problem, Model):
        refused += " (the model, lowered to an exact cover, carries its values as colours)"
    if refused is None:
        refused = refusal(adapted, chosen)
    if drop is not None:
        decode = drop if decode is None else _then(decode, drop)
    return Plan(chosen, problem, adapted, decode), refused


LOWERED_KINDS = frozenset({"AllDifferent", "Compare", "Sum", "SumNotEqual", "Table"})
"""The constraint kinds the lowering of a model to an exact cover takes as they
are (`csp.reformulate`): the others are decomposed into them first."""


def model_capabilities(backend: Backend) -> frozenset[str]:
    """The kinds of constraint `backend` takes in a model without decomposing
    them: its own, or for an exact-cover backend what the lowering takes."""
    return backend.capabilities if Model in backend.accepts else LOWERED_KINDS


def _decomposed(problem: Model, chosen: Backend, caps: frozenset[str]
                ) -> tuple[Model, Callable[[Any], Any] | None, str | None]:
    """`problem` with what `caps` lacks decomposed (`csp.decompose`), the
    decoder that drops its auxiliary variables (None if none), or why not."""
    takes = taker(caps)
    if all(takes(c) for c in problem.constraints):
        return problem, None, None
    from csp import decompose

    try:
        adapted, auxiliary = decompose.adapt(problem, takes, tables="Table" in caps)
    except InputError as err:
        return problem, None, (f"backend {chosen.name!r} does not take {err.message}, and "
                               "it cannot be decomposed")
    if not auxiliary:
        return adapted, None, None
    declared = list(problem.variables)

    def drop(solution: Any) -> Assignment:
        return Assignment((name, solution[name]) for name in declared)

    return adapted, drop, None


def _then(first: Callable[[Any], Any], second: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda solution: second(first(solution))


def taker(caps: frozenset[str]) -> Callable[[Constraint], bool]:
    """Whether a backend with capabilities `caps` takes a constraint as it is:
    its kind is among them, and for logic (`csp.logic`), every operand is a
    literal it takes (a `Compare`, a `Linear`) or logic itself; so is every
    constraint an expression counts as 0 or 1 (`Sum([a == 1, b == 2]) == 1`)."""
    def literal(a: Constraint) -> bool:
        return isinstance(a, (Compare, Linear, Logic)) and takes(a)

    def takes(c: Constraint) -> bool:
        if not c.kinds() & caps:
            return False
        if isinstance(c, Logic):
            return all(literal(a) for a in c.args)
        return all(literal(a) for a in counted(c))

    return takes


def counted(c: Constraint) -> list[Constraint]:
    """The constraints that `c`, a comparison of expressions, counts as 0 or 1."""
    from csp.constraints import Expression
    from csp.expressions import Comparison, Function

    if not isinstance(c, Comparison):
        return []
    found, stack = [], [c.left, c.right]
    while stack:
        e = stack.pop()
        if isinstance(e, Constraint):
            found.append(e)
        elif isinstance(e, Expression):
            stack.extend(e.terms)
        elif isinstance(e, Function):
            stack.extend(e.args)
    return found


def _lowers_bounds(problem: Problem, backend: Backend) -> bool:
    """Whether a cover with bounds goes to `backend` as a model: it does not
    take multiplicities, but takes models."""
    return (isinstance(problem, ExactCover) and bool(problem.bounds)
            and MULTIPLICITIES not in backend.capabilities and Model in backend.accepts)


def splits(plan: Plan) -> bool:
    """Whether `plan`'s backend cuts its own search tree (`SPLIT`) for the
    problem it gets: never a cover with bounds, whose branches are not sets
    of options."""
    target = plan.target
    return SPLIT in plan.backend.capabilities and not (
        isinstance(target, ExactCover) and target.bounds)


def refusal(problem: Problem, backend: Backend) -> str | None:
    """Why `backend` refuses `problem` (in a form it takes), by its optional
    `refuses(problem)` method, or None."""
    refuses = getattr(backend, "refuses", None)  # optional: most backends take everything
    return None if refuses is None else refuses(problem)


def _fallbacks(problem: Problem, refused: str) -> list[str]:
    """The other available backends, those native to the problem's form first;
    not those that count only (`auto` may be asked for solutions)."""
    form = "exact-cover" if isinstance(problem, ExactCover) else "model"
    others = [name for name in backends.engines() if name != refused
              and COUNTS_ONLY not in backends.get(name).capabilities]
    return sorted(others, key=lambda name: backends.native_form(name) != form)


def _adapt(problem: Problem, backend: Backend) -> tuple[Problem, str | None]:
    """`problem` (an exact cover, or a model already decomposed) adapted to
    `backend`, and None; or `problem` as it is and why it cannot be."""
    if isinstance(problem, ExactCover):
        if problem.colours and COLOURS not in backend.capabilities:
            return problem, (f"backend {backend.name!r} does not take colours, and this exact "
                          f"cover has {len(problem.colours)}")
        if problem.bounds and MULTIPLICITIES not in backend.capabilities:
            return problem, (f"backend {backend.name!r} does not take multiplicities, and "
                          f"this exact cover has bounds on {len(problem.bounds)} items")
    return problem, None


def kinds(constraint: Constraint) -> frozenset[str]:
    """The kinds a constraint is (a `Relation` is a `Table`), as capabilities name them."""
    return constraint.kinds()


def takers(problem: Problem) -> list[str]:
    """The available backends that take `problem` (lowered where they need it)."""
    found = []
    for name in backends.engines():
        try:
            _, refused = _plan(problem, backends.get(name))
        except (InputError, BackendUnavailable):
            continue
        if refused is None:
            found.append(name)
    return found


def listers(problem: Problem) -> list[str]:
    """The available backends that take `problem` and list its solutions
    (those that count only left out)."""
    return [name for name in takers(problem)
            if COUNTS_ONLY not in backends.get(name).capabilities]


def memo_keywords(plan: Plan, memo: bool | str | None, memo_bytes: int | str | None = None,
                  branch: str | None = None) -> dict[str, Any]:
    """The memo settings (checked, see `csp.memo`) that `plan`'s backend gets
    with each count: all of them if it declares `MEMO`; none if not, and a
    `Refused` naming the backends that have it if memo was asked for (True)
    or a branching rule other than the default.

    >>> from csp import ExactCover
    >>> xc = ExactCover.from_text("a\\na\\n")
    >>> memo_keywords(prepare(xc, "dlx"), "auto")
    {'memo': 'auto', 'memo_bytes': None, 'branch': None}
    >>> memo_keywords(prepare(xc, "bitmask"), "auto")
    {}
    """
    from csp.memo import branch_rule, memo_mode, memo_size

    if memo is None and memo_bytes is None and branch is None:
        return {}
    mode = memo_mode("auto" if memo is None else memo)
    memo_size(memo_bytes)
    rule = branch_rule(branch)
    if MEMO in plan.backend.capabilities:
        return {"memo": mode, "memo_bytes": memo_bytes, "branch": branch}
    if mode == "on" or rule != "mrv":
        asked = "memo=True" if mode == "on" else f"branch={rule!r}"
        raise Refused(f"{asked}: backend {plan.name!r} has no memoized count; backends with "
                      f"one: {', '.join(memo_takers()) or 'none available'}")
    return {}


def memo_takers() -> list[str]:
    """The available backends that declare `MEMO`."""
    found = []
    for name in backends.engines():
        try:
            if MEMO in backends.get(name).capabilities:
                found.append(name)
        except BackendUnavailable:
            continue
    return found


def checked(result: Any, name: str) -> Result:
    """A backend's `count` answer, refused clearly if it is not a `Result`."""
    if not isinstance(result, Result):
        raise BackendUnavailable(f"backend {name!r}: count returned a "
                                 f"{type(result).__name__}, not a csp.Result")
    return result


class Decoded(Search):
    """A search on a lowered problem whose solutions are mapped back."""

    def __init__(self, inner: Search, decode: Callable[[Any], Any]) -> None:
        super().__init__()
        self.inner = inner
        self.decode = decode
        self.backend = inner.backend
        self.stats = inner.stats

    def __next__(self) -> Any:
        try:
            return self.decode(next(self.inner))
        finally:
            self.status = self.inner.status
            self.stats = self.inner.stats

    def close(self) -> None:
        self.inner.close()
        self.status = self.inner.status


__all__ = ["Decoded", "Plan", "checked", "kinds", "listers", "memo_keywords", "memo_takers",
           "model_capabilities", "prepare", "refusal", "resolve", "splits", "taker", "takers"]
