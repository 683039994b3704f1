"""The puzzle library: one module per puzzle kind, each exposing a `Kind`.

A module reads, declares, decodes and prints its puzzles (`parse`,
`puzzles`, `declare`, `decode`, `format`) and exposes them as `KIND`, a
`csp.problems.Kind`. Other packages add kinds through the entry-point group
`csp.problems` (the value is a `Kind` object), or at run time through
`register(kind)`; `kinds()` lists them all, and a plug-in that fails to load
is listed by `broken()` with the reason.

>>> sorted(BUILTIN)  # doctest: +NORMALIZE_WHITESPACE
['futoshiki', 'hitori', 'kakuro', 'kenken', 'killer', 'langford', 'latin', 'lattice',
 'magic', 'nonogram', 'polycube', 'polyomino', 'queens', 'shikaku', 'skyscrapers',
 'starbattle', 'sudoku', 'wordsquare']
>>> get("queens").description
'N queens: the board size n, one per line (or `csp solve queens N`)'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from csp.errors import InputError
from csp.plugins import PluginGroup
from csp.problems.kind import Kind

GROUP = "csp.problems"
"""The entry-point group a package declares its puzzle kinds in."""

BUILTIN: dict[str, str] = {
    "sudoku": "csp.problems.sudoku",
    "kakuro": "csp.problems.kakuro",
    "shikaku": "csp.problems.shikaku",
    "polyomino": "csp.problems.polyomino",
    "queens": "csp.problems.queens",
    "lattice": "csp.problems.lattice",
    "langford": "csp.problems.langford",
    "latin": "csp.problems.latin",
    "magic": "csp.problems.magic",
    "polycube": "csp.problems.polycube",
    "futoshiki": "csp.problems.futoshiki",
    "killer": "csp.problems.killer",
    "kenken": "csp.problems.kenken",
    "wordsquare": "csp.problems.wordsquare",
    "nonogram": "csp.problems.nonogram",
    "skyscrapers": "csp.problems.skyscrapers",
    "starbattle": "csp.problems.starbattle",
    "hitori": "csp.problems.hitori",
}
"""Built-in kind -> the module whose `KIND` it is."""

KINDS = BUILTIN  # the name this mapping had before kinds were plug-ins

PLUGINS = PluginGroup(GROUP, "puzzle kind")
"""The entry points of `csp.problems`, read on first use."""

_plugins: dict[str, Kind] = {}
_broken = PLUGINS.broken
_registered: dict[str, Kind] = {}


def get(name: str) -> Kind:
    """The puzzle kind called `name`."""
    if name in BUILTIN:
        kind = importlib.import_module(BUILTIN[name]).KIND
        assert isinstance(kind, Kind)
        return kind
    if name in _registered:
        return _registered[name]
    found = _read_plugins()
    if name not in found:
        why = f" ({_broken[name]})" if name in _broken else ""
        raise InputError(f"unknown puzzle kind {name!r}{why}; the kinds are: "
                         f"{', '.join(names())}")
    return found[name]


def names() -> list[str]:
    """Every kind's name: the built-ins, those given to `register`, then the plug-ins."""
    return list(BUILTIN) + list(_registered) + [name for name in _read_plugins()
                                                if name not in _registered]


def kinds() -> dict[str, Kind]:
    """Every kind, by name."""
    return {name: get(name) for name in names()}


def broken() -> dict[str, str]:
    """The plug-in kinds that could not be loaded: name -> the reason."""
    _read_plugins()
    return dict(_broken)


def register(kind: Kind, *, replace: bool = False) -> Kind:
    """Add a puzzle kind at run time, as `csp.backends.register` adds a
    backend: `csp solve` (in this process), `get`, `kinds` and the author's
    tools then know it. A name already taken is an error unless `replace`
    (a built-in kind is never replaced). Returns the kind.

    >>> trivial = Kind(name="trivial", description="a word a line",
    ...                parse=str.split, declare=lambda word, form=None: None,
    ...                decode=lambda word, solution, problem: word,
    ...                format=lambda word, answer: answer)
    >>> register(trivial) is get("trivial")
    True
    >>> register(trivial)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    csp.errors.InputError: a puzzle kind named 'trivial' exists already (register()); ...
    >>> unregister("trivial")
    """
    if not isinstance(kind, Kind):
        raise InputError(f"cannot register a {type(kind).__name__}: a puzzle kind is a "
                         "csp.problems.Kind")
    if kind.name in BUILTIN:
        raise InputError(f"{kind.name!r} is a built-in puzzle kind and cannot be replaced")
    if kind.name in _registered and not replace:
        raise InputError(f"a puzzle kind named {kind.name!r} exists already (register()); "
                         "pass replace=True")
    if kind.name in _read_plugins() and not replace:
        raise InputError(f"a puzzle kind named {kind.name!r} exists already (a plug-in); "
                         "pass replace=True")
    _registered[kind.name] = kind
    return kind


def unregister(name: str) -> None:
    """Remove a kind added by `register`."""
    if name not in _registered:
        raise InputError(f"no puzzle kind {name!r} was registered")
    del _registered[name]


