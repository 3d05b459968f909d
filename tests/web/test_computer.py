"""Computer seats: levels, thinking in worker processes or threads, time limits, dead workers."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest

from limitgames.agents import Agent, make_agent, register_agent
from limitgames.core import State, get_game
from limitgames.web import computer
from limitgames.web.computer import (
    LEVELS,
    ComputerLevelError,
    ComputerPool,
    level_notes,
    resolve_level,
)


def test_levels_become_agent_specs() -> None:
    assert resolve_level("hex", "random").spec == "random"
    for level in LEVELS:
        choice = resolve_level("hex", level)
        make_agent(choice.spec, seed=1)  # a spec the agents accept
    with pytest.raises(ValueError, match="unknown computer level"):
        resolve_level("hex", "grandmaster")
    assert set(level_notes("cards")) == set(LEVELS)


def _needs_torch(spec: str, options: dict[str, str], seed: int | None) -> Agent:
    raise ModuleNotFoundError("No module named 'torch'", name="torch")


register_agent("planted-needs-torch", _needs_torch, "needs a library that is not installed (tests)")


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("mcts:no-such-option=1", "mcts: unknown option(s) no-such-option"),
        ("planted-needs-torch", "No module named 'torch'"),
    ],
)
def test_a_level_that_cannot_start_refuses_with_the_reason(
    spec: str, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(computer, "level_spec", lambda game_id, level: spec)
    with pytest.raises(ComputerLevelError) as raised:
        resolve_level("cards", "hard")
    assert str(raised.value) == f"the computer level hard cannot play cards: {reason}"
    assert resolve_level("cards", "random").spec == "random"  # random needs no level spec
    notes = level_notes("cards")  # the lobby says why, for every level that cannot start
    assert notes["random"] == ""
    assert notes["hard"] == f"the computer level hard cannot play cards: {reason}"


def test_a_game_with_a_level_that_cannot_start_is_refused_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from fastapi.testclient import TestClient

    from limitgames.web.app import create_app

    monkeypatch.setattr(computer, "level_spec", lambda game_id, level: "planted-needs-torch")
    seats = [{"kind": "me"}, {"kind": "computer", "level": "hard"}]
    body = {"game": "cards", "variant": {"players": 2}, "seats": seats}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")) as client:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 400
        assert answer.json()["detail"] == (
            "the computer level hard cannot play cards: No module named 'torch'"
        )
        assert client.get("/api/games").status_code == 200


class Dawdler(Agent):
    name = "dawdler"

    def choose(self, state: State) -> Any:
        time.sleep(0.6)
        return state.legal_actions()[0]


register_agent("dawdler", lambda spec, options, seed: Dawdler(spec, seed), "sleeps (tests)")


def test_a_move_past_the_time_limit_is_a_random_legal_action() -> None:
    async def run() -> tuple[Any, dict[str, Any]]:
        pool = ComputerPool(workers=1, move_seconds=0.1)
        try:
            state = get_game("hex").new_initial_state(seed=2, size=3)
            return await pool.choose(make_agent("dawdler"), state)
        finally:
            pool.shutdown()

    action, info = asyncio.run(run())
    assert info == {"timeout": True}
    assert action in get_game("hex").new_initial_state(seed=2, size=3).legal_actions()


@pytest.mark.slow  # starts worker processes twice (126 s under load)
def test_worker_processes_think_and_come_back_after_a_worker_dies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A dead worker: the move is thought over by new worker processes, never in the server's
    own process (thinking there would hold its GIL at its priority, beside its event loop)."""

    def in_the_server(agent: Agent, state: State) -> Any:
        raise AssertionError("a computer searched in the server's process")

    monkeypatch.setattr(computer, "_choose_here", in_the_server)

    async def run() -> list[Any]:
        pool = ComputerPool(workers=1, move_seconds=60, processes=True)
        try:
            state = get_game("hex").new_initial_state(seed=4, size=3)
            agent = make_agent("random", seed=1)
            first, _ = await pool.choose(agent, state)
            assert pool._processes is not None
            for pid in list(pool._processes._processes):  # type: ignore[attr-defined]
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.3)
            second, info = await pool.choose(agent, state)  # new worker processes
            assert "timeout" not in info  # thought over, not a random stand-in
            third, _ = await pool.choose(agent, state)  # the same new workers
            return [first, second, third]
        finally:
            pool.shutdown()

    legal = get_game("hex").new_initial_state(seed=4, size=3).legal_actions()
    assert all(a in legal for a in asyncio.run(run()))


def test_worker_processes_think_at_a_lower_priority_than_the_server() -> None:
    """``nice`` of a worker = the server's + COMPUTER_NICENESS (19: the lowest priority there is), capped at 19 by the kernel."""

    async def run() -> int:
        pool = ComputerPool(workers=1, move_seconds=60, processes=True)
        try:
            assert pool._processes is not None
            job = pool._processes.submit(os.nice, 0)  # os.nice(0) returns the current value
            return int(await asyncio.wrap_future(job))
        finally:
            pool.shutdown()

    server = os.nice(0)
    assert asyncio.run(run()) == min(19, server + 19)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux only")
def test_worker_processes_use_the_idle_scheduling_class() -> None:
    """On Linux the workers are SCHED_IDLE as well: a server thread that wakes up takes the CPU
    from them at once (``nice`` +19 alone left a human move waiting 50-240 ms behind a busy
    ``hard`` computer in ``benchmarks/bench_web_load.py``)."""

    async def run() -> int:
        pool = ComputerPool(workers=1, move_seconds=60, processes=True)
        try:
            assert pool._processes is not None
            job = pool._processes.submit(os.sched_getscheduler, 0)
            return int(await asyncio.wrap_future(job))
        finally:
            pool.shutdown()

    assert asyncio.run(run()) == os.SCHED_IDLE
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the server itself is not


def _worker_priority(priority: str) -> tuple[int, int]:
    """(nice, scheduling class) of a worker process of a pool at ``priority``."""

    async def run() -> tuple[int, int]:
        pool = ComputerPool(workers=1, move_seconds=60, processes=True, priority=priority)
        try:
            assert pool._processes is not None
            niceness = pool._processes.submit(os.nice, 0)
            policy = pool._processes.submit(os.sched_getscheduler, 0)
            return int(await asyncio.wrap_future(niceness)), int(await asyncio.wrap_future(policy))
        finally:
            pool.shutdown()

    return asyncio.run(run())


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux only")
@pytest.mark.parametrize(("priority", "added"), [("low", 10), ("normal", 0)])
def test_low_and_normal_priority_workers_keep_the_ordinary_scheduling_class(
    priority: str, added: int
) -> None:
    """``--computer-priority low`` is ``nice`` +10 and ``normal`` the server's own nice value,
    both in the ordinary class (SCHED_OTHER), which beside two busy programs still gets its
    share of the CPU, where SCHED_IDLE gets none (a size-3 random move did not come back
    within 60 s beside two ``while True: pass`` processes)."""
    server = os.nice(0)
    assert _worker_priority(priority) == (min(19, server + added), os.SCHED_OTHER)


def test_an_unknown_priority_is_refused_with_the_known_ones() -> None:
    with pytest.raises(
        ValueError, match=r"unknown computer priority 'banana' \(known: idle, low, normal\)"
    ):
        ComputerPool(workers=1, processes=True, priority="banana")
