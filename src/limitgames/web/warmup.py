"""Start-up warm-up: every game played once, so that its compiled kernels are loaded before people play.

The hex engine's kernels are Numba functions (``hex/kernel.py`` and its
neighbours, ``cache=True``). Numba makes a function's machine code the first
time the function is called in a process: it loads it from its on-disk cache
(the ten a hex game needs took 0.55-0.7 s in all in a fresh interpreter, on
a busy machine, 2026-11-29: the first game played 0.69 s, the second 0.15 s),
or compiles it when the cache does not match the source (seconds, after an
upgrade). A server process that first needed a kernel while people played
did that on its event loop, in the middle of somebody's action, and every
game of the process waited meanwhile: a profile of a worker under the load
benchmark (``benchmarks/bench_web_load.py --scenario throughput``) showed ten
kernels loaded that way during play, the last ones only when the first games
reached the positions that use them.

:func:`play_every_game` plays one seeded game of each game to its end (or
:data:`WARMUP_PLIES` actions) through the game protocol, asking every seat's
observation and the spectator's on the way, as the views do; ``app.settle_memory``
runs it (:func:`warm_up`: once per process) in a thread at start-up, before
the imports are frozen out of the garbage collector.
"""

from __future__ import annotations

import contextlib
import functools
import random

from limitgames.core import available_games, get_game

WARMUP_PLIES = 400
"""The most actions played in each game's warm-up (a random hex game ends in about 50)."""


def play_every_game(plies: int = WARMUP_PLIES, seed: int = 0) -> dict[str, int]:
    """Play one game of each registered game with uniformly random legal actions.

    Each action is written in notation, read back, checked, applied to a
    copy (as a move is committed) and with its events (as it is told); after each, the state's terminal test, every seat's
    observation and the spectator's are asked (what a view asks), and the
    returns and the outcome at the end: every rule a live
    game uses has then run once in this process.

    Args:
        plies: the most actions played in each game (>= 0).
        seed: the seed of each game's chance and of the choice of actions.

    Returns:
        ``{game id: actions played}``.
    """
    played: dict[str, int] = {}
    for game_id in available_games():
        state = get_game(game_id).new_initial_state(seed=seed)
        rng = random.Random(seed)
        count = 0
        while not state.is_terminal() and count < plies:
            legal = state.legal_actions()
            action = state.parse_action(state.action_to_string(legal[rng.randrange(len(legal))]))
            state.is_legal(action)
            state.clone().apply(action)  # as a move is committed (``GameHub.commit``)
            state.apply_with_events(action)  # as its events are told
            count += 1
            for seat in [*range(state.num_players), None]:
                state.observation(seat)
        if state.is_terminal():
            state.returns()
            with contextlib.suppress(NotImplementedError):  # a game that does not say why it ends
                state.outcome()
        played[game_id] = count
    return played


@functools.cache
def warm_up() -> dict[str, int]:
    """:func:`play_every_game` once per process (the kernels, once loaded, stay loaded): what
    ``app.settle_memory`` calls, so that each app started in one process (the tests start
    hundreds) does not play them again. Returns its answer."""
    return play_every_game()


__all__ = ["WARMUP_PLIES", "play_every_game", "warm_up"]
