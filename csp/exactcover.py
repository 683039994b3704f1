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
import re
import stat
import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, BinaryIO

import numpy as np

from csp.errors import InputError, InputWarning, refuse_string

Item = Hashable
"""An item is named by any hashable; a coloured secondary item is `(name, colour)`."""


class ExactCover:
    """An exact-cover problem with colours: primary and secondary items, and options.

    Items are named by any hashable value. In `add_option`, a secondary item
    may be given as a `(name, colour)` pair. A name that is itself a declared
    item always means that item, so tuple-valued names stay usable.

    Declaring is linear in the size of the input: items are indexed once and
    options are stored as flat integer lists, ready for the compiled backends.
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
        """The least and most number of times each primary item must be covered
        (int32 arrays of `n_primary`, ones where no bounds were given)."""
        lower = np.ones(self.n_primary, dtype=np.int32)
        upper = np.ones(self.n_primary, dtype=np.int32)
        for item, (a, b) in self.bounds.items():
            code = self._index[item]
            lower[code], upper[code] = a, b
        return lower, upper

    # -- declaring -------------------------------------------------------------

    def add_option(self, items: Iterable[Item], data: Any = None) -> int:
        """Add an option covering `items`; return its index.

        An entry is an item name, or `(name, colour)` for a secondary item
        (`(name, None)` leaves it uncoloured).
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
        """The name of item number `code` (primary items first)."""
        n_primary = len(self.primary)
        return self.primary[code] if code < n_primary else self.secondary[code - n_primary]

    # -- reading options back ----------------------------------------------------

    def option(self, k: int) -> list[tuple[Item, Hashable]]:
        """Option `k` as a list of `(item name, colour or None)`."""
        start, items, colours = self._entries()
        lo, hi = start[k], start[k + 1]
        return [
            (self.items_name(code), self.colours[c - 1] if c else None)
            for code, c in zip(items[lo:hi], colours[lo:hi])
        ]

    def option_text(self, k: int) -> str:
        """Option `k` as a line of Knuth's format, e.g. ``'a x:0'``."""
        return _line(
            _name_token(name) if colour is None else f"{_name_token(name)}:{_colour_token(colour)}"
            for name, colour in self.option(k)
        )

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
        return not self.check(solution)

    # -- Knuth's text format -------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, *, source: str | None = None,
                  warn: Callable[[str], None] | None = None) -> ExactCover:
        """Read Knuth's format: comment lines start with `|`; the first other line
        names the items (primary, then a lone `|`, then secondary); every further
        line is an option, with `name:colour` for a coloured secondary item.

        A primary item may carry bounds, as Knuth's DLX3 reads them: `a:b|name`
        (covered between a and b times) or `b|name` (exactly b times). An
        option without a primary item is dropped with a warning, as Knuth's
        programs do: `warn(message)` if given, else an `InputWarning`.

        >>> xc = ExactCover.from_text("| tiny\\na b | x\\na x:0\\nb x:0\\n")
        >>> xc.primary, xc.secondary, xc.n_options
        (['a', 'b'], ['x'], 2)
        >>> xc.option_text(1)
        'b x:0'
        >>> ExactCover.from_text("2|r 0:1|c\\nr c\\nr\\n").bounds
        {'r': (2, 2), 'c': (0, 1)}
        """
        xc: ExactCover | None = None
        text = strip_boms(text)  # an editor's byte-order mark is not part of an item
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("|"):
                continue
            tokens = line.split()
            try:
                if xc is None:
                    xc = cls._from_item_line(tokens, source)
                    continue
                entries: list[Item] = []
                for token in tokens:
                    # A name has no ':', so the first one ends it; a colour may hold more.
                    name, colon, colour = token.partition(":")
                    if colon and (not name or not colour):
                        raise InputError(f"malformed item {token!r}", token=token)
                    entries.append((name, colour) if colon else token)
                if xc._has_primary(entries):
                    xc.add_option(entries, data=None)
                    continue
                where = ": ".join(filter(None, (source, f"line {number}")))
                message = f"{where}: option ignored (it has no primary item): {line[:80]}"
                if warn is None:
                    warnings.warn(message, InputWarning, stacklevel=2)
                else:
                    warn(message)
            except InputError as err:
                raise err.located(line=number, source=source) from None
        if xc is None:
            raise InputError("no items: the input has no item line", source=source)
        return xc

    def _has_primary(self, entries: list[Item]) -> bool:
        """Whether an option read from text covers a primary item; an unknown
        item is an error even in an option that would be dropped."""
        found = False
        for entry in entries:
            name = entry[0] if isinstance(entry, tuple) else entry
            code = self._index.get(name)
            if code is None:
                raise InputError(f"unknown item {_show(name)} in option", token=name)
            found = found or code < len(self.primary)
        return found

    @classmethod
    def _from_item_line(cls, tokens: list[str], source: str | None) -> ExactCover:
        # Knuth's reader takes `|name` as the separator and then a name.
        tokens = [part for token in tokens
                  for part in (["|", token[1:]] if token.startswith("|") and token != "|"
                               else [token])]
        if tokens.count("|") > 1:
            raise InputError("more than one '|' in the item line", token="|")
        if "|" in tokens:
            bar = tokens.index("|")
            primary, secondary = tokens[:bar], tokens[bar + 1 :]
        else:
            primary, secondary = tokens, []
        bounds: dict[Item, int | tuple[int, int]] = {}
        names: list[str] = []
        for token in primary:
            name, bound = _bounded_token(token)
            names.append(name)
            if bound is not None:
                bounds[name] = bound
        for token in secondary:
            if "|" in token:
                name = token.rpartition("|")[2]
                raise InputError(f"bounds on secondary item {name!r} ({token!r}): only a "
                                 "primary item has a multiplicity", token=token)
        for token in names + secondary:
            if ":" in token:
                raise InputError(f"item name {token!r} may not contain ':'", token=token)
            if token.startswith(BOM):
                # Written first in a file, it would be dropped as a byte-order mark.
                raise InputError(f"item name {token!r} starts with a byte-order mark (U+FEFF)",
                                 token=token)
        if not names:
            raise InputError("no primary items in the item line")
        return cls(names, secondary, name=os.path.basename(source) if source else None,
                   bounds=bounds)

    @classmethod
    def read(cls, path: str | os.PathLike[str],
             warn: Callable[[str], None] | None = None) -> ExactCover:
        """Read a file in Knuth's format (see `from_text`)."""
        path = os.fspath(path)
        return cls.from_text(read_text_file(path), source=path, warn=warn)

    def to_text(self) -> str:
        """This problem in Knuth's format. Items and colours are written with
        `str`, a tuple as its parts joined by commas (`("r", 3)` is `r,3`), so
        that `from_text` reads back the same problem, its names as strings. A
        name that cannot be a token (a space, a ':') or two names written
        alike are an `InputError`.

        >>> text = "a b c | x y\\na x:0\\nb x:0 y\\nc y:1\\na b x:1\\n"
        >>> ExactCover.from_text(text).to_text() == text
        True
        >>> print(ExactCover(["r", "d"], bounds={"r": 2, "d": (0, 2)}).to_text(), end="")
        2|r 0:2|d
        >>> xc = ExactCover([("r", 1), ("r", 2)], [("c", 1)])
        >>> _ = xc.add_option([("r", 1), (("c", 1), (0, 1))])
        >>> print(xc.to_text(), end="")
        r,1 r,2 | c,1
        r,1 c,1:0,1
        """
        if not self.primary:
            raise InputError("Knuth's format needs at least one primary item; this problem "
                             "has none")
        _check_distinct(self.items, _name_token, "item names")
        _check_distinct(self.colours, _colour_token, "colours")
        head = _line(_bounds_token(self.bounds.get(name)) + _name_token(name)
                     for name in self.primary)
        if self.secondary:
            head += " | " + " ".join(_name_token(name) for name in self.secondary)
        lines = [head] + [self.option_text(k) for k in range(self.n_options)]
        return "\n".join(lines) + "\n"

    def write(self, path: str | os.PathLike[str]) -> None:
        text = self.to_text()  # first, so that an unwritable name leaves no half-written file
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)


