"""The tournament schedule: who sits where in each game, and every seed.

Seat rotation (every agent in every seat equally):

- with as many agents as seats or fewer, game ``g`` of a round seats agent
  ``(s + g) mod A`` in seat ``s``; a round is ``A`` games, so each agent takes
  each seat once per round (with fewer agents than seats an agent may hold
  several seats of one game);
- with more agents than seats, a round is every ordered choice of distinct
  agents for the seats (``A! / (A-P)!`` games).

The number of games is rounded up to whole rounds. All games of one round are
played on the same deal or layout (the chance seed is the round's), so seat
and luck are balanced between the agents.

Every seed is derived from the run seed by hashing (SHA-256), so a game is a
pure function of its :class:`GameTask`: the same run seed gives the same
games, whatever the backend, worker count or order of completion.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (stable across processes and machines)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament: everything needed to play it.

    Attributes:
        index: the game number in the run (0-based).
        game: the game id.
        variant: the variant parameters.
        seating: per seat, the index of the agent in the run's agent list.
        specs: per seat, the agent spec.
        seed: the chance seed of the game (shared by the games of a round).
        agent_seeds: per seat, the seed of that seat's agent.
        plugins: modules to import before playing (they register extra games
            or agents).
    """

    index: int
    game: str
    variant: dict[str, Any]
    seating: tuple[int, ...]
    specs: tuple[str, ...]
    seed: int
    agent_seeds: tuple[int, ...]
    plugins: tuple[str, ...] = field(default=())


def seatings(agents: int, seats: int) -> list[tuple[int, ...]]:
    """One round of seat rotation: per game, the agent index of each seat.

    Raises:
        ValueError: with fewer than one agent or seat.
    """
    if agents < 1 or seats < 1:
        raise ValueError("a tournament needs at least one agent and one seat")
    if agents <= seats:
        return [tuple((s + g) % agents for s in range(seats)) for g in range(agents)]
    return list(itertools.permutations(range(agents), seats))


def round_up_games(games: int, agents: int, seats: int) -> int:
    """``games`` rounded up to whole rounds of the seat rotation."""
    size = len(seatings(agents, seats))
    return max(1, -(-games // size)) * size


def make_schedule(
    game: str,
    variant: dict[str, Any],
    specs: Sequence[str],
    seats: int,
    games: int,
    seed: int,
    plugins: Sequence[str] = (),
) -> list[GameTask]:
    """The games of a run, ``games`` rounded up to whole rounds (see the module docstring)."""
    rotation = seatings(len(specs), seats)
    total = round_up_games(games, len(specs), seats)
    tasks = []
    for index in range(total):
        round_number, position = divmod(index, len(rotation))
        seating = rotation[position]
        tasks.append(
            GameTask(
                index=index,
                game=game,
                variant=dict(variant),
                seating=seating,
                specs=tuple(specs[a] for a in seating),
                seed=derive_seed(seed, "round", round_number),
                agent_seeds=tuple(
                    derive_seed(seed, "game", index, "seat", s) for s in range(seats)
                ),
                plugins=tuple(plugins),
            )
        )
    return tasks
