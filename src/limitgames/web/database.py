"""The database calls of one server process, run off the event loop.

Every :class:`~limitgames.web.storage.Store` method is one synchronous
transaction; :class:`Database` runs them on its own threads so the event loop
answers everybody meanwhile, and turns a database that refuses (full disk,
read-only, unreachable) into :class:`~limitgames.web.refusals.StorageUnavailableError`
with a message that names no file or path.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from limitgames.translation import N_, gettext
from limitgames.web.refusals import StorageUnavailableError
from limitgames.web.storage import Store

log = logging.getLogger("limitgames.web")
T = TypeVar("T")

STORAGE_MESSAGE = N_(
    "the game database cannot store anything right now (full or read-only); try again in a moment"
)
"""What a client is told when the database refuses a write; it says nothing about files or paths."""


class Database:
    """The store of one server process and the threads that run its calls.

    Args:
        store: the database.
        threads: threads that run database calls: 1 for SQLite (one writer
            at a time); more let a server database (PostgreSQL) commit
            several games' actions at once (one game's are ordered by its lock).
    """

    def __init__(self, store: Store, threads: int = 1) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="limit-db")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (a :class:`Store` method) on a database thread and return its result.

        Raises:
            StorageUnavailableError: the database refused (full disk,
                read-only, unreachable); logged in one line, no traceback.
        """
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, fn, *args)
        except (OperationalError, InternalError, PoolTimeoutError) as exc:
            reason = getattr(exc, "orig", None) or exc
            first = str(reason).splitlines()[0] if str(reason) else type(reason).__name__
            log.warning("the database refused %s: %s", getattr(fn, "__name__", "a call"), first)
            raise StorageUnavailableError(gettext(STORAGE_MESSAGE)) from None

    def close(self) -> None:
        """Wait for the calls under way, then stop the threads."""
        self._executor.shutdown(wait=True)


__all__ = ["STORAGE_MESSAGE", "Database"]
