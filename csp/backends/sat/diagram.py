"""Layered diagrams: a constraint read left to right over a sequence of
one-hot groups, one *state* per prefix (a partial sum, an automaton's set of
states, a count so far), as clauses.

A diagram is given by its groups (the literals of each position's values),
a transition `step(k, state, value)` (None: the value kills the word) and a
start state. Each layer after the first has one literal per state, exactly
one of them true, and a clause per (state, value) transition: so every state
literal is a function of the groups' literals (the state the prefix reaches).

- `post` encodes a constraint that must hold: the layers are pruned to the
  states from which an accepted final state can be reached (`layers(...,
  accept=)`), a transition out of them is a clause forbidding its value;
- `reified` encodes its truth as a literal: the layers are every reachable
  state, and the literal is true exactly when the final state is accepted.

>>> step = lambda k, s, v: s + v
>>> layers([[0, 1], [0, 1]], step, 0, accept=lambda s: s == 1)
[[0], [0, 1], [1]]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from csp.backends.sat.clauses import Cnf, Group, Unsatisfiable

Step = Callable[[int, Hashable, int], "Hashable | None"]
"""The state after position k's value, from a state (None: no state: the
word is rejected)."""

DEAD = ("dead",)
"""The state of a rejected word in a reified diagram."""


def layers(domains: Sequence[Sequence[int]], step: Step, start: Hashable, *,
           accept: Callable[[Hashable], bool] | None = None,
           limit: int | None = None) -> list[list[Hashable]] | None:
    """The states of each layer reachable from `start` (with `accept`: only
    those from which an accepted final state is reached); None when the
    (state, value) transitions exceed `limit`."""
    forward: list[list[Hashable]] = [[start]]
    transitions = 0
    for k, domain in enumerate(domains):
        transitions += len(forward[-1]) * len(domain)
        if limit is not None and transitions > limit:
            return None
        following: dict[Hashable, None] = {}
        for s in forward[-1]:
            for v in domain:
                t = step(k, s, v)
                if t is not None:
                    following[t] = None
        forward.append(list(following))
    if accept is None:
        return forward
    kept = [[s for s in forward[-1] if accept(s)]]
    for k in range(len(domains) - 1, -1, -1):
        after = set(kept[0])
        kept.insert(0, [s for s in forward[k]
                        if any(step(k, s, v) in after for v in domains[k])])
    return kept


def post(cnf: Cnf, groups: Sequence[Group], kept: list[list[Hashable]], step: Step) -> None:
    """The constraint whose pruned `layers` are `kept`: it must hold."""
    if not kept[-1] or not kept[0]:
        raise Unsatisfiable
    last = len(groups)
    # state[k][s]: the first k positions lead to s (layer 0: the start, always
    # true; the last layer: accepted, no literal needed).
    state: list[dict[Hashable, int]] = [{} for _ in range(last + 1)]
    for k in range(1, last):
        state[k] = {s: cnf.new() for s in kept[k]}
        cnf.exactly_one(list(state[k].values()))
    for k, values in enumerate(groups):
        into = set(kept[k + 1])
        values_into: dict[Hashable, set[int]] = {}
        states_into: dict[Hashable, set[int]] = {}
        for s in kept[k]:
            here = [] if k == 0 else [-state[k][s]]
            for v, lit in values.items():
                t = step(k, s, v)
                if t is None or t not in into:
                    cnf.add([*here, -lit])  # a dead end
                elif k + 1 < last:
                    cnf.add([*here, -lit, state[k + 1][t]])
                    values_into.setdefault(t, set()).add(lit)
                    if k > 0:
                        states_into.setdefault(t, set()).add(state[k][s])
        if k + 1 < last:
            # A state needs a predecessor and a value leading to it (what
            # makes values unsupported by any path false).
            for t, lit_t in state[k + 1].items():
                cnf.add([-lit_t, *sorted(values_into.get(t, ()))])
                if k > 0:
                    cnf.add([-lit_t, *sorted(states_into.get(t, ()))])


def reified(cnf: Cnf, groups: Sequence[Group], domains: Sequence[Sequence[int]], step: Step,
            start: Hashable, accept: Callable[[Hashable], bool],
            limit: int | None = None) -> int | None:
    """A literal true exactly when the word of the groups' values is
    accepted (None when the diagram exceeds `limit`)."""
    def total(k: int, s: Hashable, v: int) -> Hashable:
        t = None if s == DEAD else step(k, s, v)
        return DEAD if t is None else t

    def accepted(s: Hashable) -> bool:
        return s != DEAD and accept(s)

    every = layers(domains, total, start, limit=limit)
    if every is None:
        return None
    finals = every[-1]
    verdicts = {accepted(s) for s in finals}
    if len(verdicts) == 1:
        return cnf.constant(verdicts.pop())
    last = len(groups)
    state: list[dict[Hashable, int]] = [{} for _ in range(last + 1)]
    for k in range(1, last + 1):
        state[k] = {s: cnf.new() for s in every[k]}
        cnf.exactly_one(list(state[k].values()))
    for k, values in enumerate(groups):
        for s in every[k]:
            here = [] if k == 0 else [-state[k][s]]
            for v, lit in values.items():
                cnf.add([*here, -lit, state[k + 1][total(k, s, v)]])
    literal = cnf.new()
    yes = [state[last][s] for s in finals if accepted(s)]
    no = [state[last][s] for s in finals if not accepted(s)]
    cnf.clauses.extend([-s, literal] for s in yes)
    cnf.clauses.extend([-s, -literal] for s in no)
    cnf.clauses.append([-literal, *yes])
    cnf.clauses.append([literal, *no])
    return literal


__all__ = ["DEAD", "Step", "layers", "post", "reified"]