def reload() -> None:
    """Forget the plug-in kinds read so far, and those given to `register`
    (as `csp.backends.reload` does): the next call reads the entry points again
    (after installing or removing a plug-in in a running process)."""
    _plugins.clear()
    PLUGINS.reload()
    _registered.clear()


def describe() -> dict[str, str]:
    """Each kind's one-line description of its input format."""
    return {name: kind.description for name, kind in kinds().items()}


def _read_plugins() -> dict[str, Kind]:
    """The plug-in kinds (read and loaded on first use), each checked to be a `Kind`."""
    for plugin in PLUGINS.read():
        if plugin.name in BUILTIN or plugin.name in _plugins:
            PLUGINS.clash(plugin, "built-in" if plugin.name in BUILTIN else "plug-in read before")
            continue
        try:
            kind = plugin.load()
        except Exception as err:  # noqa: BLE001 - a broken plug-in is reported, not raised
            PLUGINS.refuse(plugin, f"it failed to load: {type(err).__name__}: {err}")
            continue
        if not isinstance(kind, Kind):
            PLUGINS.refuse(plugin, f"it is a {type(kind).__name__}, not a csp.problems.Kind")
        elif kind.name != plugin.name:
            PLUGINS.refuse(plugin, f"its name is {kind.name!r}")
        else:
            _plugins[plugin.name] = kind
    return _plugins


def paragraphs(text: str) -> Iterator[list[tuple[int, str]]]:
    """The blocks of non-blank lines of `text` (comments `#` skipped), each a
    list of (line number, stripped line): one puzzle per block.

    >>> [[n for n, _ in block] for block in paragraphs("a\\nb\\n\\n# c\\n\\nd\\n")]
    [[1, 2], [6]]
    """
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if line:
            block.append((number, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def read(kind: Kind, text: str, **options: Any) -> list[Any]:
    """The puzzles of `text`, each a puzzle or the `InputError` of a bad one; a
    parser that fails any other way (a plug-in's, say) ends the list with an
    error naming the kind, never a traceback. Raises the `InputError` that
    rejects the whole text.

    >>> [type(item).__name__ for item in read(get("queens"), "4\\n-1\\n")]
    ['Queens', 'InputError']
    """
    items: list[Any] = []
    try:
        for item in kind.parse(text, **options):
            items.append(item)
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - a failing parser is bad input for the user
        items.append(InputError(f"the {kind.name} parser failed after {len(items)} "
                                f"puzzle(s): {type(err).__name__}: {err}"))
    return items


def show(kind: str | Kind, puzzle: Any, answer: Any = None, marks: Iterable[Any] = ()) -> Any:
    """A picture of `puzzle` (solved, with `answer`; the cells `marks`
    highlighted) that Jupyter shows (`_repr_svg_`); `str()` of it is the SVG.

    >>> sudoku = get("sudoku")
    >>> [puzzle] = sudoku.parse("12.4..1.2...4..1")
    >>> picture = show("sudoku", puzzle)
    >>> picture._repr_svg_().count("<text")   # the 7 givens
    7
    """
    from csp.problems.pictures import Picture

    return Picture(draw(get(kind) if isinstance(kind, str) else kind, puzzle, answer,
                        tuple(marks)))


def draw(kind: Kind, puzzle: Any, answer: Any = None, marks: Iterable[Any] = ()) -> str:
    """`kind.draw(puzzle, answer, marks)`, or an `InputError` saying why there
    is no picture: the kind declares no `draw` (naming the kinds that do), or
    its `draw` failed."""
    if kind.draw is None:
        drawn = [name for name, other in kinds().items() if other.draw is not None]
        raise InputError(f"{kind.name} puzzles cannot be drawn: the kind declares no draw "
                         f"(the kinds that draw: {', '.join(drawn)})")
    try:
        svg = kind.draw(puzzle, answer, tuple(marks))
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - a plug-in's bug is reported, not a traceback
        raise InputError(f"the {kind.name} kind's draw failed: {type(err).__name__}: {err}"
                         ) from err
    if not isinstance(svg, str):
        raise InputError(f"the {kind.name} kind's draw returned a {type(svg).__name__}, "
                         "not the text of an SVG picture")
    return svg


def explain_uniqueness(kind: str | Kind, puzzle: Any, **options: Any) -> Any:
    """Why `puzzle` is not unique: see `csp.problems.uniqueness.explain`."""
    from csp.problems.uniqueness import explain

    return explain(get(kind) if isinstance(kind, str) else kind, puzzle, **options)


Puzzle = TypeVar("Puzzle")


def every(items: Iterable[Puzzle | InputError]) -> list[Puzzle]:
    """The puzzles `puzzles(text)` yields, raising the first `InputError` among
    them: what each module's `parse` returns.

    >>> every([1, 2])
    [1, 2]
    """
    found = []
    for item in items:
        if isinstance(item, InputError):
            raise item
        found.append(item)
    return found


__all__ = ["BUILTIN", "GROUP", "PLUGINS", "Kind", "broken", "describe", "draw", "every",
           "explain_uniqueness", "get", "kinds", "names", "paragraphs", "read", "register",
           "reload", "show", "unregister"]
