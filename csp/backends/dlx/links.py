"""Build Knuth's dancing-links arrays for an `ExactCover`, vectorised with numpy.

Layout (see `kernel`): item `i` (1-based, primary items first) has header
node `i`; node `N + 1` is the first spacer; option `k` with `m` items takes
nodes `N + 2 + start[k] + k ...` followed by its spacer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from csp.backends.dlx.kernel import COLOR, DLINK, TOP, ULINK
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

    def copy(self) -> Links:
        return Links(self.node.copy(), self.llink.copy(), self.rlink.copy(), self.option_of,
                     self.first_primary, self.n_items, self.n_primary)


def build(xc: ExactCover) -> Links:
    arrays = xc.arrays()
    start = arrays["start"].astype(np.int64)
    items = arrays["items"].astype(np.int64) + 1  # 1-based item numbers
    colours = arrays["colours"]
    n_items, n_primary = xc.n_items, xc.n_primary
    n_options = len(start) - 1
    lengths = np.diff(start)
    option = np.repeat(np.arange(n_options, dtype=np.int64), lengths)
    pos = n_items + 2 + np.arange(len(items), dtype=np.int64) + option
    spacers = n_items + 2 + start[1:] + np.arange(n_options, dtype=np.int64)
    n_nodes = n_items + 2 + len(items) + n_options
    if n_nodes >= 2**31:
        raise ValueError(f"{n_nodes:,} nodes: too large for 32-bit links")

    node = np.zeros((n_nodes, 4), dtype=np.int32)
    option_of = np.full(n_nodes, -1, dtype=np.int32)
    node[pos, TOP] = items
    node[pos, COLOR] = colours
    option_of[pos] = option

    # Vertical lists: each item's nodes in option order, circular through the header.
    order = np.argsort(items, kind="stable")
    p_sorted = pos[order]
    i_sorted = items[order]
    first_of_item = np.ones(len(order), dtype=bool)
    first_of_item[1:] = i_sorted[1:] != i_sorted[:-1]
    last_of_item = np.ones(len(order), dtype=bool)
    last_of_item[:-1] = first_of_item[1:]
    up = np.empty(len(order), dtype=np.int64)
    down = np.empty(len(order), dtype=np.int64)
    up[1:] = p_sorted[:-1]
    down[:-1] = p_sorted[1:]
    up[first_of_item] = i_sorted[first_of_item]
    down[last_of_item] = i_sorted[last_of_item]
    node[p_sorted, ULINK] = up
    node[p_sorted, DLINK] = down
    headers = np.arange(1, n_items + 1)
    node[headers, ULINK] = headers  # empty lists point to themselves
    node[headers, DLINK] = headers
    node[i_sorted[first_of_item], DLINK] = p_sorted[first_of_item]
    node[i_sorted[last_of_item], ULINK] = p_sorted[last_of_item]
    node[1 : n_items + 1, TOP] = np.bincount(items, minlength=n_items + 1)[1:]

    # Spacers: TOP <= 0, ULINK = first node of the option before, DLINK = last
    # node of the option after.
    first_spacer = n_items + 1
    node[first_spacer, TOP] = 0
    node[spacers, TOP] = -np.arange(1, n_options + 1)
    if n_options:
        firsts = pos[start[:-1]] if len(items) else np.zeros(0, dtype=np.int64)
        lasts = spacers - 1
        node[spacers, ULINK] = firsts
        node[first_spacer, DLINK] = lasts[0]
        node[spacers[:-1], DLINK] = lasts[1:]

    # Item lists: primary 1..N1 around header 0, secondary N1+1..N around N+1.
    llink = np.empty(n_items + 2, dtype=np.int32)
    rlink = np.empty(n_items + 2, dtype=np.int32)
    _ring(llink, rlink, 0, np.arange(1, n_primary + 1))
    _ring(llink, rlink, n_items + 1, np.arange(n_primary + 1, n_items + 1))

    # Each option's first primary node, to replay a choice of that option.
    is_primary = items <= n_primary
    first_primary = np.full(n_options, -1, dtype=np.int32)
    owners, first = np.unique(option[is_primary], return_index=True)
    first_primary[owners] = pos[is_primary][first]
    return Links(node, llink, rlink, option_of, first_primary, n_items, n_primary)


def _ring(llink: np.ndarray, rlink: np.ndarray, head: int, members: np.ndarray) -> None:
    ring = np.concatenate(([head], members))
    rlink[ring] = np.roll(ring, -1)
    llink[ring] = np.roll(ring, 1)


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
    active = []
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
