"""Computer seats: levels offered in the lobby, their agent specs, moves off the event loop.

The lobby offers ``random`` and the levels ``easy``, ``medium``, ``hard``,
``expert``. A level becomes an agent spec through
``limitgames.agents.level_spec(game_id, level)``, built once to check it; a level
that cannot start (its spec refused, an optional dependency missing) refuses the
game with the reason (:class:`ComputerLevelError`), never plays at random in its
place. Agents run in a small thread pool (:class:`ComputerPool`) so the
server keeps answering while they think; a move that takes longer than the
time limit is replaced by a uniformly random legal action, and the game goes
on (the late answer is dropped). The time limit counts thinking only: a move
waits for a free worker (while other games' computers think) before its
clock starts, and a worker still busy with a late answer is not free.

``limit serve`` has the agents think in a bounded pool of worker *processes*
(``--computers``, per server process), so a strong computer uses another
core and never holds the server's GIL. The workers run at a lower priority
than the server (:data:`COMPUTER_NICENESS` added to the server's ``nice``
value, and on Linux the ``SCHED_IDLE`` scheduling class, which gives the CPU up
as soon as a server thread wakes), so that on a busy machine people's moves are
answered first; each move is
computed by a fresh agent built from the seat's spec with a new seed (the
project's agents keep nothing between moves that matters). With
``processes=False`` they think in threads of the server process, with one
agent per seat (the in-process tests use this: their test-only agents exist
only there). With worker processes, the search never runs in the server's
own process: when a worker dies (killed, out of memory) new workers are
started and the move is thought over again there (its time limit counted
again), and a state that cannot be sent to a process (none of the three
games' states: they pickle) gets a random legal action, logged as an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from limitgames.agents import Agent, level_spec, make_agent
from limitgames.core import Action, LimitGamesError, State
from limitgames.translation import gettext

log = logging.getLogger("limitgames.web")

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "expert")
"""The computer levels offered in the lobby, weakest first."""

DEFAULT_MOVE_SECONDS = 30.0
"""The time limit of one computer move (seconds) unless the server is told otherwise."""

COMPUTER_NICENESS = 19
"""How much lower the priority of the computer worker processes is than the server's (``nice``)."""

COMPUTER_PRIORITIES: dict[str, tuple[int, bool]] = {
    "idle": (COMPUTER_NICENESS, True),
    "low": (10, False),
    "normal": (0, False),
}
"""The computer workers' priority (``limit serve --computer-priority``): ``{name: (niceness
added to the server's, SCHED_IDLE on Linux)}``. ``idle`` (the default) answers people first
on a busy machine, but a computer then thinks only on CPU time that nothing else on the
machine wants, so other busy programs can starve it until its time limit plays a random
move; ``low`` (``nice`` +10) still gets about a tenth of a core beside each busy program;
``normal`` shares the CPU equally with the server."""


@dataclass(frozen=True)
class ComputerChoice:
    """A level as the lobby shows it: the level, the agent spec and a note for people."""

    level: str
    spec: str
    note: str = ""


class ComputerLevelError(LimitGamesError, ValueError):
    """A computer level that cannot play a game; the message says why (one line)."""


def resolve_level(game_id: str, level: str) -> ComputerChoice:
    """The agent spec that plays ``level`` at ``game_id``, built once to check that it starts.

    Raises:
        ValueError: for a level that is not in :data:`LEVELS`.
        ComputerLevelError: the level cannot start for this game (a spec its agent refuses,
            an optional dependency or a module that fails to import), with the reason.
    """
    if level not in LEVELS:
        raise ValueError(
            gettext("unknown computer level %(level)r (known: %(known)s)")
            % {"level": level, "known": ", ".join(LEVELS)}
        )
    if level == "random":
        return ComputerChoice(level, "random")
    try:
        spec = level_spec(game_id, level)
        make_agent(spec, seed=0)  # checks the spec now, not at the first move
    except (LimitGamesError, ValueError, KeyError, ImportError) as exc:
        raise ComputerLevelError(
            gettext("the computer level %(level)s cannot play %(game)s: %(reason)s")
            % {"level": level, "game": game_id, "reason": exc}
        ) from exc
    return ComputerChoice(level, spec)


def level_notes(game_id: str) -> dict[str, str]:
    """``{level: note}`` for the lobby: an empty note when the level can play ``game_id``,
    else why it cannot (a game asking for it is refused with that reason)."""
    notes: dict[str, str] = {}
    for level in LEVELS:
        try:
            notes[level] = resolve_level(game_id, level).note
        except ComputerLevelError as exc:
            notes[level] = str(exc)
    return notes


def choose_in_worker(spec: str, seed: int, state: State) -> tuple[Action, dict[str, Any]]:
    """Build the agent ``spec`` and choose for ``state`` (runs in a worker process)."""
    agent = make_agent(spec, seed=seed)
    action = agent.choose(state)
    return action, dict(agent.last_info)


