"""The rules of Limits (Uwe Rosenberg, AMIGO 2001): the game state and how play goes on.

Rules as played: ``rules/cards.md``; rulebook ``seeds/002_c0d7faeb65de5327.txt``.

A round (``rules/cards.md``, "A round"):

1. the top limit card is revealed;
2. the **hide step**: every seat hides one hand card (two with 2 players).
   The rulebook makes this simultaneous; here the seats decide one at a time,
   in seat order from the round's start player, one card per decision (with 2
   players a seat takes two decisions in a row). Nobody sees another's choice
   until the reveal;
3. from the start player clockwise, each seat plays a card (and draws one),
   exchanges four cards of one colour, or suspects another seat that has put a
   card on the pile this round; a seat that can do none of these passes;
4. a suspicion ends the round: the hidden cards are revealed and the cards of
   the suspected seat's last colour are counted up to and including its last
   card; above the limit (limit card value + hidden cards of that colour, X:
   no limit) the suspected seat takes the limit card and the suspecting seat
   scores +1, otherwise the other way round;
5. hidden cards go back to the hands, the pile goes under the draw pile in
   the order played, the seats refill their hands clockwise from the one who
   took the limit card, and that seat starts the next round. After the last
   limit card the game is over (no refill).

Internal representation (the hot path uses plain lists of ints): a hand is
five counts (one per colour); the draw pile is a list of colours with its top
at the end; the pile is the list of colours in the order played with a
parallel list of the seats that played them.
"""

from __future__ import annotations

import operator
import random
from typing import Any

from limitgames.cards.material import (
    COLOUR_LETTERS,
    COLOURS,
    LIMIT_CARD_PENALTY,
    NO_LIMIT,
    LimitCardsError,
    LimitCardSet,
    check_deal,
    colour_card_counts,
    hand_size,
    hidden_per_round,
    limit_card_code,
    limit_card_from_code,
    limit_cards_put_aside,
)
from limitgames.cards.notation import (
    EXCHANGE,
    NUM_ACTIONS,
    PASS,
    PLAY,
    SUSPECT,
    action_name,
    parse_action_text,
)
from limitgames.core.chance import Chance
from limitgames.core.errors import IllegalActionError, RecordError
from limitgames.core.events import Event, Outcome
from limitgames.core.protocol import TERMINAL, Action, State

PHASE_HIDE = 0
PHASE_PLAY = 1
PHASE_OVER = 2
PHASE_NAMES = ("hide", "play", "over")

_RANGE5 = range(5)


