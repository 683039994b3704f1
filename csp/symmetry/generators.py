"""Helpers that build the generators of a symmetry group.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model

Permutation = Sequence[int]


def induced(
    xc: ExactCover,
    items: Mapping[Hashable, Hashable] | Callable[[Hashable], Hashable],
    colours: Callable[[Hashable, Hashable], Hashable] | None = None,
) -> list[int]:
    """The option permutation induced by a map of items (names; unmapped items
    stay) and, optionally, of colours (`colours(item, colour) -> colour`, the
    item being the original one): option k goes to the option with the mapped
    items and colours. An `InputError` names the first option without one.
    """
    map_item = items.get if isinstance(items, Mapping) else None

    def item_image(name: Hashable) -> Hashable:
        if map_item is not None:
            return map_item(name, name)
        return items(name)  # type: ignore[operator]

    # Options with the same items and colours are interchangeable: the i-th goes
    # to the i-th of its image's.
    key_of: dict[frozenset[Any], list[int]] = {}
    for k in reversed(range(xc.n_options)):
        key_of.setdefault(frozenset(xc.option(k)), []).append(k)
    perm = []
    for k in range(xc.n_options):
        image = frozenset(
            (item_image(name), colour if colour is None or colours is None
             else colours(name, colour)) for name, colour in xc.option(k))
        targets = key_of.get(image)
        if not targets:
            raise InputError(f"option {k} ({xc.option_text(k)}) has no image under the "
                             "item map: no option covers its mapped items", token=k)
        perm.append(targets.pop())
    return perm


def by_data(xc: ExactCover, image: Callable[[Any], Any]) -> list[int]:
    """The option permutation that sends option k to the option whose data is
    `image(data[k])` (options' data must be distinct and hashable)."""
    index = {data: k for k, data in enumerate(xc.data)}
    if len(index) != xc.n_options:
        raise InputError("options' data are not distinct: cannot map options by their data")
    perm = []
    for k, data in enumerate(xc.data):
        target = index.get(image(data))
        if target is None:
            raise InputError(f"option {k} ({xc.option_text(k)}): no option has data "
                             f"{image(data)!r}", token=k)
        perm.append(target)
    return perm


def relabel_values(m: Model, variables: Iterable[Hashable], mapping: Mapping[int, int]
                   ) -> dict[tuple[Hashable, int], tuple[Hashable, int]]:
    """A value relabelling of `variables` as a pair map, for `Group(model, [...])`."""
    return {(name, value): (name, mapping.get(value, value))
            for name in variables for value in m.variables[name].domain}


Cell = tuple[int, int]


def grid_symmetries(cells: Iterable[Cell]) -> list[Callable[[Cell], Cell]]:
    """The symmetries of the bounding box of `cells` that map the cell set onto
    itself: up to 8 for a square (rotations, reflections, transposition), up to
    4 for a rectangle, fewer for an irregular shape. The identity comes first.

    >>> len(grid_symmetries([(r, c) for r in range(3) for c in range(3)]))
    8
    >>> len(grid_symmetries([(r, c) for r in range(2) for c in range(3)]))
    4
    >>> len(grid_symmetries([(0, 0), (0, 1), (1, 0)]))   # an L: only its diagonal
    2
    """
    shape = set(cells)
    if not shape:
        return [lambda cell: cell]
    r0 = min(r for r, _ in shape)
    c0 = min(c for _, c in shape)
    h = max(r for r, _ in shape) - r0
    w = max(c for _, c in shape) - c0

    def make(transpose: bool, flip_r: bool, flip_c: bool) -> Callable[[Cell], Cell]:
        def move(cell: Cell) -> Cell:
            r, c = cell[0] - r0, cell[1] - c0
            if flip_r:
                r = h - r
            if flip_c:
                c = w - c
            if transpose:
                r, c = c, r
            return (r + r0, c + c0)
        return move

    found = []
    for transpose in (False, True) if h == w else (False,):
        for flip_r in (False, True):
            for flip_c in (False, True):
                move = make(transpose, flip_r, flip_c)
                if {move(cell) for cell in shape} == shape:
                    found.append(move)
    return found
