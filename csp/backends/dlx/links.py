"""Build Knuth's dancing-links arrays for an `ExactCover`, in one compiled pass.

Layout (see `kernel`): item `i` (1-based, primary items first) has header
node `i`; node `N + 1` is the first spacer; option `k` with `m` items takes
nodes `N + 2 + start[k] + k ...` followed by its spacer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

import csp._numba_cache  # noqa: F401  (before any kernel is decorated: see there)
from csp.backends.dlx.links_kernel import COLOR, DLINK, TOP, ULINK
from csp.exactcover import ExactCover


@dataclass
class Links:
    """The arrays of one dancing-links structure, plus the node -> option map."""

    node: np.ndarray  # (n_nodes, 4) int32: TOP, ULINK, DLINK, COLOR
    llink: np.ndarray  # (N + 2,) int32
    rlink: np.ndarray  # (N + 2,) int32
    option_of: np.ndarray  # (n_nodes,) int32: the option of each node, -1 elsewhere
    first_primary: np.ndarray  # (n_options,) int32: each option's first primary node
    n_items: int
    n_primary: int

    @property
    def flat(self) -> np.ndarray:
        """`node` as one flat array (a view): node q's field f is `flat[4 * q + f]`."""
        return self.node.reshape(-1)

    def copy(self) -> Links:
        return Links(self.node.copy(), self.llink.copy(), self.rlink.copy(), self.option_of,
                     self.first_primary, self.n_items, self.n_primary)


def build(xc: ExactCover) -> Links:
    arrays = xc.arrays()
    n_nodes = xc.n_items + 2 + len(arrays["items"]) + xc.n_options
    if n_nodes >= 2**31:
        raise ValueError(f"{n_nodes:,} nodes: too large for 32-bit links")
    node, llink, rlink, option_of, first_primary = _build(
        arrays["start"], arrays["items"], arrays["colours"], xc.n_items, xc.n_primary)
    return Links(node, llink, rlink, option_of, first_primary, xc.n_items, xc.n_primary)


@njit(cache=True)
def _build(start, items, colours, n_items, n_primary):
    # One pass over the options, appending each node to its item's list: compiled,
    # since on a small puzzle building the links costs more than solving it.
    n_options = len(start) - 1
    n_nodes = n_items + 2 + len(items) + n_options
    node = np.zeros((n_nodes, 4), dtype=np.int32)
    option_of = np.full(n_nodes, -1, dtype=np.int32)
    first_primary = np.full(max(n_options, 0), -1, dtype=np.int32)
    for i in range(1, n_items + 1):  # empty lists point to themselves; LEN 0
        node[i, ULINK] = i
        node[i, DLINK] = i
    # Spacers: TOP <= 0, ULINK = first node of the option before, DLINK = last
    # node of the option after.
    spacer = n_items + 1
    q = n_items + 2
    for k in range(n_options):
        first = q
        for j in range(start[k], start[k + 1]):
            item = items[j] + 1  # 1-based item numbers
            node[q, TOP] = item
            node[q, COLOR] = colours[j]
            option_of[q] = k
            last = node[item, ULINK]
            node[q, ULINK] = last
            node[q, DLINK] = item
            node[last, DLINK] = q
            node[item, ULINK] = q
            node[item, TOP] += 1
            if item <= n_primary and first_primary[k] < 0:
                first_primary[k] = q
            q += 1
        node[spacer, DLINK] = q - 1
        spacer = q
        node[spacer, TOP] = -(k + 1)
        node[spacer, ULINK] = first
        q += 1
    # Item lists: primary 1..N1 around header 0, secondary N1+1..N around N+1.
    llink = np.empty(n_items + 2, dtype=np.int32)
    rlink = np.empty(n_items + 2, dtype=np.int32)
    _ring(llink, rlink, 0, 1, n_primary + 1)
    _ring(llink, rlink, n_items + 1, n_primary + 1, n_items + 1)
    return node, llink, rlink, option_of, first_primary


@njit(cache=True)
def _ring(llink, rlink, head, first, end):
    # A circular list: head, first, first + 1, ..., end - 1, back to head.
    previous = head
    for i in range(first, end):
        rlink[previous] = i
        llink[i] = previous
        previous = i
    rlink[previous] = head
    llink[head] = previous


def sanity(links: Links) -> list[str]:
    """Check the invariants of the structure (Knuth's `sanity`); [] if sound.

    Every active item's list is doubly linked and as long as its LEN says; the
    item lists are doubly linked.
    """
    node, llink, rlink = links.node, links.llink, links.rlink
    problems = []
    for head in (0, links.n_items + 1):
        p, steps = head, 0
        while True:
            r = rlink[p]
            if llink[r] != p:
                problems.append(f"item list: llink[rlink[{p}]] != {p}")
                break
            p = r
            steps += 1
            if p == head or steps > links.n_items + 2:
                break
        if p != head:
            problems.append(f"item list from {head} does not close")
    active: list[int] = []
    p = rlink[0]
    while p != 0 and len(active) <= links.n_items:
        active.append(p)
        p = rlink[p]
    for i in active:
        count, q = 0, node[i, DLINK]
        while q != i and count <= len(node):
            if node[node[q, DLINK], ULINK] != q:
                problems.append(f"item {i}: ulink[dlink[{q}]] != {q}")
            if node[q, TOP] != i:
                problems.append(f"item {i}: node {q} has TOP {node[q, TOP]}")
            count += 1
            q = node[q, DLINK]
        if count != node[i, TOP]:
            problems.append(f"item {i}: LEN {node[i, TOP]} but {count} nodes")
    return problems
