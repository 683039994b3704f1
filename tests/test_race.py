"""The `race` backend beyond the contract: what wins, what the statistics
say, bad member lists, and no process left behind however a race ends."""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import csp
from csp import BackendUnavailable, ExactCover, InputError, Status, backends
from csp.backends import race
from csp.backends.base import SLICED
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


def _start_method() -> str:
    """How a race here starts its members: fork, unless another thread runs."""
    return "fork" if threading.active_count() == 1 else "forkserver"


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
    # bitmask ran in this process, and was stopped there when cpsat won.
    home = result.stats.extra["race"]["bitmask"]
    assert (home["process"], home["status"]) == ("this one", "STOPPED")
    assert result.stats.extra["race"]["cpsat"]["process"] == "its own"
    assert not multiprocessing.active_children()


@pytest.mark.parametrize(("head_start", "started"), [(60.0, False), (0.0, True)])
def test_the_others_start_once_the_head_start_is_over_and_not_before(
        monkeypatch: pytest.MonkeyPatch, head_start: float, started: bool) -> None:
    # A problem the home member settles within its head start starts no
    # process. A head start its setup alone outlasts (here: none) starts the
    # others before its first slice, even though that slice settles the problem.
    name = _engines("bitmask", "cpsat")
    monkeypatch.setattr(race, "HEAD_START", head_start)
    monkeypatch.setattr(race, "WARMED", {"bitmask"})
    result = csp.count(queens_model(4), name)
    assert (result.count, result.status) == (2, Status.COMPLETE)
    extra = result.stats.extra
    assert (extra["race"]["cpsat"]["status"] != "NOT STARTED") is started
    assert extra["race_costs"]["started_with"] == (_start_method() if started else None)
    if not started:
        assert extra["winner"] == "bitmask"
    assert not multiprocessing.active_children()


def test_a_first_race_starts_the_others_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The home member's first slice in a process may load its kernels first.
    name = _engines("bitmask", "cpsat")
    monkeypatch.setattr(race, "HEAD_START", 60.0)
    monkeypatch.setattr(race, "WARMED", set())
    result = csp.count(queens_model(6), name)
    assert (result.count, result.status) == (4, Status.COMPLETE)
    assert result.stats.extra["race"]["cpsat"]["status"] != "NOT STARTED"
    assert result.stats.extra["race_costs"]["started_with"] == _start_method()
    assert race.WARMED == {"bitmask"} and not multiprocessing.active_children()


def test_the_others_start_after_the_head_start(monkeypatch: pytest.MonkeyPatch) -> None:
    name = _engines("bitmask", "cpsat")
    monkeypatch.setattr(race, "HEAD_START", 0.0)
    search = csp.solutions(queens_model(10), name, limit=5)
    found = list(search)
    assert len(found) == 5 and search.status is Status.SOLUTION_LIMIT
    assert all(wrong(queens_model(10), s) == [] for s in found)
    # Started by fork (nothing pickled, nothing imported again) unless an
    # earlier test left a thread running (a Dask client's): then by the fork server.
    assert search.stats.extra["race_costs"]["started_with"] == _start_method()
    assert not multiprocessing.active_children()


def test_the_default_members_are_the_native_backend_and_cpsat() -> None:
    _engines("dlx", "bitmask", "cpsat")
    assert set(csp.count(queens_cover(6), "race").stats.extra["race"]) == {"dlx", "cpsat"}
    assert set(csp.count(queens_model(6), "race").stats.extra["race"]) == {"bitmask", "cpsat"}


@pytest.mark.parametrize("spec, message", [
    ("race:nonesuch", r"unknown backend 'nonesuch'.*available: dlx"),
    ("race:dlx+nosuch", r"unknown backend 'nosuch'.*available: dlx, bitmask"),
    ("race:", r"name its members.*available: dlx"),
    ("race:dlx+race", r"'race' runs other backends"),
    ("dlx:fast", r"backend 'dlx' takes no options"),
])
def test_bad_member_lists_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BackendUnavailable, match=message):
        csp.count(queens_cover(4), spec)


def test_a_bad_member_is_bad_input_on_the_command_line(capsys: pytest.CaptureFixture) -> None:
    from csp.cli import main

    with pytest.raises(InputError, match=r"race: unknown backend 'nosuch'.*available: dlx"):
        csp.count(queens_cover(4), "race:dlx+nosuch")
    code = main(["xc", "--count", "--backend", "race:dlx+nosuch", str(EXAMPLES / "queens8.xc")])
    err = capsys.readouterr().err
    assert code != 0 and "unknown backend 'nosuch'" in err and "Traceback" not in err


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
    # Two members without SLICED: each runs in a process of its own.
    name = _engines("cpsat", "python-constraint")
    search = csp.solutions(queens_model(8), name)
    race = search.inner  # the model's solutions come back through its decoding
    assert isinstance(race, RaceSearch)
    next(search)
    pids = _pids(race)
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


