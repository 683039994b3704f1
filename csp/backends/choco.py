"""The `choco` backend: Choco Solver, the reference Java CP solver, through
pychoco (a GraalVM native image: no JVM to start).

A `Model` becomes a Choco model by Choco's own constraints for every kind it
has (`csp.backends.choco_model`); an `ExactCover` reaches it lowered to a
model by the dispatch layer.

Choco runs in a child process of its own (`csp.backends.forked`): pychoco
aborts the whole process on an uncaught Java exception, and its search is
native code that Python cannot interrupt. In the child the search goes one
node at a time: a first `solve` installs a stop criterion that every later
node meets (Choco keeps every criterion it is given, so one more per call
would pile up), so each further call returns after one node or a solution,
about a microsecond of overhead on Choco's tens of microseconds a node.
Between nodes the child checks its time limit and reports its figures; a
solution is read from the variables and sent at once. Statistics: Choco's
`nodes` and `failures`, and `backtracks` and `restarts` in `stats.extra`.

>>> from csp import AllDifferent, Model
>>> m = Model()
>>> _ = m.add(AllDifferent(m.vars("abc", range(3))))
>>> ChocoBackend().count(m).count
6
"""

from __future__ import annotations

from typing import Any, ClassVar

from csp.backends.base import CONSTRAINT_KINDS, OUTSIDE
from csp.backends.choco_model import KINDS, Builder, Infeasible, refusal
from csp.backends.forked import ModelInChild, Outbox
from csp.model import Model
from csp.result import Status


def _figures(jni: Any, handle: Any, found: int, started: float, outbox: Outbox
             ) -> dict[str, Any]:
    return {"solutions": found, "nodes": int(jni.get_node_count(handle)),
            "failures": int(jni.get_fail_count(handle)),
            "time": outbox.elapsed() - started,
            "extra": {"backtracks": int(jni.get_backtrack_count(handle)),
                      "restarts": int(jni.get_restart_count(handle))}}


def _search(outbox: Outbox, model: Model, limit: int | None, time_limit: float | None,
            count_only: bool) -> None:
    """The child: build, then search one node at a time (see the module)."""
    from pychoco import backend as jni
    from pychoco._utils import make_criterion_var_array

    try:
        built = Builder(model)
    except Infeasible:
        outbox.done(Status.COMPLETE, {"solutions": 0, "time": 0.0})
        return
    started = outbox.elapsed()
    variables = [built.vars[name] for name in built.names]
    solver = built.model.get_solver()
    handle = solver._handle
    nothing = make_criterion_var_array([])
    found = 0
    answer = solver.solve(node_limit=1)  # from now on, every node meets this criterion
    status = Status.COMPLETE
    while True:
        if answer:
            found += 1
            if not count_only:
                outbox.solution(tuple(int(jni.get_intvar_value(v._handle)) for v in variables))
            if limit is not None and found >= limit:
                status = Status.SOLUTION_LIMIT
                break
        elif jni.get_search_state(handle) != "STOPPED":
            break  # the search space is exhausted
        if time_limit is not None and outbox.elapsed() >= time_limit:
            status = Status.TIME_LIMIT
            break
        if outbox.due():
            outbox.progress(_figures(jni, handle, found, started, outbox))
        answer = jni.solve(handle, nothing)
    outbox.done(status, _figures(jni, handle, found, started, outbox))


class ChocoBackend(ModelInChild):
    """Choco Solver through pychoco, in a child process; native form `Model`.
    It refuses a value past Choco's bound of +-21,474,836 and a sum past a
    Java int (Choco would abort its process)."""

    name: ClassVar[str] = "choco"
    capabilities: ClassVar[frozenset[str]] = CONSTRAINT_KINDS | KINDS | {OUTSIDE}
    work = staticmethod(_search)

    def refuses(self, problem: Model) -> str | None:
        """Why Choco cannot take `problem`, or None."""
        return refusal(problem)


__all__ = ["ChocoBackend"]
