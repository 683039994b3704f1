"""The `race` backend beyond the contract: what wins, what the statistics
say, bad member lists, and no process left behind however a race ends."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest

import csp
from csp import BackendUnavailable, ExactCover, InputError, Status, backends
from csp.backends.race import RaceSearch, _Runner
from csp.testing import QUEENS, permutations_model, pigeonhole, queens_cover, queens_model, wrong

EXAMPLES = Path(__file__).parent.parent / "examples"


def _engines(*wanted: str) -> str:
    missing = [name for name in wanted if name not in backends.engines()]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")
    return "race:" + "+".join(wanted)


def _gone(pids: list[int]) -> bool:
    """Whether none of `pids` is a live process (zombies waiting for their
    reaper count as gone), waiting a few seconds for them to be reaped."""
    for _ in range(100):
        alive = []
        for pid in pids:
            stat = Path(f"/proc/{pid}/stat")
            try:
                state = stat.read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state != "Z":
                alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


def _pids(search: RaceSearch) -> list[int]:
    return [r.process.pid for r in search.runners if r.process is not None]


def test_the_first_complete_count_wins_and_the_others_are_named() -> None:
    name = _engines("dlx", "sat")
    result = csp.count(queens_cover(8), name)
    assert (result.count, result.status, result.backend) == (92, Status.COMPLETE, name)
    extra = result.stats.extra
    assert extra["winner"] in ("dlx", "sat")
    assert set(extra["race"]) == {"dlx", "sat"}
    assert extra["race"][extra["winner"]]["status"] == "COMPLETE"
    assert extra["race"][extra["winner"]]["solutions"] == 92


def test_solutions_stream_from_one_winner() -> None:
    name = _engines("bitmask", "sat")
    search = csp.solutions(queens_model(8), name)
    found = list(search)
    assert search.status is Status.COMPLETE and len(found) == QUEENS[8]
    assert len({frozenset(s.items()) for s in found}) == QUEENS[8]
    assert all(wrong(queens_model(8), s) == [] for s in found)
    assert search.stats.extra["winner"] in ("bitmask", "sat")


def test_a_proof_of_none_wins() -> None:
    # CP-SAT proves the pigeonhole principle at once; bitmask would search
    # (11 pigeons: seconds, so that CP-SAT wins even when its start-up is slow).
    name = _engines("bitmask", "cpsat")
    result = csp.solve(pigeonhole(11), name, time_limit=60)
    assert (result.count, result.status, result.solution) == (0, Status.COMPLETE, None)
    assert result.stats.extra["winner"] == "cpsat"


def test_the_default_members_are_the_native_backend_and_cpsat() -> None:
    _engines("dlx", "bitmask", "cpsat")
    assert set(csp.count(queens_cover(6), "race").stats.extra["race"]) == {"dlx", "cpsat"}
    assert set(csp.count(queens_model(6), "race").stats.extra["race"]) == {"bitmask", "cpsat"}


@pytest.mark.parametrize("spec, message", [
    ("race:nonesuch", r"unknown backend 'nonesuch'.*available: dlx"),
    ("race:", r"name its members.*available: dlx"),
    ("race:dlx+race", r"'race' runs other backends"),
    ("dlx:fast", r"backend 'dlx' takes no options"),
])
def test_bad_member_lists_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BackendUnavailable, match=message):
        csp.count(queens_cover(4), spec)


def test_members_that_refuse_are_left_out_and_said_so() -> None:
    name = _engines("bitmask", "dlx")
    m = csp.Model()
    m.var("x", range(100))  # over bitmask's 64 values
    result = csp.count(m, name)
    assert result.count == 100 and result.stats.extra["winner"] == "dlx"
    assert "bitmask left out" in result.stats.extra["race_notes"][0]
    only = csp.Model()
    only.var("x", range(100))
    with pytest.raises(InputError, match="race: no member takes this problem"):
        csp.count(only, "race:bitmask")


def test_a_configured_race_goes_through_the_command_line(capsys: pytest.CaptureFixture) -> None:
    from csp.cli import main

    name = _engines("dlx", "sat")
    code = main(["xc", "--count", "--backend", name, str(EXAMPLES / "queens8.xc")])
    assert code == 0
    assert "92" in capsys.readouterr().out


def test_no_process_is_left_behind_after_a_race_ends() -> None:
    name = _engines("dlx", "sat")
    search = csp.solutions(queens_cover(8), name)
    assert isinstance(search, RaceSearch)
    next(search)
    pids = _pids(search)
    assert len(pids) == 1  # the loser is gone as soon as the winner has a solution
    list(search)
    assert search.status is Status.COMPLETE
    assert _gone(pids) and not multiprocessing.active_children()


def test_no_process_is_left_behind_after_close_or_a_time_limit() -> None:
    name = _engines("dlx", "cpsat")
    search = csp.solutions(queens_cover(16), name)
    assert isinstance(search, RaceSearch)
    next(search)
    pids = _pids(search)
    search.close()
    assert search.status is Status.INTERRUPTED and _gone(pids)
    result = csp.count(permutations_model(13), _engines("bitmask", "cpsat"), time_limit=0.5)
    assert result.status is Status.TIME_LIMIT
    assert not multiprocessing.active_children()


def test_no_process_is_left_behind_after_ctrl_c() -> None:
    name = _engines("bitmask", "cpsat")
    seen: list[int] = []

    def progress(stats: csp.Stats) -> None:
        seen.extend(pid for pid in (p.pid for p in multiprocessing.active_children())
                    if pid is not None)
        raise KeyboardInterrupt

    result = csp.count(permutations_model(13), name, time_limit=60, progress=progress)
    assert result.status is Status.INTERRUPTED
    assert seen and _gone(seen) and not multiprocessing.active_children()


class Failing:
    """A member whose searches raise."""

    name = "failing"
    native = ExactCover
    accepts = (ExactCover,)
    capabilities = frozenset()

    def count(self, problem: ExactCover, **limits: Any) -> Any:
        raise RuntimeError("out of luck")

    solutions = count


@pytest.mark.parametrize("member", [Failing(), type("Local", (Failing,), {})()])
def test_no_process_is_left_behind_when_every_member_fails(member: Failing) -> None:
    # A member that raises in its process, or that cannot even be sent to one.
    plan = csp.dispatch.Plan(member, queens_cover(4), queens_cover(4))
    search = RaceSearch([_Runner("failing", plan)], [], limit=None, time_limit=None,
                        progress=None, count_only=True)
    with pytest.raises(InputError, match="every member failed: failing failed: "):
        search.count()
    assert not multiprocessing.active_children()
