"""Exact cover with colours (Knuth's XCC): items, options, colours.

Glossary (Knuth, TAOCP 7.2.2.1):

- *item*: something to be covered. A *primary* item must be covered exactly
  once; a *secondary* item at most once, unless every option that covers it
  gives it the same *colour*.
- *option*: a set of items, some secondary ones possibly coloured. A solution
  is a set of options that covers every primary item exactly once and gives
  each secondary item at most one option, or one colour.
- *multiplicity* (Knuth's DLX3, "MCC"): a primary item may carry bounds
  `(a, b)`; it must then be covered between a and b times instead of once.

A solution is the sorted tuple of the chosen options' indices, in declaration
order; `ExactCover.data` holds each option's payload so that a puzzle can
decode a solution.

>>> xc = ExactCover(primary=["a", "b", "c"], secondary=["x", "y"])
>>> xc.add_option(["a", ("x", 0)])
0
>>> xc.add_option(["b", ("x", 0), "y"])
1
>>> xc.add_option(["c", ("y", 1)])
2
>>> xc.add_option(["a", "b", ("x", 1)])
3
>>> xc.check((0, 1, 2))
['secondary item y is covered by options 1 and 2']
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

import numpy as np

from csp.errors import InputError, refuse_string
from csp.io import knuth

Item = Hashable
"""An item is named by any hashable; a coloured secondary item is `(name, colour)`."""


class ExactCover:
    """An exact-cover problem with colours: primary and secondary items, and options.

    Items are named by any hashable value. In `add_option`, a secondary item
    may be given as a `(name, colour)` pair. A name that is itself a declared
    item always means that item, so tuple-valued names stay usable.

    Declaring is linear in the size of the input: items are indexed once and
    options are stored as flat integer lists, ready for the compiled backends.

    Args:
        primary: the items every solution covers exactly once (or between
            their `bounds`).
        secondary: the items covered at most once, or by options that agree
            on their colour.
        name: a name shown in reports (a file's name, when read from one).
        bounds: multiplicities of primary items, as `set_bounds` takes them.

    Raises:
        InputError: an item named twice, a string given where a list of
            names is meant, or bounds `set_bounds` refuses.

    >>> xc = ExactCover(["a", "b"], ["x"])
    >>> xc.add_option(["a", ("x", "red")]), xc.add_option(["b", ("x", "red")])
    (0, 1)
    >>> xc.is_solution([0, 1])
    True
    """

    symmetry: Any = None
    """The problem's symmetry group (a `csp.symmetry.Group`), once declared:
    what `up_to_symmetry=True` counts up to."""

    def __init__(
        self,
        primary: Iterable[Item] = (),
        secondary: Iterable[Item] = (),
        *,
        name: str | None = None,
        bounds: Mapping[Item, int | tuple[int, int]] | None = None,
        _trusted: bool = False,
    ) -> None:
        refuse_string(primary, "ExactCover(primary=...)")
        refuse_string(secondary, "ExactCover(secondary=...)")
        self.name = name
        self.primary: list[Item] = []
        self.secondary: list[Item] = []
        self._codes: dict[Item, int] | None = {}
        primary, secondary = list(primary), list(secondary)
        if _trusted:
            # Names known to be distinct (`from_arrays(check=False)`): their
            # index is made when first needed, which a search never does.
            self.primary, self.secondary, self._codes = primary, secondary, None
        else:
            self._index_items(primary, secondary)
        # No item at all is allowed, like a Model without variables: choosing
        # no option is then the one solution.
        self._colour_index: dict[Hashable, int] = {}
        self.colours: list[Hashable] = []
        #: option k covers items `items[start[k]:start[k+1]]`, coloured by
        #: `colours[...]` (0 = no colour, c > 0 = `colours[c - 1]`), held as
        #: lists (`_lists`: start, items, colours; `add_option` appends to
        #: them), as int32 arrays (`_arrays`, what the compiled backends read),
        #: or both: each is made from the other when first asked for, so that
        #: a cover declared from arrays never builds a list per entry unless
        #: something reads an option in Python.
        self._lists: tuple[list[int], list[int], list[int]] | None = ([0], [], [])
        self._arrays: dict[str, np.ndarray] | None = None
        self._data: list[Any] | None = []
        self._make_data: Callable[[], Iterable[Any]] | None = None
        #: the multiplicities of the primary items that have them: name ->
        #: (least, most) times it must be covered; an item not here is
        #: covered exactly once (bounds (1, 1) are not stored)
        self.bounds: dict[Item, tuple[int, int]] = {}
        for item, bound in (bounds or {}).items():
            self.set_bounds(item, bound)

    def _index_items(self, primary: list[Item], secondary: list[Item]) -> None:
        """Number the items, primary first; a name unhashable or given twice is an error."""
        try:
            # All at once (the common case): one dict, checked by its size.
            index = dict(zip(primary, range(len(primary))))
            index.update(zip(secondary, range(len(secondary))))
            fast = len(index) == len(primary) + len(secondary)
        except TypeError:  # an unhashable name: the loop below names it
            fast = False
        if fast:
            self.primary, self.secondary = primary, secondary
        else:
            index = self._codes = {}
            for item in primary:
                self._declare(item, self.primary)
            for item in secondary:
                self._declare(item, self.secondary)
        # Secondary items are numbered after all primary ones; since items
        # may be declared in one go only, fix the numbering now.
        n_primary = len(self.primary)
        for k, item in enumerate(self.secondary):
            index[item] = n_primary + k
        self._codes = index

    @property
    def _index(self) -> dict[Item, int]:
        """Item name -> number (primary items first)."""
        if self._codes is None:
            n_primary = len(self.primary)
            codes = dict(zip(self.primary, range(n_primary)))
            codes.update(zip(self.secondary, range(n_primary, n_primary + len(self.secondary))))
            self._codes = codes
        return self._codes

    def _declare(self, item: Item, into: list[Item]) -> None:
        try:
            hash(item)
        except TypeError:
            raise InputError(f"item name {item!r} is not hashable", token=item) from None
        if item in self._index:
            raise InputError(f"duplicate item name {item!r}", token=item)
        self._index[item] = len(into)
        into.append(item)

    # -- sizes -----------------------------------------------------------------

    @property
    def n_primary(self) -> int:
        return len(self.primary)

    @property
    def n_items(self) -> int:
        return len(self.primary) + len(self.secondary)

    @property
    def n_options(self) -> int:
        if self._lists is not None:
            return len(self._lists[0]) - 1
        assert self._arrays is not None
        return len(self._arrays["start"]) - 1

    @property
    def data(self) -> list[Any]:
        """Each option's payload, in declaration order (None if not given)."""
        if self._data is None:
            assert self._make_data is not None
            data = list(self._make_data())
            if len(data) != self.n_options:
                raise InputError(f"{len(data)} payloads for {self.n_options} options")
            self._data, self._make_data = data, None
        return self._data

    @data.setter
    def data(self, payloads: Iterable[Any]) -> None:
        self._data, self._make_data = list(payloads), None

    def _entries(self) -> tuple[list[int], list[int], list[int]]:
        """The options as lists: `start` offsets, `items` and `colours` codes."""
        if self._lists is None:
            assert self._arrays is not None
            arrays = self._arrays
            self._lists = (arrays["start"].tolist(), arrays["items"].tolist(),
                           arrays["colours"].tolist())
        return self._lists

    def __getstate__(self) -> dict[str, Any]:
        # The payloads are made before the problem travels to another process
        # (a lazy maker may be a closure); the lists are remade there if read.
        state = {**self.__dict__, "_data": self.data, "_make_data": None}
        if state["_arrays"] is not None:
            state["_lists"] = None
        return state

    def __len__(self) -> int:
        return self.n_options

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<ExactCover{label}: {self.n_primary} primary + {len(self.secondary)} secondary "
            f"items, {self.n_options} options>"
        )

    @property
    def items(self) -> list[Item]:
        """All item names, primary first, in declaration order."""
        return self.primary + self.secondary

    # -- multiplicities ----------------------------------------------------------

    def set_bounds(self, item: Item, bound: int | tuple[int, int]) -> None:
        """Let primary `item` be covered between `a` and `b` times, for `bound`
        = `(a, b)`, or exactly `b` times for `bound` = `b` (Knuth's `a:b|name`
        and `b|name`). `0 <= a <= b` and `b >= 1`.

        Args:
            item: a primary item's name.
            bound: `(least, most)`, or one number for exactly that many times.

        Raises:
            InputError: an unknown or secondary item, or bounds that are not
                whole numbers with `0 <= least <= most` and `most >= 1`.

        >>> xc = ExactCover(["r", "c"], bounds={"r": 2})
        >>> xc.set_bounds("c", (0, 2))
        >>> xc.bounds
        {'r': (2, 2), 'c': (0, 2)}
        """
        code = self._index.get(item) if _hashable(item) else None
        if code is None:
            raise InputError(f"bounds on unknown item {_show(item)}", token=item)
        if code >= len(self.primary):
            raise InputError(f"bounds on secondary item {_show(item)}: only a primary item "
                             "has a multiplicity", token=item)
        if isinstance(bound, tuple):
            if len(bound) != 2:
                raise InputError(f"bounds of item {_show(item)} must be (least, most) or one "
                                 f"number, not {bound!r}", token=item)
            lower, upper = bound
        else:
            lower = upper = bound
        for value in (lower, upper):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise InputError(f"bound {value!r} of item {_show(item)} is not a whole number",
                                 token=item)
            if value < 0:
                raise InputError(f"bound {value} of item {_show(item)} is negative", token=item)
        if lower > upper:
            raise InputError(f"item {_show(item)}: least {lower} exceeds most {upper}",
                             token=item)
        if upper == 0:
            raise InputError(f"item {_show(item)}: bounds 0:0 (it may never be covered; "
                             "leave it out, or make it secondary)", token=item)
        if (lower, upper) == (1, 1):
            self.bounds.pop(item, None)
        else:
            self.bounds[item] = (int(lower), int(upper))

    def multiplicities(self) -> tuple[np.ndarray, np.ndarray]:
        """The least and most number of times each primary item must be covered.

        Returns:
            `(least, most)`: two int32 arrays of `n_primary` entries, ones
            where no bounds were given.
        """
        lower = np.ones(self.n_primary, dtype=np.int32)
        upper = np.ones(self.n_primary, dtype=np.int32)
        for item, (a, b) in self.bounds.items():
            code = self._index[item]
            lower[code], upper[code] = a, b
        return lower, upper

    # -- declaring -------------------------------------------------------------

    def add_option(self, items: Iterable[Item], data: Any = None) -> int:
        """Add an option covering `items`; return its index.

        Args:
            items: the option's entries: an item name, or `(name, colour)`
                for a secondary item (`(name, None)` leaves it uncoloured).
            data: any payload kept with the option (`ExactCover.data`), for
                decoding a solution.

        Returns:
            The option's index, from 0 in the order of declaration.

        Raises:
            InputError: an unknown item, an item twice in the option, a
                colour on a primary item, or no primary item at all.
        """
        refuse_string(items, f"the items of option {self.n_options}")
        codes, colours = self._encode(items)
        if not any(code < len(self.primary) for code in codes):
            shown = self._shown(codes, colours)
            raise InputError(f"an option must cover at least one primary item: {shown!r} "
                             "has only secondary items", token=shown)
        return self._append(codes, colours, data)

    def _encode(self, items: Iterable[Item]) -> tuple[list[int], list[int]]:
        """An option's entries as item codes and colour codes (0 = none)."""
        index = self._index
        n_primary = len(self.primary)
        seen: set[int] = set()
        codes: list[int] = []
        colours: list[int] = []
        for entry in items:
            colour: Hashable = None
            code = index.get(entry) if _hashable(entry) else None
            if code is None:
                if isinstance(entry, tuple) and len(entry) == 2 and _hashable(entry[0]):
                    code = index.get(entry[0])
                    colour = entry[1]
                if code is None:
                    raise InputError(f"unknown item {_show(entry)} in option", token=entry)
                if colour is not None and code < n_primary:
                    raise InputError(
                        f"colour {colour!r} on primary item {_show(entry[0])}",  # type: ignore[index]
                        token=entry,
                    )
            if code in seen:
                raise InputError(f"item {_show(self.items_name(code))} twice in one option",
                                 token=entry)
            seen.add(code)
            codes.append(code)
            colours.append(0 if colour is None else self._colour_code(colour))
        return codes, colours

    def _append(self, codes: list[int], colours: list[int], data: Any) -> int:
        start, items, option_colours = self._entries()
        self.data.append(data)
        items.extend(codes)
        option_colours.extend(colours)
        start.append(len(items))
        self._arrays = None
        return len(start) - 2

    @classmethod
    def from_arrays(
        cls,
        primary: Iterable[Item],
        secondary: Iterable[Item],
        indptr: Any,
        indices: Any,
        colours: Any = None,
        *,
        colour_names: Iterable[Hashable] = (),
        data: Iterable[Any] | Callable[[], Iterable[Any]] | None = None,
        name: str | None = None,
        check: bool = True,
    ) -> ExactCover:
        """An exact cover declared from arrays, in compressed-row (CSR) style,
        with no Python work per option: option k covers the items numbered
        `indices[indptr[k]:indptr[k + 1]]` (0-based, primary items first, then
        secondary ones). `colours`, if given, has one entry per index: 0 for
        none, c > 0 for `colour_names[c - 1]`. `data` holds each option's
        payload (default None), or is a function that returns them, called
        only when `data` is first read (a lowering's payloads, which a search
        never reads). The same checks as `add_option`, vectorised (`check=False`
        skips them, and the check that item names are distinct, for arrays and
        names valid by construction).

        Args:
            primary: the primary items' names.
            secondary: the secondary items' names.
            indptr: `n_options + 1` offsets into `indices`.
            indices: the items of every option, one after the other.
            colours: one colour code per entry of `indices`, or None.
            colour_names: the colours the codes 1, 2, ... stand for.
            data: the options' payloads, or a function that returns them.
            name: a name shown in reports.
            check: check the arrays and names (the default).

        Returns:
            The exact cover, its options held as the arrays given.

        Raises:
            InputError: when `check` is on, arrays of the wrong shape, an
                index out of range, an item twice in an option, a colour on
                a primary item, or an option without a primary item.

        >>> xc = ExactCover.from_arrays(["a", "b"], ["x"], [0, 2, 4, 5], [0, 2, 1, 2, 1],
        ...                             [0, 1, 0, 1, 0], colour_names=["red"])
        >>> [xc.option_text(k) for k in range(xc.n_options)]
        ['a x:red', 'b x:red', 'b']
        """
        xc = cls(primary, secondary, name=name, _trusted=not check)
        names = list(colour_names)
        for colour in names:
            xc._colour_code(colour)
        if len(xc.colours) != len(names):
            raise InputError("colour_names repeats a colour", token=names)
        start = _int_array(indptr, "indptr")
        items = _int_array(indices, "indices")
        codes = np.zeros(len(items), np.int32) if colours is None else _int_array(colours,
                                                                                 "colours")
        n_options = len(start) - 1
        if n_options < 0 or start[0] != 0 or np.any(np.diff(start) < 0) or start[-1] != len(items):
            raise InputError("indptr must start at 0, never decrease and end at "
                             f"len(indices) = {len(items)}")
        if len(codes) != len(items):
            raise InputError(f"{len(codes)} colours for {len(items)} indices")
        if check:
            xc._check_arrays(start, items, codes)
        xc._lists = None  # made from the arrays if something reads an option in Python
        # Unchecked arrays are fresh ones, built for this cover: kept, not copied.
        xc._arrays = {"start": start.astype(np.int32, copy=check),
                      "items": items.astype(np.int32, copy=check),
                      "colours": codes.astype(np.int32, copy=check)}
        if callable(data):
            xc._data, xc._make_data = None, data
            return xc
        xc.data = [None] * n_options if data is None else data
        if len(xc.data) != n_options:
            raise InputError(f"{len(xc.data)} payloads for {n_options} options")
        return xc

    def _check_arrays(self, start: np.ndarray, items: np.ndarray, codes: np.ndarray) -> None:
        """What `add_option` checks one by one, for options given as arrays."""
        n_options = len(start) - 1
        owner = np.repeat(np.arange(n_options), np.diff(start))
        bad = np.flatnonzero((items < 0) | (items >= self.n_items))
        if len(bad):
            raise InputError(f"option {owner[bad[0]]} covers item number {items[bad[0]]}; "
                             f"the items are numbered 0 to {self.n_items - 1}",
                             token=int(items[bad[0]]))
        bad = np.flatnonzero((codes < 0) | (codes > len(self.colours)))
        if len(bad):
            raise InputError(f"option {owner[bad[0]]} has colour code {codes[bad[0]]}; "
                             f"the codes are 0 (none) to {len(self.colours)}",
                             token=int(codes[bad[0]]))
        bad = np.flatnonzero((codes > 0) & (items < self.n_primary))
        if len(bad):
            raise InputError(f"option {owner[bad[0]]}: colour "
                             f"{self.colours[codes[bad[0]] - 1]!r} on primary item "
                             f"{_show(self.items_name(int(items[bad[0]])))}",
                             token=self.items_name(int(items[bad[0]])))
        key = owner * max(self.n_items, 1) + items  # (option, item), one number
        order = np.argsort(key)
        twice = np.flatnonzero(np.diff(key[order]) == 0)
        if len(twice):
            at = order[twice[0]]
            raise InputError(f"item {_show(self.items_name(int(items[at])))} twice in option "
                             f"{owner[at]}", token=self.items_name(int(items[at])))
        has_primary = np.zeros(n_options, dtype=bool)
        has_primary[owner[items < self.n_primary]] = True
        if not has_primary.all():
            k = int(np.flatnonzero(~has_primary)[0])
            lo, hi = int(start[k]), int(start[k + 1])
            shown = self._shown(items[lo:hi].tolist(), codes[lo:hi].tolist())
            raise InputError(f"an option must cover at least one primary item: option {k} "
                             f"{shown!r} has only secondary items", token=shown)

    def _shown(self, codes: list[int], colours: list[int]) -> str:
        """An option as it reads in Knuth's format, for a message (cut if long)."""
        shown = " ".join(
            str(self.items_name(code)) + (f":{self.colours[c - 1]}" if c else "")
            for code, c in zip(codes, colours)
        )
        return shown if len(shown) <= 80 else shown[:77] + "..."

    def _colour_code(self, colour: Hashable) -> int:
        code = self._colour_index.get(colour)
        if code is None:
            try:
                hash(colour)
            except TypeError:
                raise InputError(f"colour {colour!r} is not hashable", token=colour) from None
            self.colours.append(colour)
            code = self._colour_index[colour] = len(self.colours)
        return code

    def items_name(self, code: int) -> Item:
        """The name of item number `code` (primary items first, from 0).

        >>> ExactCover(["a"], ["x"]).items_name(1)
        'x'
        """
        n_primary = len(self.primary)
        return self.primary[code] if code < n_primary else self.secondary[code - n_primary]

    # -- reading options back ----------------------------------------------------

    def option(self, k: int) -> list[tuple[Item, Hashable]]:
        """Option `k` as a list of `(item name, colour or None)`.

        Args:
            k: an option's index.

        Returns:
            Its entries, in the order they were given.

        >>> xc = ExactCover(["a"], ["x"])
        >>> xc.option(xc.add_option(["a", ("x", 1)]))
        [('a', None), ('x', 1)]
        """
        start, items, colours = self._entries()
        lo, hi = start[k], start[k + 1]
        return [
            (self.items_name(code), self.colours[c - 1] if c else None)
            for code, c in zip(items[lo:hi], colours[lo:hi])
        ]

    def option_text(self, k: int) -> str:
        """Option `k` as a line of Knuth's format, e.g. ``'a x:0'``
        (`csp.io.knuth.option_text`)."""
        return knuth.option_text(self, k)

    def arrays(self) -> dict[str, np.ndarray]:
        """The problem as flat int32 arrays, for the compiled backends (cached).

        `start` (n_options + 1 offsets), `items` and `colours` (one entry per
        item of each option); items `< n_primary` are primary.
        """
        if self._arrays is None:
            start, items, colours = self._entries()
            self._arrays = {
                "start": np.asarray(start, dtype=np.int32),
                "items": np.asarray(items, dtype=np.int32),
                "colours": np.asarray(colours, dtype=np.int32),
            }
        return self._arrays

    # -- checking ----------------------------------------------------------------

    def check(self, solution: Iterable[int]) -> list[str]:
        """What is wrong with `solution` (a collection of option indices); [] if valid.

        A pure-Python oracle, independent of every backend.

        Args:
            solution: the indices of the chosen options.

        Returns:
            One sentence per fault (an option chosen twice, an item covered
            twice or not at all, colours that disagree); empty if valid.

        >>> xc = ExactCover(["a", "b"])
        >>> _ = xc.add_option(["a"]), xc.add_option(["a", "b"])
        >>> xc.check([0])
        ['primary item b is not covered']
        """
        problems: list[str] = []
        chosen = list(solution)
        if len(set(chosen)) != len(chosen):
            problems.append("an option is chosen twice")
        covered: dict[int, tuple[int, int]] = {}
        times = [0] * len(self.primary)  # how often each primary item is covered
        n_primary = len(self.primary)
        least, most = self.multiplicities()
        lower, upper = least.tolist(), most.tolist()  # read per entry: plain ints are faster
        start, items, colours = self._entries()
        for k in chosen:
            if not (isinstance(k, (int, np.integer)) and 0 <= k < self.n_options):
                problems.append(f"no option {k!r}")
                continue
            lo, hi = start[k], start[k + 1]
            for code, colour in zip(items[lo:hi], colours[lo:hi]):
                if code < n_primary:
                    times[code] += 1
                    if times[code] == 2 and upper[code] == 1:
                        other = covered[code][0]
                        problems.append(f"primary item {_show(self.items_name(code))} is "
                                        f"covered by options {other} and {k}")
                if code not in covered:
                    covered[code] = (k, colour)
                    continue
                other, other_colour = covered[code]
                if code < n_primary:
                    continue
                name = _show(self.items_name(code))
                if colour == 0 or other_colour == 0:
                    problems.append(f"secondary item {name} is covered by options {other} and {k}")
                elif colour != other_colour:
                    problems.append(
                        f"secondary item {name} is covered by options {other} and {k} "
                        "with different colours"
                    )
        for code in range(n_primary):
            name = _show(self.primary[code])
            if times[code] == 0 and lower[code] == 1:
                problems.append(f"primary item {name} is not covered")
            elif times[code] < lower[code]:
                problems.append(f"primary item {name} is covered {times[code]} times, fewer "
                                f"than its least {lower[code]}")
            elif times[code] > upper[code] > 1:
                problems.append(f"primary item {name} is covered {times[code]} times, more "
                                f"than its most {upper[code]}")
        return problems

    def is_solution(self, solution: Iterable[int]) -> bool:
        """Whether `solution` (option indices) is a solution: `check` finds nothing."""
        return not self.check(solution)

    # -- Knuth's text format (csp.io.knuth) --------------------------------------

    @classmethod
    def from_text(cls, text: str, *, source: str | None = None,
                  warn: Callable[[str], None] | None = None) -> ExactCover:
        """Read Knuth's format: `csp.io.knuth.parse`.

        Args:
            text: the problem's text: the item line, then one option a line.
            source: the file's name, for error messages.
            warn: called with a message for each option dropped because it
                covers no primary item (as Knuth's programs drop it).

        Returns:
            The exact cover.

        Raises:
            InputError: a line that is not Knuth's format, naming it.

        >>> ExactCover.from_text("a b | x\\na x:0\\nb x:0\\n").option_text(1)
        'b x:0'
        """
        return knuth.parse(text, cls, source=source, warn=warn)

    @classmethod
    def read(cls, path: str | os.PathLike[str],
             warn: Callable[[str], None] | None = None) -> ExactCover:
        """Read a file in Knuth's format: `csp.io.knuth.read`.

        Args:
            path: the file (`.xc`, `.dlx`; `.gz`, `.bz2` and `.xz` are
                decompressed).
            warn: as in `from_text`.

        Returns:
            The exact cover, named after the file.

        Raises:
            InputError: a file that cannot be read, or is not Knuth's format.
        """
        return knuth.read(path, cls, warn=warn)

    def to_text(self) -> str:
        """This problem in Knuth's format: `csp.io.knuth.format`.

        >>> xc = ExactCover(["a"], ["x"])
        >>> _ = xc.add_option(["a", ("x", 1)])
        >>> print(xc.to_text(), end="")
        a | x
        a x:1
        """
        return knuth.format(self)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write this problem to `path` in Knuth's format: `csp.io.knuth.write`."""
        knuth.write(self, path)

    def covers_primary(self, entries: Iterable[Item]) -> bool:
        """Whether an option of these entries (item names, or (name, colour))
        covers a primary item: readers drop one that does not, as Knuth's
        programs do. An unknown item is an `InputError`, even in such an option.

        >>> ExactCover(["a"], ["x"]).covers_primary([("x", 0)])
        False
        """
        found = False
        for entry in entries:
            name = entry[0] if isinstance(entry, tuple) else entry
            code = self._index.get(name)
            if code is None:
                raise InputError(f"unknown item {_show(name)} in option", token=name)
            found = found or code < len(self.primary)
        return found


def _int_array(values: Any, what: str) -> np.ndarray:
    """`values` as a 1-D array of integers (int64 unless it is one already);
    anything else is an `InputError` naming `what`."""
    array = np.asarray(values)
    if array.ndim != 1 or not (array.size == 0 or np.issubdtype(array.dtype, np.integer)):
        raise InputError(f"{what} must be a one-dimensional array of integers")
    return array if array.dtype.kind == "i" else array.astype(np.int64)


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _show(name: object) -> str:
    return repr(name) if not isinstance(name, str) else name
