"""The game of Limits (Uwe Rosenberg, AMIGO 2001): metadata and new games.

Rules as played: ``rules/cards.md``. Variant parameters: ``players`` (2-6),
``limit_cards`` (a limit-card file; default: the package's reconstructed
set, see :mod:`limitgames.cards.material`) and ``returns`` (``win``, the
default, or ``score``: what ``State.returns()`` gives; see
:mod:`limitgames.core.encoding` for the scale every game shares).

A smaller game, the rules otherwise as written (for study and exact solving,
``docs/research.md``): ``colours`` (2-5 colours in play), ``cards_per_colour``
(1-12), ``hand`` (cards in a full hand; ``None``: the rulebook's 6 or 5) and
``limit_pile`` (limit cards played; ``None``: the rulebook's count). Two
players, two colours of four cards, hands of three and one limit card
(``players=2 colours=2 cards_per_colour=4 hand=3 limit_pile=1``) is the
mini-Limits that OpenSpiel's CFR solves (``benchmarks/cards_mini_cfr.py``).
"""

from __future__ import annotations

from typing import Any

from limitgames.cards.game_state import CardsGameState
from limitgames.cards.material import load_limit_cards
from limitgames.cards.rules import CardsState
from limitgames.core.chance import Chance
from limitgames.core.protocol import Game, GameInfo, Parameter
from limitgames.translation import N_

RULES_VERSION = "cards-1"


class CardsGame(Game):
    """Rosenberg's Limits: 2-6 players, hidden cards, bluffing."""

    info = GameInfo(
        id="cards",
        title="Limits",
        designer="Uwe Rosenberg",
        year=2001,
        min_players=2,
        max_players=6,
        parameters=(
            Parameter(
                "players",
                "int",
                4,
                N_("number of players"),
                minimum=2,
                maximum=6,
                label=N_("players"),
            ),
            Parameter(
                "colours",
                "int",
                5,
                N_(
                    "colours in play, for a smaller game: the colour cards of the first N "
                    "colours (red, yellow, green, blue, purple); the rulebook plays all 5"
                ),
                minimum=2,
                maximum=5,
                label=N_("colours"),
            ),
            Parameter(
                "cards_per_colour",
                "int",
                12,
                N_("colour cards of each colour in play, for a smaller deck; the rulebook has 12"),
                minimum=1,
                maximum=12,
                label=N_("cards per colour"),
            ),
            Parameter(
                "hand",
                "int",
                None,
                N_(
                    "cards in a full hand, for a smaller game (default: the rulebook's 6 with "
                    "2 players, 5 otherwise); at least one more than a seat hides per round"
                ),
                minimum=2,
                maximum=12,
                label=N_("hand size"),
            ),
            Parameter(
                "limit_pile",
                "int",
                None,
                N_(
                    "limit cards played, for a shorter game: the game ends when they are taken "
                    "(default: the rulebook's 10 with 2 players, 18 with 3-4, 14 with 5-6); "
                    "the other limit cards are put aside unseen"
                ),
                minimum=1,
                maximum=60,
                label=N_("limit pile"),
            ),
            Parameter(
                "limit_cards",
                "path",
                None,
                N_("a JSON file with another set of limit cards (default: the reconstructed set)"),
                label=N_("limit cards"),
            ),
            Parameter(
                "returns",
                "str",
                "win",
                N_(
                    "how a game's result is counted for agents and tournaments: win (+1 for the "
                    "sole winner, 0 for a shared win, -1 for the others) or score (points minus 2 "
                    "per limit card taken)"
                ),
                choices=("score", "win"),
                label=N_("returns"),
                choice_labels=(N_("score"), N_("win")),
            ),
        ),
        rules_version=RULES_VERSION,
        rules_doc="docs/rules/cards.md; usage in docs/cards.md",
        perfect_information=False,
        description=N_(
            "Play colour cards on a pile without exceeding a limit card that hidden cards raise; "
            "suspect a player of having exceeded it. The limit cards shipped are a reconstruction."
        ),
        editions=("AMIGO 2001",),
    )

    def encoding_spec(self, **variant: Any) -> Any:
        """The fixed sizes of ``variant`` for the research adapters (:mod:`limitgames.cards.encoding`)."""
        from limitgames.cards.encoding import encoding_spec

        return encoding_spec(self.info.resolve_variant(variant))

    def setup_chance(self, **variant: Any) -> Any:
        """The shuffles and the start player as explicit chance nodes (:mod:`limitgames.cards.encoding`)."""
        from limitgames.cards.encoding import CardsSetupChance

        return CardsSetupChance(self, variant)

    def new_initial_state(
        self, seed: int | None = None, chance: Any = None, **variant: Any
    ) -> CardsState:
        """A new game: limit cards and colour cards shuffled, hands dealt, round 0 started.

        Args:
            seed: seeds the shuffles and the first start player.
            chance: a :class:`Chance` replaying recorded outcomes (then the
                limit-card file is not read: the record holds the cards).
            **variant: ``players`` (2-6), ``limit_cards`` (a file name or ``None``),
                ``returns``, ``colours``, ``cards_per_colour``, ``hand``, ``limit_pile``.

        Raises:
            VariantError: for a bad parameter; ``LimitCardsError`` (a
                ``VariantError``) for a malformed or too small limit-card file.
            RecordError: when replaying malformed chance outcomes.
        """
        resolved = self.info.resolve_variant(variant)
        source = chance if isinstance(chance, Chance) else Chance(seed)
        cards = None if source.replaying else load_limit_cards(resolved["limit_cards"])
        return CardsGameState(resolved, source, cards)
