"""Models more than one test file declares, written once."""

from __future__ import annotations

from csp import AllDifferent, Model, Sum


def queens_model(n: int) -> Model:
    """N queens as a CSP: all-different on the queens and on both diagonals."""
    m = Model(f"queens {n}")
    q = [m.var(("q", i), range(n)) for i in range(n)]
    up = [m.var(("up", i), range(2 * n - 1)) for i in range(n)]
    down = [m.var(("down", i), range(2 * n - 1)) for i in range(n)]
    for i in range(n):
        m.add(Sum([up[i], q[i]], [1, -1]) == i)
        m.add(Sum([down[i], q[i]]) == n - 1 + i)
    for group in (q, up, down):
        m.add(AllDifferent(group))
    return m
