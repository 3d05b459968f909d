"""Drive ``limit`` in a real pseudo-terminal (the standard library's ``pty``), as a person would.

The program sees a terminal (Rich draws colours, spinners and prompts as it
does for people); what it prints is collected with the escape sequences
taken out, and the test answers its prompts.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from tests.deadlines import scaled

ROOT = Path(__file__).resolve().parents[2]
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]|\x1b[=>78]"
)


def plain(raw: str) -> str:
    """``raw`` output without escape sequences, lines ending in ``\\n``."""
    return _ESCAPES.sub("", raw).replace("\r\n", "\n").replace("\r", "\n")


class Terminal:
    """A ``limit`` process on a pseudo-terminal of ``columns`` x ``rows``.

    Args:
        args: the arguments after ``limit``.
        cwd: the working directory (records go under it).
    """

    def __init__(self, args: list[str], cwd: Path, columns: int = 100, rows: int = 50) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = dict(os.environ)
        env.update(
            PYTHONPATH=str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", ""),
            TERM="xterm-256color",
            COLUMNS=str(columns),
            LINES=str(rows),
        )
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from limitgames.cli.app import main; main()", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.text = ""
        """Everything printed so far, without escape sequences."""
        self.raw = ""
        """Everything printed so far as it came (escape sequences kept: where the screen was
        cleared)."""
        self.position = 0
        """Where the next :meth:`expect` starts looking."""
        self.closed = False

    def _read(self, timeout: float) -> bool:
        """Read what is waiting (up to ``timeout`` s); False at end of output."""
        if self.closed:
            return False
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 1 << 16)
        except OSError:  # EIO: the program ended and the terminal closed
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.raw += chunk.decode("utf-8", "replace")
        text = _ESCAPES.sub("", chunk.decode("utf-8", "replace"))
        self.text += text.replace("\r\n", "\n").replace("\r", "\n")
        return True

    def expect(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait for ``pattern`` (a regular expression) after the last match; return the match
        (at most ``timeout`` s, scaled: see :mod:`tests.deadlines`).

        Raises AssertionError with the end of the output if it does not come.
        """
        regex = re.compile(pattern)
        deadline = time.monotonic() + scaled(timeout)
        while True:
            found = regex.search(self.text, self.position)
            if found:
                self.position = found.end()
                return found
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.5)):
                found = regex.search(self.text, self.position)
                if found:
                    self.position = found.end()
                    return found
                tail = self.text[-3000:]
                raise AssertionError(f"{pattern!r} did not come; the end of the output:\n{tail}")

    def expect_any(self, patterns: list[str], timeout: float = 60.0) -> tuple[int, re.Match[str]]:
        """Wait for the first of ``patterns``; return its index and match."""
        joined = "|".join(f"(?P<p{i}>{p})" for i, p in enumerate(patterns))
        found = self.expect(joined, timeout)
        for i in range(len(patterns)):
            if found.group(f"p{i}") is not None:
                return i, found
        raise AssertionError("unreachable")

    def send(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.master, line.encode() + b"\r")

    def wait(self, timeout: float = 60.0) -> int:
        """Read to the end of the output and return the exit status."""
        deadline = time.monotonic() + scaled(timeout)
        while self._read(max(0.0, min(0.5, deadline - time.monotonic()))):
            if time.monotonic() > deadline:
                raise AssertionError(f"still running; the end of the output:\n{self.text[-2000:]}")
        return self.process.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        """Stop the program if it still runs and close the terminal."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=scaled(10))
        os.close(self.master)