class CardsState(State):
    """A game of Limits in progress: the rules and how play goes on. Games are
    :class:`limitgames.cards.game_state.CardsGameState`, which adds the observations, the
    determinization and the research encodings.

    Seats are ``0 .. players-1``; clockwise is the next number. Actions are
    ``int`` (see :mod:`limitgames.cards.notation`). ``scores()`` are points
    minus 2 per limit card taken (``rules/cards.md``, "End"); ``returns()``
    is the win/loss result or the scores (variant parameter ``returns``).

    The attributes are the engine's own; interfaces and agents read
    :meth:`observation` instead (it never holds another seat's hidden cards).
    """

    game_id = "cards"

    # ------------------------------------------------------------------ setup
    def __init__(self, variant: dict[str, Any], chance: Chance, cards: LimitCardSet | None) -> None:
        """Set up a new game (``rules/cards.md``, "Setup"), drawing the shuffles through ``chance``.

        Args:
            variant: the resolved variant (``players``, ``limit_cards``, and the smaller
                game's ``colours``, ``cards_per_colour``, ``hand``, ``limit_pile``:
                :mod:`limitgames.cards.game`).
            chance: the source of the three chance outcomes: ``"limit cards"``
                (the shuffled limit-card codes: first those put aside, then the
                limit pile from the top), ``"colour cards"`` (one letter ``rygbp``
                per card of the deck, 60 in the rulebook's game, top of the draw
                pile first) and
                ``"start player"`` (the first round's start seat).
            cards: the limit-card set to shuffle, or ``None`` when replaying
                (then the recorded cards are used as they are).

        Raises:
            RecordError: if a replayed chance outcome is malformed.
            VariantError: if the hands cannot be dealt from the deck, or the limit-card set
                is smaller than the limit pile.
        """
        n = int(variant["players"])
        self._variant = variant
        self._chance = chance
        self._score_returns = variant.get("returns", "win") == "score"
        self.n = n
        deck_counts = colour_card_counts(variant)
        self.deck_counts: list[int] = deck_counts
        self.full_hand = hand_size(n, variant.get("hand"))
        self.hide_count = hidden_per_round(n)
        check_deal(n, self.full_hand, deck_counts)
        limit_pile = variant.get("limit_pile")
        set_codes = cards.codes if cards is not None else []
        if cards is not None:
            aside = limit_cards_put_aside(n, limit_pile, len(set_codes))
            if len(set_codes) <= aside:
                raise LimitCardsError(
                    f"limit cards ({cards.source}): {len(set_codes)} cards, but {n} players put "
                    f"{aside} aside and need at least one more"
                )
        order = chance.draw("limit cards", lambda rng: rng.sample(set_codes, len(set_codes)))
        if cards is None:  # replaying: the recorded cards are the set
            recorded = len(order) if isinstance(order, list) else 0
            aside = limit_cards_put_aside(n) if limit_pile is None else recorded - limit_pile
        limit_order = _check_limit_order(order, set_codes if cards is not None else None, aside)
        letters = "".join(COLOUR_LETTERS[c] for c in _RANGE5 if deck_counts[c])
        deck_text = chance.draw(
            "colour cards",
            lambda rng: "".join(rng.sample(letters * max(deck_counts), sum(deck_counts))),
        )
        deck = _check_deck(deck_text, deck_counts)
        start = chance.draw("start player", lambda rng: rng.randrange(n))
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < n:
            raise RecordError(
                f"start player {start!r} is not a seat of {n}", "chance 'start player'"
            )

        self.put_aside: list[tuple[int, ...]] = limit_order[:aside]
        self.limit_pile: list[tuple[int, ...]] = limit_order[aside:][::-1]  # top at the end
        self.limit_bottom_known = 0  # cards put back under the limit pile (known to all)
        self.limit_card: tuple[int, ...] | None = None
        self.draw: list[int] = deck[::-1]  # top at the end
        self.draw_known: list[bool] = [False] * len(deck)
        self.hands: list[list[int]] = [[0] * 5 for _ in range(n)]
        self.hidden: list[list[int]] = [[0] * 5 for _ in range(n)]
        # Public knowledge (see limitgames.cards.observe): per seat and colour, a lower
        # bound on its hand + hidden cards (known) and on its hand alone (known_hand).
        self.known: list[list[int]] = [[0] * 5 for _ in range(n)]
        self.known_hand: list[list[int]] = [[0] * 5 for _ in range(n)]
        self.pile: list[int] = []
        self.pile_seats: list[int] = []
        self.last_index: list[int] = [-1] * n
        self.points: list[int] = [0] * n
        self.taken: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        self.round = 0
        self.start = start
        self.phase = PHASE_HIDE
        self.player = start
        self.hide_order: list[int] = []
        self.hide_pos = 0
        self.passes = 0
        self._history: list[int] = []
        self.round_actions: list[tuple[int, int]] = []
        self.rounds: list[dict[str, Any]] = []
        # Deal one card at a time, clockwise from the start player.
        for _ in range(self.full_hand):
            for k in range(n):
                self._draw_cards((start + k) % n, 1)
        self._begin_round(start)

    # ------------------------------------------------------------- protocol
    @property
    def num_players(self) -> int:
        """The number of seats (2-6)."""
        return self.n

    @property
    def variant(self) -> dict[str, Any]:
        """The resolved variant: ``players`` and ``limit_cards`` (a file name or ``None``)."""
        return self._variant

    def current_player(self) -> int:
        """The seat to decide now (hiding or acting), or ``TERMINAL``."""
        return TERMINAL if self.phase == PHASE_OVER else self.player

    def is_terminal(self) -> bool:
        """Whether the last limit card has been taken."""
        return self.phase == PHASE_OVER

    def scores(self) -> list[int]:
        """Each seat's score so far: points minus 2 per limit card taken (``rules/cards.md``, "End")."""
        return [
            p - LIMIT_CARD_PENALTY * len(t) for p, t in zip(self.points, self.taken, strict=True)
        ]

    def winners(self) -> list[int]:
        """The seats with the highest score (several share the win); ``[]`` before the end."""
        if self.phase != PHASE_OVER:
            return []
        scores = self.scores()
        best = max(scores)
        return [s for s in range(self.n) if scores[s] == best]

    def returns(self) -> list[float]:
        """One number per seat, by the variant's ``returns`` parameter.

        ``"win"`` (default, the scale of every game: :mod:`limitgames.core.encoding`):
        0 for everybody until the end; then +1 for the sole winner, 0 for each of
        several seats sharing the win, -1 for the others. ``"score"``: the scores
        so far (:meth:`scores`).
        """
        if self._score_returns:
            return [float(x) for x in self.scores()]
        if self.phase != PHASE_OVER:
            return [0.0] * self.n
        winners = self.winners()
        top = 1.0 if len(winners) == 1 else 0.0
        return [top if s in winners else -1.0 for s in range(self.n)]

    def legal_actions(self) -> list[Action]:
        """The current seat's actions in increasing ``int`` order; ``[]`` once the game is over.

        Hide step: ``HIDE + c`` for each colour ``c`` in hand. Otherwise: play
        each colour in hand, exchange each colour held four times or more,
        suspect each other seat with a card on the pile this round; ``PASS``
        only if none of these exists.
        """
        return list(self._legal())

    def _legal(self) -> list[int]:
        phase = self.phase
        if phase == PHASE_OVER:
            return []
        hand = self.hands[self.player]
        if phase == PHASE_HIDE:
            return [c for c in _RANGE5 if hand[c]]
        s = self.player
        actions = [PLAY + c for c in _RANGE5 if hand[c]]
        actions += [EXCHANGE + c for c in _RANGE5 if hand[c] >= 4]
        last = self.last_index
        actions += [SUSPECT + t for t in range(self.n) if t != s and last[t] >= 0]
        return actions or [PASS]

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current seat.

        Raises:
            IllegalActionError: naming the rule that forbids it; the state is unchanged.
        """
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(action, f"not a Limits action (an int 0-{NUM_ACTIONS - 1})")
        if self.phase == PHASE_OVER:
            raise IllegalActionError(action_name(action), "the game is over")
        if action not in self._legal():
            raise IllegalActionError(action_name(action), self._why_illegal(action))
        self._do(action)

    def apply_with_events(self, action: Action) -> list[Event]:
        """Play ``action`` like :meth:`apply` and return what happened, each event with its
        audience (:mod:`limitgames.cards.events`: a hidden or drawn card is told in full
        only to its seat).

        Raises:
            IllegalActionError: as :meth:`apply`; the state is unchanged.
        """
        from limitgames.cards.events import events_of_action

        if isinstance(action, int) and not isinstance(action, bool):
            return events_of_action(self, action)
        self.apply(action)  # not a Limits action: raises IllegalActionError naming it
        raise AssertionError("unreachable")

    def outcome(self) -> Outcome | None:
        """Why and how the game ended (termination ``LIMIT_CARDS_TAKEN``, winners, scores,
        the rounds in ``details``), or ``None`` while it goes on; see
        :func:`limitgames.cards.events.outcome`."""
        from limitgames.cards.events import outcome

        return outcome(self)

    def _why_illegal(self, action: int) -> str:
        s = self.player
        hand = self.hands[s]
        if self.phase == PHASE_HIDE:
            if action >= PLAY:
                return f"seat {s} must first hide a hand card (hide COLOUR)"
            return f"seat {s} holds no {COLOURS[action]} card to hide"
        if action < PLAY:
            return "the hide step is over"
        if action < EXCHANGE:
            return f"seat {s} holds no {COLOURS[action - PLAY]} card"
        if action < SUSPECT:
            c = action - EXCHANGE
            return f"an exchange needs four {COLOURS[c]} cards in hand; seat {s} holds {hand[c]}"
        if action < PASS:
            t = action - SUSPECT
            if t >= self.n:
                return f"there is no seat {t} in a {self.n}-player game"
            if t == s:
                return "a seat cannot suspect itself"
            return f"seat {t} has put no card on the pile this round"
        return "a seat may pass only when it can neither play, exchange nor suspect"

    # ----------------------------------------------------------- the moves
    def _do(self, action: int) -> None:
        """Apply a legal ``action`` (unchecked)."""
        s = self.player
        self._history.append(action)
        self.round_actions.append((s, action))
        if action < PLAY:  # hide
            self.hands[s][action] -= 1
            self.hidden[s][action] += 1
            # Nobody knows which card went: only the bound on hand + hidden remains.
            self.known_hand[s] = [0] * 5
            self.hide_pos += 1
            if self.hide_pos == len(self.hide_order):
                self.phase = PHASE_PLAY
                self.player = self.start
            else:
                self.player = self.hide_order[self.hide_pos]
            return
        if action < EXCHANGE:  # play a card, then draw one
            c = action - PLAY
            self.hands[s][c] -= 1
            known = self.known[s]
            if known[c]:
                known[c] -= 1
            known_hand = self.known_hand[s]
            if known_hand[c]:
                known_hand[c] -= 1
            self.pile.append(c)
            self.pile_seats.append(s)
            self.last_index[s] = len(self.pile) - 1
            if self.draw:
                d = self.draw.pop()
                self.hands[s][d] += 1
                if self.draw_known.pop():
                    known[d] += 1
                    known_hand[d] += 1
            self.passes = 0
            self.player = (s + 1) % self.n
            return
        if action < SUSPECT:  # exchange four cards of colour c
            c = action - EXCHANGE
            self.hands[s][c] -= 4
            # Four shown, so held in hand; then they leave the hand.
            known = self.known[s]
            known_hand = self.known_hand[s]
            known[c] = known[c] - 4 if known[c] > 4 else 0
            known_hand[c] = known_hand[c] - 4 if known_hand[c] > 4 else 0
            self.points[s] += 1
            self._draw_cards(s, 4)
            self.pile += (c, c)
            self.pile_seats += (s, s)
            self.last_index[s] = len(self.pile) - 1
            self.draw += (c, c)
            self.draw_known += (True, True)
            self.passes = 0
            self.player = (s + 1) % self.n
            return
        if action < PASS:
            self._resolve_suspicion(s, action - SUSPECT)
            return
        self.passes += 1
        if self.passes >= self.n:
            self._end_round(None, None)
        else:
            self.player = (s + 1) % self.n

    def _draw_cards(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` cards from the top (fewer if the draw pile runs out)."""
        draw = self.draw
        known_flags = self.draw_known
        hand = self.hands[seat]
        known = self.known[seat]
        known_hand = self.known_hand[seat]
        for _ in range(min(count, len(draw))):
            c = draw.pop()
            hand[c] += 1
            if known_flags.pop():
                known[c] += 1
                known_hand[c] += 1

    def effective_limits(self) -> list[int | None]:
        """Per colour, the limit this round: the limit card's value plus the hidden cards
        of that colour of all seats; ``None`` for X (no limit). The referee's view
        (``rules/cards.md``, "A round" 2 and 4). ``[]`` once the game is over.
        """
        card = self.limit_card
        if card is None:
            return []
        hidden = self.hidden
        return [
            None if card[c] == NO_LIMIT else card[c] + sum(h[c] for h in hidden) for c in _RANGE5
        ]

    def suspicion_check(self, suspect: int) -> dict[str, Any]:
        """What a suspicion of ``suspect`` would find now (``rules/cards.md``, "A round" 4).

        Returns a JSON-ready dict: ``colour`` (name), ``counted`` (cards of that
        colour on the pile up to and including the suspect's last card),
        ``card_limit`` (the limit card's value, ``"X"`` for none), ``hidden``
        (hidden cards of that colour, all seats), ``limit`` (``card_limit +
        hidden``, ``None`` for X) and ``exceeded`` (``counted > limit``).
        Uses the hidden cards, so it is the referee's view, not a seat's.

        Raises:
            ValueError: if ``suspect`` has no card on the pile this round.
        """
        index = self.last_index[suspect]
        if index < 0 or self.limit_card is None:
            raise ValueError(f"seat {suspect} has put no card on the pile this round")
        c = self.pile[index]
        counted = self.pile[: index + 1].count(c)
        base = self.limit_card[c]
        hidden = sum(h[c] for h in self.hidden)
        limit = None if base == NO_LIMIT else base + hidden
        return {
            "colour": COLOURS[c],
            "counted": counted,
            "card_limit": "X" if base == NO_LIMIT else base,
            "hidden": hidden,
            "limit": limit,
            "exceeded": limit is not None and counted > limit,
        }

    def _resolve_suspicion(self, by: int, suspect: int) -> None:
        check = self.suspicion_check(suspect)
        check["by"] = by
        check["suspect"] = suspect
        taker, scorer = (suspect, by) if check["exceeded"] else (by, suspect)
        check["taker"] = taker
        check["scorer"] = scorer
        self.points[scorer] += 1
        assert self.limit_card is not None
        self.taken[taker].append(self.limit_card)
        self._end_round(taker, check)

    def _end_round(self, taker: int | None, check: dict[str, Any] | None) -> None:
        """Reveal, take hidden cards back, pile under the draw pile, refill, next round or the end."""
        n = self.n
        assert self.limit_card is not None
        self.rounds.append(
            {
                "round": self.round,
                "start_player": self.start,
                "limit_card": limit_card_code(self.limit_card),
                "actions": [[s, _public_name(a)] for s, a in self.round_actions],
                "pile": [[s, COLOURS[c]] for s, c in zip(self.pile_seats, self.pile, strict=True)],
                "revealed": [_colour_list(h) for h in self.hidden],
                "suspicion": check,
                "taker": taker,
            }
        )
        for s in range(n):
            hidden = self.hidden[s]
            if any(hidden):
                # Revealed and taken back: the hand held at least known_hand and at least
                # known minus the hidden cards; now it holds the hidden cards as well.
                hand = self.hands[s]
                known = self.known[s]
                known_hand = self.known_hand[s]
                for c in _RANGE5:
                    h = hidden[c]
                    hand[c] += h
                    rest = known[c] - h
                    known[c] = h + (known_hand[c] if known_hand[c] > rest else rest)
                self.known_hand[s] = list(known)
                self.hidden[s] = [0] * 5
        # The pile, turned over, goes under the draw pile: first played card on top.
        if self.pile:
            self.draw[:0] = self.pile[::-1]
            self.draw_known[:0] = [True] * len(self.pile)
        self.pile = []
        self.pile_seats = []
        self.last_index = [-1] * n
        self.round_actions = []
        if taker is None:  # nobody could act: the limit card goes under the limit pile
            self.limit_pile.insert(0, self.limit_card)
            self.limit_bottom_known += 1
            first = self.start
        else:
            first = taker
        if not self.limit_pile:
            self.phase = PHASE_OVER
            self.player = TERMINAL
            self.limit_card = None
            return
        for k in range(n):
            s = (first + k) % n
            missing = self.full_hand - sum(self.hands[s])
            if missing > 0:
                self._draw_cards(s, missing)
        self.round += 1
        self._begin_round(first)

    def _begin_round(self, start: int) -> None:
        self.start = start
        self.limit_card = self.limit_pile.pop()
        if self.limit_bottom_known > len(self.limit_pile):
            self.limit_bottom_known = len(self.limit_pile)
        self.phase = PHASE_HIDE
        self.hide_order = [
            (start + k) % self.n for k in range(self.n) for _ in range(self.hide_count)
        ]
        self.hide_pos = 0
        self.passes = 0
        self.player = start

    # -------------------------------------------------------------- playout
    def playout(self, rng: random.Random, max_decisions: int | None = None) -> list[float]:
        """Play on with uniformly random legal actions to the end (or for ``max_decisions``
        decisions); return ``returns()``. Mutates ``self``."""
        legal = self._legal
        do = self._do
        randrange = rng.randrange
        left = -1 if max_decisions is None else max_decisions
        while self.phase != PHASE_OVER and left != 0:
            left -= 1
            actions = legal()
            do(actions[randrange(len(actions))])
        return self.returns()

    # ------------------------------------------------------------- notation
    def action_to_string(self, action: Action) -> str:
        """The notation of ``action``: ``hide red``, ``play red``, ``exchange red``, ``suspect 2``, ``pass``."""
        if not isinstance(action, int):
            raise ValueError(f"{action!r} is not a Limits action")
        return action_name(action)

    def parse_action(self, text: str) -> Action:
        """Read notation (see :mod:`limitgames.cards.notation`). Raises ``NotationError``."""
        return parse_action_text(text)

    # ------------------------------------------------------ history, copies
    def history(self) -> list[Action]:
        """The actions applied since setup, as ``int``."""
        return list(self._history)

    def chance_outcomes(self) -> list[dict[str, Any]]:
        """The three setup outcomes (limit cards, colour cards, start player); no chance after setup."""
        return self._chance.outcomes

    def clone(self) -> CardsState:
        """An independent copy (the chance log is shared: nothing is drawn after setup)."""
        other = type(self).__new__(type(self))
        other._variant = self._variant
        other._chance = self._chance
        other._score_returns = self._score_returns
        other.n = self.n
        other.deck_counts = self.deck_counts  # never mutated
        other.full_hand = self.full_hand
        other.hide_count = self.hide_count
        other.put_aside = list(self.put_aside)
        other.limit_pile = list(self.limit_pile)
        other.limit_bottom_known = self.limit_bottom_known
        other.limit_card = self.limit_card
        other.draw = list(self.draw)
        other.draw_known = list(self.draw_known)
        other.hands = [list(h) for h in self.hands]
        other.hidden = [list(h) for h in self.hidden]
        other.known = [list(h) for h in self.known]
        other.known_hand = [list(h) for h in self.known_hand]
        other.pile = list(self.pile)
        other.pile_seats = list(self.pile_seats)
        other.last_index = list(self.last_index)
        other.points = list(self.points)
        other.taken = [list(t) for t in self.taken]
        other.round = self.round
        other.start = self.start
        other.phase = self.phase
        other.player = self.player
        other.hide_order = self.hide_order  # never mutated, only replaced
        other.hide_pos = self.hide_pos
        other.passes = self.passes
        other._history = list(self._history)
        other.round_actions = list(self.round_actions)
        other.rounds = list(self.rounds)  # finished rounds are never mutated
        return other

    def key(self) -> tuple[Any, ...]:
        """A hashable summary of the whole position (hidden parts included)."""
        return (
            self.phase,
            self.player,
            self.round,
            self.start,
            self.hide_pos,
            self.passes,
            self.limit_card,
            tuple(self.limit_pile),
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.hidden)),
            tuple(map(tuple, self.known)),
            tuple(map(tuple, self.known_hand)),
            tuple(self.draw),
            tuple(self.draw_known),
            tuple(self.pile),
            tuple(self.pile_seats),
            tuple(self.points),
            tuple(len(t) for t in self.taken),
        )

    def colour_card_total(self) -> int:
        """Colour cards in hands, hidden, on the pile and in the draw pile (always the deck's
        size: 60, or ``colours`` x ``cards_per_colour`` in a smaller variant)."""
        return (
            sum(map(sum, self.hands)) + sum(map(sum, self.hidden)) + len(self.pile) + len(self.draw)
        )

    # ------------------------------------------------ fast paths over action indices
    def legal_action_indices(self) -> list[int]:
        """The legal actions' indices in increasing order: the actions themselves."""
        return self._legal()

    def apply_index(self, index: int) -> None:
        """Apply the action of index ``index`` (the action itself). Raises ValueError out of
        ``0..21``, IllegalActionError as :meth:`apply`."""
        try:
            action = operator.index(index)  # also NumPy's integers
        except TypeError:
            raise ValueError(f"{index!r} is not a Limits action index") from None
        if not 0 <= action < NUM_ACTIONS or isinstance(index, bool):
            raise ValueError(f"{index!r} is not a Limits action index")
        self.apply(action)

    def __str__(self) -> str:
        card = limit_card_code(self.limit_card) if self.limit_card else "-"
        return (
            f"<cards round {self.round}, limit card {card}, {PHASE_NAMES[self.phase]}, "
            f"to move: {self.current_player()}, scores {self.scores()}>"
        )


