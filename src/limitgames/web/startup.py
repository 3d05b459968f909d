"""Starting one server process while its database or Redis may be down, and serving meanwhile.

A server process needs its database (the truth) and, with several processes,
Redis (``fanout.py``). Either may be away when a process starts: a
replacement for a killed worker, a machine rebooting before its database. A
start-up that failed made uvicorn stop every worker, and the site stayed down
after the service came back. So :class:`ServerStart` tries each step (open and
migrate the database, connect to Redis, load the unfinished games) until it
succeeds, waiting :class:`Backoff` between tries and logging once per outage
(:class:`Outage`), never failing; meanwhile :class:`StartingGate` answers
every request with a clear 503 (``Retry-After``) and every WebSocket with the
close code 1013 (try again later), and the process's other services stay as
they were.

The first try runs inside the app's start-up, so a server whose services
answer is ready when uvicorn says it started (and a test's first request is
served); only when it fails does the rest go on in the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from limitgames.translation import N_, gettext

log = logging.getLogger("limitgames.web")
T = TypeVar("T")

STARTING_MESSAGE = N_(
    "the server is starting and waits for its game database; try again in a moment"
)
"""What a client is told while a process has not finished starting (it names no host or file)."""

TRY_LATER_CODE = 1013
"""WebSocket close code of a connection refused while the process is starting (try again later)."""

RETRY_AFTER_SECONDS = 5


class Backoff:
    """Waits that double from ``first`` to at most ``most`` seconds, and start again after a success.

    Args:
        first: the first wait (seconds, > 0).
        most: the longest wait (seconds, >= ``first``).
    """

    def __init__(self, first: float = 0.25, most: float = 5.0) -> None:
        if not 0 < first <= most:
            raise ValueError(f"need 0 < first <= most, not first={first!r}, most={most!r}")
        self.first = first
        self.most = most
        self.next = first

    def delay(self) -> float:
        """The wait before the next try (seconds); each call doubles the one after, up to ``most``."""
        value = self.next
        self.next = min(self.most, self.next * 2)
        return value

    def reset(self) -> None:
        """A try succeeded: the next outage starts with ``first`` again."""
        self.next = self.first

    async def sleep(self) -> None:
        """Wait :meth:`delay` seconds."""
        await asyncio.sleep(self.delay())


class Outage:
    """Logs a service going away once (a warning) and coming back once (info), however many tries.

    Args:
        service: what is away, in the log (``"Redis"``, ``"the database"``).
    """

    def __init__(self, service: str) -> None:
        self.service = service
        self.down = False
        self.tries = 0

    def failed(self, exc: BaseException) -> None:
        """A try failed with ``exc``: the first failure of an outage is logged (one line)."""
        self.tries += 1
        if not self.down:
            self.down = True
            text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            log.warning("%s is unreachable (%s); retrying until it answers", self.service, text)

    def recovered(self) -> None:
        """A try succeeded: the end of an outage is logged (one line), with its tries."""
        if self.down:
            log.info("%s answers again (after %d failed tries)", self.service, self.tries)
        self.down = False
        self.tries = 0


async def until_it_works(
    step: Callable[[], Awaitable[T]],
    outage: Outage,
    errors: tuple[type[BaseException], ...],
    backoff: Backoff | None = None,
) -> T:
    """``await step()`` until it returns; each ``errors`` is noted in ``outage`` and retried.

    Other exceptions (a bug, a cancellation) propagate.
    """
    waits = backoff or Backoff()
    while True:
        try:
            value = await step()
        except errors as exc:
            outage.failed(exc)
            await waits.sleep()
            continue
        outage.recovered()
        return value


class ServerStart:
    """The start-up of one server process: steps tried until they succeed (module docstring).

    Args:
        steps: ``(service, step, errors)`` in order: ``await step()`` may raise
            one of ``errors`` while ``service`` is away (then it is tried again).
    """

    def __init__(
        self,
        steps: list[tuple[str, Callable[[], Awaitable[Any]], tuple[type[BaseException], ...]]],
    ) -> None:
        self.steps = steps
        self.ready = False
        self.outages = {service: Outage(service) for service, _step, _errors in steps}
        self._done = 0
        self._task: asyncio.Task[None] | None = None

    async def first_try(self) -> bool:
        """Try every step once, in order; ``True`` when all succeeded (the process is ready).

        When one fails with one of its ``errors``, the rest go on in a
        background task (:meth:`close` stops it); any other exception propagates.
        """
        while self._done < len(self.steps):
            service, step, errors = self.steps[self._done]
            try:
                await step()
            except errors as exc:
                self.outages[service].failed(exc)
                self._task = asyncio.get_running_loop().create_task(self._retry())
                return False
            self._done += 1
        self.ready = True
        return True

    async def _retry(self) -> None:
        while self._done < len(self.steps):
            service, step, errors = self.steps[self._done]
            await until_it_works(step, self.outages[service], errors)
            self._done += 1
        self.ready = True
        log.info("the server process is ready")

    async def wait_ready(self) -> None:
        """Return once every step has succeeded."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def close(self) -> None:
        """Stop trying (a process stopped before it was ready)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class StartingGate:
    """ASGI middleware: a 503 (HTTP) or a 1013 close (WebSocket) until ``start`` is ready.

    Args:
        app: the app behind the gate.
        start: the process's start-up (:class:`ServerStart`); ``None``
            (not started yet): closed.
        paths_open: path prefixes served anyway (static files need no database).
    """

    def __init__(
        self,
        app: ASGIApp,
        start: Callable[[], ServerStart | None],
        paths_open: tuple[str, ...] = ("/static/",),
    ) -> None:
        self.app = app
        self.start = start
        self.paths_open = paths_open

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = self.start()
        waiting = scope["type"] in ("http", "websocket") and (start is None or not start.ready)
        if not waiting or str(scope.get("path", "")).startswith(self.paths_open):
            await self.app(scope, receive, send)
            return
        message = gettext(STARTING_MESSAGE)
        if scope["type"] == "websocket":
            # accepted, then closed with 1013: a close before the accept reaches the client as
            # an HTTP 403 from uvicorn, which says "forbidden" instead of "try again later"
            connect = await receive()
            if connect.get("type") == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": TRY_LATER_CODE, "reason": message})
            return
        response = JSONResponse(
            {"detail": message},
            status_code=503,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
        await response(scope, receive, send)


__all__ = [
    "RETRY_AFTER_SECONDS",
    "STARTING_MESSAGE",
    "TRY_LATER_CODE",
    "Backoff",
    "Outage",
    "ServerStart",
    "StartingGate",
    "until_it_works",
]
