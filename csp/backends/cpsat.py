"""The `cpsat` backend: Google OR-Tools CP-SAT.

A `Model` is given as integer variables over their exact domains with
CP-SAT's all-different, linear, table and (in)equality constraints. An
`ExactCover` is given directly as one Boolean per option: exactly one per
primary item (a sum between its bounds, for multiplicities); per secondary
item, at most one among its uncoloured options and one literal per colour,
each colour literal being true exactly when an option giving that colour is
chosen (linear in the size of the input, and a bijection on solutions).

Enumeration runs on ONE worker with `enumerate_all_solutions` and
`keep_all_feasible_solutions_in_presolve`: with more workers CP-SAT has been
seen to miss solutions (8 queens: 80 of 92) while reporting the enumeration
complete. A search for one solution (`limit=1`) uses every core.

>>> from csp import ExactCover
>>> xc = ExactCover.from_text("a b c | x\\na x:0\\nb x:0\\nc x:1\\nb c\\n")
>>> search = CPSATBackend().solutions(xc)
>>> list(search), search.status.value
([(0, 3)], 'COMPLETE')
"""

from __future__ import annotations

import queue
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

from ortools.sat.python import cp_model
from ortools.util.python.sorted_interval_list import Domain

from csp.backends import cpsat_globals
from csp.backends.base import COLOURS, CONSTRAINT_KINDS, MULTIPLICITIES, Progress, Search
from csp.constraints import AllDifferent, Compare, Linear, Table
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Assignment, Model
from csp.reformulate import allowed_tuples
from csp.result import Result, Stats, Status

MAX_VALUE = (1 << 62) - 1
"""CP-SAT's bound on domain values, `kint64max / 2` (its validator refuses
more, to keep room for its own int64 arithmetic): tighter than the signed
64-bit range `Model.var` allows, which the other backends take."""

QUEUE_SIZE = 256
"""Solutions the solver may run ahead of the consumer: bounded, so enumerating
never holds more than this many."""


class Compiled:
    """A problem as a CP-SAT model, with the reader of its solutions."""

    def __init__(self, model: cp_model.CpModel | None, read: Callable[[Any], Any]) -> None:
        self.model = model  # None: infeasible before solving (an empty domain, ...)
        self.read = read  # read(solver or callback) -> solution in the problem's terms


ENUMERATION: dict[str, Any] = {
    "enumerate_all_solutions": True,
    "num_workers": 1,  # more workers have been seen to miss solutions
    "keep_all_feasible_solutions_in_presolve": True,
}
"""The CP-SAT parameters under which enumerating finds every solution."""


def compile_problem(problem: Any) -> Compiled:
    """`problem` (a `Model` or an `ExactCover`) as a CP-SAT model."""
    if isinstance(problem, ExactCover):
        return _compile_exact_cover(problem)
    if isinstance(problem, Model):
        return _compile_model(problem)
    raise TypeError(f"cpsat takes a Model or an ExactCover, not {type(problem).__name__}")


RANK_ABOVE = (1 << 31) - 1
"""Past this magnitude CP-SAT's table and encoding presolve has been seen to
count wrong (reporting the count complete) or abort the process: int32
arithmetic on int64 values (e.g. or-tools issue 5293). A model holding such a
value is given to CP-SAT over ranks instead (below)."""


