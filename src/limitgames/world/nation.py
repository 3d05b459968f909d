"""A nation board of Poyé's LIMIT: tracks, stocks, classes, cards in hand.

Positions are 1-based as on the board: population 1-9, each production
plant 1-8 (renewable never above the territory held), social unrest 1-11,
each class's standard of living 1-4. Values of a level track come from
:meth:`WorldData.level <limitgames.world.data.WorldData.level>`.

Standard of living (rulebook p9): a class may never stand above a higher
class, so raises go to higher classes first and cuts to lower ones first;
:meth:`Nation.raisable` and :meth:`Nation.lowerable` list the classes the
order allows. The first time a class reaches 3 its demographic-shift tile
moves to the demographic-shift zone.
"""

from __future__ import annotations

from limitgames.translation import N_
from limitgames.world.data import CLASSES, DECKS, PLANTS
from limitgames.world.words import phrase

RENEWABLE, INDUSTRIAL, MILITARY = 0, 1, 2
"""Indices of the plants and of the three resource stocks."""


class Nation:
    """One nation's board, stocks, tokens and cards (plain ints and lists; cheap to copy).

    Attributes:
        seat: the seat number. population: position 1-9.
        plants: positions of the renewable, industrial, military plants.
        stock: renewable, industrial, military resources held.
        fossil, money, territory, pollution, disruption: tokens held.
        sol: standard of living of classes A..E (1-4).
        shift_tiles: per class, whether its demographic-shift tile still covers position 3.
        shift_zone: demographic-shift tiles in the nation's zone.
        unrest: social unrest position 1-11.
        hand: card ids in hand. decks: per deck name, card ids top first.
        permanent: permanent cards in play. played: instant cards played this generation.
        technology: technology cards already received.
        passed: whether the nation has passed in the decide-policy step.
    """

    __slots__ = (
        "decks",
        "disruption",
        "fossil",
        "hand",
        "money",
        "passed",
        "permanent",
        "plants",
        "played",
        "pollution",
        "population",
        "seat",
        "shift_tiles",
        "shift_zone",
        "sol",
        "stock",
        "technology",
        "territory",
        "unrest",
    )

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.population = 1
        self.plants = [1, 1, 1]
        self.stock = [0, 0, 0]
        self.fossil = 0
        self.money = 0
        self.territory = 0
        self.pollution = 0
        self.disruption = 0
        self.sol = [1, 1, 1, 1, 1]
        self.shift_tiles = [True] * 5
        self.shift_zone = 0
        self.unrest = 6
        self.hand: list[str] = []
        self.decks: dict[str, list[str]] = {d: [] for d in DECKS}
        self.permanent: list[str] = []
        self.played: list[str] = []
        self.technology: list[str] = []
        self.passed = False

    def copy(self) -> Nation:
        """An independent copy."""
        n = Nation.__new__(Nation)
        n.seat = self.seat
        n.population = self.population
        n.plants = list(self.plants)
        n.stock = list(self.stock)
        n.fossil = self.fossil
        n.money = self.money
        n.territory = self.territory
        n.pollution = self.pollution
        n.disruption = self.disruption
        n.sol = list(self.sol)
        n.shift_tiles = list(self.shift_tiles)
        n.shift_zone = self.shift_zone
        n.unrest = self.unrest
        n.hand = list(self.hand)
        n.decks = {d: list(cards) for d, cards in self.decks.items()}
        n.permanent = list(self.permanent)
        n.played = list(self.played)
        n.technology = list(self.technology)
        n.passed = self.passed
        return n

    def key(self) -> tuple[object, ...]:
        """A hashable summary of the whole board and cards."""
        return (
            self.population,
            tuple(self.plants),
            tuple(self.stock),
            self.fossil,
            self.money,
            self.territory,
            self.pollution,
            self.disruption,
            tuple(self.sol),
            tuple(self.shift_tiles),
            self.shift_zone,
            self.unrest,
            tuple(self.hand),
            tuple(tuple(d) for d in self.decks.values()),
            tuple(self.permanent),
            tuple(self.played),
            tuple(self.technology),
            self.passed,
        )

    # --- standard of living ---------------------------------------------------
    def raisable(self, sol_max: int) -> list[int]:
        """Classes (0=A..4=E) that may gain 1 standard of living under the order rule."""
        s = self.sol
        return [i for i in range(5) if s[i] < sol_max and (i == 0 or s[i - 1] > s[i])]

    def lowerable(self) -> list[int]:
        """Classes (0=A..4=E) that may lose 1 standard of living under the order rule."""
        s = self.sol
        return [i for i in range(5) if s[i] > 1 and (i == 4 or s[i + 1] < s[i])]

    def raise_class(self, i: int, shift_at: int) -> str:
        """Class ``i`` +1 (the caller checked it may); returns the log words."""
        self.sol[i] += 1
        template = N_("class %(cls)s %(old)d -> %(new)d")
        if self.sol[i] >= shift_at and self.shift_tiles[i]:
            self.shift_tiles[i] = False
            self.shift_zone += 1
            template = N_("class %(cls)s %(old)d -> %(new)d (demographic shift tile to the zone)")
        return phrase(template, cls=CLASSES[i], old=self.sol[i] - 1, new=self.sol[i])

    def lower_class(self, i: int) -> str:
        """Class ``i`` -1 (the caller checked it may); returns the log words."""
        self.sol[i] -= 1
        return phrase(
            N_("class %(cls)s %(old)d -> %(new)d"),
            cls=CLASSES[i],
            old=self.sol[i] + 1,
            new=self.sol[i],
        )

    # --- plants -------------------------------------------------------------
    def plant_cap(self, plant: int, positions: int) -> int:
        """The highest position ``plant`` may reach (renewable: also the territory held)."""
        if plant == RENEWABLE:
            return max(1, min(positions, self.territory))
        return positions

    def move_plant(self, plant: int, delta: int, positions: int) -> int:
        """Move ``plant`` by ``delta`` levels within its track; return the levels actually moved."""
        old = self.plants[plant]
        new = max(1, min(self.plant_cap(plant, positions), old + delta))
        if delta > 0 and new < old:  # already above the cap (territory lost): no raise, no cut
            new = old
        self.plants[plant] = new
        return new - old

    def cap_renewable(self) -> int:
        """Lower the renewable plant to the territory held (rulebook p8); return levels lost."""
        cap = max(1, self.territory)
        if self.plants[RENEWABLE] > cap:
            lost = self.plants[RENEWABLE] - cap
            self.plants[RENEWABLE] = cap
            return lost
        return 0

    def card_count(self) -> dict[str, int]:
        """Cards per deck, for observations."""
        return {d: len(cards) for d, cards in self.decks.items()}


def plant_index(name: str) -> int:
    """``"renewable"`` -> 0 ..."""
    return PLANTS.index(name)
