"""The state of a game of Poyé's LIMIT and its flow: the table the phases play on.

:class:`WorldState` holds the table and runs the flow of the ``State`` protocol (legal
actions, ``apply``, returns, copies); the notation, the observations and the research
encodings are added by :class:`limitgames.world.game_state.WorldGameState`, the class of
every game, which sits above the phases.

The game is a fixed sequence of stages (:data:`STAGES`): the political phase
(technological advancement, new policy, political action capacity, decide
policy), the social phase's 11 steps, the international phase (cold war, the
financial, environmental and military crises, the alliance step or in solo mode an event
card, end of generation), then after
the last generation the stress test and scoring (rulebook pp 11-23).

A decision inside a step (which deck, which card, which class, which plant,
how much military, resist or not, a transaction) is a :class:`Choice` on a
stack; ``current_player()`` is the seat of the choice on top and
``legal_actions()`` its options. A choice with a single option is taken
automatically (it is not a decision, and is not in ``history()``).

Steps the rulebook calls simultaneous are decided seat by seat in turn order;
while such a step is open, every other seat sees a deciding nation's board as
it was before its first choice (the *veil*), and the log lines of those
choices are shown when the step closes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from limitgames.core import TERMINAL, Action, AmountForm, Chance, IllegalActionError, State
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.data import DECKS, WorldData
from limitgames.world.nation import Nation
from limitgames.world.words import NATIONS, Phrase

WorldAction = tuple[Any, ...]
"""An action: a tuple ``(verb, *arguments)`` such as ``("play", "education")``; see ``notation``."""

NATION_NAMES: tuple[str, ...] = NATIONS
"""The nations by seat (each nation board has its own shape)."""


class Choice(NamedTuple):
    """A pending decision: its kind, the deciding seat and kind-specific arguments."""

    kind: str
    seat: int
    args: tuple[Any, ...] = ()


OptionsFn = Callable[["WorldState", Choice], list[WorldAction]]
ResolveFn = Callable[["WorldState", Choice, WorldAction], None]
AcceptFn = Callable[["WorldState", Choice, WorldAction], str | None]
StageFn = Callable[["WorldState"], bool]
FormsFn = Callable[["WorldState", Choice], list[AmountForm]]

OPTIONS: dict[str, OptionsFn] = {}
"""kind -> the options of a choice of that kind (filled by the phase and card modules)."""
RESOLVE: dict[str, ResolveFn] = {}
"""kind -> applies the chosen option (the choice is already popped)."""
ACCEPT: dict[str, AcceptFn] = {}
"""kind -> for choices whose listed options are a bounded sample of a range: ``None`` if the
action is allowed, else the reason. Kinds without one accept exactly their options."""
FORMS: dict[str, FormsFn] = {}
"""kind -> the parametric actions of such a choice, each with the whole range its ``ACCEPT``
allows (what interfaces show and agents may choose from)."""
STAGE_HANDLERS: dict[str, StageFn] = {}
"""stage -> runs it; returns ``True`` when the stage is over."""

POLITICAL = ("technology", "new_policy", "hand_limit", "decide_policy")
SOCIAL = (
    "supply",
    "conserve",
    "consumption",
    "population_growth",
    "lower_mortality",
    "lower_birth_rate",
    "economic_growth",
    "taxation",
    "production",
    "public_order",
    "class_struggle",
)
INTERNATIONAL = (
    "cold_war",
    "financial_crisis",
    "environmental_crisis",
    "military_crisis",
    "alliance",
    "end_generation",
)
STAGES: tuple[str, ...] = (*POLITICAL, "social_start", *SOCIAL, *INTERNATIONAL)
"""The stages of one generation, in the rulebook's order."""
STRESS = ("stress_start", "stress_supply", "stress_consumption", "stress_production")
SEQUENTIAL_STAGES = frozenset({"decide_policy", "alliance"})
"""Stages decided in turn order in the open; every other stage's choices are simultaneous."""
HIDDEN_KINDS = frozenset({"keep", "discard"})
"""Choices other seats never see (the card kept or discarded), whatever the stage."""
OPEN_KINDS = frozenset({"alliance", "answer", "fee", "ask", "aid", "break"})
"""Choices made in the open whatever the stage: the alliance step and allies asked for help
(asking, giving and refusing happen across the table, p21-22)."""
ALLIANCE_KINDS: tuple[str, ...] = ("military", "economic")
"""The two types of alliance token (p21)."""
STAR = -1
"""The star nation of solo mode, where a card names a target seat (p24)."""


