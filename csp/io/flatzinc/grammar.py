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
>>> items[0].type, items[1].args
(Type(var=True, base='int', domain=range(1, 4), array=None), [Name(name='x', line=2), 2])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from csp.errors import InputError


@dataclass(frozen=True)
class Name:
    """An identifier in an expression."""

    name: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Access:
    """`array[index]` (FlatZinc's arrays are indexed from 1)."""

    name: str
    index: int
    line: int = field(default=0, compare=False)


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
class Declaration:
    type: Type
    name: str
    annotations: list[Annotation]
    value: Any
    line: int


@dataclass
class Call:
    """`constraint name(args) :: annotations;`"""

    name: str
    args: list[Any]
    annotations: list[Annotation]
    line: int


@dataclass
class Solve:
    kind: str  # satisfy, minimize, maximize
    objective: Any
    annotations: list[Annotation]
    line: int


_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+) | (?P<newline>\n) | (?P<comment>%[^\n]*)
  | (?P<float>-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)
  | (?P<int>-?0x[0-9A-Fa-f]+|-?0o[0-7]+|-?\d+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<symbol>\.\.|::|[:;,=()\[\]{}])
  | (?P<bad>.)
""", re.VERBOSE)

_KEYWORDS = {"array", "bool", "constraint", "false", "float", "int", "maximize", "minimize",
             "of", "predicate", "satisfy", "set", "solve", "true", "var"}


def tokens(text: str) -> tuple[list[str], list[str], list[int]]:
    """The kinds, texts and lines of the tokens of `text`."""
    kinds: list[str] = []
    texts: list[str] = []
    lines: list[int] = []
    line = 1
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        assert kind is not None
        if kind == "newline":
            line += 1
        elif kind in ("space", "comment"):
            continue
        elif kind == "bad":
            raise InputError(f"unexpected character {match.group()!r}", line=line,
                             token=match.group())
        else:
            kinds.append(kind)
            texts.append(match.group())
            lines.append(line)
    return kinds, texts, lines


class _Parser:
    def __init__(self, text: str) -> None:
        self.kinds, self.texts, self.lines = tokens(text)
        self.at = 0

    # -- tokens ------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> str:
        k = self.at + ahead
        return self.texts[k] if k < len(self.texts) else ""

    def line(self) -> int:
        if self.at < len(self.lines):
            return self.lines[self.at]
        return self.lines[-1] if self.lines else 1

    def take(self) -> str:
        if self.at >= len(self.texts):
            raise InputError("the file ends in the middle of an item", line=self.line())
        text = self.texts[self.at]
        self.at += 1
        return text

    def expect(self, text: str, what: str) -> None:
        found = self.peek()
        if found != text:
            shown = repr(found) if found else "the end of the file"
            raise InputError(f"expected {text!r} {what}, found {shown}", line=self.line(),
                             token=found)
        self.at += 1

    def error(self, expected: str) -> InputError:
        found = self.peek()
        shown = repr(found) if found else "the end of the file"
        return InputError(f"expected {expected}, found {shown}", line=self.line(), token=found)

    def name(self, what: str) -> str:
        if self.at < len(self.kinds) and self.kinds[self.at] == "name" and \
                self.texts[self.at] not in _KEYWORDS:
            return self.take()
        raise self.error(what)

    def integer(self) -> int:
        if self.at < len(self.kinds) and self.kinds[self.at] == "int":
            text = self.take()
            return int(text, 0) if "x" in text or "o" in text else int(text)
        raise self.error("an integer")

    # -- items -------------------------------------------------------------------------

    def items(self) -> list[Any]:
        found: list[Any] = []
        while self.at < len(self.texts):
            word = self.peek()
            line = self.line()
            if word == "predicate":
                self._predicate()
            elif word == "constraint":
                found.append(self._constraint(line))
            elif word == "solve":
                found.append(self._solve(line))
            else:
                found.append(self._declaration(line))
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

    def _constraint(self, line: int) -> Call:
        self.take()
        name = self.name("the name of a constraint")
        self.expect("(", f"after {name}")
        args = self._list(")")
        return Call(name, args, self._annotations(), line)

    def _solve(self, line: int) -> Solve:
        self.take()
        annotations = self._annotations()
        kind = self.take()
        if kind not in ("satisfy", "minimize", "maximize"):
            self.at -= 1
            raise self.error("satisfy, minimize or maximize")
        objective = self._expression() if kind != "satisfy" else None
        return Solve(kind, objective, annotations, line)

    def _declaration(self, line: int) -> Declaration:
        declared = self._type()
        self.expect(":", "after the type")
        name = self.name("the name being declared")
        annotations = self._annotations()
        value = None
        if self.peek() == "=":
            self.take()
            value = self._expression()
        return Declaration(declared, name, annotations, value, line)

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
        if word == "{" or self.at < len(self.kinds) and self.kinds[self.at] in ("int", "float"):
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
        if self.at < len(self.kinds) and self.kinds[self.at] == "float":
            return float(self.take())
        return self.integer()

    # -- expressions ---------------------------------------------------------------------

    def _list(self, end: str) -> list[Any]:
        values: list[Any] = []
        if self.peek() == end:
            self.take()
            return values
        while True:
            values.append(self._expression())
            word = self.take()
            if word == end:
                return values
            if word != ",":
                self.at -= 1
                raise self.error(f"',' or {end!r}")

    def _expression(self) -> Any:
        kind = self.kinds[self.at] if self.at < len(self.kinds) else ""
        word = self.peek()
        line = self.line()
        if kind == "int":
            if self.peek(1) == "..":
                return self._set_or_range()
            return self.integer()
        if kind == "float":
            if self.peek(1) == "..":
                return self._set_or_range()
            return float(self.take())
        if kind == "string":
            return _unquote(self.take())
        if word == "[":
            self.take()
            return self._list("]")
        if word == "{":
            return self._set_or_range()
        if word in ("true", "false"):
            self.take()
            return word == "true"
        if kind == "name":
            name = self.take()
            if self.peek() == "[":
                self.take()
                index = self.integer()
                self.expect("]", "after an index")
                return Access(name, index, line)
            if self.peek() == "(":
                self.take()
                return Annotation(name, tuple(self._list(")")))
            return Name(name, line)
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


__all__ = ["Access", "Annotation", "Call", "Declaration", "Name", "Solve", "Type", "parse",
           "tokens"]
