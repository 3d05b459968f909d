"""``limit serve --workers N``: N server processes on one port, one PostgreSQL database, one Redis.

uvicorn's process manager starts the N processes (each its own event loop,
:class:`~limitgames.web.live.GameHub` and pool of computer workers), they
share the listening socket, and a process that dies (even ``kill -9``) is
started again. Each builds its app with :func:`app_from_environment` from the
settings :func:`run_workers` leaves in the environment variable
:data:`CONFIG_VARIABLE` (the children are new interpreters). Live updates
travel between them through Redis (:mod:`limitgames.web.fanout`).

Several machines: run ``limit serve --db postgresql+psycopg://... --redis
redis://...`` on each (with ``--workers`` as many as it has cores), all on
the same database and Redis, behind a load balancer (see ``docs/web.md``).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy.engine import make_url

from limitgames.web.computer import DEFAULT_MOVE_SECONDS
from limitgames.web.limits import ServerLimits

CONFIG_VARIABLE = "LIMIT_SERVE_CONFIG"
"""The environment variable that carries a worker's settings (JSON of :class:`WorkerConfig`)."""


@dataclass
class WorkerConfig:
    """What every server process is started with (the options of ``limit serve``)."""

    database_url: str
    redis_url: str | None = None
    move_seconds: float = DEFAULT_MOVE_SECONDS
    computer_workers: int = 2
    computer_processes: bool = True
    computer_priority: str = "idle"
    limits: dict[str, Any] = field(default_factory=lambda: asdict(ServerLimits()))
    data_files: dict[str, dict[str, str]] = field(default_factory=dict)


def scale_out_problem(database_url: str, workers: int, redis_url: str | None) -> str | None:
    """Why ``workers`` processes cannot serve ``database_url`` (or ``None``: they can).

    Several processes need a database that several processes write at once
    (PostgreSQL; SQLite stays the single-process default) and a Redis to
    share live updates.

    Raises:
        sqlalchemy.exc.ArgumentError: ``database_url`` is not a URL.
    """
    backend = make_url(database_url).get_backend_name()
    several = workers > 1 or redis_url is not None
    if several and backend == "sqlite":
        return (
            "several server processes (--workers > 1 or --redis) need a PostgreSQL database "
            "(--db postgresql+psycopg://user@host/dbname); SQLite serves one process"
        )
    if workers > 1 and redis_url is None:
        return (
            "--workers > 1 needs --redis URL (redis://host:6379/0): the processes share live "
            "updates through Redis pub/sub"
        )
    return None


def app_from_environment() -> Any:
    """The app of one worker process, from :data:`CONFIG_VARIABLE` (uvicorn's app factory).

    Raises:
        KeyError: the variable is not set (not started by :func:`run_workers`).
    """
    from limitgames.web.app import create_app
    from limitgames.web.computer import watch_parent

    config = WorkerConfig(**json.loads(os.environ[CONFIG_VARIABLE]))
    # a worker whose supervisor is gone (killed, or it gave up waiting for a shutdown) exits
    # at once instead of serving on as an orphan; every action is committed before it is
    # shown, so nothing is lost (the kill -9 tests)
    watch_parent(os.getppid())
    return create_app(
        config.database_url,
        move_seconds=config.move_seconds,
        computer_workers=config.computer_workers,
        computer_processes=config.computer_processes,
        computer_priority=config.computer_priority,
        limits=ServerLimits(**config.limits),
        data_files=config.data_files,
        redis_url=config.redis_url,
    )


def run_workers(
    config: WorkerConfig, workers: int, host: str, port: int, uvicorn_options: dict[str, Any]
) -> None:
    """Migrate the database once, then run ``workers`` server processes on ``host:port``.

    Blocks until the server is stopped (Ctrl-C, SIGTERM).
    """
    import uvicorn

    from limitgames.web.storage import Store

    Store.open(config.database_url).close()  # migrate here, before the workers start
    os.environ[CONFIG_VARIABLE] = json.dumps(asdict(config))
    uvicorn.run(
        "limitgames.web.workers:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        **uvicorn_options,
    )