def start_worker(parent: int, niceness: int = COMPUTER_NICENESS, idle_class: bool = True) -> None:
    """In a new worker process: lower its priority by ``niceness`` and watch the server.

    ``os.nice`` adds to the process's nice value (the kernel caps it at 19);
    where that is refused the worker runs at the server's priority. With
    ``idle_class`` on Linux the worker also enters the ``SCHED_IDLE`` class
    (allowed without privileges): it runs only on CPU time no other task
    wants, so a human move never waits behind a computer's thinking for a
    scheduler slice (:data:`COMPUTER_PRIORITIES`).
    """
    if niceness > 0:
        try:
            os.nice(niceness)
        except OSError as exc:
            log.warning("cannot lower the computer workers' priority: %s", exc)
    if idle_class:
        idle = getattr(os, "SCHED_IDLE", None)
        if idle is not None:
            # Linux: a SCHED_IDLE task yields the CPU as soon as any other task wakes up
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, idle, os.sched_param(0))
    watch_parent(parent)


def watch_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server that started it is gone (even killed)."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="limit-watch-parent", daemon=True).start()


def _process_pool(workers: int, priority: str) -> ProcessPoolExecutor:
    niceness, idle_class = COMPUTER_PRIORITIES[priority]
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(), niceness, idle_class),
    )


def _choose_here(agent: Agent, state: State) -> tuple[Action, dict[str, Any]]:
    action = agent.choose(state)
    return action, dict(agent.last_info)


class ComputerPool:
    """Runs agents' ``choose`` in worker processes or threads, with a per-move time limit.

    Args:
        workers: the number of workers (agents are CPU-bound; more workers
            than cores only share them).
        move_seconds: the time limit of one move.
        processes: think in worker processes (else in threads).
        priority: the worker processes' priority, a key of :data:`COMPUTER_PRIORITIES`.

    Raises:
        ValueError: an unknown ``priority``.
    """

    def __init__(
        self,
        workers: int = 2,
        move_seconds: float = DEFAULT_MOVE_SECONDS,
        processes: bool = False,
        priority: str = "idle",
    ) -> None:
        if priority not in COMPUTER_PRIORITIES:
            known = ", ".join(COMPUTER_PRIORITIES)
            raise ValueError(f"unknown computer priority {priority!r} (known: {known})")
        self.move_seconds = move_seconds
        self.workers = workers
        self.priority = priority
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="limit-computer")
        self._processes: ProcessPoolExecutor | None = None
        if processes:
            self._processes = _process_pool(workers, priority)
        self._free = asyncio.Semaphore(workers)

    async def _think(
        self, executor: Executor, fn: Callable[..., tuple[Action, dict[str, Any]]], *args: Any
    ) -> tuple[Action, dict[str, Any]]:
        """Run ``fn(*args)`` on a free worker, the time limit counting from when it starts.

        A move first waits for one of the ``workers`` slots (not counted); the
        slot is given back when the worker is really done, so a late answer
        still being computed keeps its slot and nobody queues behind it
        inside the executor.
        """
        await self._free.acquire()
        loop = asyncio.get_running_loop()
        try:
            job: Future[tuple[Action, dict[str, Any]]] = executor.submit(fn, *args)
        except BaseException:
            self._free.release()
            raise

        def give_back(_job: object) -> None:
            # RuntimeError: the server's loop is closed, nobody waits any more
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._free.release)

        job.add_done_callback(give_back)
        return await asyncio.wait_for(asyncio.wrap_future(job), timeout=self.move_seconds)

    async def choose(self, agent: Agent, state: State) -> tuple[Action, dict[str, Any]]:
        """The agent's action for ``state`` (the agent gets a private copy).

        Returns ``(action, info)``; ``info`` is the agent's ``last_info``, with
        ``"timeout": True`` when the time limit ran out and a random legal
        action was taken instead. Exceptions of the agent propagate.
        """
        snapshot = state.clone()
        try:
            if self._processes is None:
                return await self._think(self._threads, _choose_here, agent, snapshot)
            if not self._sendable(snapshot):
                # never searched in the server's own process, at its priority and under
                # its event loop's GIL: a random legal action, as when the time runs out
                return self._out_of_time(agent, state)
            seed = random.getrandbits(32)
            try:
                return await self._think(
                    self._processes, choose_in_worker, agent.spec, seed, snapshot
                )
            except BrokenProcessPool:
                # a worker died (killed, out of memory): new workers think it again
                log.error("a computer worker process died; starting new ones")
                self._restart_processes()
                return await self._think(
                    self._processes, choose_in_worker, agent.spec, seed, snapshot
                )
        except (TimeoutError, BrokenProcessPool):
            return self._out_of_time(agent, state)

    def _sendable(self, state: State) -> bool:
        """Whether to think in a worker process: there are some and the state can be sent."""
        if self._processes is None:
            return False
        try:
            pickle.dumps(state)
        except (pickle.PicklingError, TypeError, AttributeError):
            log.error(
                "a %s state cannot be sent to a process; a random move instead", state.game_id
            )
            return False
        return True

    def _out_of_time(self, agent: Agent, state: State) -> tuple[Action, dict[str, Any]]:
        legal = state.legal_actions()
        log.warning(
            "computer %s ran out of time (%.1f s); random move", agent.spec, self.move_seconds
        )
        return legal[random.randrange(len(legal))], {"timeout": True}

    def _restart_processes(self) -> None:
        if self._processes is None:
            return
        self._processes.shutdown(wait=False, cancel_futures=True)
        self._processes = _process_pool(self.workers, self.priority)

    def shutdown(self) -> None:
        """Stop the workers (waiting moves are dropped)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
