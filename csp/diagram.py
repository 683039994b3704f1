"""The diagram of all the solutions of an exact cover: a ZDD, as a memoized
count builds it (Knuth's DLX6; `csp.zdd` makes one).

Node 0 is the empty family (no solution), node 1 the family of the empty set
(a solution is complete); every other node `z` is a triple (option, lo, hi):
the solutions of `lo`, which do not take the option, and those of `hi`, each
with the option added. A node's `lo` and `hi` were made before it, so the
nodes are in topological order: one pass from the sinks up counts the
solutions below each node, and those counts draw solutions uniformly at
random, exactly (each solution has a rank; `solution(r)` walks down to it).

>>> zdd = ZDD([(0, 0, 0), (0, 0, 1), (0, 0, 1), (1, 0, 1), (2, 3, 2)], 4)
>>> zdd.count(), sorted(zdd), zdd.solution(1)
(2, [(0, 2), (1,)], (0, 2))
>>> print(zdd.text(), end="")
2: (~1?0:1)
3: (~2?0:1)
4: (~3?3:2)
5: (~0?0:4)
>>> ZDD.from_text(zdd.text()).count()
2
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from csp.errors import InputError


class ZDD:
    """A diagram of solutions: `nodes` (option, lo, hi) rows, the first two
    the sinks, and the `root`. `stats` are those of the search that built it."""

    def __init__(self, nodes: Sequence[Sequence[int]] | np.ndarray, root: int, *,
                 stats: Any = None) -> None:
        self.nodes = np.asarray(nodes, dtype=np.int64).reshape(-1, 3)
        if len(self.nodes) < 2 or not 0 <= root < len(self.nodes):
            raise ValueError(f"a diagram needs its two sinks and a root among its "
                             f"{len(self.nodes)} nodes, not {root}")
        ids = np.arange(len(self.nodes))
        inner = self.nodes[2:]
        if (inner[:, 1:] >= ids[2:, None]).any() or (inner[:, 1:] < 0).any():
            raise ValueError("a node's lo and hi must be nodes made before it")
        self.root = int(root)
        self.stats = stats
        self._counts: list[int] | None = None

    def __len__(self) -> int:
        """Its nodes, not counting the two sinks."""
        return len(self.nodes) - 2

    def __repr__(self) -> str:
        return f"<ZDD of {self.count():,} solutions, {len(self):,} nodes>"

    @property
    def counts(self) -> list[int]:
        """The solutions below each node (Python ints: exact at any size)."""
        if self._counts is None:
            counts = [0, 1]
            for lo, hi in self.nodes[2:, 1:].tolist():
                counts.append(counts[lo] + counts[hi])
            self._counts = counts
        return self._counts

    def count(self) -> int:
        """The number of solutions."""
        return self.counts[self.root]

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every solution once, as sorted option indices."""
        nodes = self.nodes.tolist()
        stack: list[tuple[int, tuple[int, ...]]] = [(self.root, ())]
        while stack:
            z, taken = stack.pop()
            if z == 1:
                yield tuple(sorted(taken))
            elif z > 1:
                option, lo, hi = nodes[z]
                stack.append((lo, taken))
                stack.append((hi, (*taken, option)))

    def solution(self, rank: int) -> tuple[int, ...]:
        """The solution of `rank` (0 <= rank < count()), as sorted option indices."""
        counts, nodes = self.counts, self.nodes
        if not 0 <= rank < counts[self.root]:
            raise IndexError(f"rank {rank} outside 0..{counts[self.root] - 1}")
        z, taken = self.root, []
        while z > 1:
            option, lo, hi = (int(v) for v in nodes[z])
            if rank < counts[lo]:
                z = lo
            else:
                rank -= counts[lo]
                taken.append(option)
                z = hi
        return tuple(sorted(taken))

    def sample(self, k: int, seed: int | None = None) -> list[tuple[int, ...]]:
        """`k` distinct solutions drawn uniformly at random (every set of `k`
        solutions as likely as any other), exactly: ranks drawn without
        replacement, each walked down to its solution. `seed` repeats a draw."""
        total = self.count()
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise InputError(f"sample: k must be a whole number >= 0, not {k!r}")
        if k > total:
            raise InputError(f"sample: {k:,} distinct solutions asked, the diagram has {total:,}")
        return [self.solution(rank) for rank in random.Random(seed).sample(range(total), k)]

    # -- Knuth's text format ---------------------------------------------------------

    def text(self) -> str:
        """The diagram in the text format of Knuth's DLX6 (read by his
        ZDDREAD programs): one line `z: (~v?lo:hi)` per node, in hexadecimal
        but for the option number v (1-based), then a dummy root `(~0?0:root)`."""
        lines = [f"{z:x}: (~{option + 1}?{lo:x}:{hi:x})\n"
                 for z, (option, lo, hi) in enumerate(self.nodes[2:].tolist(), start=2)]
        lines.append(f"{len(self.nodes):x}: (~0?0:{self.root:x})\n")
        return "".join(lines)

    def write(self, file: str | Path | IO[str]) -> None:
        """Write `text()` to a path or an open text file."""
        if isinstance(file, (str, Path)):
            Path(file).write_text(self.text())
        else:
            file.write(self.text())

    @classmethod
    def from_text(cls, text: str) -> ZDD:
        """Read a diagram that `text()` (or DLX6) wrote: nodes numbered 2, 3, ...
        in order, each branching on an option number >= 1, the last line the root."""
        rows: list[tuple[int, int, int]] = [(0, 0, 0), (0, 0, 1)]
        root = None
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            found = re.fullmatch(r"\s*([0-9a-f]+):\s*\(~(\d+)\?([0-9a-f]+):([0-9a-f]+)\)\s*",
                                 line)
            if not found or root is not None:
                raise InputError("not a node of a diagram (z: (~v?lo:hi))" if not found else
                                 "a line after the root (~0?0:root)", line=number)
            z, v, lo, hi = (int(found.group(i), 16 if i != 2 else 10) for i in range(1, 5))
            if z != len(rows):
                raise InputError(f"node {z:x} where node {len(rows):x} was due", line=number)
            if max(lo, hi) >= z:
                raise InputError(f"node {z:x} leads to node {max(lo, hi):x}, not one made "
                                 "before it", line=number)
            if v == 0:
                root = hi
                continue
            rows.append((v - 1, lo, hi))
        if root is None:
            raise InputError("no root line (~0?0:root)")
        try:
            return cls(rows, root)
        except ValueError as err:
            raise InputError(str(err)) from None


__all__ = ["ZDD"]
