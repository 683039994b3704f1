"""The grammar of FlatZinc (the MiniZinc 2 specification's), read into items.

A FlatZinc file is a sequence of items, each ended by `;`:

    predicate NAME(PARAMS);                          (declared, ignored)
    TYPE: NAME ANNOTATIONS [= EXPR];                 (a parameter or a variable)
    constraint NAME(EXPR, ...) ANNOTATIONS;
    solve ANNOTATIONS satisfy | minimize EXPR | maximize EXPR;

with `%` comments to the end of a line. `parse` gives the items in order, each
with its line; a syntax error is an `InputError` naming the line and what
was expected. Expressions are read into Python values: ints, bools,
floats, strings, sets (`range` for `a..b`, `frozenset` for `{...}`), lists
for array literals, `Name` for an identifier, `Access` for `a[i]`, and
`Annotation` for `name(args)` in annotations.

>>> items = parse("var 1..3: x :: output_var;\\nconstraint int_ne(x, 2);\\nsolve satisfy;")
>>> [type(item).__name__ for item in items]
['Declaration', 'Call', 'Solve']
>>> items[0].type, items[1].args, items[1].line
(Type(var=True, base='int', domain=range(1, 4), array=None), [Name(name='x'), 2], 2)
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from csp.errors import InputError


class Lines:
    """The line of each token of a text, found only when one is asked for
    (an error, a message): a large file is tokenised once, without counting."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] = []
        self.newlines: list[int] = []

    def __call__(self, k: int) -> int:
        if not self.newlines:
            self.starts = [m.start() for m in _TOKEN.finditer(self.text)
                           if not m.group().startswith("%")]
            self.newlines = [m.start() for m in re.finditer("\n", self.text)] + [-1]
        if not self.starts:
            return 1
        at = self.starts[min(k, len(self.starts) - 1)]
        return bisect.bisect_left(self.newlines[:-1], at) + 1


@dataclass(frozen=True)
class Name:
    """An identifier in an expression."""

    name: str


@dataclass(frozen=True)
class Access:
    """`array[index]` (FlatZinc's arrays are indexed from 1)."""

    name: str
    index: int


@dataclass(frozen=True)
class Annotation:
    """`name(args)` (or `name` alone: no args) after `::`."""

    name: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Type:
    """A declaration's type: `var` or not, its base (`int`, `bool`, `float`,
    `set`), its domain if given (a `range`, a `frozenset`, or a (low, high)
    pair of floats), and for an array its index set (a `range`)."""

    var: bool
    base: str
    domain: Any = None
    array: range | None = None


@dataclass
class _Item:
    """An item: where it starts (its first token), its line when asked."""

    start: int = field(default=0, kw_only=True, repr=False, compare=False)
    lines: Lines | None = field(default=None, kw_only=True, repr=False, compare=False)

    @property
    def line(self) -> int:
        return self.lines(self.start) if self.lines is not None else 0


@dataclass
class Declaration(_Item):
    type: Type
    name: str
    annotations: list[Annotation]
    value: Any


@dataclass
class Call(_Item):
    """`constraint name(args) :: annotations;`"""

    name: str
    args: list[Any]
    annotations: list[Annotation]


@dataclass
class Solve(_Item):
    kind: str  # satisfy, minimize, maximize
    objective: Any
    annotations: list[Annotation]


_TOKEN = re.compile(r"""%[^\n]*|"(?:[^"\\\n]|\\.)*"
  |-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+|-?0x[0-9A-Fa-f]+|-?0o[0-7]+|-?\d+
  |[A-Za-z_][A-Za-z0-9_]*|\.\.|::|[:;,=()\[\]{}]|\S""", re.VERBOSE)

_KEYWORDS = {"array", "bool", "constraint", "false", "float", "int", "maximize", "minimize",
             "of", "predicate", "satisfy", "set", "solve", "true", "var"}
_SYMBOLS = {"..", "::", ":", ";", ",", "=", "(", ")", "[", "]", "{", "}"}


def kind(token: str) -> str:
    """What a token is: int, float, name, string, symbol, or bad."""
    c = token[0]
    if c.isdigit() or c == "-" and len(token) > 1:
        if "x" in token or "o" in token:
            return "int"
        return "float" if "." in token or "e" in token or "E" in token else "int"
    if c.isalpha() or c == "_":
        return "name"
    if c == '"':
        return "string"
    return "symbol" if token in _SYMBOLS else "bad"


def tokens(text: str) -> list[str]:
    """The tokens of `text`, comments left out."""
    return [t for t in _TOKEN.findall(text) if t[0] != "%"]


