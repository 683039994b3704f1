"""The platform: backends registered at run time, capabilities that decide what
csp does with a backend, one dispatch layer, and the layering of the package.

The backends here wrap the built-ins under other names and other capability
sets, so that each test shows what a capability, not a name, changes.
"""

from __future__ import annotations

import ast
import pathlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import pytest

import csp
from csp import backends, dispatch, parallel
from csp.backends.base import COLOURS, CONSTRAINT_KINDS, SPLIT
from csp.backends.dlx import DLXBackend
from csp.exactcover import ExactCover
from csp.model import Model
from csp.problems import queens
from csp.result import Result

CSP = pathlib.Path(csp.__file__).parent


class Recording:
    """A model backend that runs `bitmask` and records what it was given."""

    name: ClassVar[str] = "recording"
    native: ClassVar[type] = Model
    accepts: ClassVar[tuple[type, ...]] = (Model,)
    capabilities: ClassVar[frozenset[str]] = frozenset({"Table"})

    def __init__(self) -> None:
        self.seen: list[set[str]] = []

    def _record(self, problem: Model) -> None:
        self.seen.append({c.kind for c in problem.constraints})

    def solutions(self, problem: Model, **limits: Any) -> Any:
        self._record(problem)
        return backends.get("bitmask").solutions(problem, **limits)

    def count(self, problem: Model, **limits: Any) -> Result:
        self._record(problem)
        return backends.get("bitmask").count(problem, **limits)


class Nothing(Recording):
    """A model backend that declares no constraint kind at all."""

    name: ClassVar[str] = "nothing"
    capabilities: ClassVar[frozenset[str]] = frozenset()


class Plain(DLXBackend):
    """Dancing links that declares neither colours nor splitting."""

    name: ClassVar[str] = "plain"
    capabilities: ClassVar[frozenset[str]] = frozenset()


class Splitter(DLXBackend):
    """Dancing links under another name, counting how often it is split."""

    name: ClassVar[str] = "splitter"
    capabilities: ClassVar[frozenset[str]] = frozenset({SPLIT, COLOURS})
    splits = 0

    def split(self, *args: Any, **kwargs: Any) -> Any:
        Splitter.splits += 1
        return super().split(*args, **kwargs)


@pytest.fixture
def registered():
    added: list[str] = []

    def register(backend: Any) -> Any:
        instance = backends.register(backend)
        added.append(instance.name)
        return instance

    yield register
    for name in added:
        backends.unregister(name)


def small_model() -> Model:
    m = Model("small")
    x, y, z = (m.var(name, range(1, 5)) for name in "xyz")
    m.add(csp.AllDifferent([x, y, z]))
    m.add(csp.Sum([x, y, z]) == 7)
    m.add(x != 1)
    return m


def coloured() -> ExactCover:
    return ExactCover.from_text("a b c | x\na x:0\nb x:0\nc x:1\nb c\n")


def test_a_registered_backend_is_used_everywhere(registered):
    registered(Splitter)
    assert "splitter" in backends.available() and backends.native_form("splitter") == "exact-cover"
    xc = queens.declare(queens.Queens(8))
    assert csp.count(xc, "splitter").count == 92
    assert len(list(csp.solutions(xc, "splitter", limit=3))) == 3
    assert csp.solve(xc, "splitter").backend == "splitter"
    assert csp.crosscheck(xc, backends=["splitter", "dlx"]).agree
    group = queens.symmetry(queens.Queens(8), xc)
    assert csp.count(xc, "splitter", up_to_symmetry=group).count == 12
    assert csp.count(small_model(), "splitter").count == csp.count(small_model()).count


def test_a_backend_object_goes_wherever_a_name_does():
    backend = Splitter()  # not registered
    xc = queens.declare(queens.Queens(6))
    assert csp.count(xc, backend).count == 4
    assert csp.crosscheck(xc, backends=[backend, "dlx"]).agree
    assert parallel.count(xc, backend, workers=1).count == 4
    assert "splitter" not in backends.known()


def test_registering_refuses_a_clash_or_a_bad_backend(registered):
    class Clash(Plain):
        name: ClassVar[str] = "dlx"

    with pytest.raises(csp.BackendUnavailable, match="exists already"):
        backends.register(Clash)

    class Broken:
        name = "broken"
        native = int
        accepts = (int,)
        capabilities = frozenset()

    with pytest.raises(csp.BackendUnavailable, match="no 'solutions'"):
        backends.register(Broken)
    with pytest.raises(csp.BackendUnavailable, match="neither ExactCover nor Model"):
        Broken.solutions = Broken.count = lambda *a, **k: None  # type: ignore[attr-defined]
        backends.register(Broken)
    registered(Plain)
    with pytest.raises(csp.BackendUnavailable, match="exists already"):
        backends.register(Plain)
    with pytest.raises(csp.BackendUnavailable, match="built in"):
        backends.unregister("dlx")


