"""Compile the hex engine's Numba code once, saying what it does while it does it.

Run by ``scripts/setup.sh`` after installing: the three groups of compiled code,
:func:`limitgames.hex.warmup.compile_kernel` (the kernel, the layouts and batches),
:func:`limitgames.hex.vector.compile_all` (the research encodings' vector environment) and
:func:`limitgames.agents.hex_search.warmup.compile_search` (the agents' compiled tree search,
``hexmcts``), each compiled on a tiny game. Numba keeps the machine code in its cache, so
this takes about a minute on a fresh machine and a fraction of a second afterwards; then it
prints nothing.

While Numba compiles, a terminal shows the function being compiled, how many are done and
the time so far (Numba's ``numba:compile`` event, which fires only for a function not found
in the cache); a log (not a terminal) gets a line every 15 s instead. Each group ends with a
line naming what it compiled and how long it took.

Usage: ``python scripts/compile_hex.py`` (exit status 0; an error in the engine is raised).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from numba.core import event
from rich.console import Console

LOG_EVERY_SECONDS = 15.0
"""How often a log (not a terminal) is told that compilation goes on (seconds)."""


class CompileWatch(event.Listener):  # type: ignore[misc]  # Numba has no type hints
    """Counts the functions Numba compiles (not those it loads from its cache) and shows them.

    Args:
        console: where to write.
        group: what is compiled (``"the hex kernel"``), for the lines shown.
    """

    def __init__(self, console: Console, group: str) -> None:
        self.console = console
        self.group = group
        self.started = time.perf_counter()
        self.compiling: list[str] = []  # the function being compiled, and its callers
        self.compiled: Counter[str] = Counter()  # by module
        self.done = threading.Event()
        self.announced = False

    def elapsed(self) -> float:
        """Seconds since the group started."""
        return time.perf_counter() - self.started

    def line(self) -> str:
        """Where compilation is: ``the hex kernel: 12 functions compiled, now kernel.play (31 s)``."""
        count = sum(self.compiled.values())
        now = f", now {self.compiling[-1]}" if self.compiling else ""
        return f"{self.group}: {count} functions compiled{now} ({self.elapsed():.0f} s)"

    def on_start(self, happening: Any) -> None:
        """A function starts compiling (a nested one while its caller is typed)."""
        function = happening.data["dispatcher"].py_func
        module = function.__module__.removeprefix("limitgames.")
        self.compiling.append(f"{module}.{function.__qualname__}")
        if not self.announced:
            self.announced = True
            self.console.print(
                f"Compiling {self.group} with Numba (once: later starts load it from the "
                "cache in a fraction of a second)",
                highlight=False,
            )

    def on_end(self, happening: Any) -> None:
        """A function is compiled."""
        function = happening.data["dispatcher"].py_func
        self.compiled[function.__module__.removeprefix("limitgames.")] += 1
        if self.compiling:
            self.compiling.pop()


def compile_group(console: Console, group: str, compile_all: Callable[[], float]) -> int:
    """Run ``compile_all`` (a warm-up of compiled entry points) while showing its progress;
    print a closing line if anything was compiled; return how many functions were compiled."""
    watch = CompileWatch(console, group)

    def tell() -> None:
        """In a terminal, a status line redrawn every second; in a log, a line every 15 s."""
        if console.is_terminal:
            with console.status(watch.line()) as status:
                while not watch.done.wait(1.0):
                    if watch.announced:
                        status.update(watch.line())
        else:
            while not watch.done.wait(LOG_EVERY_SECONDS):
                if watch.announced:
                    console.print(watch.line(), highlight=False)

    teller = threading.Thread(target=tell, name="compile-progress", daemon=True)
    teller.start()
    try:
        with event.install_listener("numba:compile", watch):
            compile_all()
    finally:
        watch.done.set()
        teller.join()
    total = sum(watch.compiled.values())
    if total:
        modules = ", ".join(f"{m} {n}" for m, n in sorted(watch.compiled.items()))
        console.print(
            f"{group} ready: {total} functions compiled in {watch.elapsed():.0f} s ({modules})",
            highlight=False,
        )
    return total


def main() -> None:
    """Compile the three groups (see the module docstring)."""
    console = Console(highlight=False, soft_wrap=True)  # a log keeps each line whole
    started = time.perf_counter()
    from limitgames.hex.warmup import compile_kernel  # imports Numba and the engine

    compiled = compile_group(console, "the hex kernel", compile_kernel)
    from limitgames.hex.vector import compile_all

    compiled += compile_group(console, "the hex vector environment", compile_all)
    from limitgames.agents.hex_search.warmup import compile_search  # the agents' search

    compiled += compile_group(console, "the hex search (hexmcts)", compile_search)
    if compiled:  # nothing when everything came from the cache
        seconds = time.perf_counter() - started
        console.print(f"hex engine ready ({seconds:.0f} s in all)", highlight=False)


if __name__ == "__main__":
    main()
