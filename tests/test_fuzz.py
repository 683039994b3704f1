"""`csp fuzz`: the generator covers what it promises, a deliberately wrong
plug-in backend is found and shrunk to a small instance, the findings are
written so that they reproduce, and a slow or hung backend never hangs it."""

from __future__ import annotations

import runpy
import sys
import time
from collections import Counter
from typing import Any, ClassVar

import pytest
from buggy_backends import ColourBlind, DropsOne, XorAsOr

import csp
from csp import ExactCover, Model, Status, backends
from csp.backends.base import ALL_CONSTRAINT_KINDS, OUTSIDE, Search
from csp.backends.dlx import DLXBackend
from csp.cli import main
from csp.fuzz import compare, fuzz
from csp.fuzz.generate import FORMS, KINDS, CoverSpec, ModelSpec, instance
from csp.fuzz.models import KIND_TAGS, kinds
from csp.testing import permutations_model

INSIDE = [name for name in backends.engines() if OUTSIDE not in backends.get(name).capabilities]
"""The available backends that run in this process."""


class Hangs(DLXBackend):
    """A backend that ignores its time limit."""

    name: ClassVar[str] = "hangs"

    def solutions(self, problem: Any, **limits: Any) -> Search:
        time.sleep(60)
        raise AssertionError("the watchdog should have stopped this")


@pytest.fixture
def wrong() -> Any:
    backends.register(DropsOne)
    yield "drops-one"
    backends.unregister("drops-one")


def test_instances_are_reproducible_and_cover_every_feature() -> None:
    seen: Counter[str] = Counter()
    for index in range(400):
        form, spec = instance(11, index)
        assert (form, spec) == instance(11, index)
        problem = spec.build()  # every generated instance is valid
        seen[form] += 1
        if isinstance(spec, CoverSpec):
            assert isinstance(problem, ExactCover)
            assert ExactCover.from_text(spec.text()).to_text() == spec.text()
            seen["secondary"] += bool(spec.secondary)
            seen["colours"] += bool(problem.colours)
            seen["bounds"] += bool(problem.bounds)
        else:
            assert isinstance(spec, ModelSpec) and isinstance(problem, Model)
            seen.update(c.kind for c in spec.constraints)
            seen["negative"] += any(x < 0 for v in spec.variables for x in v.domain)
            seen["empty domain"] += any(not v.domain for v in spec.variables)
    assert all(seen[key] > 0 for key in (*FORMS, *KINDS, "secondary", "colours", "bounds",
                                          "negative", "empty domain")), seen
    assert instance(11, 0) != instance(12, 0)


def test_models_use_every_kind_and_feature_of_the_language() -> None:
    seen: Counter[str] = Counter()
    for index in range(600):
        _, spec = instance(5, index, ("model",))
        seen.update(kinds(spec.build()).keys())
    assert set(KIND_TAGS) >= ALL_CONSTRAINT_KINDS
    assert all(seen[tag] >= 3 for tag in KIND_TAGS), seen


def test_every_backend_agrees_on_a_few_hundred_models() -> None:
    # The CI's share of the bench's 10,000 (bench/bench_fuzz.py): every
    # available backend in this process, brute force on the small models.
    # (The field's solvers start a process or a JVM per model: the bench
    # fuzzes them, `bench_fuzz.py --backends`.)
    report = fuzz(INSIDE, seed=22, instances=300, forms=("model",), time_limit=30)
    assert report.findings == [] and report.instances == 300, report.summary()
    assert report.outcomes["agree"] >= 290, report.summary()
    assert report.brute_forced >= 250
    assert all(report.kinds[kind] > 0 for kind in ALL_CONSTRAINT_KINDS), report.kinds


def test_a_logic_bug_shrinks_to_one_constraint(tmp_path: Any) -> None:
    backends.register(XorAsOr)
    try:
        # Seed 4 meets a Xor whose operands can hold together at its
        # instance 303 (most Xors reach a backend rewritten as sums).
        report = fuzz(["xor-as-or", "python-constraint"], seed=4, instances=400,
                      forms=("model",), out=tmp_path)
    finally:
        backends.unregister("xor-as-or")
    [finding] = report.findings
    small = finding.shrunk
    assert isinstance(small, ModelSpec) and len(small.constraints) == 1, small.source()
    [c] = small.constraints
    assert "Xor" in c.source() or "^" in c.source(), c.source()
    assert len(small.variables) <= 3, small.source()
    assert finding.suspects == ["xor-as-or"]
    problem = runpy.run_path(str(finding.files[0]))["m"]  # the snippet runs alone
    assert csp.count(problem, "python-constraint").count == len(
        csp.testing.brute_force(problem))


def test_the_built_ins_agree_on_a_short_campaign() -> None:
    report = fuzz(INSIDE, seed=2026, instances=40, time_limit=20)
    assert report.findings == [] and report.instances == 40
    assert report.outcomes["agree"] + report.outcomes["inconclusive"] == 40
    assert report.outcomes["agree"] > 30


