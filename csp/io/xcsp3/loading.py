"""Reading an XCSP3 file with pycsp3's parser, kept away from the caller's process.

pycsp3 (`pip install 'csp-workbench[xcsp3]'`) parses XCSP3 into entries
(`pycsp3.parser.xparser.ParserXCSP3`) and hands each constraint to a
`Callbacks` object (`CallbackerXCSP3`). Three of its habits must not reach a
program that reads a file through `csp`:

- importing `pycsp3` registers an `atexit` hook that compiles an empty model
  when the program ends, unless `-nocompile` is the last word of `sys.argv`,
  and it reads `sys.argv` as pycsp3 options: it is imported once, with
  `sys.argv` set aside, and its hook is unregistered;
- some errors call `exit(1)` (`SystemExit`) or fail an `assert`, and it prints
  on stdout: every parse runs with stdout captured, and any failure becomes an
  `InputError` naming the element and its line;
- every expression node is appended to a class-level list (`Node.all_nodes`)
  that is never read: it is cut back after each file.

The XML is read by the standard library's parser with a target that notes
each element's line (pycsp3's own `ElementTree.parse` keeps none), so a
constraint outside the subset is refused naming its line. pycsp3's parser is
slow on two things `csp` does not need: checking every tuple of a table for
template parameters, and putting every intension tree in canonical form;
the subclasses here skip both (tables are read by `_tuples`, trees are
converted as written).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import lzma
import re
import sys
import warnings
import xml.parsers.expat
from collections.abc import Callable, Iterator
from typing import Any
from xml.etree import ElementTree

from csp.errors import InputError

MAX_FILE_BYTES = 1 << 30
"""The most read from an XCSP3 file (1 GiB, decompressed)."""

INSTALL = "pip install 'csp-workbench[xcsp3]' (pycsp3)"

_pycsp3: dict[str, Any] = {}


def pycsp3_parts() -> dict[str, Any]:
    """pycsp3's parser classes, imported once with its side effects undone."""
    if _pycsp3:
        return _pycsp3
    ours = "pycsp3" not in sys.modules
    saved = sys.argv
    # Not console mode (argv[0] ends in .py) and -nocompile: no option parsing.
    sys.argv = ["csp-xcsp3-reader.py", "-nocompile"]
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycsp3 leaves a file open, ...
            import pycsp3
            from pycsp3.classes.auxiliary import conditions, enums
            from pycsp3.classes.main.variables import Variable
            from pycsp3.classes.nodes import Node, TypeNode
            from pycsp3.parser import callbacks, xentries, xparser
            from pycsp3.tools.utilities import ANY
    except ImportError as err:
        raise InputError(f"reading XCSP3 needs pycsp3 ({err}): {INSTALL}") from None
    except SystemExit:
        raise InputError(f"importing pycsp3 failed: {INSTALL}") from None
    finally:
        sys.argv = saved
    if ours:
        atexit.unregister(pycsp3.end)
    _pycsp3.update(xparser=xparser, callbacks=callbacks, xentries=xentries, Node=Node,
                   TypeNode=TypeNode, Variable=Variable, conditions=conditions, enums=enums,
                   ANY=ANY)
    return _pycsp3


