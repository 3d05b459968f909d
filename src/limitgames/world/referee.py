"""A referee for a game of LIMIT played at a real table: the program keeps the books.

The people play with the physical box; the referee types each decision (in the
game's notation) and each chance outcome as it happens at the table: who holds
the leadership tile at the start, and the cards drawn from a deck (new policy,
Political Reform). The game runs with the variant ``draws=table``: a draw asks
its chance source for the cards (:func:`limitgames.world.political.table_draw`)
instead of taking the top of the program's own deck order, so the books follow
the real cards. The program's deck order is then never used (the decks are sets
of cards, and a draw may take any of them).

:class:`TableChance` is that source: it hands out the outcomes it was told, in
order, or asks a callback (a prompt at the terminal), and refuses to make one up
(:class:`OutcomeNeeded`). :class:`Referee` holds the game: :meth:`Referee.apply`
is all-or-nothing (a refused decision or a missing outcome leaves the books as
they were), and :meth:`Referee.undo` takes back any decision, even after cards
were drawn, since every seat is a person at the table (a referee corrects
typos). A game may start from a position at any step of a generation
(``world.position``). Its record replays like any other (``limit replay``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from limitgames.core import Action, Chance, GameRecord, LimitGamesError, RecordError
from limitgames.translation import gettext as _
from limitgames.world.state import WorldState

T = TypeVar("T")

Ask = Callable[[str, Mapping[str, Any]], Any]
"""``ask(kind, request) -> value``: the outcome of ``kind`` as it happened at the table
(``request``: ``label``, ``options``, ``count``; see :meth:`Chance.draw`)."""


class OutcomeNeeded(LimitGamesError):
    """A chance outcome happened at the table and nobody told it (the message names it)."""


def request_refusal(request: Mapping[str, Any], value: Any) -> str | None:
    """Why ``value`` cannot answer ``request`` (``None`` if it can): with ``count`` ``None``,
    one of the ``options``; with ``count`` k, a list of k distinct options."""
    options = list(request.get("options", []))
    count = request.get("count")
    if count is None:
        return (
            None
            if value in options
            else _("%(value)r is not one of the options") % {"value": value}
        )
    if not isinstance(value, list | tuple):
        return _("give a list")
    if len(value) != count:
        return _("%(given)d given, %(count)d expected") % {"given": len(value), "count": count}
    if len(set(value)) != len(value):
        return _("an item is given twice")
    absent = [v for v in value if v not in options]
    if absent:
        return _("not among the options: %(values)s") % {"values": ", ".join(map(str, absent))}
    return None


class TableChance(Chance):
    """A chance source told by a referee (see the module docstring).

    An outcome whose ``request`` the game gives (the start player, the cards drawn) comes from
    the outcomes told (:meth:`tell`, in order), else from ``ask``, else raises
    :class:`OutcomeNeeded`. Outcomes the table does not see (the shuffle of the decks,
    whose order a refereed game never uses) are drawn from the seeded generator.

    A copy (:meth:`clone`: previews, searches) is a plain seeded source: it never asks.
    """

    __slots__ = ("ask", "told")

    def __init__(
        self, seed: int = 0, told: Sequence[Mapping[str, Any]] = (), ask: Ask | None = None
    ) -> None:
        super().__init__(seed=seed)
        self.told: list[dict[str, Any]] = [dict(t) for t in told]
        self.ask = ask

    def tell(self, kind: str, value: Any) -> None:
        """Queue the next outcome of ``kind`` (``cards``: a list of card ids; ``start_player``: a
        seat number)."""
        self.told.append({"kind": kind, "value": value})

    def draw(
        self,
        kind: str,
        sample: Callable[[random.Random], T],
        request: Mapping[str, Any] | None = None,
    ) -> T:
        """The next outcome (see the class docstring).

        Raises:
            RecordError: the next outcome told is of another kind.
            OutcomeNeeded: the table's outcome was neither told nor asked.
        """
        value: Any
        if self.told and self.told[0].get("kind") == kind:
            value = self.told.pop(0)["value"]
        elif request is None:
            value = sample(self.rng)
        elif self.told:
            entry = self.told[0]
            raise RecordError(
                f"{request.get('label', kind)}: the next outcome told is {entry.get('kind')!r}"
            )
        elif self.ask is not None:
            value = self.ask(kind, request)
        else:
            raise OutcomeNeeded(f"{request.get('label', kind)}: tell the outcome first")
        self.outcomes.append({"kind": kind, "value": value})
        result: T = value
        return result

    def clone(self) -> Chance:
        other = Chance(seed=self.seed)
        other.rng.setstate(self.rng.getstate())
        other.outcomes = list(self.outcomes)
        return other


class Referee:
    """The books of a game at a real table (see the module docstring).

    Args:
        players: the number of nations (ignored with ``position``).
        position: start from this position (``world.position``; any step of a generation).
        variant: more variant parameters (``stress_tests``, ``overrides``...); ``draws`` is
            always ``table``.
        ask: asked for each outcome not told in advance; without it, tell them with
            :meth:`tell_cards` / :meth:`tell` before the decision that draws.
        start_player: who holds the leadership tile at the start of a new game (a name such
            as ``"square"``); else it is asked.

    Attributes:
        state: the game (a :class:`WorldState`); read it, change it only through the referee.

    Raises:
        PositionError, VariantError: a bad position or variant. OutcomeNeeded: the start
            player was neither given nor asked.
    """

    def __init__(
        self,
        players: int = 4,
        *,
        position: Mapping[str, Any] | None = None,
        variant: Mapping[str, Any] | None = None,
        ask: Ask | None = None,
        start_player: str | None = None,
    ) -> None:
        self._ask = ask
        if position is not None:
            start = dict(position)
            start["variant"] = {**dict(start.get("variant") or {}), "draws": "table"}
            if variant:
                start["variant"].update(variant)
            self._position: dict[str, Any] | None = start
            self._variant: dict[str, Any] = {}
        else:
            self._position = None
            self._variant = {**dict(variant or {}), "players": players, "draws": "table"}
        told: list[dict[str, Any]] = []
        if start_player is not None and position is None:
            from limitgames.world.state import NATION_NAMES

            names = list(NATION_NAMES[:players])
            if start_player not in names:
                raise LimitGamesError(
                    f"start player {start_player!r} is not one of {', '.join(names)}"
                )
            told.append({"kind": "start_player", "value": names.index(start_player)})
        self._marks: list[int] = []
        self.state = self._build(told, [])
        self._base = len(self.state.chance_outcomes())

    # --- building --------------------------------------------------------------------------
    def _build(self, told: Sequence[Mapping[str, Any]], actions: Sequence[Action]) -> WorldState:
        from limitgames.world.game import WorldGame
        from limitgames.world.position import state_from_position

        chance = TableChance(told=told, ask=self._ask if not actions else None)
        if self._position is not None:
            state = state_from_position(self._position, chance=chance)
        else:
            made = WorldGame().new_initial_state(chance=chance, **self._variant)
            assert isinstance(made, WorldState)
            state = made
        for action in actions:
            state.apply(action)
        chance.ask = self._ask
        return state

    @property
    def chance(self) -> TableChance:
        """The game's chance source."""
        source = self.state._chance
        assert isinstance(source, TableChance)
        return source

    # --- the table's outcomes and decisions -----------------------------------------------------
    def tell(self, kind: str, value: Any) -> None:
        """Queue an outcome for the next draw of ``kind`` (see :meth:`TableChance.tell`)."""
        self.chance.tell(kind, value)

    def tell_cards(self, cards: Sequence[str]) -> None:
        """The cards drawn at the table for the next draw (card ids, any order)."""
        self.tell("cards", list(cards))

    def pending_draw(self) -> Mapping[str, Any] | None:
        """What the current decision would draw if it chose a deck: ``None`` when it is not a
        deck choice; else ``{"label", "counts"}`` with how many cards each deck gives."""
        if self.state.is_terminal() or self.state.pending[-1].kind != "deck":
            return None
        top = self.state.pending[-1]
        nation = self.state.nations[top.seat]
        data = self.state.data
        if top.args[0] == "new_policy":
            count = data.political["draw"][self.state.columns[top.seat]]
        else:
            count = data.cards["political-reform"].p("draw")
        counts = {d: min(count, len(cards)) for d, cards in nation.decks.items() if cards}
        return {"label": f"{self.state.name(top.seat)} draws", "counts": counts}

    def apply(self, action: Action | str) -> Action:
        """Apply a decision (an action or its notation) with the outcomes it draws; all or nothing.

        Raises:
            NotationError, IllegalActionError: the decision is refused (the rule named).
            OutcomeNeeded, RecordError: a draw found no outcome told, or a wrong one; the
                books are as they were, and outcomes told for it are dropped.
        """
        state = self.state
        parsed = state.parse_action(action) if isinstance(action, str) else action
        history = state.history()
        before = [dict(o) for o in state.chance_outcomes()]
        try:
            state.apply(parsed)
        except Exception:
            self.state = self._build(before, history)
            self.chance.told.clear()
            raise
        self._marks.append(len(state.chance_outcomes()))
        return parsed

    def undo(self) -> str:
        """Take back the last decision typed (the forced ones after it go too) and the outcomes
        it drew; returns its notation. Outcomes told but not used are dropped.

        Raises:
            LimitGamesError: no decision was made yet.
        """
        history = self.state.history()
        if not history:
            raise LimitGamesError("nothing to undo: no decision was made yet")
        self._marks.pop()
        keep = self._marks[-1] if self._marks else self._base
        told = [dict(o) for o in self.state.chance_outcomes()[:keep]]
        self.state = self._build(told, history[:-1])
        return self.state.action_to_string(history[-1])

    def record(self, seats: Sequence[str] | None = None) -> GameRecord:
        """The game's record (its position as ``start``, the outcomes told as ``chance``)."""
        names = seats if seats is not None else [f"human:{n}" for n in self.state.seat_names()]
        return GameRecord.of_state(self.state, seats=list(names), meta={"event": "refereed"})