def _compile_model(m: Model) -> Compiled:
    """`m` as a CP-SAT model.

    Values beyond `RANK_ABOVE` are never shown to CP-SAT's tables: every
    variable is then the *rank* of its value among all the model's values
    (0..k-1, order and equality preserved), so that tables, all-different and
    comparisons see only small integers. A linear constraint needs the values
    themselves: its variables get a value variable tied to the rank by an
    element constraint.
    """
    names = list(m.variables)
    if any(not m.variables[x].domain for x in names):
        return Compiled(None, lambda _: None)
    for x in names:
        _check_range(x, m.variables[x].domain)
    ranked = any(abs(v) > RANK_ABOVE for x in names for v in (m.variables[x].domain[0],
                                                                m.variables[x].domain[-1]))
    ranked = ranked or any(isinstance(c, Table) and any(abs(v) > RANK_ABOVE
                                                        for t in c.tuples for v in t)
                           for c in m.constraints)
    values = sorted({v for x in names for v in m.variables[x].domain}) if ranked else []
    rank = {v: k for k, v in enumerate(values)}

    def encode(value: int) -> int | None:
        return rank.get(value) if ranked else value

    model = cp_model.CpModel()
    xs = [
        model.new_int_var_from_domain(
            Domain.from_values([encode(v) for v in m.variables[x].domain]), f"x{i}")
        for i, x in enumerate(names)
    ]
    index = {x: i for i, x in enumerate(names)}
    valued: dict[int, Any] = {}  # in rank mode: variable index -> its value variable

    def value_of(i: int) -> Any:
        if not ranked:
            return xs[i]
        if i not in valued:
            var = model.new_int_var_from_domain(
                Domain.from_values(list(m.variables[names[i]].domain)), f"v{i}")
            model.add_element(xs[i], values, var)
            valued[i] = var
        return valued[i]

    def table(scope: list[Any], rows: Any, forbidden: bool) -> None:
        # A row holding a value no variable can take matches nothing: dropped.
        coded = [[encode(v) for v in t] for t in rows]
        kept: list[list[int]] = [t for t in coded if None not in t]  # type: ignore[misc]
        if not scope:  # a constant: CP-SAT's tables need a variable
            if bool(kept) == forbidden:
                model.add_bool_or([])  # the empty clause: false
            return
        if forbidden:
            model.add_forbidden_assignments(scope, kept)
        else:
            model.add_allowed_assignments(scope, kept)

    def literal(c: Compare) -> Any:
        """A literal true exactly when the comparison holds."""
        x = xs[index[c.scope[0]]]
        lit = model.new_bool_var("")
        if c.constant is None:
            right: Any = xs[index[c.scope[1]]]
        else:
            right = encode(c.constant)
            if right is None:  # a value the variable cannot take
                model.add(lit == int(c.op == "!="))
                return lit
        model.add(x == right).only_enforce_if(lit)
        model.add(x != right).only_enforce_if(lit.Not())
        return lit if c.op == "==" else lit.Not()

    translator = cpsat_globals.Translator(
        model, {x: m.variables[x].domain for x in names},
        lambda name: value_of(index[name]), literal)

    for c in m.constraints:
        scope = [xs[index[x]] for x in c.scope]
        if isinstance(c, AllDifferent):
            if len(scope) > 1:
                model.add_all_different(scope)
        elif isinstance(c, Linear):
            terms = [value_of(index[x]) for x in c.scope]
            total = cp_model.LinearExpr.weighted_sum(terms, list(c.weights))
            if c.op == "==":
                model.add(total == c.rhs)
            elif c.op == "!=":
                model.add(total != c.rhs)
            elif c.op == "<=":
                model.add(total <= c.rhs)
            else:
                model.add(total >= c.rhs)
        elif isinstance(c, Table):  # a Relation too: its tuples are expanded
            table(scope, c.tuples, c.forbidden)
        elif c.kinds() & cpsat_globals.KINDS:
            translator.add(c)
        elif isinstance(c, Compare):
            if c.constant is None:
                right: Any = scope[1]
            else:
                right = encode(c.constant)
                if right is None:  # a constant no variable can take
                    if c.op == "==":
                        model.add_bool_or([])  # never true
                    continue
            model.add(scope[0] == right if c.op == "==" else scope[0] != right)
        else:
            # A constraint kind without a CP-SAT counterpart: as a table.
            domains = [m.variables[x].domain for x in c.scope]
            table(scope, allowed_tuples(c, domains), False)

    def read(source: Any) -> Assignment:
        if ranked:
            return Assignment((x, values[source.value(v)]) for x, v in zip(names, xs))
        return Assignment((x, source.value(v)) for x, v in zip(names, xs))

    return Compiled(model, read)


def _check_range(name: Any, domain: tuple[int, ...]) -> None:
    """Refuse, naming the variable, a value CP-SAT would reject (it would only
    say "model invalid" once solving).

    >>> _check_range("x", (0, 1 << 62))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    csp.errors.InputError: variable 'x' has the value 4611686018427387904, beyond CP-SAT's ...
    """
    for value in (domain[0], domain[-1]) if domain else ():
        if abs(value) > MAX_VALUE:
            raise InputError(f"variable {name!r} has the value {value}, beyond CP-SAT's bound of "
                             "+-(2**62 - 1): use bitmask, python-constraint or dlx, which take "
                             "any signed 64-bit value", token=name)