class Unlucky(Failing):
    """Another member whose searches raise, with its own error."""

    name = "unlucky"

    def count(self, problem: ExactCover, **limits: Any) -> Any:
        raise ValueError("a bad day")

    solutions = count


class FailingAtHome(Unlucky):
    """A member that runs in the race's own process (SLICED), and raises there."""

    name = "failing-at-home"
    capabilities = frozenset({SLICED})


def _racing(*members: Any, problem: Any = None) -> RaceSearch:
    problem = problem or queens_cover(6)
    plans = [csp.dispatch.Plan(m, problem, problem) for m in members]
    return RaceSearch([_Runner(m.name, plan) for m, plan in zip(members, plans)], [],
                      limit=None, time_limit=None, progress=None, count_only=True)


def test_every_member_failing_names_each_error() -> None:
    search = _racing(Failing(), Unlucky(), FailingAtHome())
    with pytest.raises(InputError) as failure:
        search.count()
    message = str(failure.value)
    for name, error in [("failing", "RuntimeError: out of luck"),
                        ("unlucky", "ValueError: a bad day"),
                        ("failing-at-home", "ValueError: a bad day")]:
        assert f"{name} failed: {error}" in message
    assert not multiprocessing.active_children()


def test_a_home_member_that_fails_leaves_the_race_to_the_others() -> None:
    search = _racing(FailingAtHome(), backends.get("dlx"))
    result = search.count()
    assert (result.count, result.status) == (4, Status.COMPLETE)
    assert result.stats.extra["winner"] == "dlx"
    assert result.stats.extra["race"]["failing-at-home"]["error"] == "ValueError: a bad day"


NO_GUARD = """
import threading
import csp
import csp.backends.race as race
from csp.testing import queens_model

race.HEAD_START = 0.0  # start the other member at once
result = csp.count(queens_model(8), "race:bitmask+cpsat")
print(result.count, result.stats.extra["race_costs"]["started_with"])
threading.Thread(target=threading.Event().wait, daemon=True).start()
try:
    csp.count(queens_model(6), "race:cpsat+python-constraint")
except csp.InputError as err:
    if __name__ != "__main__":
        raise  # a member's process running this script again dies of it, unguarded
    print("error:", err)
"""


def test_a_script_races_without_a_main_guard(tmp_path: Path) -> None:
    # Members forked from this process import nothing again: a script needs
    # no `if __name__ == "__main__":`. With another thread running they come
    # from the fork server, which imports the script again: then the error
    # says what to do.
    _engines("bitmask", "cpsat", "python-constraint")
    script = tmp_path / "race_script.py"
    script.write_text(NO_GUARD)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # The members that ran the script again printed too: the parent's lines are among theirs.
    lines = done.stdout.splitlines()
    assert lines[0] == "92 fork"
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1 and "every member failed" in errors[0]
    assert "cpsat failed: its process ended without an answer (exit code 1)" in errors[0]
    assert 'forkserver, which imports the main script again' in errors[0]
    assert 'needs `if __name__ == "__main__":`' in errors[0]


CTRL_C = """
import multiprocessing, sys
import csp
from csp.testing import permutations_model

def progress(stats):
    pids = [p.pid for p in multiprocessing.active_children()]
    if pids and not progress.said:
        progress.said = True
        print("members", *pids, flush=True)
progress.said = False

result = csp.count(permutations_model(13), "race:bitmask+cpsat", progress=progress)
print(result.status.value, result.stats.extra["race"]["bitmask"]["process"], flush=True)
"""


def test_ctrl_c_stops_the_member_at_home_and_the_others() -> None:
    # A real SIGINT, landing wherever it lands (mostly in bitmask's kernel, in
    # the race's own process): the race ends INTERRUPTED, no member is left.
    _engines("bitmask", "cpsat")
    child = subprocess.Popen([sys.executable, "-c", CTRL_C], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    first = child.stdout.readline().split()
    assert first[0] == "members", child.stderr.read() if child.stderr else ""
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.split() == ["INTERRUPTED", "this", "one"]
    assert "Traceback" not in err
    assert _gone([int(pid) for pid in first[1:]])
