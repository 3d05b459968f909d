"""Chance outcomes that become part of a game's history.

A game draws every random outcome (a layout, a deal, a shuffle) through
:meth:`Chance.draw`. Each outcome is a JSON-ready value that the game turns
into its own form. The outcomes are logged; a record stores the log, and
replaying the record hands the same outcomes back (``Chance(replay=...)``),
whatever random numbers the code would draw today.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from limitgames.core.errors import RecordError

T = TypeVar("T")


def fresh_seed() -> int:
    """A new random 63-bit seed (from the operating system)."""
    return int.from_bytes(os.urandom(8), "big") >> 1


def seed_commitment(seed: int) -> str:
    """The published commitment to a seed: SHA-256 of its decimal digits (ASCII), hex (64 chars).

    Shown during play instead of the seed, which re-deals every hidden card;
    anyone can check it once the seed is revealed at the end:
    ``printf %s SEED | sha256sum``.
    """
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


class Chance:
    """The source of a game's chance outcomes.

    Args:
        seed: seeds the generator; ``None`` draws a fresh seed (kept in ``seed``).
        replay: recorded outcomes (``[{"kind": ..., "value": ...}]``) to hand
            back in order instead of drawing.

    Attributes:
        seed: the seed in use.
        outcomes: every outcome handed out so far, in order.
    """

    __slots__ = ("_replay", "outcomes", "rng", "seed")

    def __init__(
        self, seed: int | None = None, replay: Sequence[Mapping[str, Any]] | None = None
    ) -> None:
        self.seed = fresh_seed() if seed is None else int(seed)
        self.rng = random.Random(self.seed)
        self.outcomes: list[dict[str, Any]] = []
        self._replay = list(replay) if replay is not None else None

    @property
    def replaying(self) -> bool:
        """Whether outcomes come from a record rather than the generator."""
        return self._replay is not None

    def next_kind(self) -> str | None:
        """When replaying: the kind of the next recorded outcome (``None`` if there is none or
        it is malformed). When drawing: ``None``."""
        if self._replay is None or len(self.outcomes) >= len(self._replay):
            return None
        entry = self._replay[len(self.outcomes)]
        kind = entry.get("kind") if isinstance(entry, Mapping) else None
        return kind if isinstance(kind, str) else None

    def draw(
        self,
        kind: str,
        sample: Callable[[random.Random], T],
        request: Mapping[str, Any] | None = None,
    ) -> T:
        """Return the next outcome of ``kind``.

        ``sample(rng)`` draws it (it must return a JSON-ready value). When
        replaying, the recorded value is returned instead, as JSON decodes it
        (lists, not tuples); the game validates it. ``request`` describes the
        outcome for a source that is told it rather than drawing it (a referee
        at a real table, see ``limitgames.world.referee``): ``label`` (what is
        drawn, in words), ``options`` (the possible values or items) and
        ``count`` (``None``: one of the options; ``k``: a list of ``k``
        distinct options). This class ignores it.

        Raises:
            RecordError: when replaying and the record has no more outcomes or
                the next one is of another kind.
        """
        index = len(self.outcomes)
        if self._replay is not None:
            if index >= len(self._replay):
                raise RecordError(
                    f"the record has no chance outcome for {kind!r}", f"chance {index}"
                )
            entry = self._replay[index]
            if not isinstance(entry, Mapping) or entry.get("kind") != kind or "value" not in entry:
                raise RecordError(f"expected a chance outcome of kind {kind!r}", f"chance {index}")
            value: T = entry["value"]
        else:
            value = sample(self.rng)
        self.outcomes.append({"kind": kind, "value": value})
        return value

    def clone(self) -> Chance:
        """An independent copy (same generator state and log)."""
        other = Chance.__new__(Chance)
        other.seed = self.seed
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.outcomes = list(self.outcomes)
        other._replay = self._replay
        return other
