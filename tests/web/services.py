"""Throwaway PostgreSQL and Redis servers for the scale-out tests and the load benchmark.

:class:`PostgresCluster` runs ``initdb`` in a temporary folder and starts
``postgres`` on a free loopback port (as ``nobody`` when we are root:
PostgreSQL refuses to run as root); :class:`RedisServer` starts
``redis-server`` on a free port without persistence. Both are found on the
PATH or in Debian's ``/usr/lib/postgresql/*/bin``; :func:`missing` says what
is not installed (the tests skip with that reason). ``scripts/test.sh``
installs them with apt where it can.

``start()`` returns once the server answers a real query (PostgreSQL ``SELECT 1``,
Redis ``PING``): an open port is not a ready database (PostgreSQL accepts connections
while it still answers "the database system is starting up").
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.deadlines import scaled, wait_until
from tests.web.conftest import stop_process


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def postgres_bin() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or ``None``."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(versions[-1]).parent if versions else None


def missing() -> str | None:
    """What is missing to run the scale-out tests (``None``: nothing)."""
    needs = []
    if postgres_bin() is None:
        needs.append("PostgreSQL (initdb, postgres: apt-get install postgresql)")
    if shutil.which("redis-server") is None:
        needs.append("redis-server (apt-get install redis-server)")
    try:
        import psycopg  # noqa: F401
        import redis  # noqa: F401
    except ImportError:
        needs.append("the Python packages psycopg and redis (pip install 'limitgames[scale]')")
    return "; ".join(needs) or None


def _exited(process: subprocess.Popen[bytes], what: str, log: Path) -> Callable[[], str | None]:
    """For :func:`~tests.deadlines.wait_until`: the end of ``log`` once ``process`` exited."""

    def gone() -> str | None:
        if process.poll() is None:
            return None
        return f"{what} exited: {log.read_text(errors='replace')[-2000:]}"

    return gone


class PostgresCluster:
    """A PostgreSQL cluster in a temporary folder, on a free port, trusting local connections.

    Args:
        durable: keep ``fsync`` on (for measurements); off by default (tests).
    """

    def __init__(self, durable: bool = False) -> None:
        self.port = free_port()
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="limit-pg-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.user: str | None = "nobody" if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run_as(self) -> dict[str, object]:
        if self.user is None:
            return {}
        entry = pwd.getpwnam(self.user)
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def start(self) -> PostgresCluster:
        binaries = postgres_bin()
        if binaries is None:
            raise RuntimeError("PostgreSQL is not installed")
        data = self.folder / "data"
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        as_user = self._run_as()
        subprocess.run(
            [
                str(binaries / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.folder,
            **as_user,  # type: ignore[call-overload]
        )
        self._launch()
        return self

    def _launch(self) -> None:
        """Start ``postgres`` on the cluster's data and port; return once it answers ``SELECT 1``."""
        binaries = postgres_bin()
        assert binaries is not None
        data = self.folder / "data"
        log = self.folder / "postgres.log"
        as_user = self._run_as()
        settings = [
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"unix_socket_directories={self.folder}",
        ]
        settings += ["-c", "max_connections=200"]
        if not self.durable:
            settings += [
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ]
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [str(binaries / "postgres"), "-D", str(data), "-p", str(self.port), *settings],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                **as_user,  # type: ignore[call-overload]
            )
        wait_until(
            self.select_one,
            f"postgres on port {self.port} (log: {log})",
            gone=_exited(self.process, "postgres", log),
        )

    def halt(self) -> None:
        """Stop the server at once (SIGINT: PostgreSQL's "fast" shutdown, every client cut off),
        keeping its data for :meth:`restart`."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=scaled(30))

    def restart(self) -> None:
        """Start the halted server again on the same data and port (returns once it answers)."""
        self._launch()

    def select_one(self) -> None:
        """``SELECT 1`` on a new connection; raises (``psycopg.OperationalError``) while the
        server is not ready, e.g. "the database system is starting up"."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user="postgres",
            dbname="postgres",
            connect_timeout=max(2, round(scaled(5))),
        ) as connection:
            connection.execute("SELECT 1").fetchone()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: "smart" shutdown; the folder goes next
            try:
                self.process.wait(timeout=scaled(20))
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=scaled(10))
        shutil.rmtree(self.folder, ignore_errors=True)


class RedisServer:
    """``redis-server`` on a free loopback port, nothing written to disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="limit-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        log = self.folder / "redis.log"
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [
                    binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.folder),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_until(
            self.ping,
            f"redis-server on port {self.port} (log: {log})",
            gone=_exited(self.process, "redis-server", log),
        )
        return self

    def ping(self) -> None:
        """``PING`` on a new connection; raises (``redis.RedisError``) while the server is not
        ready (it refuses, or answers "LOADING")."""
        import redis

        client = redis.Redis(
            host="127.0.0.1",
            port=self.port,
            socket_timeout=scaled(5),
            socket_connect_timeout=scaled(5),
        )
        try:
            if not client.ping():
                raise RuntimeError("redis-server answered PING with something else than PONG")
        finally:
            client.close()

    def stop(self) -> None:
        stop_process(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)