def test_a_declared_split_decides_how_parallel_counting_cuts(registered):
    registered(Splitter)
    xc = queens.declare(queens.Queens(8))
    Splitter.splits = 0
    with ThreadPoolExecutor(2) as pool:
        result = parallel.count(xc, "splitter", executor=pool)
    assert result.count == 92 and Splitter.splits > 0
    # Without `split` the exact cover is counted as a model split on values.
    plain = parallel.count(xc, Plain(), workers=1)
    assert plain.count == 92 and plain.stats.extra["subproblems"] > 1


def test_pruning_up_to_symmetry_follows_the_split_capability():
    xc = queens.declare(queens.Queens(8))
    group = queens.symmetry(queens.Queens(8), xc)
    split = csp.count(xc, Splitter(), up_to_symmetry=group)
    plain = csp.count(xc, Plain(), up_to_symmetry=group)
    assert split.count == plain.count == 12
    assert split.stats.extra["pruned"] > 0 and plain.stats.extra["pruned"] == 0


def test_constraints_a_backend_does_not_take_are_decomposed_into_tables():
    backend = Recording()
    expected = csp.count(small_model(), "bitmask").count
    assert csp.count(small_model(), backend).count == expected
    assert backend.seen == [{"Table"}]
    # The declared problem is untouched, and solutions come back in its terms.
    m = small_model()
    for solution in csp.solutions(m, backend):
        assert m.check(solution) == []
    assert len(m.constraints) == 3


def test_a_constraint_no_capability_covers_is_refused_before_solving():
    backend = Nothing()
    with pytest.raises(csp.InputError) as error:
        csp.count(small_model(), backend)
    message = str(error.value)
    assert "does not take constraint 1 (AllDifferent(x, y, z))" in message
    assert "bitmask" in message and "dlx" in message  # the backends that take it
    assert backend.seen == []  # refused before solving
    empty = Model()
    empty.var("x", [1, 2])
    assert csp.count(empty, backend).count == 2  # nothing to refuse


def test_colours_are_refused_by_a_backend_without_them():
    with pytest.raises(csp.InputError, match="does not take colours.*dlx"):
        csp.count(coloured(), Plain())
    plain = ExactCover.from_text("a b\na\nb\na b\n")
    assert csp.count(plain, Plain()).count == 2


def test_a_count_of_the_wrong_type_is_a_clear_error():
    class Liar(Plain):
        name: ClassVar[str] = "liar"

        def count(self, problem: Any, **limits: Any) -> Any:
            return 92

    with pytest.raises(csp.BackendUnavailable, match="'liar': count returned a int"):
        csp.count(queens.declare(queens.Queens(8)), Liar())
    assert backends.base.validate(Liar(), probe=True) == [
        "its count returned a int, not a csp.Result"]


def test_the_capabilities_of_the_built_ins_are_data():
    for name in backends.available():
        backend = backends.get(name)
        assert backends.base.validate(backend, probe=True) == []
        if backend.native is Model:
            assert CONSTRAINT_KINDS <= backend.capabilities, name
    assert SPLIT in backends.get("dlx").capabilities
    plan = dispatch.prepare(coloured(), "bitmask")
    assert type(plan.target) is Model and plan.count().count == 1


def test_the_old_extra_name_still_resolves():
    if "python-constraint" not in backends.available():
        pytest.skip("python-constraint2 not installed")
    assert backends.get("pyconstraint") is backends.get("python-constraint")


# -- the shape of the package -------------------------------------------------------------


def _modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in CSP.rglob("*.py"):
        parts = list(path.relative_to(CSP.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(path: pathlib.Path, modules: dict[str, pathlib.Path]) -> set[str]:
    """Every csp module `path` imports, at the top or inside a function
    (imports for type checking only excepted)."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(filter(None, (owner(alias.name) for alias in node.names)))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else owner(node.module) or "")
    found.discard("")
    return found


def test_no_import_circle():
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    circles = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                circles.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other, path + [other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_no_backend_is_named_outside_the_backends():
    names = set(backends.BUILTIN_NAMES)
    offenders = []
    for name, path in _modules().items():
        if name.startswith("csp.backends"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    if isinstance(side, ast.Constant) and side.value in names:
                        offenders.append(f"{path.name}:{node.lineno}")
                    if isinstance(side, (ast.Tuple, ast.List, ast.Set)) and any(
                            isinstance(e, ast.Constant) and e.value in names for e in side.elts):
                        offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