@pytest.mark.parametrize("form", FORMS)
def test_a_wrong_plugin_is_found_and_shrunk(wrong: str, tmp_path: Any, form: str) -> None:
    report = fuzz([wrong, "dlx"], seed=1, instances=200, forms=(form,), out=tmp_path)
    [finding] = report.findings
    assert finding.suspects == [wrong] and report.per_backend["dlx"]["wrong"] == 0
    small = finding.shrunk
    # The smallest instance with two solutions: one option pair or one
    # variable with two values, nothing else.
    if isinstance(small, CoverSpec):
        assert len(small.options) == 2 and len(small.primary) + len(small.secondary) <= 2
        problem: Any = ExactCover.read(finding.files[0])  # the file reads back ...
    else:
        assert len(small.variables) == 1 and len(small.variables[0].domain) == 2
        assert small.constraints == ()
        problem = runpy.run_path(str(finding.files[0]))["m"]  # ... the snippet runs
    assert csp.count(problem, "dlx").count == 2
    assert compare(problem, [wrong, "dlx"], 10).suspects == [wrong]  # and still shows it
    assert "seed 1" in finding.files[0].read_text()
    # Shrinking is deterministic: the same campaign gives the same instance.
    again = fuzz([wrong, "dlx"], seed=1, instances=200, forms=(form,), out=tmp_path / "again")
    assert again.findings[0].shrunk == small and again.findings[0].index == finding.index


def test_a_subtler_bug_shrinks_to_its_essence(tmp_path: Any) -> None:
    backends.register(ColourBlind)
    try:
        report = fuzz(["colour-blind", "dlx"], seed=1, instances=300, forms=("exact-cover",),
                      out=tmp_path)
    finally:
        backends.unregister("colour-blind")
    [finding] = report.findings
    small = finding.shrunk
    assert isinstance(small, CoverSpec)
    # Two options that share one secondary item, agreeing on its colour.
    assert len(small.options) == 2 and len(small.secondary) == 1, small
    [(_, colour_a)], [(_, colour_b)] = ([e for e in option if e[0] in small.secondary]
                                        for option in small.options)
    assert colour_a == colour_b is not None
    assert not ExactCover.read(finding.files[0]).check((0, 1))


def test_brute_force_catches_a_backend_fuzzed_alone(wrong: str, tmp_path: Any) -> None:
    report = fuzz([wrong], seed=4, instances=100, out=tmp_path)
    [finding] = report.findings
    assert any("brute force" in line for line in finding.why), finding.why


def test_the_command_finds_writes_and_replays(wrong: str, tmp_path: Any, capsys: Any) -> None:
    out = tmp_path / "found"
    status = main(["fuzz", "--backends", f"{wrong},dlx", "--seed", "7", "--instances", "300",
                   "--out", str(out)])
    printed = capsys.readouterr().out
    assert status == 1, printed
    assert printed.startswith("csp fuzz: seed 7\n") and "DISAGREEMENT" in printed
    assert "drops-one" in printed and len(list(out.iterdir())) == 2
    replay = next(line for line in printed.splitlines() if "replay:" in line)
    argv = replay.split("replay: csp ")[1].split() + ["--out", str(tmp_path / "replayed")]
    assert main(argv) == 1
    assert "1 instances" in capsys.readouterr().out


def test_an_unknown_backend_is_a_clear_error(capsys: Any) -> None:
    assert main(["fuzz", "--backends", "dlx,nosuch"]) == 2
    assert "unknown backend 'nosuch'" in capsys.readouterr().err


def test_running_out_of_time_is_inconclusive_not_a_disagreement() -> None:
    verdict = compare(permutations_model(12), ["dlx", "bitmask"], time_limit=0.2, oracle=False)
    assert verdict.outcome == "inconclusive" and verdict.suspects == []
    assert sorted(verdict.timed_out) == ["bitmask", "dlx"]
    assert all(run.status is Status.TIME_LIMIT for run in verdict.report.runs)  # type: ignore[union-attr]


def test_a_backend_that_ignores_its_time_limit_is_stopped(monkeypatch: Any) -> None:
    monkeypatch.setattr(sys.modules["csp.fuzz.compare"], "GRACE", 0.5)
    backends.register(Hangs)
    try:
        verdict = compare(ExactCover.from_text("a\na\n"), ["hangs"], time_limit=0.1)
    finally:
        backends.unregister("hangs")
    assert verdict.outcome == "inconclusive" and "watchdog" in verdict.why[0]


def test_a_time_budget_ends_the_campaign(capsys: Any) -> None:
    assert main(["fuzz", "--backends", "dlx", "--seed", "5", "--time", "1"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("csp fuzz: seed 5\n") and "0 disagree" in printed
