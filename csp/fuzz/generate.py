"""Random small problems for fuzzing, kept as plain data (*specs*).

A spec is a frozen description that builds the problem (`build()`), writes
it out (`text()`: Knuth's format; `source()`: a Python snippet) and lists
the smaller specs a shrinker may try (`smaller()`). Keeping the instance as
data, not as an `ExactCover` or a `Model`, is what makes shrinking simple: a
smaller spec is the same spec with one thing left out.

Every instance comes from its own `random.Random`, seeded by the campaign's
seed and the instance's index, so `instance(seed, i)` is the same instance
on every machine and any one of them can be replayed alone.

>>> form, spec = instance(7, 0)
>>> form == instance(7, 0)[0] and spec == instance(7, 0)[1]
True
>>> cover = random_cover(random.Random(1))
>>> type(cover.build()).__name__, cover.build().to_text() == cover.text()
('ExactCover', True)
>>> model = random_model(random.Random(1))
>>> type(model.build()).__name__
'Model'

The models are drawn by `csp.fuzz.models`: every kind of constraint of the
model language, logic and reification among them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from csp.exactcover import ExactCover
from csp.fuzz.models import KINDS, ConstraintSpec, ModelSpec, VarSpec, _cuts, random_model

FORMS = ("exact-cover", "model")
"""The two forms of a problem, as the rest of csp names them."""

COLOURS = ("red", "green", "blue")

Entry = tuple[str, "str | None"]
"""An item of an option, with its colour (None: uncoloured)."""


def instance(seed: int, index: int,
             forms: Sequence[str] = FORMS) -> tuple[str, CoverSpec | ModelSpec]:
    """Instance `index` of the campaign `seed`: its form and its spec."""
    rng = random.Random(f"csp-fuzz:{seed}:{index}")  # a str seed is hashed the same everywhere
    form = forms[int(rng.random() * len(forms))]  # one draw, however many forms
    return form, random_cover(rng) if form == "exact-cover" else random_model(rng)


# -- exact covers ----------------------------------------------------------------------


@dataclass(frozen=True)
class CoverSpec:
    """An exact cover with colours and multiplicities: item names, options as
    (item, colour) lists, and `bounds` (item, least, most) of some primary
    items (Knuth's DLX3: covered between least and most times)."""

    primary: tuple[str, ...]
    secondary: tuple[str, ...]
    options: tuple[tuple[Entry, ...], ...]
    bounds: tuple[tuple[str, int, int], ...] = ()

    def build(self) -> ExactCover:
        xc = ExactCover(self.primary, self.secondary,
                        bounds={item: (least, most) for item, least, most in self.bounds})
        for option in self.options:
            xc.add_option([name if colour is None else (name, colour) for name, colour in option])
        return xc

    def text(self) -> str:
        """The cover in Knuth's format (what `csp xc` and `csp crosscheck` read)."""
        return self.build().to_text()

    def size(self) -> str:
        return (f"{len(self.primary)}+{len(self.secondary)} items, "
                f"{len(self.options)} options")

    def smaller(self) -> Iterator[CoverSpec]:
        """Every simplification, the largest cuts first: options (by halves,
        then one by one), items, an item of one option, a colour, a bound."""
        for keep in _cuts(len(self.options)):
            yield replace(self, options=tuple(self.options[k] for k in keep))
        if len(self.primary) > 1:
            for item in self.primary:
                yield self._without_item(item)
        for item in self.secondary:
            yield self._without_item(item)
        for k, option in enumerate(self.options):
            for j in range(len(option)):
                rest = option[:j] + option[j + 1:]
                if any(name in self.primary for name, _ in rest):
                    yield self._with_option(k, rest)
        for k, option in enumerate(self.options):
            for j, (name, colour) in enumerate(option):
                if colour is not None:
                    yield self._with_option(k, option[:j] + ((name, None),) + option[j + 1:])
        for k in range(len(self.bounds)):
            yield replace(self, bounds=self.bounds[:k] + self.bounds[k + 1:])

    def _without_item(self, item: str) -> CoverSpec:
        options = []
        for option in self.options:
            rest = tuple(entry for entry in option if entry[0] != item)
            if any(name in self.primary and name != item for name, _ in rest):
                options.append(rest)  # an option left without a primary item goes
        return CoverSpec(tuple(i for i in self.primary if i != item),
                         tuple(i for i in self.secondary if i != item), tuple(options),
                         tuple(bound for bound in self.bounds if bound[0] != item))

    def _with_option(self, k: int, option: tuple[Entry, ...]) -> CoverSpec:
        return replace(self, options=self.options[:k] + (option,) + self.options[k + 1:])


def random_cover(rng: random.Random) -> CoverSpec:
    """A small random exact cover: 1-6 primary items, 0-3 secondary ones
    (coloured or not), 1-10 options of 1-3 primary and 0-3 secondary items;
    one cover in three has bounds on one or two primary items."""
    primary = [f"p{i}" for i in range(rng.randint(1, 6))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 3))]
    options = []
    for _ in range(rng.randint(1, 10)):
        entries: list[Entry] = [(name, None) for name in
                                rng.sample(primary, rng.randint(1, min(3, len(primary))))]
        for name in rng.sample(secondary, rng.randint(0, len(secondary))):
            entries.append((name, rng.choice((None, *COLOURS))))
        options.append(tuple(entries))
    # Drawn last, so that the rest of the instance is that of the seed without bounds.
    bounds = []
    if rng.random() < 1 / 3:
        for item in rng.sample(primary, min(len(primary), rng.randint(1, 2))):
            least, most = sorted((rng.randint(0, 3), rng.randint(1, 3)))
            if (least, most) != (1, 1):
                bounds.append((item, least, most))
    return CoverSpec(tuple(primary), tuple(secondary), tuple(options), tuple(bounds))


__all__ = ["FORMS", "KINDS", "ConstraintSpec", "CoverSpec", "ModelSpec", "VarSpec", "instance",
           "random_cover", "random_model"]
