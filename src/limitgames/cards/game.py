"""The game of Limits (Uwe Rosenberg, AMIGO 2001): metadata and new games.

Rules as played: ``rules/cards.md``. Variant parameters: ``players`` (2-6),
``limit_cards`` (a limit-card file; default: the package's reconstructed
set, see :mod:`limitgames.cards.material`) and ``returns`` (``win``, the
default, or ``score``: what ``State.returns()`` gives; see
:mod:`limitgames.core.encoding` for the scale every game shares).
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
            **variant: ``players`` (2-6), ``limit_cards`` (a file name or ``None``).

        Raises:
            VariantError: for a bad parameter; ``LimitCardsError`` (a
                ``VariantError``) for a malformed or too small limit-card file.
            RecordError: when replaying malformed chance outcomes.
        """
        resolved = self.info.resolve_variant(variant)
        source = chance if isinstance(chance, Chance) else Chance(seed)
        cards = None if source.replaying else load_limit_cards(resolved["limit_cards"])
        return CardsGameState(resolved, source, cards)
