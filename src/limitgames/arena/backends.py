"""Where tournament games run: in this process, a process pool, or Ray.

Every backend takes the same :class:`~limitgames.arena.schedule.GameTask` list
and yields :class:`~limitgames.arena.match.GameOutcome` values as games finish
(in any order). Because a game is a pure function of its task, the outcomes
are the same whatever the backend and worker count (for agents with iteration
budgets; time budgets depend on load).

- ``process`` (default): ``concurrent.futures.ProcessPoolExecutor`` with the
  ``spawn`` start method (workers import the package afresh, so plugins and
  the path are the same as the parent's); one worker runs the games in this
  process.
- ``ray``: one Ray task per game, on a local Ray started for the run (with
  ``workers`` CPUs) or an existing cluster at ``ray_address``
  (``pip install limitgames[ray]``).
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from limitgames.arena.match import GameOutcome, play_game
from limitgames.arena.schedule import GameTask
from limitgames.core import LimitGamesError

BACKENDS: tuple[str, ...] = ("process", "ray")


class BackendError(LimitGamesError):
    """A backend cannot run: Ray missing or unreachable, a bad worker count."""


def run_games(
    tasks: Sequence[GameTask],
    backend: str = "process",
    workers: int = 1,
    ray_address: str | None = None,
) -> Iterator[GameOutcome]:
    """Play ``tasks`` and yield each outcome as its game ends.

    Raises:
        BackendError: for an unknown backend, ``workers < 1``, or Ray that
            cannot be imported or reached.
        RuntimeError: if a game fails (an agent's illegal action, an engine error).
    """
    if workers < 1:
        raise BackendError(f"--workers must be at least 1 (got {workers})")
    if backend == "process":
        yield from _run_processes(tasks, workers)
    elif backend == "ray":
        yield from _run_ray(tasks, workers, ray_address)
    else:
        raise BackendError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")


def _run_processes(tasks: Sequence[GameTask], workers: int) -> Iterator[GameOutcome]:
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_game(task)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[GameOutcome]] = {pool.submit(play_game, task) for task in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`BackendError` if a ``HOST:PORT`` Ray address does not accept connections.

    Ray itself waits minutes for an unreachable cluster; this fails in seconds.
    Other address forms (``auto``, ``ray://...``) are left to Ray.
    """
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise BackendError(f"cannot reach Ray at {address}: {exc.strerror or exc}") from None


def _run_ray(
    tasks: Sequence[GameTask], workers: int, ray_address: str | None
) -> Iterator[GameOutcome]:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'limitgames[ray]'") from None
    if ray_address:
        check_reachable(ray_address)
    started_here = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        try:
            if ray_address:
                ray.init(address=ray_address, **options)
            else:
                path = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
                ray.init(
                    num_cpus=workers,
                    runtime_env={"env_vars": {"PYTHONPATH": path}},
                    **options,
                )
        except Exception as exc:  # Ray raises many kinds; name the cause in one line
            where = ray_address or "a local Ray"
            raise BackendError(f"cannot start or reach {where}: {exc}") from None
        started_here = True
    try:
        remote_play = ray.remote(num_cpus=1, max_retries=0)(play_game)
        pending = [remote_play.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()
