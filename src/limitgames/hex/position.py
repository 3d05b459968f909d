"""Positions as JSON (``rules/hex.md``, "Interfaces every implementation exposes").

::

    {"game": "hex", "edition": "nestorgames", "size": 8, "players": 2,
     "tiles": [{"q": 0, "r": 0, "colour": "red", "pawn": 0}, ...],
     "to_move": 0, "step": "move", "turn": 1, "quiet_turns": 0}

Optional keys written by this project and read back: ``frame`` (``[row0,
col0]``, the origin of the cell names, so names survive a save and load),
``placed`` (2008 placement: the tiles placed earlier in this turn), and
``last_placer`` (2008 placement). Each written tile also carries its ``name``.

A loaded position need only be well formed: distinct cells, known colours,
pawns of seats in the game, a step that fits the edition. The layout
constraints bind generated layouts, not loaded positions. Any problem raises
:class:`~limitgames.core.PositionError` with a one-line reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from limitgames.core import PositionError
from limitgames.hex.layout import COLOURS
from limitgames.hex.notation import Frame
from limitgames.hex.surface import Cell

if TYPE_CHECKING:
    from limitgames.hex.state import HexState

_KEYS = {"game", "edition", "size", "players", "tiles", "to_move", "step", "turn", "quiet_turns",
         "frame", "placed", "last_placer", "seats", "result", "equaliser"}


def position_json(state: HexState) -> dict[str, Any]:
    """The position of ``state`` as a JSON-ready dict (``to_move`` is ``None`` once the game is over)."""
    frame = state.frame
    tiles = [
        {"q": q, "r": r, "colour": colour, "pawn": owner, "name": frame.name((q, r))}
        for (q, r), colour, owner in state.tiles()
    ]
    data: dict[str, Any] = {
        "game": "hex",
        "edition": state.edition,
        "size": state.variant["size"],
        "players": state.num_players,
        "tiles": tiles,
        "to_move": None if state.is_terminal() else state.current_player(),
        "step": state.step,
        "turn": state.turn,
        "quiet_turns": state.quiet_turns,
        "frame": frame.to_json(),
    }
    if state.edition == "2008" and state.step in ("tile", "second-tile", "ball", "ball-any"):
        data["placed"] = [list(c) for c in state._placed]
        data["last_placer"] = state._last_placer
    return data


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{key!r} must be an integer, not {value!r}")
    return value


def state_from_position(data: Any) -> HexState:
    """A state at the position ``data``. Raises :class:`PositionError` with a one-line reason."""
    from limitgames.core import VariantError
    from limitgames.hex.game import HEX_INFO
    from limitgames.hex.state import (
        BALL_ANY_STEP,
        BALL_STEP,
        MOVE_STEP,
        OVER_STEP,
        REMOVE_STEP,
        STEP_NAMES,
        TILE1_STEP,
        TILE2_STEP,
        HexState,
    )

    if not isinstance(data, Mapping):
        raise PositionError("a position is a JSON object")
    unknown = set(data) - _KEYS
    if unknown:
        raise PositionError(f"unknown key {sorted(unknown)[0]!r}")
    if data.get("game", "hex") != "hex":
        raise PositionError(f"this is a position of {data.get('game')!r}, not of hex")
    try:
        variant = HEX_INFO.resolve_variant(
            {k: data[k] for k in ("edition", "players", "size") if k in data}
        )
    except VariantError as exc:
        raise PositionError(str(exc)) from None
    edition = variant["edition"]
    players = variant["players"]
    raw_tiles = data.get("tiles")
    if not isinstance(raw_tiles, list):
        raise PositionError("'tiles' must be a list")
    cells: dict[Cell, int] = {}
    colours: dict[Cell, str | None] = {}
    for i, tile in enumerate(raw_tiles):
        if not isinstance(tile, Mapping):
            raise PositionError(f"tile {i} is not an object")
        extra = set(tile) - {"q", "r", "colour", "pawn", "name"}
        if extra:
            raise PositionError(f"tile {i} has an unknown key {sorted(extra)[0]!r}")
        q, r = _int(tile, "q"), _int(tile, "r")
        if abs(q) > 1000 or abs(r) > 1000:
            raise PositionError(f"tile {i} is too far from the origin")
        cell = (q, r)
        if cell in cells:
            raise PositionError(f"two tiles on the cell ({q}, {r})")
        colour = tile.get("colour")
        if edition == "2008":
            if colour is not None:
                raise PositionError(f"tile {i}: the 2008 edition has uncoloured tiles (colour null)")
        elif colour not in COLOURS:
            raise PositionError(f"tile {i}: unknown colour {colour!r} (red, blue, yellow or black)")
        pawn = tile.get("pawn")
        if pawn is not None and (isinstance(pawn, bool) or not isinstance(pawn, int) or not 0 <= pawn < players):
            raise PositionError(f"tile {i}: pawn {pawn!r} is not a seat of this {players}-player game")
        cells[cell] = -1 if pawn is None else pawn
        colours[cell] = colour
    step_name = data.get("step", "move")
    if step_name not in STEP_NAMES or step_name == "over":
        raise PositionError(f"unknown step {step_name!r}")
    step = STEP_NAMES.index(step_name)
    placement = step in (TILE1_STEP, TILE2_STEP, BALL_STEP, BALL_ANY_STEP)
    if placement and edition != "2008":
        raise PositionError(f"the step {step_name!r} exists only in the 2008 edition")
    if not placement and not cells:
        raise PositionError("a movement-phase position needs tiles")
    to_move = _int(data, "to_move", 0)
    if not 0 <= to_move < players:
        raise PositionError(f"to_move {to_move} is not a seat of this {players}-player game")
    turn = _int(data, "turn", 1)
    quiet = _int(data, "quiet_turns", 0)
    if turn < 1 or quiet < 0:
        raise PositionError("'turn' counts from 1 and 'quiet_turns' from 0")
    frame_data = data.get("frame")
    if frame_data is not None:
        if not (isinstance(frame_data, list) and len(frame_data) == 2 and all(isinstance(x, int) for x in frame_data)):
            raise PositionError("'frame' must be [row0, col0]")
        frame = Frame(frame_data[0], frame_data[1])
    elif placement:
        frame = Frame.around([*cells, (0, 0)], margin=4 * variant["size"])
    else:
        frame = Frame.around(list(cells))

    state = HexState(variant, frame, [])
    state._to_move = to_move
    state._turn = turn
    state._quiet = quiet
    if placement:
        n = variant["size"]
        if len(cells) > 4 * n:
            raise PositionError(f"{len(cells)} tiles, but the game has only {4 * n}")
        for s in range(players):
            if sum(1 for o in cells.values() if o == s) > n:
                raise PositionError(f"seat {s} has more than {n} balls")
        placed_raw = data.get("placed", [])
        if not isinstance(placed_raw, list):
            raise PositionError("'placed' must be a list of [q, r]")
        placed: list[Cell] = []
        for item in placed_raw:
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, int) for x in item)):
                raise PositionError("'placed' must be a list of [q, r]")
            if (item[0], item[1]) not in cells:
                raise PositionError(f"placed cell {item} holds no tile")
            placed.append((item[0], item[1]))
        expected = {TILE1_STEP: 0, TILE2_STEP: 1, BALL_STEP: 2, BALL_ANY_STEP: 0}[step]
        if len(placed) != expected:
            raise PositionError(f"the step {step_name!r} needs {expected} tile(s) in 'placed'")
        state._cells = dict(cells)
        state._placed = placed
        state._step = step
        state._last_placer = _int(data, "last_placer", (to_move - 1) % players)
    else:
        state._begin_movement(cells, colours)
        state._step = MOVE_STEP if step == MOVE_STEP else REMOVE_STEP
        state._alive_at_start = state._alive_mask()
    assert state._step != OVER_STEP
    start = {k: v for k, v in dict(data).items() if k in _KEYS - {"seats", "result", "equaliser"}}
    start.update(variant)
    start["game"] = "hex"
    start["frame"] = frame.to_json()
    state._start = start
    state._settle()
    return state
