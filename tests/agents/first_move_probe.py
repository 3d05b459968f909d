"""The first moves of hex levels in a fresh process: what they cost and what they compile.

Run by ``tests/agents/test_level_warmup.py`` as a script, after ``scripts/compile_hex.py``
filled a fresh Numba cache::

    python tests/agents/first_move_probe.py PLAYERS EDITION LEVEL [LEVEL...]

For each level in turn (a fresh agent at every place) it times the level's first decision at
the places where a new compiled path may be needed: the start of a game, the first decision of
the movement phase (after the 2008 placement phase, played at random; the nestorgames edition
has no placement phase, so its movement phase starts at the start and is not played twice) and
the first decision in a small ending (at most 20 tiles, where hard and expert call the exact
solver). It prints one JSON object per level, one a line: the level, its spec, and per place
the wall seconds of that decision and the Numba functions compiled during it (none when the
warm-up covers them all). A function compiled for one level is cached in the process and not
compiled again for the next: the report names it at the first level that needed it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from numba.core import event

from limitgames.agents import level_spec, make_agent
from limitgames.agents.hex_evaluation import SOLVER_TILES
from limitgames.core import State, get_game
from limitgames.hex.state import HexState


class Compiled(event.Listener):  # type: ignore[misc]  # Numba has no type hints
    """Names the functions Numba compiles (its ``numba:compile`` event fires only for a
    function it did not find in its cache)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def on_start(self, happening: Any) -> None:
        function = happening.data["dispatcher"].py_func
        self.names.append(f"{function.__module__}.{function.__qualname__}")

    def on_end(self, happening: Any) -> None:
        """Nothing to do when a compilation ends."""


def places(players: int, edition: str, seed: int = 7) -> dict[str, State]:
    """The positions of the module docstring (``start``, ``movement`` when it is not the start,
    ``ending``), reached by seeded random play."""
    rng = random.Random(seed)
    state = get_game("hex").new_initial_state(seed=seed, players=players, edition=edition)
    found: dict[str, State] = {"start": state.clone()}
    placed = False
    while isinstance(state, HexState) and state.placement is not None:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        placed = True
    if placed:
        found["movement"] = state.clone()
    while True:
        if state.is_terminal():  # this game ended early: play another one
            seed += 1
            state = get_game("hex").new_initial_state(seed=seed, players=players, edition=edition)
            while isinstance(state, HexState) and state.placement is not None:
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
        assert isinstance(state, HexState)
        if len(state.tiles()) <= SOLVER_TILES and len(state.legal_actions()) > 1:
            found["ending"] = state.clone()
            return found
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def main() -> None:
    players, edition, levels = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    positions = places(players, edition)
    for level in levels:
        spec = level_spec("hex", level)
        report: dict[str, Any] = {"level": level, "spec": spec}
        for place, state in positions.items():
            agent = make_agent(spec, seed=1, game="hex")
            watch = Compiled()
            with event.install_listener("numba:compile", watch):
                started = time.perf_counter()
                agent.choose(state.clone())
                seconds = time.perf_counter() - started
            report[place] = {"seconds": round(seconds, 3), "compiled": watch.names}
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