class _Parser:
    def __init__(self, text: str) -> None:
        self.texts = tokens(text)
        self.lines = Lines(text)
        self.at = 0

    # -- tokens ------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> str:
        k = self.at + ahead
        return self.texts[k] if k < len(self.texts) else ""

    def kind(self) -> str:
        return kind(self.texts[self.at]) if self.at < len(self.texts) else ""

    def line(self) -> int:
        return self.lines(self.at)

    def take(self) -> str:
        if self.at >= len(self.texts):
            raise InputError("the file ends in the middle of an item", line=self.line())
        text = self.texts[self.at]
        self.at += 1
        return text

    def expect(self, text: str, what: str) -> None:
        if self.peek() != text:
            raise self.error(f"{text!r} {what}")
        self.at += 1

    def error(self, expected: str) -> InputError:
        found = self.peek()
        if found and kind(found) == "bad":
            return InputError(f"unexpected character {found!r}", line=self.line(),
                              token=found)
        shown = repr(found) if found else "the end of the file"
        return InputError(f"expected {expected}, found {shown}", line=self.line(), token=found)

    def name(self, what: str) -> str:
        if self.kind() == "name" and self.texts[self.at] not in _KEYWORDS:
            return self.take()
        raise self.error(what)

    def integer(self) -> int:
        if self.kind() == "int":
            text = self.take()
            return int(text, 0) if "x" in text or "o" in text else int(text)
        raise self.error("an integer")

    # -- items -------------------------------------------------------------------------

    def items(self) -> list[Any]:
        found: list[Any] = []
        item: Any
        while self.at < len(self.texts):
            word = self.peek()
            start = self.at
            if word == "predicate":
                self._predicate()
                item = None
            elif word == "constraint":
                item = self._constraint()
            elif word == "solve":
                item = self._solve()
            else:
                item = self._declaration()
            if item is not None:
                item.start, item.lines = start, self.lines
                found.append(item)
            self.expect(";", "at the end of the item")
        return found

    def _predicate(self) -> None:
        self.take()
        depth = 0
        while True:  # a solver's predicate declaration: skipped to its ';'
            word = self.take()
            depth += word == "("
            depth -= word == ")"
            if self.peek() == ";" and depth == 0:
                return

    def _constraint(self) -> Call:
        self.take()
        name = self.name("the name of a constraint")
        self.expect("(", f"after {name}")
        args = self._list(")")
        return Call(name, args, self._annotations())

    def _solve(self) -> Solve:
        self.take()
        annotations = self._annotations()
        word = self.peek()
        if word not in ("satisfy", "minimize", "maximize"):
            raise self.error("satisfy, minimize or maximize")
        self.take()
        objective = self._expression() if word != "satisfy" else None
        return Solve(word, objective, annotations)

    def _declaration(self) -> Declaration:
        declared = self._type()
        self.expect(":", "after the type")
        name = self.name("the name being declared")
        annotations = self._annotations()
        value = None
        if self.peek() == "=":
            self.take()
            value = self._expression()
        return Declaration(declared, name, annotations, value)

    def _type(self) -> Type:
        array = None
        if self.peek() == "array":
            self.take()
            self.expect("[", "after array")
            low = self.integer()
            self.expect("..", "in the index set")
            high = self.integer()
            self.expect("]", "after the index set")
            self.expect("of", "after the index set")
            array = range(low, high + 1)
        var = self.peek() == "var"
        if var:
            self.take()
        word = self.peek()
        if word in ("int", "bool", "float"):
            self.take()
            return Type(var, word, None, array)
        if word == "set":
            self.take()
            self.expect("of", "after set")
            inner = self._type()
            return Type(var, "set", inner.domain, array)
        if word == "{" or self.kind() in ("int", "float"):
            domain = self._set_or_range()
            base = "float" if isinstance(domain, tuple) else "int"
            return Type(var, base, domain, array)
        raise self.error("a type (int, bool, float, set of int, a..b, {...})")

    def _set_or_range(self) -> Any:
        if self.peek() == "{":
            self.take()
            values = self._list("}")
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                raise InputError("a set of something other than integers", line=self.line())
            return frozenset(values)
        low = self._number()
        self.expect("..", "in a range")
        high = self._number()
        if isinstance(low, float) or isinstance(high, float):
            return (float(low), float(high))
        return range(low, high + 1)

    def _number(self) -> int | float:
        if self.kind() == "float":
            return float(self.take())
        return self.integer()

    # -- expressions ---------------------------------------------------------------------

    def _list(self, end: str) -> list[Any]:
        texts = self.texts
        values: list[Any] = []
        n = len(texts)
        if self.peek() == end:
            self.at += 1
            return values
        while True:
            at = self.at
            # the common case, an int or a name alone, read here: a list of a
            # large file holds thousands
            if at + 1 < n and texts[at + 1] in (",", end):
                token = texts[at]
                first = token[0]
                if (first.isdigit() or first == "-") and token.lstrip("-").isdigit():
                    values.append(int(token))
                    self.at = at + 1
                elif (first.isalpha() or first == "_") and token not in ("true", "false"):
                    values.append(Name(token))
                    self.at = at + 1
                else:
                    values.append(self._expression())
            else:
                values.append(self._expression())
            word = self.peek()
            if word == end:
                self.at += 1
                return values
            if word != ",":
                raise self.error(f"',' or {end!r}")
            self.at += 1

    def _expression(self) -> Any:
        sort = self.kind()
        word = self.peek()
        if sort == "int":
            if self.peek(1) == "..":
                return self._set_or_range()
            return self.integer()
        if sort == "float":
            if self.peek(1) == "..":
                return self._set_or_range()
            return float(self.take())
        if sort == "string":
            return _unquote(self.take())
        if word == "[":
            self.take()
            return self._list("]")
        if word == "{":
            return self._set_or_range()
        if word in ("true", "false"):
            self.take()
            return word == "true"
        if sort == "name":
            name = self.take()
            if self.peek() == "[":
                self.take()
                index = self.integer()
                self.expect("]", "after an index")
                return Access(name, index)
            if self.peek() == "(":
                self.take()
                return Annotation(name, tuple(self._list(")")))
            return Name(name)
        raise self.error("an expression")

    def _annotations(self) -> list[Annotation]:
        found = []
        while self.peek() == "::":
            self.take()
            value = self._expression()
            if isinstance(value, Name):
                value = Annotation(value.name)
            if not isinstance(value, Annotation):
                raise InputError(f"an annotation that is not a name: {value!r}",
                                 line=self.line())
            found.append(value)
        return found


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), text[1:-1])


def parse(text: str) -> list[Any]:
    """The items of a FlatZinc text (predicate declarations left out)."""
    return _Parser(text).items()


__all__ = ["Access", "Annotation", "Call", "Declaration", "Lines", "Name", "Solve", "Type",
           "kind", "parse", "tokens"]
