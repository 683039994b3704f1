"""FlatZinc items declared into a `Model`: parameters, variables, arrays,
constraints by their builtins, the solve item and the output annotations.

Variables keep their FlatZinc names (a `csp_name("...")` annotation, which
`csp.io.flatzinc.write` puts on a variable whose name is not an identifier,
gives the name back). A variable declared equal to another (`var int: y =
x;`) is that variable; one declared equal to a value is a variable of that
one value. A `var int` without bounds takes them from the constraint that
defines it (`:: defines_var`, FlatZinc's functional constraints: a linear
equation, a product, an element, ...): a model's domains are finite.

`Program` keeps what printing a solution needs: the output annotations
(`output_var`, `output_array`) in the order of the declarations.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from csp.errors import InputError
from csp.io.flatzinc import bounds, builtins
from csp.io.flatzinc.grammar import Access, Annotation, Call, Declaration, Name, Solve
from csp.model import Model

MAX_DOMAIN = 1 << 22
"""The most values a variable's domain may have: the model keeps every one."""


@dataclass
class Output:
    """One output annotation: a variable (`output_var`) or an array
    (`output_array`, with its index sets), and the values printed: variables
    of the model or ints; `boolean` prints them as true/false."""

    name: str
    items: list[Any]
    boolean: bool
    dims: list[range] | None = None


@dataclass
class Program:
    """A FlatZinc file read: the model, what is printed, how it is solved."""

    model: Model
    outputs: list[Output] = field(default_factory=list)
    solve: str = "satisfy"
    objective: Any = None
    defined: set[Hashable] = field(default_factory=set)
    """The variables marked `is_defined_var`: functions of the others."""

    def free(self) -> list[Hashable]:
        """The variables neither printed nor defined by the others: where
        there are some, two solutions may print the same."""
        printed = {v.name for v in self.output_variables()}
        return [name for name in self.model.variables
                if name not in printed and name not in self.defined]

    def output_variables(self) -> list[Any]:
        """The model's variables that some output annotation prints (each once)."""
        seen: dict[Hashable, Any] = {}
        for output in self.outputs:
            for item in output.items:
                if hasattr(item, "domain"):
                    seen.setdefault(item.name, item)
        return list(seen.values())