def _public_name(action: int) -> str:
    """An action as the other seats see it: a hide without its colour."""
    return "hide" if action < PLAY else action_name(action)


def _colour_list(counts: list[int]) -> list[str]:
    return [COLOURS[c] for c in _RANGE5 for _ in range(counts[c])]


def _check_limit_order(order: Any, codes: list[str] | None, aside: int) -> list[tuple[int, ...]]:
    """The shuffled limit cards as tuples; ``codes`` (the set) is checked when given."""
    where = "chance 'limit cards'"
    if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
        raise RecordError("must be a list of limit card codes like 'X0335'", where)
    if codes is not None and sorted(order) != sorted(codes):
        raise RecordError("is not a shuffle of the limit-card set in use", where)
    if aside < 0:
        raise RecordError(f"has {len(order)} cards, fewer than the variant's limit pile", where)
    if len(order) <= aside:
        raise RecordError(
            f"has {len(order)} cards; {aside} are put aside and one more is needed", where
        )
    try:
        return [limit_card_from_code(c) for c in order]
    except ValueError as exc:
        raise RecordError(str(exc), where) from None


def _check_deck(text: Any, counts: list[int]) -> list[int]:
    """The shuffled colour cards (top first) as colour numbers; ``counts`` per colour."""
    where = "chance 'colour cards'"
    letters = "".join(COLOUR_LETTERS[c] for c in _RANGE5 if counts[c])
    total = sum(counts)
    if not isinstance(text, str) or len(text) != total:
        raise RecordError(f"must be a string of {total} letters {letters}", where)
    deck = [COLOUR_LETTERS.find(ch) for ch in text]
    if any(c < 0 for c in deck) or any(deck.count(c) != counts[c] for c in _RANGE5):
        raise RecordError(f"must hold {max(counts)} of each letter {letters}", where)
    return deck
