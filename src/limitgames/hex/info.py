"""What Browne's Limit is: its metadata, variants and colours (``rules/hex.md``)."""

from __future__ import annotations

from limitgames.core import GameInfo, Parameter
from limitgames.hex.layout import COLOURS, LAWS
from limitgames.translation import N_

__all__ = ["COLOURS", "HEX_INFO", "SEAT_COLOURS"]

SEAT_COLOURS: dict[str, tuple[str, ...]] = {
    "nestorgames": ("red", "blue", "yellow"),
    "2008": ("white", "red", "black"),
}
"""The players' colours in turn order, by edition; the first moves first."""

HEX_INFO = GameInfo(
    id="hex",
    title="Limit",
    designer="Cameron Browne",
    year=2008,
    min_players=2,
    max_players=3,
    parameters=(
        Parameter(
            "edition",
            "str",
            "nestorgames",
            N_("nestorgames (coloured tiles laid at random) or 2008 (placement phase)"),
            choices=("nestorgames", "2008"),
            label=N_("edition"),
            choice_labels=(N_("nestorgames (tiles laid at random)"), N_("2008 (placement)")),
        ),
        Parameter(
            "players",
            "int",
            2,
            N_("2 (red, blue / white, red) or 3 (+ yellow / black)"),
            minimum=2,
            maximum=3,
            label=N_("players"),
        ),
        Parameter(
            "size",
            "int",
            8,
            N_("tiles per colour and pawns per player (4 x size tiles)"),
            minimum=2,
            maximum=16,
            label=N_("size"),
        ),
        Parameter(
            "colours",
            "str",
            "random",
            N_(
                "random (nestorgames: colours dealt to the seats by chance; red moves first) or "
                "fixed (seat 1 red, seat 2 blue, seat 3 yellow); the 2008 edition always seats "
                "white, red, black"
            ),
            choices=("random", "fixed"),
            label=N_("colours"),
            choice_labels=(N_("dealt at random"), N_("fixed")),
        ),
        Parameter(
            "layout",
            "str",
            "grown",
            N_(
                "nestorgames: how the tiles are laid at random: grown (tile by tile into a "
                "compact group, as hands lay them at a table) or uniform (every legal layout "
                "equally likely: mostly long thin shapes)"
            ),
            choices=LAWS,
            label=N_("layout"),
            choice_labels=(N_("grown (compact, as at a table)"), N_("uniform (long thin shapes)")),
        ),
        Parameter(
            "must_remove",
            "str",
            "literal",
            N_(
                "nestorgames: how 'a move must allow a removal, if possible' treats a move that "
                "ends the game: literal (it counts as allowing a removal, so while one exists "
                "every other move must allow a removal) or continuing (only moves after which "
                "play goes on are compared; if none of them allows a removal, any move is legal); "
                "a move that ends the game is legal in both"
            ),
            choices=("literal", "continuing"),
            label=N_("must allow a removal"),
            choice_labels=(
                N_("literal (a move that ends the game counts)"),
                N_("continuing (only moves after which play goes on count)"),
            ),
        ),
    ),
    rules_version="hex-2",
    rules_doc="docs/rules/hex.md; usage in docs/hex.md",
    perfect_information=True,
    description=N_(
        "An abstract game of movement and capture on a surface of hexagonal tiles that shrinks "
        "every turn."
    ),
    editions=("nestorgames", "2008"),
)