class Builder:
    def __init__(self, name: str | None) -> None:
        self.model = Model(name)
        self.values: dict[str, Any] = {}  # name -> int, bool, set, list, or a Variable
        self.booleans: set[str] = set()  # the variables declared var bool
        self.program = Program(self.model)

    # -- expressions ---------------------------------------------------------------------

    def value(self, e: Any, where: Any) -> Any:
        """An expression with names resolved: a variable, an int (a bool as
        0/1 where a variable is), a set, or a list of those; `where` is the
        item it is in (its line, for an error)."""
        if isinstance(e, Name):
            try:
                return self.values[e.name]
            except KeyError:
                raise InputError(f"unknown name {e.name}", line=where.line,
                                 token=e.name) from None
        if isinstance(e, Access):
            array = self.values.get(e.name)
            if not isinstance(array, list):
                raise InputError(f"{e.name} is not an array", line=where.line, token=e.name)
            if not 1 <= e.index <= len(array):
                raise InputError(f"{e.name}[{e.index}] is out of its index set 1..{len(array)}",
                                 line=where.line, token=e.name)
            return array[e.index - 1]
        if isinstance(e, list):
            return [self.value(item, where) for item in e]
        return e

    # -- items ---------------------------------------------------------------------------

    def item(self, item: Any) -> None:
        if isinstance(item, Declaration):
            self.declaration(item)
        elif isinstance(item, Call):
            builtins.post(self, item)
        elif isinstance(item, Solve):
            self.program.solve = item.kind
            if item.objective is not None:
                self.program.objective = self.value(item.objective, item)

    def declaration(self, d: Declaration) -> None:
        if d.name in self.values:
            raise InputError(f"{d.name} is declared twice", line=d.line, token=d.name)
        if d.type.base == "float" and (d.type.var or d.value is None):
            raise InputError(f"{d.name}: float variables are outside what csp takes",
                             line=d.line, token=d.name)
        if d.type.base == "set" and d.type.var:
            raise InputError(f"{d.name}: set variables are outside what csp takes",
                             line=d.line, token=d.name)
        if not d.type.var:
            if d.value is None:
                raise InputError(f"the parameter {d.name} has no value", line=d.line,
                                 token=d.name)
            self.values[d.name] = _parameter(self.value(d.value, d))
            return
        if d.type.array is not None:
            self._array(d)
        else:
            self._variable(d)

    def _variable(self, d: Declaration) -> None:
        boolean = d.type.base == "bool"
        if d.value is not None:
            value = self.value(d.value, d)
            if hasattr(value, "domain"):  # an alias of another variable
                self.values[d.name] = value
                self._output(d, [value], boolean)
                return
            if isinstance(value, bool):
                value = int(value)
            domain: Any = [value]
        elif boolean:
            domain = (0, 1)
        else:
            domain = d.type.domain
        name = _csp_name(d) or d.name
        if domain is None:
            self.values[d.name] = _Unbounded(name, d)
            return
        variable = self._declare(name, domain, d)
        self.values[d.name] = variable
        if any(a.name == "is_defined_var" for a in d.annotations):
            self.program.defined.add(variable.name)
        if boolean:
            self.booleans.add(variable.name)
        self._output(d, [variable], boolean)

    def _declare(self, name: Hashable, domain: Any, d: Declaration) -> Any:
        if len(domain) > MAX_DOMAIN:
            raise InputError(f"the domain of {d.name} has {len(domain):,} values, over the "
                             f"{MAX_DOMAIN:,} csp keeps", line=d.line, token=d.name)
        try:
            return self.model.var(name, domain)
        except InputError as err:
            raise err.located(line=d.line) from None

    def _array(self, d: Declaration) -> None:
        if d.value is None:
            raise InputError(f"the array of variables {d.name} has no elements", line=d.line,
                             token=d.name)
        items = [int(v) if isinstance(v, bool) else v for v in self.value(d.value, d)]
        if len(items) != len(d.type.array or ()):
            raise InputError(f"{d.name} has {len(items)} elements for its index set "
                             f"{_shown(d.type.array)}", line=d.line, token=d.name)
        self.values[d.name] = items
        self._output(d, items, d.type.base == "bool")

    def _output(self, d: Declaration, items: list[Any], boolean: bool) -> None:
        for annotation in d.annotations:
            if annotation.name == "output_var":
                self.program.outputs.append(Output(d.name, items, boolean))
            elif annotation.name == "output_array":
                dims = annotation.args[0] if annotation.args else []
                if not isinstance(dims, list) or not all(isinstance(r, range) for r in dims):
                    raise InputError(f"{d.name}: output_array needs a list of index sets",
                                     line=d.line)
                self.program.outputs.append(Output(d.name, items, boolean, list(dims)))

    # -- unbounded variables --------------------------------------------------------------

    def bound(self, unbounded: Any, low: int, high: int) -> Any:
        """Declare an unbounded variable with the bounds its defining
        constraint gives."""
        variable = self._declare(unbounded.name, range(low, high + 1), unbounded.declaration)
        self.values[unbounded.declaration.name] = variable
        if any(a.name == "is_defined_var" for a in unbounded.declaration.annotations):
            self.program.defined.add(variable.name)
        self._output(unbounded.declaration, [variable], False)
        return variable

    def finish(self) -> Program:
        left = [v for v in self.values.values() if isinstance(v, _Unbounded)]
        if left:
            d = left[0].declaration
            raise InputError(f"the variable {d.name} is var int without bounds, and no "
                             "constraint defines it: csp needs finite domains", line=d.line,
                             token=d.name)
        return self.program