class Star:
    """The star nation's card in solo mode (p24): tokens that vary, values that follow the
    table by generation (``data.solo``).

    Attributes: money, fossil, territory, pollution, disruption: tokens on the card.
    """

    __slots__ = ("disruption", "fossil", "money", "pollution", "territory")

    def __init__(self, money: int = 0, fossil: int = 0, territory: int = 0) -> None:
        self.money = money
        self.fossil = fossil
        self.territory = territory
        self.pollution = 0
        self.disruption = 0

    def copy(self) -> Star:
        """An independent copy."""
        other = Star(self.money, self.fossil, self.territory)
        other.pollution, other.disruption = self.pollution, self.disruption
        return other

    def key(self) -> tuple[int, ...]:
        """The tokens, hashable."""
        return (self.money, self.fossil, self.territory, self.pollution, self.disruption)


class WorldState(State):
    """A game of LIMIT for 2-6 nations (see the module docstring): the table and its flow.
    Games are :class:`limitgames.world.game_state.WorldGameState`, which adds the notation,
    the observations and the encodings.

    Attributes:
        data: the game data. nations: the nation boards by seat.
        generation: 1-7. leader: the seat holding the leadership tile.
        crises: crisis tiles per generation (lists of ``financial``/``environmental``/``military``).
        world_bank: $ in the World Bank. limit_box: tokens in the LIMIT boxes (may go
            below the printed contents: the boxes are unlimited).
        pollution_reserve, disruption_reserve: tokens on the reserve cards.
        colonization: territory and fossil on the colonization reserve tile.
        market_price: price-cube positions 1-7; market_stock: marketplace stock
            (both renewable, industrial, military, fossil).
        stage: the current stage name. log: ``(seat or None, text)`` lines of what happened.
        alliances_on: whether the alliance step is played (variant ``alliances``).
        alliances: per type (``military``, ``economic``) the alliances, each a sorted list of
            seats; agreement: per type the seats whose token lies agreement side up this step;
            demilitarized: whether demilitarization has happened; funded: ``(seat, card)``
            asked of economic allies this generation (pp 21-22).
        solo: solo mode (one seat); star: the star nation's card; events, event_discard: the
            event cards' draw pile (top first, face down) and discards (p24).
    """

    game_id = "world"

    def __init__(
        self,
        variant: dict[str, Any],
        data: WorldData,
        chance: Chance,
        load: Callable[[WorldState], None],
    ) -> None:
        """A new game for ``variant["players"]`` nations laid out by ``load`` (the rulebook's
        set-up, :func:`limitgames.world.setup.set_up`, or a position, see
        :mod:`limitgames.world.position`), then played on to the first decision."""
        self._variant = variant
        self.data = data
        self._chance = chance
        self.solo = bool(variant.get("solo"))
        self.n = 1 if self.solo else int(variant["players"])
        choice = variant.get("alliances") or "auto"
        self.alliances_on = not self.solo and (choice == "on" or (choice == "auto" and self.n >= 4))
        self.alliances: dict[str, list[list[int]]] = {k: [] for k in ALLIANCE_KINDS}
        self.agreement: dict[str, list[int]] = {k: [] for k in ALLIANCE_KINDS}
        self.alliance_turn = 0
        self.demilitarized = False
        self.funded: list[tuple[int, str]] = []
        self.star: Star | None = None
        self.events: list[str] = []
        self.event_discard: list[str] = []
        self.stress_tests = int(variant.get("stress_tests", data.end["stress_tests"]))
        self.nations: list[Nation] = []
        self.generation = 1
        self.leader = 0
        self.crises: list[list[str]] = [[]]
        self.world_bank = 0
        self.limit_box: dict[str, int] = {}
        self.pollution_reserve = 0
        self.disruption_reserve = 0
        self.colonization = [0, 0]
        self.market_price = [1, 1, 1, 1]
        self.market_stock = [0, 0, 0, 0]
        self.stage = STAGES[0]
        self.stage_index = 0
        self.stress_round = 0
        self.cursor = 0
        self.columns: list[int] = []
        self.policy_turn = 0
        self.policy_plays = 0
        self.pending: list[Choice] = []
        self.deferred: list[Choice] = []
        self.veil: dict[int, Nation] = {}
        self.veil_first: dict[int, Choice] = {}
        self.log: list[tuple[int | None, str, bool]] = []
        self.veiled_log: list[tuple[int | None, str, bool]] = []
        self.hiding = False
        self.revealed = [0] * self.n
        self.terminal = False
        self.scores: list[int] = []
        self.score_details: list[dict[str, int]] = []
        self._history: list[WorldAction] = []
        self._legal: list[WorldAction] | None = None
        self._position: dict[str, Any] | None = None
        self.opening: tuple[list[Nation], dict[str, Any]] = ([], {})
        load(self)
        self.advance()

    # --- protocol: basics -------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def variant(self) -> dict[str, Any]:
        return self._variant

    def seat_names(self) -> list[str]:
        return list(NATION_NAMES[: self.n])

    def start_position(self) -> dict[str, Any] | None:
        """The position this game was loaded from (see ``position``), else ``None``."""
        return self._position

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        return self.pending[-1].seat

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> list[float]:
        """Variant ``returns=win`` (default, the scale of every game: :mod:`limitgames.core.encoding`):
        +1 for the sole nation with the highest score, 0 for each of several sharing it, -1 for
        the others; in solo mode +1 for "a very good game" (more than ``solo.very_good_score``,
        p24) and -1 otherwise [decision]; ``returns=score``: the scores. All 0.0 until the end."""
        if not self.terminal:
            return [0.0] * self.n
        if self._variant.get("returns") == "score":
            return [float(s) for s in self.scores]
        if self.solo:
            return [1.0 if self.scores[0] > self.data.solo["very_good_score"] else -1.0]
        from limitgames.core.encoding import outcome_returns

        return outcome_returns(self.scores)

    def history(self) -> list[Action]:
        return list(self._history)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        return self._chance.outcomes

    # --- protocol: actions -----------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.terminal:
            return []
        if self._legal is None:
            top = self.pending[-1]
            self._legal = OPTIONS[top.kind](self, top)
        return list(self._legal)

    def _refusal(self, action: Any) -> str | None:
        if self.terminal:
            return _("the game is over")
        top = self.pending[-1]
        accept = ACCEPT.get(top.kind)
        if accept is not None:
            return accept(self, top, action)
        if self._legal is None:
            self._legal = OPTIONS[top.kind](self, top)
        if action in self._legal:
            return None
        return _describe_choice(self, top)

    def revelations(self, seat: int) -> int:
        """How many times ``seat`` has been shown something hidden until then: cards drawn
        from its decks, or the choices other nations made while a simultaneous step was open.
        An interface must not take back a decision across a revelation (``undo``)."""
        return self.revealed[seat]

    def announcement(self, action: Any, viewer: int | None) -> str | None:
        """The current seat's ``action`` (not yet applied) as ``viewer`` may learn of it at
        the table: its notation, or ``None`` for a hidden choice (a card kept or discarded,
        any choice of a simultaneous step, which the log tells when the step closes)."""
        if self.terminal:
            return None
        seat = self.pending[-1].seat
        if viewer == seat:
            return self.action_to_string(action)
        kind = self.pending[-1].kind
        if (self.stage not in SEQUENTIAL_STAGES and kind not in OPEN_KINDS) or kind in HIDDEN_KINDS:
            return None
        return self.action_to_string(action)

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` may be applied now (``False`` for what is not a world action at
        all, see :func:`is_world_action`); an error of the engine while judging it propagates."""
        return is_world_action(action) and self._refusal(action) is None

    def action_forms(self) -> list[AmountForm]:
        """The quantity actions open now (a transaction, military spent, a pledge, pollution
        given), each with the whole range of its amount; every amount in range is legal."""
        if self.terminal:
            return []
        top = self.pending[-1]
        forms = FORMS.get(top.kind)
        return forms(self, top) if forms is not None else []

    def apply(self, action: Any) -> None:
        """Apply ``action`` for the current seat (see ``notation`` for the forms).

        Raises:
            IllegalActionError: naming the rule, or "not an action of this game" for what is
                not a world action at all (:func:`is_world_action`); the state is unchanged.
            Any other error is the engine's own (a bug), never taken for a refused action.
        """
        reason = self._refusal(action) if is_world_action(action) else "not an action of this game"
        if reason is not None:
            text = self.action_to_string(action) if isinstance(action, tuple) else repr(action)
            raise IllegalActionError(text, reason)
        self._history.append(action)
        self._resolve_top(action)
        self.advance()

    def _resolve_top(self, action: WorldAction) -> None:
        top = self.pending.pop()
        self._legal = None
        hidden = self.stage not in SEQUENTIAL_STAGES and top.kind not in OPEN_KINDS
        if hidden and top.seat not in self.veil:
            self.veil[top.seat] = self.nations[top.seat].copy()
            self.veil_first[top.seat] = top
        self.hiding = hidden
        try:
            RESOLVE[top.kind](self, top, action)
        finally:
            self.hiding = False

    def advance(self) -> None:
        """Run automatic play until a seat must decide or the game ends."""
        while not self.terminal:
            if self.pending:
                top = self.pending[-1]
                options = OPTIONS[top.kind](self, top)
                if len(options) >= 2:
                    self._legal = options
                    return
                if len(options) == 1:
                    self._resolve_top(options[0])
                else:
                    self.pending.pop()
                    self._legal = None
                continue
            if STAGE_HANDLERS[self.stage](self):
                self.next_stage()

    def next_stage(self) -> None:
        """Close the current stage (lift the veil) and enter the next one.

        ``end_generation`` and ``stress_start`` choose their successor themselves.
        """
        if self.veil or self.veiled_log:
            chose = set(self.veil) | {s for s, _, _ in self.veiled_log if s is not None}
            for seat in range(self.n):
                if chose - {seat}:
                    self.revealed[seat] += 1
            self.veil.clear()
            self.veil_first.clear()
            self.log.extend(self.veiled_log)
            self.veiled_log.clear()
        self.cursor = 0
        if self.stage in STRESS:
            if self.stage == "stress_production":
                self.stress_round += 1
                self.stage = "stress_supply" if self.stress_round < self.stress_tests else "scoring"
            else:
                self.stage = STRESS[STRESS.index(self.stage) + 1]
            return
        self.stage_index = (self.stage_index + 1) % len(STAGES)
        self.stage = STAGES[self.stage_index]

    # --- helpers for the phase modules --------------------------------------------
    def turn_order(self) -> list[int]:
        """Seats in turn order, from the leader, to the left."""
        return [(self.leader + k) % self.n for k in range(self.n)]

    def push(self, choice: Choice) -> None:
        """Put a decision on top of the stack (it is decided next)."""
        self.pending.append(choice)
        self._legal = None

    def defer(self, choice: Choice) -> None:
        """Queue a decision of a simultaneous step; :meth:`flush_deferred` pushes them in order."""
        self.deferred.append(choice)

    def flush_deferred(self) -> None:
        """Push the queued decisions so that the first queued is decided first."""
        if self.deferred:
            self.pending.extend(reversed(self.deferred))
            self.deferred.clear()
            self._legal = None

    def note(self, seat: int | None, text: str, private: bool = False, **values: object) -> None:
        """Add a line to the log (held back until the step closes while choices are hidden).

        A ``private`` line (it names a card in a hand) is only ever shown to ``seat``.
        ``text`` is English, or a template marked with ``N_`` filled with ``values``
        (``%(name)s``): the line is then a :class:`~limitgames.world.words.Phrase`, whose
        ``str`` is the English line and which :meth:`log_lines` draws in the reader's language.
        """
        line = Phrase(text, values) if values else text
        (self.veiled_log if self.hiding else self.log).append((seat, line, private))

    def name(self, seat: int) -> str:
        """The nation's name (``star`` for the star nation of solo mode)."""
        return "star" if seat == STAR else NATION_NAMES[seat]

    # --- tokens and tracks -----------------------------------------------------------
    def change_unrest(self, nation: Nation, delta: int, why: str) -> None:
        """Move the social unrest cube (rulebook p9): past the right end, 1 disruption per step."""
        if delta == 0:
            return
        old = nation.unrest
        top = self.data.unrest_positions
        new = old + delta
        overflow = 0
        if new > top:
            overflow = new - top
            new = top
        new = max(1, new)
        nation.unrest = new
        if overflow:
            self.gain_disruption(nation, overflow)
            template = N_("%(why)s: social unrest %(old)d -> %(new)d, %(overflow)d disruption")
        else:
            template = N_("%(why)s: social unrest %(old)d -> %(new)d")
        self.note(nation.seat, template, why=why, old=old, new=new, overflow=overflow)

    def gain_disruption(self, nation: Nation, count: int) -> None:
        """``count`` disruption tokens from the reserve card, then from the LIMIT box."""
        from_reserve = min(count, self.disruption_reserve)
        self.disruption_reserve -= from_reserve
        self.limit_box["disruption"] -= count - from_reserve
        nation.disruption += count

    def return_disruption(self, nation: Nation, count: int) -> int:
        """Up to ``count`` of the nation's disruption tokens to the reserve card; returns how many."""
        k = min(count, nation.disruption)
        nation.disruption -= k
        self.disruption_reserve += k
        return k

    def gain_pollution(self, nation: Nation, count: int) -> None:
        """``count`` pollution from the reserve card, then excess pollution from the LIMIT box."""
        if count <= 0:
            return
        from_reserve = min(count, self.pollution_reserve)
        self.pollution_reserve -= from_reserve
        self.limit_box["pollution"] -= count - from_reserve
        nation.pollution += count

    def return_pollution(self, nation: Nation, count: int) -> int:
        """Up to ``count`` pollution back: excess tokens to the LIMIT box first, then to the reserve."""
        k = min(count, nation.pollution)
        base = self.data.setup["limit_box_pollution"]
        for _step in range(k):
            if self.limit_box["pollution"] < base:
                self.limit_box["pollution"] += 1
            else:
                self.pollution_reserve += 1
        nation.pollution -= k
        return k

    def pay_from_bank(self, nation: Nation, amount: int) -> None:
        """Pay ``amount`` $ to ``nation`` from the World Bank; if it runs short, the LIMIT box
        pays the rest and a financial crisis tile is placed on the current generation (p16)."""
        if amount <= 0:
            return
        if amount > self.world_bank:
            short = amount - self.world_bank
            self.world_bank = 0
            self.limit_box["money"] -= short
            if "financial" not in self.crises[-1]:
                self.crises[-1].append("financial")
                self.note(None, N_("The World Bank is empty: a financial crisis tile is placed"))
        else:
            self.world_bank -= amount
        nation.money += amount

    def population_value(self, nation: Nation, offset: int = 0) -> int:
        """The value of the nation's population position moved by ``offset`` levels."""
        return self.data.level(nation.population + offset)

    # --- protocol: copies ----------------------------------------------------------------

    def clone(self) -> WorldState:
        other = type(self).__new__(type(self))
        d = other.__dict__
        d.update(self.__dict__)
        other.nations = [n.copy() for n in self.nations]
        other.crises = [list(c) for c in self.crises]
        other.alliances = {k: [list(g) for g in gs] for k, gs in self.alliances.items()}
        other.agreement = {k: list(v) for k, v in self.agreement.items()}
        other.funded = list(self.funded)
        other.star = self.star.copy() if self.star is not None else None
        other.events = list(self.events)
        other.event_discard = list(self.event_discard)
        other.limit_box = dict(self.limit_box)
        other.colonization = list(self.colonization)
        other.market_price = list(self.market_price)
        other.market_stock = list(self.market_stock)
        other.columns = list(self.columns)
        other.pending = list(self.pending)
        other.deferred = list(self.deferred)
        other.veil = {k: v.copy() for k, v in self.veil.items()}
        other.veil_first = dict(self.veil_first)
        other.log = list(self.log)
        other.veiled_log = list(self.veiled_log)
        other.revealed = list(self.revealed)
        other.scores = list(self.scores)
        other.score_details = [dict(x) for x in self.score_details]
        other._history = list(self._history)
        other._legal = None
        other._chance = self._chance.clone()
        return other

    def key(self) -> Hashable:
        """A hashable summary of the full state (not the log): equal keys, same position."""
        return (
            self.stage,
            self.cursor,
            self.generation,
            self.leader,
            self.policy_turn,
            self.policy_plays,
            self.stress_round,
            tuple(tuple(c) for c in self.crises),
            self.world_bank,
            tuple(sorted(self.limit_box.items())),
            self.pollution_reserve,
            self.disruption_reserve,
            tuple(self.colonization),
            tuple(self.market_price),
            tuple(self.market_stock),
            tuple(self.columns),
            tuple(self.pending),
            tuple(n.key() for n in self.nations),
            self.terminal,
            tuple(tuple(map(tuple, gs)) for gs in self.alliances.values()),
            tuple(tuple(v) for v in self.agreement.values()),
            self.alliance_turn,
            self.demilitarized,
            tuple(self.funded),
            self.star.key() if self.star is not None else None,
            tuple(self.events),
            tuple(self.event_discard),
        )

    def playout(self, rng: random.Random, max_decisions: int | None = None) -> list[float]:
        left = -1 if max_decisions is None else max_decisions
        while not self.terminal and left != 0:
            left -= 1
            if self._legal is None:
                self.legal_actions()
            actions = self._legal or []
            self.apply(actions[rng.randrange(len(actions))])
        return self.returns()

    # --- the log --------------------------------------------------------------------------
    def log_lines(self, seat: int | None = None) -> list[str]:
        """The log as text lines (with the nation's name), as ``seat`` may see it (``None``:
        the public lines), in the current language (:func:`limitgames.translation.using`;
        English by default, byte for byte the engine's lines; the nation's name translated
        too, :func:`limitgames.world.words.line_sentence`)."""
        lines = [(s, t) for s, t, private in self.log if not private or s == seat]
        if seat is not None:
            lines += [(s, t) for s, t, _ in self.veiled_log if s == seat]
        from limitgames.world.words import line_sentence

        return [line_sentence(s, t) for s, t in lines]


def is_world_action(action: object) -> bool:
    """Whether ``action`` has the form of a world action: a non-empty, hashable tuple
    ``(verb, *arguments)`` whose verb is a ``str`` (:data:`WorldAction`, see ``notation``).

    Anything else is not an action of this game; an action of this form is judged by the rules
    of the decision due, which say why it is refused."""
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        return False
    try:
        hash(action)
    except TypeError:  # a list or a dict among the arguments
        return False
    return True


def _describe_choice(state: WorldState, choice: Choice) -> str:
    """Why an action is refused: another kind of decision is due (its kind is the notation's)."""
    return _("not an option now (%(nation)s must decide: %(kind)s)") % {
        "nation": state.name(choice.seat),
        "kind": choice.kind.replace("_", " "),
    }


def deck_of(state: WorldState, card: str) -> str:
    """The deck a card belongs to."""
    return state.data.cards[card].deck


def check_deck(name: str) -> str:
    """``name`` if it is a deck name, else raise ValueError."""
    if name not in DECKS:
        raise ValueError(name)
    return name