def _compile_exact_cover(xc: ExactCover) -> Compiled:
    arrays = xc.arrays()
    start, items, colours = (arrays[k].tolist() for k in ("start", "items", "colours"))
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"o{k}") for k in range(xc.n_options)]
    covering: list[list[tuple[int, int]]] = [[] for _ in range(xc.n_items)]
    for k in range(xc.n_options):
        for p in range(start[k], start[k + 1]):
            covering[items[p]].append((k, colours[p]))
    lower, upper = xc.multiplicities()
    for code in range(xc.n_primary):
        if len(covering[code]) < lower[code]:
            return Compiled(None, lambda _: None)  # a primary item too few options cover
        if upper[code] == 1 == lower[code]:
            model.add_exactly_one(xs[k] for k, _ in covering[code])
        else:
            model.add_linear_constraint(sum(xs[k] for k, _ in covering[code]),
                                        int(lower[code]), int(upper[code]))
    for code in range(xc.n_primary, xc.n_items):
        uncoloured = [xs[k] for k, c in covering[code] if c == 0]
        by_colour: dict[int, list[int]] = {}
        for k, c in covering[code]:
            if c:
                by_colour.setdefault(c, []).append(k)
        if not by_colour or (len(by_colour) == 1 and not uncoloured):
            if len(uncoloured) > 1:
                model.add_at_most_one(uncoloured)
            continue
        # colour[c] is true exactly when some chosen option gives colour c:
        # forced both ways, so these literals add no solutions.
        literals = []
        for c, options in by_colour.items():
            literal = model.new_bool_var(f"i{code}c{c}")
            for k in options:
                model.add_implication(xs[k], literal)
            model.add_bool_or([xs[k] for k in options]).only_enforce_if(literal)
            literals.append(literal)
        model.add_at_most_one(uncoloured + literals)

    def read(source: Any) -> tuple[int, ...]:
        return tuple(k for k, x in enumerate(xs) if source.boolean_value(x))

    return Compiled(model, read)


class _Channel:
    """What the solver thread and the consumer share (never the Search itself,
    so that an abandoned Search is collected and its finaliser stops the solver)."""

    def __init__(self) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=QUEUE_SIZE)
        self.stop_reason: Status | None = None
        self.solver: cp_model.CpSolver | None = None
        self.found = 0  # solutions produced by the solver
        self.nodes: int | None = None
        self.failures: int | None = None

    def stop(self, reason: Status) -> None:
        if self.stop_reason is None:
            self.stop_reason = reason
        if self.solver is not None:
            self.solver.stop_search()  # thread-safe: sets CP-SAT's stop flag


_DONE = object()


class _Collector(cp_model.CpSolverSolutionCallback):
    """Hands each solution to the consumer through the bounded queue (blocking
    while it is full), or only counts them."""

    def __init__(self, channel: _Channel, read: Callable[[Any], Any], limit: int | None,
                 count_only: bool) -> None:
        super().__init__()
        self.channel = channel
        self.read = read
        self.limit = limit
        self.count_only = count_only

    def on_solution_callback(self) -> None:
        channel = self.channel
        if channel.stop_reason is not None:
            self.stop_search()
            return
        channel.found += 1
        channel.nodes, channel.failures = self.num_branches, self.num_conflicts
        if not self.count_only:
            solution = self.read(self)
            main = threading.main_thread()
            while True:
                try:
                    channel.queue.put(solution, timeout=0.05)
                    break
                except queue.Full:
                    # At interpreter exit the main thread is gone: stop, so
                    # that Python's wait for this thread ends.
                    if channel.stop_reason is not None or not main.is_alive():
                        channel.stop(Status.INTERRUPTED)
                        return
        if self.limit is not None and channel.found >= self.limit:
            channel.stop(Status.SOLUTION_LIMIT)


