"""Throwaway PostgreSQL and Redis servers for the scale-out tests and the load benchmark.

:class:`PostgresCluster` runs ``initdb`` in a temporary folder and starts
``postgres`` on a free loopback port (as ``nobody`` when we are root:
PostgreSQL refuses to run as root); :class:`RedisServer` starts
``redis-server`` on a free port without persistence. Both are found on the
PATH or in Debian's ``/usr/lib/postgresql/*/bin``; :func:`missing` says what
is not installed (the tests skip with that reason). ``scripts/test.sh``
installs them with apt where it can.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

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


def _wait_port(port: int, process: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited: {log.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start in 30 s: see {log}")


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
        log = self.folder / "postgres.log"
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
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [str(binaries / "postgres"), "-D", str(data), "-p", str(self.port), *settings],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                **as_user,  # type: ignore[call-overload]
            )
        _wait_port(self.port, self.process, "postgres", log)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: "smart" shutdown; the folder goes next
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
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
        _wait_port(self.port, self.process, "redis-server", log)
        return self

    def stop(self) -> None:
        stop_process(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)
