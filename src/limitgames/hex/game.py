"""Browne's Limit as a :class:`~limitgames.core.Game`: metadata, variants, new games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from limitgames.core import Chance, Game, GameInfo, Parameter, RecordError, State
from limitgames.hex.layout import COLOURS, Layout, generate_layout, layout_problems, pawn_colours
from limitgames.hex.notation import Frame
from limitgames.hex.state import TILE1_STEP, HexState

HEX_INFO = GameInfo(
    id="hex",
    title="Limit",
    designer="Cameron Browne",
    year=2008,
    min_players=2,
    max_players=3,
    parameters=(
        Parameter("edition", "str", "nestorgames", "nestorgames (coloured tiles laid at random) or 2008 (placement phase)",
                  choices=("nestorgames", "2008")),
        Parameter("players", "int", 2, "2 (red, blue / white, red) or 3 (+ yellow / black)", minimum=2, maximum=3),
        Parameter("size", "int", 8, "tiles per colour and pawns per player (4 x size tiles)", minimum=2, maximum=16),
    ),
    rules_version="hex-1",
    rules_doc="docs/rules/hex.md; usage in docs/hex.md",
    perfect_information=True,
    description="An abstract game of movement and capture on a surface of hexagonal tiles that shrinks every turn.",
    editions=("nestorgames", "2008"),
)


def layout_to_json(layout: Layout) -> list[list[Any]]:
    """A layout as the chance outcome ``[[q, r, colour], ...]``."""
    return [[q, r, c] for (q, r), c in layout.items()]


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


class HexGame(Game):
    """Cameron Browne's Limit (``rules/hex.md``)."""

    info = HEX_INFO

    def new_initial_state(self, seed: int | None = None, chance: Any = None, **variant: Any) -> HexState:
        """A new game. nestorgames: a random legal layout drawn by chance (see :mod:`.layout`);
        2008: an empty table and the placement phase.

        Raises:
            VariantError: unknown parameter or bad value.
            RecordError: when replaying a record whose layout is malformed.
        """
        resolved = self.info.resolve_variant(variant)
        n, players = resolved["size"], resolved["players"]
        source = chance if chance is not None else Chance(seed)
        if resolved["edition"] == "2008":
            state = HexState(resolved, Frame.around([(0, 0)], margin=4 * n), source.outcomes)
            state._step = TILE1_STEP
            state._settle()
            return state
        value = source.draw("layout", lambda rng: layout_to_json(generate_layout(n, players, rng)))
        layout = layout_from_json(value, n, players) if source.replaying else {(q, r): c for q, r, c in value}
        return self.state_from_layout(layout, resolved, source.outcomes)

    def state_from_layout(
        self, layout: Layout, variant: Mapping[str, Any], chance: list[dict[str, Any]] | None = None
    ) -> HexState:
        """The start of a nestorgames game on ``layout`` (cell -> colour); pawns on their colours."""
        resolved = self.info.resolve_variant(variant)
        seats = pawn_colours(resolved["players"])
        cells = {cell: (seats.index(c) if c in seats else -1) for cell, c in layout.items()}
        state = HexState(resolved, Frame.around(list(layout)), chance if chance is not None else [])
        state._begin_movement(cells, dict(layout))
        state._alive_at_start = state._alive_mask()
        state._settle()
        return state

    def state_from_position(self, position: Mapping[str, Any]) -> State:
        from limitgames.hex.position import state_from_position

        return state_from_position(position)
