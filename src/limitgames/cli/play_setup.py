"""What a ``limit play GAME`` command starts from: the state, the seats, the seed, the record.

:func:`resolve_play` turns the shared options (``--seat``, ``--opponent``, ``--seed``,
``--record``, ``--no-record``, ``--position``) into a :class:`PlaySetup`;
:func:`load_start` reads a game record or a position file to play on from.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from limitgames.agents import level_spec
from limitgames.cli.seats import Seat, is_human_spec, parse_seats
from limitgames.core import (
    GameRecord,
    PositionError,
    RecordError,
    State,
    get_game,
)
from limitgames.translation import gettext


def default_record_path(game_id: str) -> Path:
    """``records/<game>-<UTC date>-<time>.json`` in the current directory."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"{game_id}-{stamp}.json"


def load_start(game_id: str, path: Path) -> tuple[State, int | None]:
    """The state to play on from ``path``: a game record (replayed) or a position file.

    Returns ``(state, seed)`` (the record's seed, or ``None``).

    Raises:
        PositionError: the file cannot be read, is not JSON, is a record of
            another game, or is not a position of ``game_id`` (one line).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PositionError(
            gettext("%(file)s: cannot read the file: %(reason)s")
            % {"file": path, "reason": exc.strerror}
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PositionError(
            gettext("%(file)s: not JSON: %(reason)s") % {"file": path, "reason": exc}
        ) from None
    except RecursionError:  # Python's parser recurses once per level of nesting
        raise PositionError(
            gettext("%(file)s: not JSON: %(reason)s")
            % {"file": path, "reason": "nested too deeply"}
        ) from None
    if isinstance(data, dict) and "actions" in data:
        try:
            record = GameRecord.read(path)
            if record.game != game_id:
                raise PositionError(
                    gettext("%(file)s is a record of %(game)s, not of %(wanted)s")
                    % {"file": path, "game": record.game, "wanted": game_id}
                )
            return record.replay(), record.seed
        except RecordError as exc:
            raise PositionError(f"{path}: {exc}") from None
    try:
        return get_game(game_id).state_from_position(data), None
    except NotImplementedError:
        raise PositionError(
            gettext("%(file)s: %(game)s has no position files; give a game record saved earlier")
            % {"file": path, "game": game_id}
        ) from None
    except PositionError as exc:
        raise PositionError(f"{path}: {exc}") from None


@dataclass
class PlaySetup:
    """What ``limit play GAME`` resolved from its options."""

    state: State
    seats: list[Seat]
    seed: int
    record_path: Path | None
    notes: list[str] = field(default_factory=list)


def resolve_play(
    game_id: str,
    new_state: Callable[[int], State],
    seat: Sequence[str] | None,
    opponent: str | None,
    seed: int | None,
    record: Path | None,
    no_record: bool,
    position: Path | None,
    fill: str = "random",
) -> PlaySetup:
    """The starting state, seats, seed and record path of a ``limit play`` command.

    ``new_state(seed)`` makes a new game; ``position`` (a record or a
    position file) replaces it. Without ``--seat`` a person takes the first
    seat; ``--opponent LEVEL`` sets the missing and computer seats, else ``fill`` (a level or
    an agent spec) sets the missing ones.

    Raises:
        LimitGamesError: for a bad file, agent or level (one line).
        ValueError: for more seats than players.
    """
    from limitgames.core import fresh_seed

    if position is not None:
        state, recorded = load_start(game_id, position)
        seed = seed if seed is not None else recorded
    if seed is None:
        seed = fresh_seed()
    if position is None:
        state = new_state(seed)
    specs = list(seat or ["human"])
    default = fill
    if opponent:
        level_spec(game_id, opponent)  # raises for an unknown level
        default = opponent
        specs = [s if is_human_spec(s) else default for s in specs]
    seats = parse_seats(specs, state.num_players, default=default, seed=seed, game_id=game_id)
    path = None if no_record else (record or default_record_path(game_id))
    return PlaySetup(state, seats, seed, path)
