"""Positions as JSON (``rules/hex.md``, "Interfaces every implementation exposes").

::

    {"game": "hex", "edition": "nestorgames", "size": 8, "players": 2,
     "tiles": [{"q": 0, "r": 0, "colour": "red", "pawn": 0}, ...],
     "to_move": 0, "step": "move", "turn": 1, "quiet_turns": 0}

Optional keys written by this project and read back: ``frame`` (``[row0,
col0]``, the origin of the cell names, so names survive a save and load),
``seat_colours`` (the colour each seat plays, when colours were dealt at
random; without it seat ``i`` plays the ``i``-th colour, and turns always go
red, blue, yellow / white, red, black), ``placed`` (2008 placement: the tiles
placed earlier in this turn), and ``last_placer`` (2008 placement). Each
written tile also carries its ``name``.

A loaded position need only be well formed: distinct cells, known colours,
pawns of seats in the game, a step that fits the edition. The layout
constraints bind generated layouts, not loaded positions. Any problem raises
:class:`~limitgames.core.PositionError` with a one-line reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from limitgames.core import PositionError, VariantError
from limitgames.hex.info import COLOURS, HEX_INFO, SEAT_COLOURS
from limitgames.hex.notation import Frame
from limitgames.hex.placement import STEPS as PLACEMENT_STEPS
from limitgames.hex.placement import Placement
from limitgames.hex.state import HexState
from limitgames.hex.surface import Cell

_KEYS = {
    "game",
    "edition",
    "must_remove",
    "size",
    "players",
    "tiles",
    "to_move",
    "step",
    "turn",
    "quiet_turns",
    "frame",
    "placed",
    "last_placer",
    "seat_colours",
    "seats",
    "result",
    "equaliser",
}
_MAX_TILES = 64


def position_json(state: HexState) -> dict[str, Any]:
    """The position of ``state`` as a JSON-ready dict (the same as :meth:`HexState.position`)."""
    return state.position()


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{key!r} must be an integer, not {value!r}")
    return value


def state_from_position(data: Any) -> HexState:
    """A state at the position ``data``. Raises :class:`PositionError` with a one-line reason."""
    if not isinstance(data, Mapping):
        raise PositionError("a position is a JSON object")
    unknown = set(data) - _KEYS
    if unknown:
        raise PositionError(f"unknown key {sorted(unknown)[0]!r}")
    if data.get("game", "hex") != "hex":
        raise PositionError(f"this is a position of {data.get('game')!r}, not of hex")
    try:
        variant = HEX_INFO.resolve_variant(
            {k: data[k] for k in ("edition", "players", "size", "must_remove") if k in data}
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
                raise PositionError(
                    f"tile {i}: the 2008 edition has uncoloured tiles (colour null)"
                )
        elif colour not in COLOURS:
            raise PositionError(f"tile {i}: unknown colour {colour!r} (red, blue, yellow or black)")
        pawn = tile.get("pawn")
        if pawn is not None and (
            isinstance(pawn, bool) or not isinstance(pawn, int) or not 0 <= pawn < players
        ):
            raise PositionError(
                f"tile {i}: pawn {pawn!r} is not a seat of this {players}-player game"
            )
        cells[cell] = -1 if pawn is None else pawn
        colours[cell] = colour
    if len(cells) > _MAX_TILES:
        raise PositionError(f"{len(cells)} tiles; a position holds at most {_MAX_TILES}")
    step_name = data.get("step", "move")
    if step_name not in ("move", "remove", *PLACEMENT_STEPS):
        raise PositionError(f"unknown step {step_name!r}")
    placement = step_name in PLACEMENT_STEPS
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
        if not (
            isinstance(frame_data, list)
            and len(frame_data) == 2
            and all(isinstance(x, int) for x in frame_data)
        ):
            raise PositionError("'frame' must be [row0, col0]")
        frame = Frame(frame_data[0], frame_data[1])
    elif placement:
        frame = Frame.around([*cells, (0, 0)], margin=4 * variant["size"])
    else:
        frame = Frame.around(list(cells))
    order = SEAT_COLOURS[edition][:players]
    seat_colours = data.get("seat_colours", list(order))
    if not isinstance(seat_colours, list) or sorted(map(str, seat_colours)) != sorted(order):
        raise PositionError(f"'seat_colours' must list each of {', '.join(order)} once")
    if placement and list(seat_colours) != list(order):
        raise PositionError("in the 2008 edition seats play white, red, black in seat order")
    seat_of = [seat_colours.index(colour) for colour in order]

    start = {k: v for k, v in dict(data).items() if k in _KEYS - {"seats", "result", "equaliser"}}
    start.update({k: variant[k] for k in ("edition", "players", "size")})  # position keys only
    start["game"] = "hex"
    start["frame"] = frame.to_json()
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
            if not (
                isinstance(item, list) and len(item) == 2 and all(isinstance(x, int) for x in item)
            ):
                raise PositionError("'placed' must be a list of [q, r]")
            if (item[0], item[1]) not in cells:
                raise PositionError(f"placed cell {item} holds no tile")
            placed.append((item[0], item[1]))
        expected = {"tile": 0, "second-tile": 1, "ball": 2, "ball-any": 0}[step_name]
        if len(placed) != expected:
            raise PositionError(f"the step {step_name!r} needs {expected} tile(s) in 'placed'")
        last_placer = _int(data, "last_placer", (to_move - 1) % players)
        if not -1 <= last_placer < players:
            raise PositionError(f"last_placer {last_placer} is not a seat of this game")
        table = Placement(players, variant["size"], cells, placed, step_name, to_move, last_placer)
        return HexState.in_placement(variant, frame, table, start=start)
    return HexState.on_surface(
        variant,
        frame,
        cells,
        colours,
        seat_of=seat_of,
        to_move=to_move,
        remove_step=step_name == "remove",
        turn=turn,
        quiet=quiet,
        start=start,
    )
