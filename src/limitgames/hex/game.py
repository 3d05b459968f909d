"""Browne's Limit as a :class:`~limitgames.core.Game`: new games, layouts and colour deals."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from limitgames.core import Chance, Game, RecordError, State
from limitgames.hex.encoding import numbered_layout
from limitgames.hex.info import COLOURS, HEX_INFO, SEAT_COLOURS
from limitgames.hex.layout import Layout, draw_layout, layout_problems, layout_to_json, pawn_colours
from limitgames.hex.notation import Frame
from limitgames.hex.placement import Placement
from limitgames.hex.position import state_from_position
from limitgames.hex.state import HexState

__all__ = [
    "HEX_INFO",
    "HexGame",
    "layout_from_json",
    "layout_to_json",
    "state_from_layout_number",
]


def layout_from_json(value: Any, n: int, players: int) -> Layout:
    """Read a recorded layout; raise :class:`RecordError` if it is malformed or breaks a constraint."""
    layout: Layout = {}
    if not isinstance(value, list):
        raise RecordError("a layout is a list of [q, r, colour]", "chance 0")
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in item[:2])
            or item[2] not in COLOURS
        ):
            raise RecordError(f"bad layout entry {item!r}", "chance 0")
        layout[(item[0], item[1])] = item[2]
    problems = layout_problems(layout, n, players)
    if problems:
        raise RecordError(f"the recorded layout is not legal: {problems[0]}", "chance 0")
    return layout


def deal_colours(players: int, rng: Any) -> list[str]:
    """A uniformly random deal of the players' colours to the seats (seat -> colour)."""
    colours = list(SEAT_COLOURS["nestorgames"][:players])
    rng.shuffle(colours)
    return colours


def colours_from_json(value: Any, players: int) -> list[str]:
    """Read a recorded colour deal; raise :class:`RecordError` if it is not a deal of the colours."""
    order = list(SEAT_COLOURS["nestorgames"][:players])
    if not isinstance(value, list) or sorted(map(str, value)) != sorted(order):
        raise RecordError(f"the colour deal must list each of {', '.join(order)} once", "chance 1")
    return [str(v) for v in value]


class HexGame(Game):
    """Cameron Browne's Limit (``rules/hex.md``)."""

    info = HEX_INFO

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> HexState:
        """A new game. nestorgames: a random legal layout drawn by chance by the variant's
        ``layout`` law (``grown``, the default, or ``uniform``; see :mod:`.layout`),
        then the colours dealt to the seats (``colours=random``, the default; red moves first);
        2008: an empty table and the placement phase.

        Records made before colours were dealt (rules ``hex-1``) have no ``colours`` outcome;
        they replay with fixed colours.

        Raises:
            VariantError: unknown parameter or bad value.
            RecordError: when replaying a record whose layout or deal is malformed.
        """
        resolved = self.info.resolve_variant(variant)
        n, players = resolved["size"], resolved["players"]
        source = chance if chance is not None else Chance(seed)
        if resolved["edition"] == "2008":
            frame = Frame.around([(0, 0)], margin=4 * n)
            return HexState.in_placement(
                resolved, frame, Placement(players, n), chance=source.outcomes
            )
        law = resolved["layout"]
        value = source.draw("layout", lambda rng: layout_to_json(draw_layout(law, n, players, rng)))
        layout = (
            layout_from_json(value, n, players)
            if source.replaying
            else {(q, r): c for q, r, c in value}
        )
        seat_colours: list[str] | None = None
        if resolved["colours"] == "random" and not (
            source.replaying and source.next_kind() != "colours"
        ):
            dealt = source.draw("colours", lambda rng: deal_colours(players, rng))
            seat_colours = colours_from_json(dealt, players) if source.replaying else dealt
        return self.state_from_layout(layout, resolved, source.outcomes, seat_colours)

    def state_from_layout(
        self,
        layout: Layout,
        variant: Mapping[str, Any],
        chance: list[dict[str, Any]] | None = None,
        seat_colours: Sequence[str] | None = None,
    ) -> HexState:
        """The start of a nestorgames game on ``layout`` (cell -> colour); pawns on their colours.

        ``seat_colours``: the colour of each seat (default: seat ``i`` plays the ``i``-th colour).
        """
        resolved = self.info.resolve_variant(variant)
        players = resolved["players"]
        order = pawn_colours(players)
        colours = list(seat_colours) if seat_colours is not None else list(order)
        seat_of = [colours.index(c) for c in order]
        cells = {cell: (colours.index(c) if c in order else -1) for cell, c in layout.items()}
        state = HexState.on_surface(
            resolved,
            Frame.around(list(layout)),
            cells,
            dict(layout),
            chance=chance if chance is not None else [],
            seat_of=seat_of,
            to_move=seat_of[0],
        )
        return state

    def encoding_spec(self, **variant: Any) -> Any:
        """The fixed sizes of ``variant`` for the research adapters (:mod:`limitgames.hex.encoding`)."""
        from limitgames.hex.encoding import encoding_spec

        return encoding_spec(self.info.resolve_variant(variant))

    def setup_chance(self, **variant: Any) -> Any:
        """The layout and the colour deal as explicit chance nodes (:mod:`limitgames.hex.encoding`)."""
        from limitgames.hex.encoding import HexSetupChance

        return HexSetupChance(self, variant)

    def state_from_position(self, position: Mapping[str, Any]) -> State:
        return state_from_position(position)


def state_from_layout_number(
    variant: dict[str, Any], number: int, deal: int | None, seed: int
) -> Any:
    """A nestorgames game on layout ``number`` with colour deal ``deal`` (an index into the
    permutations of the colours; ``None`` with ``colours=fixed``), through the recorded-outcome
    replay, so the state's chance log and records are those of an ordinary game."""
    players = int(variant["players"])
    outcomes: list[dict[str, Any]] = [
        {
            "kind": "layout",
            "value": numbered_layout(
                int(variant["size"]), players, number, str(variant.get("layout", "grown"))
            ),
        }
    ]
    if deal is not None:
        deals = list(itertools.permutations(SEAT_COLOURS["nestorgames"][:players]))
        outcomes.append({"kind": "colours", "value": list(deals[deal])})
    chance = Chance(seed, replay=outcomes)
    return HexGame().new_initial_state(chance=chance, **variant)
