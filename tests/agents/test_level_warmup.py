"""After the warm-up of ``scripts/setup.sh``, the first moves of every hex level compile nothing
and stay within the level's cap, for 2 and 3 players and both editions.

The warm-up (``scripts/compile_hex.py``) runs into a fresh, temporary Numba cache
(``NUMBA_CACHE_DIR``, which wins over the project's own cache folder: see
:mod:`limitgames.hex.bitboard`); then the levels play their first decisions in a fresh process
per player count and edition (``tests/agents/first_move_probe.py``). The check that counts is
that nothing is compiled during those decisions (Numba reports every function it compiles) but
the clock that Numba compiles in every process. The time of each decision is held only loosely,
to the level's wall-time cap (``seconds=`` of its spec; easy, which does not search, 0.2 s) plus
a margin of 10 s that grows with ``LIMIT_TEST_TIME_FACTOR``: loading the compiled code from the
cache fits in it on a machine shared with other work, a search that ignores its cap or a kernel
compiled afresh (tens of seconds) does not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from limitgames.agents import LEVELS, level_spec
from limitgames.agents.base import parse_spec
from tests.deadlines import scaled

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("first_move_probe.py")
EASY_SECONDS = 0.2
"""What a level that does not search may take a decision (one evaluation per legal action)."""
MARGIN_SECONDS = 10.0
"""Over the cap, for loading the compiled code from the cache on a busy machine (before
scaling; about 1 s on a quiet one)."""
EVERY_PROCESS = {"limitgames.hex.solver._time_is_up"}
"""Compiled in every process whatever the cache holds: the searches' clock, a Numba object-mode
block (``time.perf_counter``), which Numba does not keep in its cache (about 0.1 s)."""


def cap_of(level: str) -> float:
    """The wall-time cap of the hex level ``level`` (its spec's ``seconds``)."""
    _, options = parse_spec(level_spec("hex", level))
    return float(options["seconds"]) if "seconds" in options else EASY_SECONDS


@pytest.fixture(scope="module")
def fresh_cache(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process whose Numba cache is a new folder filled by the warm-up."""
    cache = tmp_path_factory.mktemp("numba-cache")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=f"{ROOT / 'src'}:{ROOT}")
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "compile_hex.py")],
        env=env,
        check=True,
        capture_output=True,
        timeout=scaled(1800),
    )
    return env


@pytest.mark.slow
@pytest.mark.timeout(int(scaled(3600)))
def test_first_moves_of_every_level_compile_nothing_and_keep_the_cap(
    fresh_cache: dict[str, str],
) -> None:
    problems = []
    for edition in ("nestorgames", "2008"):
        for players in (2, 3):
            done = subprocess.run(
                [sys.executable, str(PROBE), str(players), edition, *LEVELS],
                env=fresh_cache,
                check=True,
                capture_output=True,
                text=True,
                timeout=scaled(1200),
            )
            reports = [
                json.loads(line) for line in done.stdout.strip().splitlines()[-len(LEVELS) :]
            ]
            assert [report["level"] for report in reports] == list(LEVELS), done.stdout
            # the nestorgames edition has no placement phase: its movement phase starts at the start
            places = (
                ("start", "ending") if edition == "nestorgames" else ("start", "movement", "ending")
            )
            for report in reports:
                level = report["level"]
                print(level, players, edition, json.dumps(report))  # shown by pytest -s / -rP
                assert set(report) == {"level", "spec", *places}, report
                allowed = cap_of(level) + scaled(MARGIN_SECONDS)
                for place in places:
                    seen = report[place]
                    where = f"{level} ({players} players, {edition}) at the {place}"
                    missed = [name for name in seen["compiled"] if name not in EVERY_PROCESS]
                    if missed:
                        problems.append(f"{where} compiled {', '.join(missed)}")
                    if seen["seconds"] > allowed:
                        problems.append(
                            f"{where} took {seen['seconds']} s (cap + margin {allowed})"
                        )
    assert not problems, "\n".join(problems)