def read_bytes(path: str) -> bytes:
    """The XML of `path`: decompressed when it is `.lzma` or `.xz`."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror}", source=path) from None
    if path.endswith((".lzma", ".xz")):
        try:
            decompressor = lzma.LZMADecompressor()
            raw = decompressor.decompress(raw, max_length=MAX_FILE_BYTES + 1)
        except lzma.LZMAError as err:
            raise InputError(f"not an lzma file, or a damaged one ({err})", source=path) from None
        if not decompressor.eof and len(raw) <= MAX_FILE_BYTES:
            raise InputError("the lzma file is truncated (it ends before its end marker)",
                             source=path)
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"the file is larger than {MAX_FILE_BYTES >> 20} MiB", source=path)
    return raw


def xml_tree(data: bytes) -> tuple[Any, dict[Any, int]]:
    """The element tree of `data` (the standard library's elements, as
    pycsp3 reads them; comments and processing instructions left out) and
    the line where each element starts."""
    builder = ElementTree.TreeBuilder()
    lines: dict[Any, int] = {}
    expat = xml.parsers.expat.ParserCreate()
    expat.buffer_text = True

    def start(tag: str, attrs: dict[str, str]) -> None:
        lines[builder.start(tag, attrs)] = expat.CurrentLineNumber

    expat.StartElementHandler = start
    expat.EndElementHandler = builder.end
    expat.CharacterDataHandler = builder.data
    try:
        expat.Parse(data, True)
        root = builder.close()
    except xml.parsers.expat.ExpatError as err:
        message = xml.parsers.expat.errors.messages.get(err.code, str(err))
        raise InputError(f"malformed XML: {message} (column {err.offset + 1})",
                         line=err.lineno) from None
    if root.tag != "instance":
        raise InputError(f"not an XCSP3 instance: the root element is <{root.tag}>, not "
                         "<instance>", line=lines.get(root))
    return ElementTree.ElementTree(root), lines


@contextlib.contextmanager
def guarded(what: Callable[[], str], line: Callable[[], int | None]) -> Iterator[None]:
    """Run pycsp3 code: its output captured, its failures an `InputError`
    saying `what()` (the element) at `line()`."""
    parts = pycsp3_parts()
    nodes = len(parts["Node"].all_nodes)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            yield
    except InputError as err:
        raise err.located(line=line() if err.line is None else None) from None
    except SystemExit:
        said = out.getvalue().strip().splitlines()
        raise InputError(f"{what()}: pycsp3 gave up" + (f" ({said[-1]})" if said else ""),
                         line=line()) from None
    except RecursionError:
        raise InputError(f"{what()}: nested too deeply", line=line()) from None
    except Exception as err:  # noqa: BLE001 - pycsp3 fails by assert, KeyError, ...
        raise InputError(f"{what()}: {_reason(err)}", line=line()) from None
    finally:
        del parts["Node"].all_nodes[nodes:]


def _reason(err: Exception) -> str:
    text = str(err).strip()
    if isinstance(err, KeyError):
        return f"unknown name {text}"
    if isinstance(err, AssertionError):
        return f"not understood ({text})" if text else "not understood (pycsp3 refused it)"
    return f"not understood ({type(err).__name__}: {text})" if text else \
        f"not understood ({type(err).__name__})"


def make_parser(tree: Any, lines: dict[Any, int]) -> Any:
    """pycsp3's `ParserXCSP3` over `tree` (its constructor's steps, with our
    tree), whose entries know their lines (`entry.line`; a group's
    `entry.args_lines`)."""
    parts = pycsp3_parts()
    xparser, xentries = parts["xparser"], parts["xentries"]

    class Parser(xparser.ParserXCSP3):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            self.map_for_vars: dict[str, Any] = {}
            self.map_for_arrays: dict[str, Any] = {}
            self.vEntries: list[Any] = []
            self.cEntries: list[Any] = []
            self.oEntries: list[Any] = []
            self.aEntries: list[Any] = []
            self.tree = tree
            self.discarded_classes: set[str] = set()
            variables = tree.findall("./variables/")
            with guarded(lambda: "<variables>", lambda: _first_bad(self, variables, lines)):
                self.parse_variables(variables)
            self.parse_constraints(tree.findall("./constraints/"))
            objectives = tree.find("./objectives")
            with guarded(lambda: "<objectives>", lambda: lines.get(objectives)):
                self.parse_objectives(tree.findall("./objectives/"))
            annotations = tree.find("./annotations")
            with guarded(lambda: "<annotations>", lambda: lines.get(annotations)):
                self.parse_annotations(tree.findall("./annotations/"))
            with guarded(lambda: "<instance>", lambda: None):
                self.compute_var_degrees()

        def parsing_of_constraints_outer(self, elt: Any, args: Any) -> Any:
            with guarded(lambda: f"<{elt.tag}>", lambda: lines.get(elt)):
                entry = super().parsing_of_constraints_outer(elt, args)
            entry.line = lines.get(elt)
            if elt.tag == "group":
                entry.args_lines = [lines.get(child) for child in elt[1:]]
            return entry

        def parsing_of_constraints_inner(self, elt: Any, args: Any) -> Any:
            if elt.tag == "extension" and len(elt) == 2 and not elt.attrib.get("type") and \
                    elt[1].tag in ("supports", "conflicts") and "%" not in (elt[1].text or ""):
                return _extension(self, elt, xentries, parts["enums"])
            return super().parsing_of_constraints_inner(elt, args)

    return Parser()


def _first_bad(parser: Any, elements: list[Any], lines: dict[Any, int]) -> int | None:
    """The line of the first variable declaration pycsp3 cannot read."""
    for element in elements:
        probe = object.__new__(type(parser))
        probe.tree, probe.discarded_classes = parser.tree, set()
        probe.map_for_vars, probe.map_for_arrays, probe.vEntries = {}, {}, []
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                probe.parse_variables([element])
        except Exception:  # noqa: BLE001 - found it
            return lines.get(element)
    return None


def _extension(parser: Any, elt: Any, xentries: Any, enums: Any) -> Any:
    """An `<extension>` whose tuples are read here: pycsp3 would check each
    for template parameters, which is most of its time on a large table."""
    ctr_arg, ctr_type = enums.TypeCtrArg, enums.TypeCtr
    scope = parser.parsing(ctr_arg.LIST, elt[0])
    fixed = all(isinstance(x, parts_variable()) for x in scope)  # else a template's %...
    tuples, starred = _tuples(elt[1].text or "", len(scope) if fixed else None)
    kind = ctr_arg.SUPPORTS if elt[1].tag == "supports" else ctr_arg.CONFLICTS
    table = xentries.XCtrArg(kind, [])
    entry = xentries.XCtr(ctr_type.EXTENSION, [xentries.XCtrArg(ctr_arg.LIST, scope), table])
    table.value = tuples  # set after: XCtr would look for parameters in every tuple
    if starred:
        table.flags.add("starred")
    return entry


_INTERVAL = re.compile(r"^(-?\d+)\.\.(-?\d+)$")


def parts_variable() -> type:
    return pycsp3_parts()["Variable"]  # type: ignore[no-any-return, unused-ignore]


def _tuples(text: str, arity: int | None) -> tuple[list[Any], bool]:
    """The tuples of a `<supports>` or `<conflicts>`: a list of tuples (a
    value `None` for `*`), or of values (ints and ranges) for one variable;
    `arity` values each (or all as many, when not known). Raises
    `ValueError` on a malformed one."""
    text = text.strip()
    if not text:
        return [], False
    if not text.startswith("("):
        values: list[Any] = []
        for token in text.split():
            interval = _INTERVAL.match(token)
            values.append(range(int(interval[1]), int(interval[2]) + 1) if interval
                          else int(token))
        return values, False
    body = "".join(text.split())
    if not body.endswith(")"):
        raise ValueError("a tuple is not closed by ')'")
    starred = "*" in body
    rows = []
    for chunk in body[1:-1].split(")("):
        row = tuple(None if v == "*" else int(v) for v in chunk.split(","))
        if arity is None:
            arity = len(row)
        if len(row) != arity:
            raise ValueError(f"the tuple ({chunk}) has {len(row)} values for {arity} variables")
        rows.append(row)
    return rows, starred


def make_callbacker(parser: Any, callbacks: Any) -> Any:
    """pycsp3's `CallbackerXCSP3` that passes intension trees as written
    (pycsp3 would put each in canonical form, most of its time on an instance
    of many intensions), and notes the line of the constraint it loads on
    `callbacks.line`."""
    xparser = pycsp3_parts()["xparser"]
    intension = pycsp3_parts()["enums"].TypeCtr.INTENSION

    class Callbacker(xparser.CallbackerXCSP3):  # type: ignore[misc, name-defined, unused-ignore]
        def load_group(self, group: Any) -> None:
            callbacks.group_lines = getattr(group, "args_lines", None)
            try:
                super().load_group(group)
            finally:
                callbacks.group_lines = None

        def load_templated_constraints(self, template: Any, all_args: Any) -> None:
            lines = callbacks.group_lines
            for k, args in enumerate(all_args):
                if lines is not None and k < len(lines):
                    callbacks.line = lines[k]
                template.id = None
                with guarded(lambda: "<group>", lambda: callbacks.line):
                    template.abstraction.concretize(args)
                self.load_ctr(template, keep_line=lines is not None)

        def load_slide(self, slide: Any) -> None:
            callbacks.line = getattr(slide, "line", None)
            with guarded(lambda: "<slide>", lambda: callbacks.line):
                super().load_slide(slide)

        def load_ctr(self, c: Any, keep_line: bool = False) -> Any:
            if not keep_line and getattr(c, "line", None) is not None:
                callbacks.line = c.line
            tag = str(c.type)
            with guarded(lambda: f"<{tag}>", lambda: callbacks.line):
                if c.type == intension and len(c.ctr_args) == 1:
                    return callbacks.ctr_intension(None, c.ctr_args[0].value)
                return super().load_ctr(c)

    return Callbacker(parser, callbacks)


def tree_of(data: bytes, source: str) -> tuple[Any, dict[Any, int]]:
    """`xml_tree`, errors located in `source`."""
    try:
        return xml_tree(data)
    except InputError as err:
        raise err.located(source=source) from None


__all__ = ["MAX_FILE_BYTES", "guarded", "make_callbacker", "make_parser", "pycsp3_parts",
           "read_bytes", "tree_of", "xml_tree"]
