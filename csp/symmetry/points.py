"""The points a symmetry permutes (options of an exact cover, (variable, value)
pairs of a model), and the validation of a permutation of them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from csp.constraints import AllDifferent, Compare, Constraint
from csp.errors import InputError
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problem import Problem

Permutation = Sequence[int]

MAX_NOGOODS = 200_000
"""The most violating tuples one constraint is expanded to when validating a Model symmetry."""


class Points:
    """The points of a problem, and solutions as arrays of points."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        if isinstance(problem, ExactCover):
            self.n = problem.n_options
            self.pairs: list[tuple[Hashable, int]] = []
        else:
            self.pairs = [(name, value) for name, variable in problem.variables.items()
                          for value in variable.domain]
            self.n = len(self.pairs)
        self.code = {pair: k for k, pair in enumerate(self.pairs)}

    def encode(self, solution: Any) -> np.ndarray:
        if isinstance(self.problem, ExactCover):
            return np.asarray(sorted(solution), dtype=np.int64)
        return np.asarray([self.code[(name, value)] for name, value in solution.items()],
                          dtype=np.int64)

    def decode(self, points: Iterable[int]) -> Any:
        if isinstance(self.problem, ExactCover):
            return tuple(sorted(int(p) for p in points))
        assignment = dict(self.pairs[int(p)] for p in points)
        # Keep the model's variable order, whatever the image's order.
        return {name: assignment[name] for name in self.problem.variables if name in assignment}

    def name(self, point: int) -> str:
        if isinstance(self.problem, ExactCover):
            return f"option {point} ({self.problem.option_text(point)})"
        name, value = self.pairs[point]
        return f"pair ({name!r}, {value})"

    # -- generators ----------------------------------------------------------------------

    def permutation(self, gen: Permutation | Mapping[Any, Any], number: int) -> np.ndarray:
        n = self.n
        what = f"symmetry generator {number}"
        if isinstance(gen, Mapping):
            perm = np.arange(n, dtype=np.int64)
            for source, target in gen.items():
                perm[self._point(source, what)] = self._point(target, what)
        else:
            values = list(gen)
            if len(values) != n:
                raise InputError(f"{what} has {len(values)} entries; the problem has {n} "
                                 f"{'options' if not self.pairs else 'pairs'}")
            perm = np.asarray([self._point(v, what) for v in values], dtype=np.int64)
        counts = np.bincount(perm, minlength=n)
        if n and counts.max() > 1:
            twice = int(np.argmax(counts > 1))
            raise InputError(f"{what} is not a permutation: {self.name(twice)} is the image "
                             f"of {int(counts[twice])} points")
        return perm.astype(np.int32)

    def _point(self, value: Any, what: str) -> int:
        if not self.pairs:
            if isinstance(value, (int, np.integer)) and 0 <= value < self.n:
                return int(value)
            raise InputError(f"{what}: {value!r} is not an option number (0..{self.n - 1})",
                             token=value)
        try:
            return self.code[tuple(value)]
        except (KeyError, TypeError):
            raise InputError(f"{what}: {value!r} is not a (variable, value) pair of the model",
                             token=value) from None

    # -- validation ----------------------------------------------------------------------

    def validate(self, perm: np.ndarray, number: int) -> None:
        if isinstance(self.problem, ExactCover):
            _validate_exact_cover(self.problem, perm, number)
        else:
            _validate_model(self.problem, self, perm, number)

    def search_rank(self) -> np.ndarray:
        """Options of the items with fewest options first (the order in which an
        MRV search decides them); pairs of a Model in variable order."""
        if not isinstance(self.problem, ExactCover):
            return np.arange(self.n, dtype=np.int32)
        arrays = self.problem.arrays()
        start, items = arrays["start"], arrays["items"]
        n_primary = self.problem.n_primary
        lengths = np.bincount(items, minlength=self.problem.n_items)
        option_of = np.repeat(np.arange(self.n), np.diff(start))
        primary = items < n_primary
        # Each option's key: the rank of its earliest item in (length, item) order.
        item_order = np.lexsort((np.arange(n_primary), lengths[:n_primary]))
        item_rank = np.empty(n_primary, dtype=np.int64)
        item_rank[item_order] = np.arange(n_primary)
        key = np.full(self.n, n_primary, dtype=np.int64)
        np.minimum.at(key, option_of[primary], item_rank[items[primary]])
        order = np.lexsort((np.arange(self.n), key))
        rank = np.empty(self.n, dtype=np.int32)
        rank[order] = np.arange(self.n, dtype=np.int32)
        return rank


