"""FlatZinc: the grammar and its errors, each builtin's semantics against a
brute-force reading of the specification, real files compiled by MiniZinc
with Gecode's counts, the writer read back (and run by Gecode)."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest

import csp
from csp import Model
from csp.errors import InputError
from csp.io import flatzinc
from csp.io.flatzinc.output import read_solutions, solution_text

DATA = Path(__file__).resolve().parent / "data" / "flatzinc"
COUNTS = json.loads((DATA / "counts.json").read_text())["instances"]
GECODE = shutil.which("fzn-gecode")


def _distinct(program: flatzinc.Program) -> int:
    """The number of distinct printed solutions (as `csp fzn -a` lists them)."""
    over = program.output_variables()
    if program.free() and not over:
        return int(csp.count(program.model, "cpsat").count > 0)
    result = csp.count(program.model, "cpsat", over=over if program.free() else None)
    assert result.status is csp.Status.COMPLETE
    return result.count


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_compiled_models_count_as_gecode(name: str) -> None:
    program = flatzinc.read_program(DATA / name)
    assert _distinct(program) == COUNTS[name]["solutions"]


def test_a_small_file_agrees_on_every_backend(csp_backend: str) -> None:
    program = flatzinc.read_program(DATA / "costas-array-6.fzn")
    found = list(csp.solutions(program.model, csp_backend, time_limit=120))
    assert len(found) == 58 and all(program.model.is_solution(s) for s in found)


# -- the builtins, against their definitions --------------------------------------------


def _count(text: str) -> int:
    return csp.count(flatzinc.parse(text + "\nsolve satisfy;"), "python-constraint").count


def _brute(domains: dict[str, range], holds: object) -> int:
    names = list(domains)
    return sum(1 for values in itertools.product(*domains.values())
               if holds(**dict(zip(names, values))))  # type: ignore[operator]


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


BUILTIN_CASES = [
    ("var -4..4: a; var {-2, -1, 1, 3}: b; var -4..4: c; constraint int_div(a, b, c);",
     {"a": range(-4, 5), "b": [-2, -1, 1, 3], "c": range(-4, 5)},
     lambda a, b, c: _trunc_div(a, b) == c),
    ("var -4..4: a; var {-2, 3}: b; var -4..4: c; constraint int_mod(a, b, c);",
     {"a": range(-4, 5), "b": [-2, 3], "c": range(-4, 5)},
     lambda a, b, c: a - b * _trunc_div(a, b) == c),
    ("var 0..4: i; var 0..9: v; array [1..3] of int: t = [7, 2, 9];"
     "constraint array_int_element(i, t, v);",
     {"i": range(5), "v": range(10)}, lambda i, v: 1 <= i <= 3 and [7, 2, 9][i - 1] == v),
    ("var 1..3: i; var 0..2: x; var 0..2: y; var 0..2: v;"
     "constraint array_var_int_element(i, [x, y, 2], v);",
     {"i": range(1, 4), "x": range(3), "y": range(3), "v": range(3)},
     lambda i, x, y, v: [x, y, 2][i - 1] == v),
    ("var bool: p; var bool: q; var bool: r; constraint bool_clause([p, q], [r]);",
     {"p": range(2), "q": range(2), "r": range(2)}, lambda p, q, r: p or q or not r),
    ("var 0..3: x; var 0..3: y; var bool: r; constraint int_lin_le_reif([2, -1], [x, y], 1, r);",
     {"x": range(4), "y": range(4), "r": range(2)}, lambda x, y, r: (2 * x - y <= 1) == r),
    ("var 0..3: x; var bool: r; constraint set_in_reif(x, {1, 3}, r);",
     {"x": range(4), "r": range(2)}, lambda x, r: (x in (1, 3)) == r),
    ("var 0..3: x; var 0..3: y; var bool: r; constraint int_ne_imp(x, y, r);",
     {"x": range(4), "y": range(4), "r": range(2)}, lambda x, y, r: not r or x != y),
    ("var bool: p; var bool: q; var bool: r; constraint array_bool_xor([p, q, r]);",
     {"p": range(2), "q": range(2), "r": range(2)}, lambda p, q, r: (p + q + r) % 2 == 1),
    ("var bool: p; var bool: q; var bool: r; constraint array_bool_and([p, q], r);",
     {"p": range(2), "q": range(2), "r": range(2)}, lambda p, q, r: (p and q) == r),
    ("var bool: p; var 0..1: x; constraint bool2int(p, x);",
     {"p": range(2), "x": range(2)}, lambda p, x: p == x),
    ("var -2..2: x; var 0..4: y; constraint int_times(x, x, y);",
     {"x": range(-2, 3), "y": range(5)}, lambda x, y: x * x == y),
    ("var -2..2: x; var -2..2: y; var -2..2: z; constraint int_min(x, y, z);",
     {"x": range(-2, 3), "y": range(-2, 3), "z": range(-2, 3)}, lambda x, y, z: min(x, y) == z),
    ("var -2..2: x; var 0..2: y; constraint int_abs(x, y);",
     {"x": range(-2, 3), "y": range(3)}, lambda x, y: abs(x) == y),
    ("var 0..2: x; var 0..2: y; var 0..2: z; constraint all_different_int([x, y, z]);",
     {"x": range(3), "y": range(3), "z": range(3)}, lambda x, y, z: len({x, y, z}) == 3),
    ("var 0..2: x; var 0..2: y; constraint csp_table_int([x, y], [0, 1, 1, 2, 2, 2]);",
     {"x": range(3), "y": range(3)}, lambda x, y: (x, y) in [(0, 1), (1, 2), (2, 2)]),
    ("var 1..2: x; var 1..2: y; var 1..2: z;"
     "constraint csp_regular([x, y, z], 2, 2, [1, 2, 2, 0], 1, {1});",
     {"x": range(1, 3), "y": range(1, 3), "z": range(1, 3)},
     lambda x, y, z: _runs([x, y, z])),
    ("var 0..2: x; var 0..2: y; var 0..2: z; var 0..3: k;"
     "constraint fzn_global_cardinality([x, y, z], [1], [k]);",
     {"x": range(3), "y": range(3), "z": range(3), "k": range(4)},
     lambda x, y, z, k: [x, y, z].count(1) == k),
]


def _runs(word: list[int]) -> bool:
    """The automaton of the regular case: state 1 reads 1 (stays) or 2 (to
    state 2); state 2 reads 1 (to 2) and dies on 2; accepting 1."""
    state = 1
    for symbol in word:
        state = {(1, 1): 1, (1, 2): 2, (2, 1): 2}.get((state, symbol), 0)
        if state == 0:
            return False
    return state == 1


@pytest.mark.parametrize("text, domains, holds", BUILTIN_CASES,
                         ids=[case[0].split("constraint ")[1].split("(")[0]
                              for case in BUILTIN_CASES])
def test_builtins_mean_what_the_specification_says(text: str, domains: dict, holds: object
                                                  ) -> None:
    assert _count(text) == _brute(domains, holds)


def test_unbounded_variables_take_the_bounds_of_their_definition() -> None:
    program = flatzinc.parse_program("""