class _Unbounded:
    """A `var int` declared without a domain, until its defining constraint bounds it."""

    def __init__(self, name: Hashable, declaration: Declaration) -> None:
        self.name = name
        self.declaration = declaration


def is_unbounded(value: Any) -> bool:
    return isinstance(value, _Unbounded)


def _csp_name(d: Declaration) -> Hashable | None:
    for annotation in d.annotations:
        if annotation.name == "csp_name" and len(annotation.args) == 1:
            value = annotation.args[0]
            return value if isinstance(value, (str, int)) else None
    return None


def _parameter(value: Any) -> Any:
    return value


def _shown(index: range | None) -> str:
    return "none" if index is None else f"{index.start}..{index.stop - 1}"


def build(items: list[Any], name: str | None = None) -> Program:
    """The program of the items of a FlatZinc file: declarations first, then
    the unbounded variables bounded, then the constraints posted."""
    builder = Builder(name)
    calls = []
    for item in items:
        if isinstance(item, Call):
            calls.append(item)
        elif not isinstance(item, Solve):
            builder.item(item)
    _bound_all(builder, calls)
    for call in calls:
        builtins.post(builder, call)
    for item in items:
        if isinstance(item, Solve):
            builder.item(item)
    return builder.finish()


def _bound_all(builder: Builder, calls: list[Call]) -> None:
    """Declare every unbounded variable over the bounds its definition gives."""
    waiting = {id(v): v for v in builder.values.values() if isinstance(v, _Unbounded)}
    if not waiting:
        return
    defining: dict[int, list[Call]] = {key: [] for key in waiting}
    for call in calls:
        for annotation in call.annotations:
            if annotation.name == "defines_var" and annotation.args and \
                    isinstance(annotation.args[0], Name):
                target = builder.values.get(annotation.args[0].name)
                if id(target) in defining:
                    defining[id(target)].append(call)
    for call in calls:
        if call.name.removeprefix("fzn_") == "int_lin_eq":
            for target in builder.value(call.args[1], call):
                if id(target) in defining and call not in defining[id(target)]:
                    defining[id(target)].append(call)
    done: dict[int, Any] = {}
    progress = True
    while waiting and progress:
        progress = False
        for key, unbounded in list(waiting.items()):
            for call in defining[key]:
                span = _defined_span(builder, call, unbounded, done)
                if span is not None:
                    done[key] = builder.bound(unbounded, *span)
                    del waiting[key]
                    progress = True
                    break
    for value in builder.values.values():  # arrays hold the variables now declared
        if isinstance(value, list):
            value[:] = [done.get(id(v), v) if isinstance(v, _Unbounded) else v for v in value]


def _defined_span(builder: Builder, call: Call, target: _Unbounded, done: dict[int, Any]
                  ) -> tuple[int, int] | None:
    """The bounds `call` gives `target`, once its other arguments have some."""
    args = [builder.value(arg, call) for arg in call.args]

    def span(v: Any) -> Any:
        if isinstance(v, list):
            return [span(x) for x in v]
        v = done.get(id(v), v)
        if isinstance(v, bool):
            return (int(v), int(v))
        if isinstance(v, int):
            return (v, v)
        if isinstance(v, _Unbounded):
            raise LookupError
        if hasattr(v, "domain") and v.domain:
            return (v.domain[0], v.domain[-1])
        raise LookupError

    name = call.name.removeprefix("fzn_")
    try:
        if name == "int_lin_eq":
            xs = args[1]
            k = next(i for i, x in enumerate(xs) if x is target)
            spans = [(0, 0) if i == k else span(x) for i, x in enumerate(xs)]
            return bounds.linear(list(args[0]), spans, args[2], k)
        k = next(i for i, x in enumerate(args) if x is target)
        spans = [(0, 0) if i == k else span(x) for i, x in enumerate(args)]
        return bounds.interval(name, spans, k)
    except (LookupError, StopIteration, TypeError):
        return None


__all__ = ["MAX_DOMAIN", "Annotation", "Output", "Program", "build", "is_unbounded"]