def _solve(channel: _Channel, compiled: Compiled, parameters: dict[str, Any],
           limit: int | None, count_only: bool) -> None:
    """The solver thread: solve, then post the outcome as (_DONE, status)."""
    status = None
    try:
        solver = cp_model.CpSolver()
        for key, value in parameters.items():
            setattr(solver.parameters, key, value)
        channel.solver = solver
        assert compiled.model is not None  # an infeasible model never starts a thread
        if channel.stop_reason is None:
            if parameters.get("enumerate_all_solutions"):
                status = solver.solve(compiled.model,
                                      _Collector(channel, compiled.read, limit, count_only))
            else:
                status = solver.solve(compiled.model)
                if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    channel.found += 1
                    if not count_only:
                        channel.queue.put(compiled.read(solver))
            channel.nodes, channel.failures = solver.num_branches, solver.num_conflicts
    except BaseException as err:  # reported to the consumer, re-raised there
        channel.queue.put((_DONE, err))
        return
    channel.queue.put((_DONE, status))


class CPSATSearch(Search):
    """One CP-SAT run, consumed lazily.

    CP-SAT's callback API pushes solutions; it is turned into a pull iterator
    by running the solver in a thread that hands solutions over a bounded
    queue and blocks while the consumer is behind. Re-solving with a blocking
    clause per solution would be simpler but quadratic in the number of
    solutions; the thread keeps one solve for the whole enumeration. When the
    consumer stops (limit, time limit, `close`, Ctrl-C, or dropping the
    iterator), `StopSearch` ends the solve.
    """

    backend = "cpsat"
    POLL_SECONDS = 0.05
    PROGRESS_SECONDS = 0.2

    def __init__(self, problem: Any, *, limit: int | None = None,
                 time_limit: float | None = None, progress: Progress | None = None,
                 count_only: bool = False) -> None:
        super().__init__()
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"time_limit must be >= 0, not {time_limit}")
        self.compiled = compile_problem(problem)
        self.limit = limit
        self.time_limit = time_limit
        self.progress = progress
        self.count_only = count_only
        self.stats = Stats(nodes=0, failures=0)
        self._channel = _Channel()
        self._thread: threading.Thread | None = None
        self._started = 0.0
        self._last_progress = 0.0
        self._finalizer = weakref.finalize(self, self._channel.stop, Status.INTERRUPTED)

    def parameters(self) -> dict[str, Any]:
        """The CP-SAT parameters of this run."""
        # CP-SAT's own SIGINT handler calls a callback that is unset when the
        # solve runs off the main thread: Ctrl-C aborted the process
        # (std::bad_function_call). Python's handler raises KeyboardInterrupt in
        # the consumer instead, which stops the search (see __next__).
        parameters: dict[str, Any] = {"log_search_progress": False,
                                      "catch_sigint_signal": False}
        if self.time_limit is not None:
            parameters["max_time_in_seconds"] = max(self.time_limit, 1e-3)
        if self.limit == 1 and not self.count_only:
            return parameters  # one solution: every core, full presolve
        parameters.update(ENUMERATION)
        return parameters

    def _start(self) -> None:
        self._started = self._last_progress = time.perf_counter()
        if self.compiled.model is None:  # infeasible as declared
            self._finish(Status.COMPLETE)
            return
        if self.limit == 0:
            self._finish(Status.SOLUTION_LIMIT)
            return
        self._thread = threading.Thread(
            target=_solve, name="csp-cpsat",
            args=(self._channel, self.compiled, self.parameters(), self.limit, self.count_only),
        )
        self._thread.start()

    def __next__(self) -> Any:
        item: Any = _DONE  # nothing received yet
        try:
            if self._thread is None and self.status is None:
                self._start()
            if self.status is not None:
                raise StopIteration
            received = self._receive()
            if isinstance(received, tuple) and len(received) == 2 and received[0] is _DONE:
                self._done(received[1])
                raise StopIteration
            item = received
            self._measure()
        except KeyboardInterrupt:
            # Ctrl-C, wherever it lands (in the wait, or as the thread starts):
            # stop the solver thread and end INTERRUPTED with what was
            # delivered. A solver thread left running would keep the process
            # from exiting until its search ended.
            if self.status is None:
                self._stop(Status.INTERRUPTED)
            if item is _DONE:
                raise StopIteration from None
        self.stats.solutions += 1
        return item

    def _receive(self) -> Any:
        """The solver thread's next item: a solution or (_DONE, outcome)."""
        while True:
            try:
                return self._channel.queue.get(timeout=self._wait())
            except queue.Empty:
                self._tick()

    def _wait(self) -> float:
        wait = self.POLL_SECONDS
        if self.time_limit is not None:
            left = self.time_limit - (time.perf_counter() - self._started)
            wait = max(1e-3, min(wait, left))
        return wait

    def _tick(self) -> None:
        """No solution for a while: check the time limit, report progress."""
        now = time.perf_counter()
        if self.time_limit is not None and now - self._started >= self.time_limit:
            self._channel.stop(Status.TIME_LIMIT)
        if self.progress is not None and now - self._last_progress >= self.PROGRESS_SECONDS:
            self._last_progress = now
            self._measure()
            if self.count_only:
                self.stats.solutions = self._channel.found
            self.progress(self.stats)

    def _done(self, outcome: Any) -> None:
        assert self._thread is not None
        self._thread.join()
        if isinstance(outcome, BaseException):
            self.status = Status.INTERRUPTED
            if isinstance(outcome, Exception):
                raise InputError(f"cpsat: {outcome}") from outcome
            raise outcome
        channel = self._channel
        enumerated = bool(self.parameters().get("enumerate_all_solutions"))
        if channel.stop_reason is not None:
            status = channel.stop_reason
        elif outcome == cp_model.INFEASIBLE:
            status = Status.COMPLETE
        elif outcome == cp_model.OPTIMAL:
            # With enumerate_all_solutions, OPTIMAL means every solution was found.
            status = Status.COMPLETE if enumerated else Status.SOLUTION_LIMIT
        elif outcome == cp_model.FEASIBLE and not enumerated:
            status = Status.SOLUTION_LIMIT  # limit=1: the one solution asked for
        elif outcome == cp_model.MODEL_INVALID:
            assert self.compiled.model is not None
            # Say why, in CP-SAT's own words (on one line).
            reason = " ".join(self.compiled.model.validate().split())
            raise InputError("cpsat rejected the model as invalid"
                             + (f": {reason}" if reason else ""))
        else:  # FEASIBLE or UNKNOWN without our asking: CP-SAT's own time limit
            status = Status.TIME_LIMIT
        if self.count_only:
            self.stats.solutions = channel.found
        self._finish(status)

    def _measure(self) -> None:
        channel = self._channel
        self.stats.nodes = channel.nodes if channel.nodes is not None else 0
        self.stats.failures = channel.failures if channel.failures is not None else 0
        self.stats.time = time.perf_counter() - self._started

    def _finish(self, status: Status) -> None:
        self.status = status
        self._measure()
        self._finalizer.detach()

    def _stop(self, reason: Status) -> None:
        """Stop the solver, wait for its thread, keep what was delivered."""
        channel = self._channel
        channel.stop(reason)
        if self._thread is not None:
            # Drain so that a solver blocked on a full queue sees the stop; and
            # ask again while it runs: a stop asked before CP-SAT's solve began
            # is not seen by it.
            while self._thread.is_alive():
                try:
                    channel.queue.get(timeout=self.POLL_SECONDS)
                except queue.Empty:
                    channel.stop(reason)
            if self._thread.ident is not None:  # (a thread never started is not joined)
                self._thread.join()
            if self.count_only:
                self.stats.solutions = channel.found
        self._finish(reason)

    def close(self) -> None:
        if self.status is None:
            if self._thread is None:
                self._finish(Status.INTERRUPTED)
            else:
                self._stop(Status.INTERRUPTED)

    def count(self) -> Result:
        """Run to the end, counting inside the callback (nothing is kept)."""
        self.count_only = True
        for _ in self:
            pass
        assert self.status is not None
        return Result(self.stats.solutions, self.status, self.stats, self.backend)


class CPSATBackend:
    """OR-Tools CP-SAT: native form `Model`, and `ExactCover` taken directly."""

    name: ClassVar[str] = "cpsat"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model, ExactCover)
    capabilities: ClassVar[frozenset[str]] = (CONSTRAINT_KINDS | cpsat_globals.KINDS
                                              | {COLOURS, MULTIPLICITIES})

    def solutions(self, problem: Any, *, limit: int | None = None,
                  time_limit: float | None = None, progress: Progress | None = None
                  ) -> CPSATSearch:
        return CPSATSearch(problem, limit=limit, time_limit=time_limit, progress=progress)

    def count(self, problem: Any, *, time_limit: float | None = None,
              progress: Progress | None = None) -> Result:
        return CPSATSearch(problem, time_limit=time_limit, progress=progress,
                           count_only=True).count()


__all__ = ["CPSATBackend", "CPSATSearch", "compile_problem"]
