"""How long the tests wait for a service or an answer, on a quiet or a crowded machine.

A test waits for something real (a query that succeeds, a message that comes), never for a
fixed time. Each wait has a deadline only so that a broken service fails the test instead
of hanging it: a passing test never waits the deadline out, so the deadlines are generous,
and they grow with ``LIMIT_TEST_TIME_FACTOR`` (a number above 0, default 1; e.g.
``LIMIT_TEST_TIME_FACTOR=3`` on a machine shared with other heavy work).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def _time_factor() -> float:
    text = os.environ.get("LIMIT_TEST_TIME_FACTOR", "1")
    try:
        factor = float(text)
    except ValueError:
        raise ValueError(f"LIMIT_TEST_TIME_FACTOR must be a number above 0, not {text!r}") from None
    if not factor > 0:
        raise ValueError(f"LIMIT_TEST_TIME_FACTOR must be a number above 0, not {text!r}")
    return factor


TIME_FACTOR = _time_factor()
"""What every deadline of the tests is multiplied by (``LIMIT_TEST_TIME_FACTOR``, default 1)."""


def scaled(seconds: float) -> float:
    """``seconds`` (a deadline, not a pause) times :data:`TIME_FACTOR`."""
    return seconds * TIME_FACTOR


def wait_until(
    query: Callable[[], T],
    what: str,
    seconds: float = 60.0,
    gone: Callable[[], str | None] | None = None,
    interval: float = 0.1,
) -> T:
    """Ask ``query`` again and again until it answers without raising; return its answer.

    Args:
        query: the real question (``SELECT 1``, ``PING``, an HTTP request); an exception means
            "not yet" (for example PostgreSQL's "the database system is starting up").
        what: what is waited for, for the error message (``"postgres on port 5432"``).
        seconds: the deadline before scaling (see :func:`scaled`).
        gone: asked between tries; a text means the service will never answer (its process
            exited), and the wait fails at once with that text.
        interval: seconds between tries (a poll, not a wait of its own).

    Raises:
        RuntimeError: ``gone`` said so, or the deadline passed (with the last exception).
    """
    deadline = time.monotonic() + scaled(seconds)
    last: BaseException | None = None
    while True:
        try:
            return query()
        except Exception as exc:
            last = exc
        if gone is not None and (reason := gone()) is not None:
            raise RuntimeError(f"{what}: {reason}")
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"{what} did not answer in {scaled(seconds):.0f} s (last: {last!r}); "
                "on a crowded machine set LIMIT_TEST_TIME_FACTOR (e.g. 3)"
            ) from last
        time.sleep(interval)
