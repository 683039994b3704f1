"""XCSP3: real instances read with their published counts, pycsp3 kept from
the caller's process, bad input refused with its line, and the writer read
back to the same model and count."""

from __future__ import annotations

import importlib.util
import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest

import csp
from csp import AllDifferent, Model
from csp.errors import InputError

if importlib.util.find_spec("pycsp3") is None:  # not importorskip: importing pycsp3
    # registers its atexit hook, which csp's reader (the only importer) undoes
    pytest.skip("reading XCSP3 needs pycsp3 (the xcsp3 extra)", allow_module_level=True)

from csp.io import xcsp3  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "xcsp3"
COUNTS = json.loads((DATA / "counts.json").read_text())["instances"]
ROOT = Path(__file__).resolve().parents[1]


def _quick() -> list[str]:
    return [name for name, known in COUNTS.items() if known.get("quick")]


@pytest.mark.parametrize("name", _quick())
def test_instances_count_as_ace_and_choco(name: str) -> None:
    model = xcsp3.read(DATA / name, warn=lambda message: None)
    result = csp.count(model, "cpsat")
    assert result.status is csp.Status.COMPLETE
    assert result.count == COUNTS[name]["count"] == COUNTS[name]["ace"] == COUNTS[name]["choco"]


@pytest.mark.parametrize("name", [name for name in COUNTS if name not in _quick()])
def test_the_longer_instances_are_read_and_solved(name: str) -> None:
    """Those counted in more than a few seconds (bench/bench_xcsp3.py counts
    them all): read, and a first solution found that every constraint holds."""
    model = xcsp3.read(DATA / name, warn=lambda message: None)
    first = next(iter(csp.solutions(model, "cpsat", time_limit=60)))
    assert model.is_solution(first)
    assert COUNTS[name]["ace"] == COUNTS[name]["choco"] > 0


def test_small_instances_agree_on_every_backend(csp_backend: str) -> None:
    for name in ["testExtension1.xml.lzma", "testPrimitive.xml.lzma", "Zebra.xml.lzma",
                 "MagicSequence-008-co.xml.lzma", "AllInterval-005.xml.lzma"]:
        model = xcsp3.read(DATA / name, warn=lambda message: None)
        found = list(csp.solutions(model, csp_backend, time_limit=60))
        assert len(found) == COUNTS[name]["count"], name
        assert all(model.is_solution(s) for s in found)


def test_arrays_keep_their_names_and_unconstrained_variables_are_left_out() -> None:
    said: list[str] = []
    model = xcsp3.read(DATA / "Kakuro-easy-000-ext.xml.lzma", warn=said.append)
    assert "x[1][2]" in model.variables and "x[0][0]" not in model.variables
    assert said and "18 variables in no constraint left out" in said[0]
    assert model.name == "Kakuro-easy-000-ext"


def test_objectives_are_refused_unless_ignored() -> None:
    with pytest.raises(InputError, match=r"line 22: the instance has an objective"):
        xcsp3.read(DATA / "testObjective1.xml.lzma")
    model = xcsp3.read(DATA / "testObjective1.xml.lzma", ignore_objective=True,
                       warn=lambda message: None)
    assert len(model.variables) == 15 and len(model.constraints) == 11


def test_outside_the_subset_is_refused_with_its_line() -> None:
    with pytest.raises(InputError, match="symbolic variable eggs"):
        xcsp3.read(DATA / "Allergy.xml.lzma")
    flow = """<instance format="XCSP3" type="CSP">
  <variables> <array id="x" size="[3]"> 0..2 </array> </variables>
  <constraints>
    <allDifferent> x[] </allDifferent>
    <cumulative>
      <origins> x[] </origins> <lengths> 1 1 1 </lengths> <heights> 1 1 1 </heights>
      <condition> (ge,1) </condition>
    </cumulative>
  </constraints>
</instance>"""
    with pytest.raises(InputError, match=r"line 5: cumulative with the condition ge"):
        xcsp3.parse(flow)
    loops = flow.replace("<cumulative>", "<circuit> x[] </circuit><cumulative>")
    with pytest.raises(InputError, match=r"line 5: circuit: x\[0\] may be its own successor"):
        xcsp3.parse(loops)
    unknown = flow.replace("(ge,1)", "(le,z)")
    with pytest.raises(InputError, match="line 5"):
        xcsp3.parse(unknown)


@pytest.mark.parametrize("text, message", [
    ("<instance><variables><var id='x'> 0..2 </var></variables>", "line 1: malformed XML"),
    ("<instance>\n<variables>\n<var id='x'> 0..2 </vr>\n</variables></instance>",
     "line 3: malformed XML: mismatched tag"),
    ("<foo/>", "not an XCSP3 instance: the root element is <foo>"),
    ("<instance><variables><var id='x'> 0..2 </var></variables><constraints>\n"
     "<intension> lt(x,y) </intension></constraints></instance>",
     "line 2: 'y' is not a variable of the instance"),
    ("<instance><variables>\n<var id='x'> 0..two </var></variables></instance>",
     "line 2: <variables>: not understood"),
    ("<instance><variables><var id='x'> 0..2 </var></variables><constraints>\n"
     "<extension> <list> x </list> <supports> (0,1) </supports></extension>"
     "</constraints></instance>", "has 2 values for 1 variables"),
    ("<instance><variables><var id='x'> 0..2 </var></variables><constraints>\n"
     "<intension> card(x) </intension></constraints></instance>",
     "line 2: <intension>: not understood|the operator card"),
])
def test_bad_input_names_the_line(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        xcsp3.parse(text)


def test_a_truncated_or_damaged_lzma_is_an_error(tmp_path: Path) -> None:
    whole = (DATA / "Queens-0008-m1.xml.lzma").read_bytes()
    cut = tmp_path / "cut.xml.lzma"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InputError, match="truncated"):
        xcsp3.read(cut)
    cut.write_bytes(b"not lzma at all")
    with pytest.raises(InputError, match="not an lzma file"):
        xcsp3.read(cut)
    plain = tmp_path / "queens.xml"
    plain.write_bytes(lzma.decompress(whole))
    assert csp.count(xcsp3.read(plain), "cpsat").count == 92