var 1..3: x :: output_var;
var 2..5: y :: output_var;
var int: s :: is_defined_var :: output_var;
var int: p :: is_defined_var;
constraint int_lin_eq([1, 1, -1], [x, y, s], 0) :: defines_var(s);
constraint int_times(s, x, p) :: defines_var(p);
constraint int_le(p, 10);
solve satisfy;""")
    model = program.model
    assert model.variables["s"].domain == tuple(range(3, 9))
    assert model.variables["p"].domain == tuple(range(3, 25))
    assert csp.count(model).count == _brute({"x": range(1, 4), "y": range(2, 6)},
                                            lambda x, y: (x + y) * x <= 10)
    with pytest.raises(InputError, match="line 1: the variable z is var int without bounds"):
        flatzinc.parse("var int: z;\nsolve satisfy;")


@pytest.mark.parametrize("text, message", [
    ("var 1..3: x\nsolve satisfy;", "line 2: expected ';' at the end of the item, found 'solve'"),
    ("var 1..3: x;\nconstraint int_le(x, 2;\nsolve satisfy;", "line 2: expected ',' or '\\)'"),
    ("var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;", "line 2: unknown name y"),
    ("var 1..3: x;\nconstraint my_own(x);\nsolve satisfy;",
     "line 2: my_own: a builtin csp does not know"),
    ("var 1..3: x;\nconstraint float_le(x, 2);\nsolve satisfy;", "line 2: float_le: a float"),
    ("var set of 1..3: s;\nsolve satisfy;", "line 1: s: set variables are outside"),
    ("var float: f;\nsolve satisfy;", "line 1: f: float variables are outside"),
    ("var 1..3: x;\nsolve minimize x;", "line 2: solve minimize: csp solves and counts"),
    ("var 1..3: x;", "no solve item"),
    ("var 1..3: x $;\nsolve satisfy;", "line 1: unexpected character '\\$'"),
    ("array [1..2] of int: a = [1, 2, 3];\nsolve satisfy;", ""),
    ("array [1..2] of var int: a = [1];\nsolve satisfy;",
     "line 1: a has 1 elements for its index set 1..2"),
    ("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;", "line 2: int_le: arguments"),
])
def test_bad_input_names_the_line(text: str, message: str) -> None:
    if not message:  # a parameter array's length is the writer's business: read as given
        flatzinc.parse(text)
        return
    with pytest.raises(InputError, match=message):
        flatzinc.parse(text)


def test_minimize_is_read_when_the_objective_is_ignored() -> None:
    model = flatzinc.parse("var 1..3: x;\nsolve minimize x;", ignore_objective=True)
    assert csp.count(model).count == 3


def test_output_annotations_print_as_solvers_do() -> None:
    program = flatzinc.read_program(DATA / "latin-squares-03.fzn")
    solution = csp.solve(program.model, "cpsat").solution
    text = solution_text(program, solution)
    assert text.startswith("a = array2d(1..3, 1..3, [") or "= array" in text
    solutions, status = read_solutions(text + "\n----------\n==========\n")
    assert status == "complete" and len(solutions) == 1


# -- writing ---------------------------------------------------------------------------------


def _model() -> Model:
    from csp import Element, GlobalCardinality, Maximum, Regular, Table

    m = Model()
    x = [m.var(f"x[{i}]", range(1, 4)) for i in range(4)]
    b = m.bool("b")
    m.add(csp.AllDifferent(x[:3]))
    m.add(Table([x[0], x[3]], [(1, 1), (2, 3), (3, 2)]))
    m.add(b == ((x[0] + x[1] <= 4) | (x[2] != 3)))
    m.add(Element([x[1], x[2], 2], x[0] - 1) == x[3])
    m.add(Maximum([x[0], x[1]]) >= 2)
    m.add(GlobalCardinality(x, [1, 2], [1, m.var(5, range(3))]))
    m.add(Regular(x, [(0, 1, 0), (0, 2, 1), (1, 3, 1), (1, 1, 0), (0, 3, 0)], 0, [0, 1]))
    return m


def test_writing_reads_back_the_same_model_and_count() -> None:
    model = _model()
    text = flatzinc.format(model)
    back = flatzinc.parse(text)
    assert set(model.variables) <= set(back.variables)
    assert csp.count(back, "cpsat", over=list(model.variables)).count == \
        csp.count(model, "cpsat").count > 0
    plain = Model()
    y = [plain.var(f"y{i}", range(3)) for i in range(3)]
    plain.add(csp.AllDifferent(y))
    plain.add(y[0] + 2 * y[1] >= 2)
    again = flatzinc.parse(flatzinc.format(plain))
    assert list(again.variables) == ["y0", "y1", "y2"]
    assert [c.describe() for c in again.constraints] == \
        ["AllDifferent(y0, y1, y2)", "Linear(-1*y0 - 2*y1 <= -2)"]


@pytest.mark.parametrize("allowed", [100_000, 0], ids=["as-allowed", "as-clauses"])
def test_forbidden_tables_are_written_both_ways(allowed: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from csp import Table
    from csp.io.flatzinc import writing

    monkeypatch.setattr(writing, "ALLOWED_TUPLES", allowed)
    for rows, arity in [([(1,)], 1), ([(0, 1), (1, 1)], 2), ([], 2), ([(0, 0, 0)], 3)]:
        m = Model()
        xs = [m.var(f"x{i}", range(2)) for i in range(arity)]
        m.add(Table(xs, rows, forbidden=True))
        back = flatzinc.parse(flatzinc.format(m))
        assert csp.count(back, over=list(m.variables)).count == 2 ** arity - len(rows)


@pytest.mark.skipif(GECODE is None, reason="fzn-gecode (Debian's flatzinc) is not installed")
def test_gecode_reads_what_csp_writes(tmp_path: Path) -> None:
    model = _model()
    path = tmp_path / "model.fzn"
    ids = flatzinc.write(model, path, dialect="gecode")
    done = subprocess.run([GECODE, "-a", str(path)], capture_output=True, text=True, timeout=120)
    solutions, status = read_solutions(done.stdout)
    assert status == "complete", done.stderr
    assert len(solutions) == csp.count(model, "cpsat").count
    for solution in solutions:  # Gecode's solutions, in the model's names, are solutions
        assert model.is_solution({name: int(solution[ids[name]]) for name in model.variables})