BOM = "\ufeff"
"""The byte-order mark some editors put at the start of a UTF-8 file."""

_LINE_START_BOMS = re.compile("^\ufeff+", re.MULTILINE)


def strip_boms(text: str) -> str:
    r"""`text` without byte-order marks at the start of its lines: `cat a.txt
    b.txt` keeps b's mark at the start of a line in the middle, where it would
    otherwise be read as a stray symbol.

    >>> strip_boms("\ufeffa b\n\ufeffc\nd \ufeffe\n")
    'a b\nc\nd \ufeffe\n'
    """
    return _LINE_START_BOMS.sub("", text)

MAX_INPUT_BYTES = 1 << 30
"""The most a reader takes in (1 GiB): far more than any problem that fits in
memory once declared, and a clear error, not an endless read, on a stream
without end such as `yes |`."""

_CHUNK = 1 << 20


def read_text_file(path: str) -> str:
    """The text of the file `path`, read as `decode_text` says.

    Regular files, pipes (`<(...)`, FIFOs), sockets and terminals are read; a
    device such as `/dev/zero` is refused before it is read, since it may never end.
    """
    try:
        with open(path, "rb") as handle:
            _check_readable_kind(handle.fileno(), path)
            raw = read_bounded(handle, path)
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror}", source=path) from None
    return decode_text(raw, path)