def test_pycsp3_never_touches_the_caller(tmp_path: Path) -> None:
    # In a fresh process: importing pycsp3 would compile an empty model at
    # exit (a file in the working directory, lines on stdout) and read argv.
    code = (
        "import sys; sys.argv = ['prog', '-data=oops']\n"
        "from csp.io import xcsp3\n"
        f"m = xcsp3.read({str(DATA / 'Queens-0008-m1.xml.lzma')!r})\n"
        "assert sys.argv == ['prog', '-data=oops'], sys.argv\n"
        "print(len(m.variables))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "8\n"
    assert list(tmp_path.iterdir()) == []


def test_pycsp3_exit_is_an_input_error() -> None:
    # pycsp3 2.6.1 fails on this slide of extensions (TypeError inside it)
    text = """<instance format="XCSP3" type="CSP">
  <variables> <array id="x" size="[4]"> 0..3 </array> </variables>
  <constraints>
    <slide>
      <list offset="2"> x[] </list>
      <extension> <list> %0 %1 </list> <supports> (0,1)(1,2) </supports> </extension>
    </slide>
  </constraints>
</instance>"""
    try:
        model = xcsp3.parse(text)
    except InputError as err:
        assert err.line == 4
    else:  # a later pycsp3 reads it: then it is read right
        assert csp.count(model, "cpsat").count >= 0


# -- writing -------------------------------------------------------------------------------


def _rich_model() -> Model:
    from csp import (
        AllDifferentExcept,
        Count,
        Div,
        Element,
        GlobalCardinality,
        Increasing,
        Inverse,
        LexLess,
        Maximum,
        Mod,
        Regular,
        Table,
    )

    m = Model()
    x = [m.var(f"x[{i}]", range(4)) for i in range(4)]
    y = [m.var(f"y[{i}][{j}]", range(1, 4)) for i in range(2) for j in range(2)]
    b = m.bool("flag")
    z = m.var(7, range(-3, 4))  # an int name
    m.add(AllDifferentExcept(x[:3], [0]))
    m.add(Table([x[0], x[1]], [(0, 1), (1, 2), (2, 3), (0, 0), (1, 0), (1, 3), (2, 0)]))
    m.add(b == (x[2] + x[3] <= 3))
    m.add((Element([y[0], y[1], 2], x[1]) == y[2]) | (Count(x, 0) >= 2))
    m.add(Maximum([z, x[3]]) != 2)
    m.add(Div(z, 2) + Mod(z, 3, rounding="zero") >= -1)
    m.add(z // 2 != x[0] - 2)
    m.add(Increasing([y[2], y[3]]))
    m.add(LexLess([x[0], x[1]], [x[2], x[3]]))
    m.add(GlobalCardinality(y, [1, 2], [x[0], 1]))
    m.add(Regular(y, [("a", 1, "a"), ("a", 2, "b"), ("b", 3, "b"), ("b", 1, "a")], "a", ["a"]))
    w = [m.var(f"w{i}", range(3)) for i in range(3)]
    v = [m.var(f"v{i}", range(3)) for i in range(3)]
    m.add(Inverse(w, v))
    return m


def test_writing_reads_back_the_same_count(tmp_path: Path) -> None:
    model = _rich_model()
    path = tmp_path / "rich.xml"
    ids = xcsp3.write(model, path)
    assert ids["x[1]"] == "x[1]" and ids["flag"] == "flag" and ids[7] == "v_1"
    back = xcsp3.read(path)
    assert set(back.variables) == {ids[name] for name in model.variables}
    assert csp.count(back, "cpsat").count == csp.count(model, "cpsat").count > 0


def test_writing_keeps_each_constraint_as_it_is() -> None:
    m = Model()
    x = [m.var(f"x[{i}]", range(3)) for i in range(3)]
    m.add(AllDifferent(x))
    m.add(x[0] + 2 * x[1] <= 4)
    back = xcsp3.parse(xcsp3.format(m))
    assert [c.describe() for c in back.constraints] == [c.describe() for c in m.constraints]


def test_connected_has_no_xcsp3_form() -> None:
    from csp import Connected

    m = Model()
    bs = [m.bool(f"b{i}") for i in range(3)]
    m.add(Connected(bs, [(0, 1), (1, 2)]))
    with pytest.raises(InputError, match="no form"):
        xcsp3.format(m)


@pytest.mark.skipif(not Path("/usr/bin/java").exists(), reason="ACE needs java")
def test_ace_reads_what_csp_writes(tmp_path: Path) -> None:
    model = _rich_model()
    path = tmp_path / "rich.xml"
    xcsp3.write(model, path)
    spec = importlib.util.find_spec("pycsp3")
    assert spec is not None and spec.origin is not None
    jar = Path(spec.origin).parent / "solvers" / "ace" / "ACE-2.6.jar"
    done = subprocess.run(["java", "-jar", str(jar), str(path), "-s=all", "-npc", "-jl=0",
                           "-t=60s"], capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert "d COMPLETE EXPLORATION" in [line.strip() for line in lines]
    found = [line for line in lines if line.startswith("d FOUND SOLUTIONS")]
    assert int(found[-1].split()[-1].replace(",", "")) == csp.count(model, "cpsat").count