def _validate_exact_cover(xc: ExactCover, perm: np.ndarray, number: int) -> None:
    """An option permutation is a symmetry when it is induced by a permutation
    of the items (primary to primary, secondary to secondary) and, for each
    secondary item, a relabelling of its colours: the options covering an item
    with one colour must go to the options covering its image with one colour.
    """
    arrays = xc.arrays()
    start, items, colours = (arrays[k].tolist() for k in ("start", "items", "colours"))
    n_primary = xc.n_primary
    classes: list[dict[int, list[int]]] = [{} for _ in range(xc.n_items)]
    for k in range(xc.n_options):
        for p in range(start[k], start[k + 1]):
            classes[items[p]].setdefault(colours[p], []).append(k)

    def signature(item: int, mapping: Sequence[int] | np.ndarray) -> tuple[Any, ...]:
        c = classes[item]
        uncoloured = frozenset(int(mapping[k]) for k in c.get(0, ()))
        coloured = frozenset(frozenset(int(mapping[k]) for k in ks)
                             for colour, ks in c.items() if colour)
        return (item < n_primary, uncoloured, coloured)

    identity = range(xc.n_options)
    holders: dict[tuple[Any, ...], list[int]] = {}
    for item in reversed(range(xc.n_items)):
        holders.setdefault(signature(item, identity), []).append(item)
    # The items whose options the permutation leaves in place go first, so that
    # an item found without an image is one whose options it moves.
    moved = [any(int(perm[k]) != k for ks in classes[item].values() for k in ks)
             for item in range(xc.n_items)]
    image_of = [-1] * xc.n_items
    for item in sorted(range(xc.n_items), key=moved.__getitem__):
        found = holders.get(signature(item, perm))
        if not found:
            raise _no_image(xc, perm, number, item, classes[item], exhausted=found == [])
        image_of[item] = found.pop()
    # Each item has an image, so each option's items go to its image's items
    # (an item of option k goes to an item of perm[k], and the map is one to
    # one); kept as a check of that reasoning.
    for k in range(xc.n_options):
        own = {items[p] for p in range(start[k], start[k + 1])}
        target = int(perm[k])
        if {image_of[i] for i in own} != set(items[start[target]:start[target + 1]]):
            raise InputError(f"symmetry generator {number} does not map the problem onto "
                             f"itself: it sends option {k} ({xc.option_text(k)}) to option "
                             f"{target} ({xc.option_text(target)})", token=k)


def _no_image(xc: ExactCover, perm: np.ndarray, number: int, item: int,
              holders: dict[int, list[int]], exhausted: bool) -> InputError:
    """The error for an item that no item can be the image of: its options go
    to a set of options that no item (or no item left) has."""
    own = sorted(k for ks in holders.values() for k in ks)
    k = next((k for k in own if int(perm[k]) != k), own[0] if own else 0)
    images = sorted(int(perm[j]) for j in own)
    colours = [_options(sorted(int(perm[j]) for j in ks)) for colour, ks in holders.items()
               if colour]
    # The options an item's image must be in, with the colours they must agree on.
    where = _options(images) + (f" ({'; '.join(colours)} of one colour each)" if colours else "")
    name = xc.items_name(item)
    if exhausted:
        why = "and every such item is already the image of another one"
    else:
        why = "and there is no such item"
    return InputError(
        f"symmetry generator {number} does not map the problem onto itself: it sends option "
        f"{k} ({xc.option_text(k)}) to option {int(perm[k])} "
        f"({xc.option_text(int(perm[k]))}), so item {name!r}, in {_options(own)}, would go "
        f"to an item in exactly {where}, {why}", token=k)


def _options(ks: Sequence[int]) -> str:
    if not ks:
        return "no option"
    if len(ks) == 1:
        return f"option {ks[0]}"
    return f"options {', '.join(map(str, ks[:-1]))} and {ks[-1]}"


def _validate_model(m: Model, points: Points, perm: np.ndarray, number: int) -> None:
    """A pair permutation is a symmetry when it maps every nogood (two values of
    one variable, or a tuple a constraint forbids) onto a set of pairs that
    contains a nogood: then, since the group is finite, no solution can be sent
    to a non-solution. Sufficient, not necessary: a symmetry of the solutions
    only, not of the constraints, is refused."""
    by_variable: dict[Hashable, list[Constraint]] = {}
    for c in m.constraints:
        for name in c.scope:
            by_variable.setdefault(name, []).append(c)
    pairs = points.pairs

    def contains_nogood(codes: Sequence[int]) -> bool:
        assignment: dict[Hashable, int] = {}
        for code in codes:
            name, value = pairs[code]
            if name in assignment:
                return True
            assignment[name] = value
        checked: set[int] = set()
        for name in assignment:
            for c in by_variable.get(name, ()):
                if id(c) in checked:
                    continue
                checked.add(id(c))
                if isinstance(c, AllDifferent):
                    values = [assignment[v] for v in c.scope if v in assignment]
                    if len(set(values)) != len(values):
                        return True
                elif all(v in assignment for v in c.scope) and not c.holds(assignment):
                    return True
        return False

    for nogood in _nogoods(m, points):
        image = [int(perm[p]) for p in nogood]
        if not contains_nogood(image):
            shown = ", ".join(points.name(p) for p in nogood)
            raise InputError(
                f"symmetry generator {number} does not map the problem onto itself: it sends "
                f"the forbidden combination {shown} to an allowed one "
                f"({', '.join(points.name(p) for p in image)})", token=nogood[0])


def _nogoods(m: Model, points: Points) -> Iterator[list[int]]:
    code = points.code
    for name, variable in m.variables.items():
        for a, b in itertools.combinations(variable.domain, 2):
            yield [code[(name, a)], code[(name, b)]]
    for c in m.constraints:
        domains = [m.variables[v].domain for v in c.scope]
        if isinstance(c, AllDifferent):
            for x, y in itertools.combinations(c.scope, 2):
                for value in set(m.variables[x].domain) & set(m.variables[y].domain):
                    yield [code[(x, value)], code[(y, value)]]
            continue
        size = math.prod(len(d) for d in domains)
        if size > MAX_NOGOODS and not isinstance(c, Compare):
            raise InputError(f"cannot validate a symmetry against {c.describe()}: its "
                             f"{size:,} tuples are too many to expand; pass validate=False")
        for row in itertools.product(*domains):
            if not c.holds(dict(zip(c.scope, row))):
                yield [code[(v, x)] for v, x in zip(c.scope, row)]