def _check_readable_kind(fd: int, path: str) -> None:
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd):
        return
    raise InputError(f"cannot read {path}: not a regular file or a pipe", source=path)


def read_bounded(stream: BinaryIO, source: str) -> bytes:
    """All of a binary stream, in chunks, refusing a binary or an oversized input
    as soon as it shows (so that `cat /dev/zero |` fails at once, not out of memory)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(_CHUNK):
        if b"\0" in chunk:
            raise InputError("this is a binary file, not text", source=source)
        size += len(chunk)
        if size > MAX_INPUT_BYTES:
            raise InputError(f"the input is larger than {MAX_INPUT_BYTES >> 20} MiB",
                             source=source)
        chunks.append(chunk)
    return b"".join(chunks)


def decode_text(raw: bytes, source: str) -> str:
    """Bytes of a text file as str; a binary or non-UTF-8 file is an `InputError`.

    Byte-order marks at the start of a line are dropped: they are not part of
    the text (the first is the file's; later ones come from concatenated files).
    """
    if b"\0" in raw:
        raise InputError("this is a binary file, not text", source=source)
    try:
        return strip_boms(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start})", source=source) from None


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


def _text(value: object) -> str:
    # A tuple's repr has spaces, which split tokens: join its parts by commas.
    if isinstance(value, tuple):
        return ",".join(_text(part) for part in value)
    return str(value)


def _check_distinct(values: Iterable[object], token: Callable[[object], str], what: str) -> None:
    """Refuse two values written as the same token: read back, they would be one."""
    seen: dict[str, object] = {}
    for value in values:
        text = token(value)
        if text in seen and seen[text] != value:
            raise InputError(f"{what} {seen[text]!r} and {value!r} would both be written "
                             f"{text!r} in Knuth's format", token=value)
        seen[text] = value


def _name_token(name: object) -> str:
    """An item name as a token: no space, no ':' (a token splits at its first ':'),
    no '|' (it would read as bounds, `a:b|name`), no leading byte-order mark (a
    reader drops one at the start of a file)."""
    text = _text(name)
    if not text or _has_space(text) or ":" in text or "|" in text or text.startswith(BOM):
        raise InputError(f"item name {name!r} cannot be written as a token of Knuth's format",
                         token=name)
    return text


_BOUNDS = re.compile(r"(?:([^:|]*):)?([^:|]*)\|(.*)")


def _bounded_token(token: str) -> tuple[str, tuple[int, int] | None]:
    """A primary item's token of the item line: its name, and its bounds if it
    has `a:b|` or `b|` in front (Knuth's DLX3).

    >>> _bounded_token("0:2|d1"), _bounded_token("2|r"), _bounded_token("r")
    (('d1', (0, 2)), ('r', (2, 2)), ('r', None))
    """
    if "|" not in token:
        return token, None
    match = _BOUNDS.fullmatch(token)
    if match is None or "|" in match[3]:
        raise InputError(f"malformed bounds {token!r}: write a:b|name or b|name",
                         token=token)
    name = match[3]
    if not name:
        raise InputError(f"no item name after the bounds in {token!r}", token=token)
    upper = _bound(match[2], name, token)
    lower = upper if match[1] is None else _bound(match[1], name, token)
    return name, (lower, upper)  # checked as any bounds are, by `set_bounds`


def _bound(text: str, name: str, token: str) -> int:
    if text.isdigit() and text.isascii():
        return int(text)
    if text.startswith("-") and text[1:].isdigit():
        raise InputError(f"item {name!r}: bound {text} is negative in {token!r}", token=token)
    raise InputError(f"item {name!r}: bound {text!r} is not a whole number in {token!r}",
                     token=token)


def _bounds_token(bound: tuple[int, int] | None) -> str:
    if bound is None:
        return ""
    lower, upper = bound
    return f"{upper}|" if lower == upper else f"{lower}:{upper}|"


def _colour_token(colour: object) -> str:
    """A colour as the part of a token after the first ':', which may hold more ':'."""
    text = _text(colour)
    if not text or _has_space(text):
        raise InputError(f"colour {colour!r} cannot be written in Knuth's format", token=colour)
    return text


def _has_space(text: str) -> bool:
    return any(ch.isspace() for ch in text)


def _line(tokens: Iterable[str]) -> str:
    line = " ".join(tokens)
    if line.startswith("|"):
        # Such a line would read back as a comment.
        raise InputError(f"a line of Knuth's format may not start with '|': {line[:60]!r}",
                         token=line.split()[0])
    return line
