"""bench/learning_profile.patch, the cycle counters of bench_learning_profile.py,
still applies to the kernel: an edit of the kernel that breaks it fails here,
not weeks later in a profile run."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import bench_scripts
import pytest


@pytest.mark.skipif(shutil.which("git") is None, reason="git applies the patch")
def test_the_profile_patch_applies_to_this_kernel(tmp_path: Path) -> None:
    profile = bench_scripts.load("bench_learning_profile")
    staged = profile.stage(tmp_path)
    layout = (staged / "backends" / "bitmask" / "layout.py").read_text()
    match = re.search(r"^STATE_SIZE = CY \+ (\d+)$", layout, re.MULTILINE)
    assert match, "the patched layout has no counters"
    slots = [k for k, _, _ in profile.PARTS] + [k for k, _ in profile.COUNTS]
    slots.append(profile.NARROW_CYCLES)
    assert len(set(slots)) == len(slots)
    assert max(slots) < int(match.group(1))
    # The copy is the patched one; the checkout itself is untouched.
    checkout = bench_scripts.BENCH.parent / "csp" / "backends" / "bitmask" / "layout.py"
    assert not re.search(r"^CY = ", checkout.read_text(), re.MULTILINE)


def test_a_patch_that_does_not_apply_is_said_so(tmp_path: Path, monkeypatch) -> None:
    if shutil.which("git") is None:
        pytest.skip("git applies the patch")
    profile = bench_scripts.load("bench_learning_profile")
    # The first context line of the first hunk, changed: not in the kernel.
    lines = profile.PATCH.read_text().splitlines(keepends=True)
    hunk = next(i for i, line in enumerate(lines) if line.startswith("@@"))
    context = next(i for i in range(hunk + 1, len(lines)) if lines[i].startswith(" "))
    lines[context] = " no such line in the kernel\n"
    broken = tmp_path / "broken.patch"
    broken.write_text("".join(lines))
    monkeypatch.setattr(profile, "PATCH", broken)
    with pytest.raises(SystemExit, match="does not apply to this checkout's kernel"):
        profile.stage(tmp_path / "copy")


def test_a_sudoku_outside_the_tuning_half_is_refused(monkeypatch, capsys) -> None:
    # Profiles tune: a reported sudoku (here one that issue 28 names) is an
    # argument error, said before the patched kernels are built.
    bench_scripts.load("qwh")  # (bench_learning imports it, and the profile bench_learning)
    bench_scripts.load("bench_learning")
    profile = bench_scripts.load("bench_learning_profile")
    monkeypatch.setattr("sys.argv", ["bench_learning_profile.py",
                                     "--sudoku", "michael404-TestData36-evil2"])
    with pytest.raises(SystemExit) as stop:
        profile.main()
    assert stop.value.code == 2
    assert "--sudoku michael404-TestData36-evil2: not of the tuning half" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--qwh", "--qwh-count"])
def test_reported_quasigroups_are_refused(flag: str, monkeypatch, capsys) -> None:
    # Seed 800 of 30:315 was reported on as never run (qwh.REPORTED): a
    # profile must not tune on it, counted or to a first solution.
    bench_scripts.load("qwh")
    bench_scripts.load("bench_learning")
    bench_scripts.load("bench_learning_tune")
    profile = bench_scripts.load("bench_learning_profile")
    monkeypatch.setattr("sys.argv", ["bench_learning_profile.py", flag, "30:315:799-800"])
    with pytest.raises(SystemExit) as stop:
        profile.main()
    assert stop.value.code == 2
    assert f"{flag} 30:315:799-800: seeds 799,800 were reported on" in capsys.readouterr().err
