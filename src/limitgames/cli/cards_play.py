"""``limit play cards`` and ``limit bench cards``: Limits in the terminal.

Seats are people (``human`` or ``human:NAME``) or computer players (any agent
spec such as ``random`` or ``ismcts:seconds=1``, or a level: easy, medium,
hard, expert). Missing seats are filled with ``random``. With no person at
the table the game plays unattended and is narrated. The game runs on the
shared terminal session (:mod:`limitgames.cli.session`) and is recorded (at
the end, on quit or on Ctrl-C) so that ``limit replay FILE`` re-plays and
checks it.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from limitgames.agents import is_level, level_spec
from limitgames.cards import CARDS, CardsState
from limitgames.cards.events import (
    Drew,
    Exchanged,
    Hid,
    LimitCardReturned,
    LimitCardTaken,
    Passed,
    Played,
    RoundScored,
    Suspected,
    opening,
)
from limitgames.cards.notation import SUSPECT, action_kind, action_name
from limitgames.cards.words import in_turn, outcome_sentence, sentence, tell
from limitgames.cli import cards_view
from limitgames.cli.options import (
    AnalysisOption,
    CommandLanguageOption,
    LanguageOption,
    NoRecordOption,
    OpponentOption,
    PositionOption,
    QuietOption,
    RecordOption,
    SeatOption,
    SeedOption,
    choose_language,
    fail,
)
from limitgames.cli.play_setup import resolve_play
from limitgames.cli.seats import Seat, is_you, name_seats, parse_seats, seats_line
from limitgames.cli.session import (
    GameTerminal,
    Line,
    TerminalSession,
    Transition,
    seed_heading,
)
from limitgames.cli.variant_options import variant_options
from limitgames.core import LimitGamesError, NotationError, State
from limitgames.core.events import Event, visible
from limitgames.translation import N_, gettext

console = Console()

DECISION_EVENTS = (Hid, Played, Drew, Exchanged, Passed, Suspected)
"""The events told on the decision's own line; the rest (the reveal, the check, the next
round) follow it as lines of their own."""

HELP_TEXT = N_("""Actions (one a turn; colours: red yellow green blue purple, or r y g b p):
  hide COLOUR        the hide step: put a hand card face down (2 players: twice)
  play COLOUR        put a card on the pile, then draw one
  exchange COLOUR    with four cards of one colour: +1 point, draw four, two go on
                     the pile and two face down on the draw pile
  suspect NAME       that player's last card went over the limit?
  pass               only when you can do nothing else
  NUMBER             the action of that number in the list shown
Commands: moves (the legal actions), board (the table again), pile (the whole
  pile, only with --show-pile), undo (take back your last decision while nothing
  hidden has been shown since), quit (stop and save the record)""")


_ILLEGAL_WORDS: tuple[tuple[str, str], ...] = (
    (
        r"seat \d+ must first hide a hand card \(hide COLOUR\)",
        N_("you must first hide a hand card (hide COLOUR)"),
    ),
    (r"seat \d+ holds no (?P<colour>\w+) card to hide", N_("you hold no %(colour)s card to hide")),
    (r"seat \d+ holds no (?P<colour>\w+) card", N_("you hold no %(colour)s card")),
    (
        r"an exchange needs four (?P<colour>\w+) cards in hand; seat \d+ holds (?P<count>\d+)",
        N_("an exchange needs four %(colour)s cards in hand; you hold %(count)s"),
    ),
    (r"a seat cannot suspect itself", N_("you cannot suspect yourself")),
    (
        r"seat (?P<seat>\d+) has put no card on the pile this round",
        N_("%(player)s has put no card on the pile this round"),
    ),
    (
        r"a seat may pass only when it can neither play, exchange nor suspect",
        N_("you may pass only when you can neither play, exchange nor suspect"),
    ),
    (r"the hide step is over", N_("the hide step is over")),
)
"""The engine's reasons for an illegal action (``CardsState._why_illegal``, always about the
seat to move, the person typing) and how the terminal says them to that person."""


COMPUTER_PACE = 0.8
"""Seconds between computer actions when a person plays, so each can be read as it comes."""


def _as_action(action: object) -> int:
    """A Limits action (an ``int``) from the protocol's ``Action``."""
    if not isinstance(action, int):
        raise TypeError(f"{action!r} is not a Limits action")
    return action


def action_label(action: Any, names: Sequence[str]) -> str:
    """An action in a person's words: its notation, with the player's name for a suspicion."""
    if SUSPECT <= action < SUSPECT + len(names):
        return f"suspect {names[action - SUSPECT]}"
    return action_name(action)


class CardsTerminal(GameTerminal):
    """Limits at the terminal: the table, numbered choices, narration in words, careful undo.

    Args:
        show_pile: whether the whole pile may be looked through (the physical game forbids it).
    """

    computer_names = True
    private = True
    help_text = HELP_TEXT

    def __init__(self, show_pile: bool = False) -> None:
        super().__init__()
        self.show_pile = show_pile

    def table_names(self, state: State) -> list[str]:
        return cards_view.seat_names(state)

    def render(self, console: Console, state: State, seat: int | None) -> None:
        # the rounds were told as they ended; the end shows the table, not the history again
        cards_view.render(console, state, seat, self.show_pile, self.names, history=False)

    def action_text(self, state: State, action: Any) -> str:
        return action_label(action, self.names)

    def parse(self, state: State, text: str) -> Any:
        """The action typed: a number of the list shown, ``suspect NAME``, ``suspect N`` with
        the players numbered from 1 as the table lists them (the record's notation counts
        from 0: ``suspect 0`` there is ``suspect 1`` here), or the game's notation.

        Raises:
            NotationError: for a number outside the list or a player who is not at the table.
        """
        low = text.strip().lower()
        legal = state.legal_actions()
        if low.isdigit():
            if 1 <= int(low) <= len(legal):
                return legal[int(low) - 1]
            raise NotationError(
                text, gettext("choose a number from 1 to %(last)d") % {"last": len(legal)}
            )
        words = low.split()
        if len(words) >= 2 and words[0] == "suspect":
            target = " ".join(words[1:])
            for s, name in enumerate(self.names):
                if name.lower() == target:
                    return SUSPECT + s
            number = target.removeprefix("seat ").strip()
            if number.isdigit():
                if 1 <= int(number) <= len(self.names):
                    return SUSPECT + int(number) - 1
                raise NotationError(
                    text,
                    gettext("there is no player %(number)s (the players are 1 to %(last)d)")
                    % {"number": number, "last": len(self.names)},
                )
        return state.parse_action(text)

    def illegal_reason(self, state: State, exc: Any) -> str:
        """The engine's reason (``CardsState``: "seat 0 holds no red card") in the person's
        words: "you" for the player whose turn it is, the others by name, translated."""
        reason = str(exc.reason)
        for pattern, words in _ILLEGAL_WORDS:
            found = re.fullmatch(pattern, reason)
            if found is None:
                continue
            values = found.groupdict()
            if "colour" in values:
                values["colour"] = gettext(values["colour"])
            if "seat" in values:
                values["player"] = self.names[int(values.pop("seat"))]
            return gettext(words) % values
        return reason

    def menu(self, state: State, seat: int) -> RenderableType:
        legal = state.legal_actions()
        listing = "  ".join(f"{k + 1}) {self.action_text(state, a)}" for k, a in enumerate(legal))
        return Text(listing, style="cyan")

    def moves_text(self, state: State) -> str:
        legal = state.legal_actions()
        return "  ".join(f"{k + 1}) {self.action_text(state, a)}" for k, a in enumerate(legal))

    def command(self, console: Console, state: State, seat: int, word: str) -> bool:
        if word != "pile":
            return False
        if self.show_pile:
            pile = state.observation(seat)["pile"]
            console.print(
                ", ".join(f"{self.names[s]}: {gettext(c)}" for s, c in pile) or gettext("(empty)"),
                highlight=False,
            )
        else:
            console.print(
                gettext("The pile may not be looked through (start with --show-pile to allow it).")
            )
        return True

    def _you(self) -> int | None:
        """The seat of the person at the screen ("You"), told in the second person."""
        return next((s for s, name in enumerate(self.names) if is_you(name)), None)

    def _told(self, before: State, action: Any, viewer: int | None) -> list[Event]:
        """The events of ``action`` played from ``before`` that ``viewer`` may see (the
        session has applied it already: it is played again on a copy)."""
        replica = before.clone()
        return visible(replica.apply_with_events(_as_action(action)), viewer)

    def opening(self, state: State) -> list[Line]:
        assert isinstance(state, CardsState)
        return [Line(text) for text in tell(opening(state), None, self.names, self._you())]

    def decision_line(
        self, before: State, action: Any, seat: int, viewer: int | None, text: str
    ) -> RenderableType:
        own = [e for e in self._told(before, action, viewer) if isinstance(e, DECISION_EVENTS)]
        return in_turn(tell(own, viewer, self.names, self._you()))

    def narrate(
        self, before: State, action: Any, after: State, seat: int, viewer: int | None
    ) -> list[Line]:
        rest = [e for e in self._told(before, action, viewer) if not isinstance(e, DECISION_EVENTS)]
        lines = []
        for event in rest:
            text = sentence(event, self.names, self._you())
            if text is None:
                continue
            key = isinstance(event, (RoundScored, LimitCardTaken, LimitCardReturned))
            lines.append(Line(Text(text, style="bold") if key else text, key=key))
        return lines

    def end_lines(self, state: State, viewer: int | None, last: Transition | None) -> list[Line]:
        outcome = state.outcome()
        assert outcome is not None
        told = outcome_sentence(outcome, self.names, self._you())
        lines = [
            Line(rounds_table(outcome.details.get("rounds", []), self.names), True),
            Line(scores_table(state, self.names), True),
            Line(Text(told, style="bold green"), True),
        ]
        if viewer is not None and not is_you(self.names[viewer]):
            result = state.returns()[viewer]
            words = (
                gettext("%(player)s, you won.")
                if result > 0
                else gettext("%(player)s, you shared the win.")
                if result == 0
                else gettext("%(player)s, you lost.")
            )
            lines.append(Line(words % {"player": self.names[viewer]}, key=True))
        return lines

    def undo_refusal(self, before: State, now: State, person: int) -> str | None:
        """Refused once the person saw a card they had not seen: a card they drew, a card
        another player took from their hand, the hidden cards of a finished round (or
        learnt that a player could do nothing). Hiding shows nothing."""
        replica = before.clone()
        assert isinstance(replica, CardsState)
        for action in now.history()[len(before.history()) :]:
            seat = replica.current_player()
            kind = action_kind(_as_action(action))
            rounds = len(replica.rounds)
            replica.apply(action)
            name = self.names[seat]
            if seat == person and kind in ("play", "exchange"):
                return gettext(
                    "you have seen the card you drew, which taking it back would let you use"
                )
            if seat != person and kind in ("play", "exchange"):
                return gettext(
                    "%(player)s has since shown a card from their hand, which you could not know "
                    "before"
                ) % {"player": name}
            if seat != person and kind == "pass":
                return gettext(
                    "%(player)s has since passed, which tells what their hand can do"
                ) % {"player": name}
            if len(replica.rounds) > rounds:
                return gettext("the round has ended and its hidden cards were shown")
        return None


def rounds_table(rounds: Sequence[dict[str, Any]], names: Sequence[str]) -> Table:
    """The end screen's rounds: each round's limit card, who suspected whom, whether the
    colour went over the limit, who took the limit card and who scored the point
    (``rules/cards.md``, "A round" 4)."""
    table = Table(title=gettext("Rounds"), title_justify="left", box=None, pad_edge=False)
    for column in (
        gettext("round"),
        gettext("limit card"),
        gettext("suspicion"),
        gettext("over the limit"),
        gettext("limit card to"),
        gettext("point to"),
    ):
        table.add_column(column)
    for summary in rounds:
        check = summary.get("suspicion")
        card = cards_view.limit_card_compact(str(summary.get("limit_card")))
        if not isinstance(check, dict):
            table.add_row(str(int(summary["round"]) + 1), card, gettext("nobody could act"))
            continue
        table.add_row(
            str(int(summary["round"]) + 1),
            card,
            gettext("%(player)s suspects %(suspect)s")
            % {"player": names[int(check["by"])], "suspect": names[int(check["suspect"])]},
            gettext("yes") if check["exceeded"] else gettext("no"),
            names[int(check["taker"])],
            names[int(check["scorer"])],
        )
    return table


def scores_table(state: State, names: Sequence[str]) -> Table:
    """The end screen's scores: each player's points, limit cards taken and final score
    (``rules/cards.md``, "End of the game")."""
    obs = state.observation(None)
    table = Table(title=gettext("Scores"), title_justify="left", box=None, pad_edge=False)
    for column in (gettext("player"), gettext("points"), gettext("limit cards"), gettext("score")):
        table.add_column(column)
    for s in range(obs["players"]):
        table.add_row(
            names[s],
            str(obs["points"][s]),
            str(len(obs["limit_cards_taken"][s])),
            str(obs["scores"][s]),
        )
    return table


def make_seats(specs: list[str], players: int, seed: int, fill: str = "random") -> list[Seat]:
    """The seats from ``--seat`` options, padded with ``fill`` (an agent spec or a level).

    A level (easy...expert) becomes its agent spec; people are named by
    ``human:NAME``, or "You" when alone, and computers get the rulebook's names.

    Raises:
        ValueError: for more seats than players.
        AgentSpecError: for an unknown agent or a bad option.
    """
    if is_level(fill):
        fill = level_spec("cards", fill)
    seats = parse_seats(specs, players, default=fill, seed=seed, game_id="cards")
    name_seats(seats, list(cards_view.RULEBOOK_NAMES[:players]), computer_names=True)
    return seats


PLAY_HELP = N_(
    "Play Rosenberg's Limits in the terminal.\n\n"
    "Without --seat you play the first seat against computers that play at random; give "
    "--seat for every seat you want to choose (no person: the computers play alone and the "
    "game is narrated). The limit cards are a reconstructed set (see docs/cards.md).\n\n"
    "Examples: limit play cards -n 3 -s human:Ann --opponent medium; "
    "limit play cards -s random -s random -q"
)
"""The help of ``limit play cards`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@variant_options("cards", exclude=("returns",))
def play_cards(
    seat: SeatOption = None,
    opponent: OpponentOption = None,
    seed: SeedOption = None,
    record: RecordOption = None,
    no_record: NoRecordOption = False,
    position: PositionOption = None,
    quiet: QuietOption = False,
    analysis: AnalysisOption = False,
    pause: Annotated[
        float | None,
        typer.Option(
            "--pause",
            min=0.0,
            metavar="SECONDS",
            help=N_(
                "Wait this long after each computer action, to follow the game (default: 0.8 "
                "with a person at the table, 0 without). Example: --pause 0"
            ),
        ),
    ] = None,
    show_pile: Annotated[
        bool,
        typer.Option(
            "--show-pile",
            metavar="",
            help=N_("Let everybody look through the whole pile (the printed game forbids it)."),
        ),
    ] = False,
    language: LanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit play cards``: play Rosenberg's Limits in the terminal (what ``--help`` says is
    :data:`PLAY_HELP`). ``variant``: the variant parameters given (``--players 3``,
    ``--limit-cards FILE``, ``-v returns=score``)."""

    choose_language(language)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run

    def new_state(game_seed: int) -> State:
        return CARDS.new_initial_state(seed=game_seed, **(variant or {}))

    try:
        setup = resolve_play("cards", new_state, seat, opponent, seed, record, no_record, position)
    except (LimitGamesError, ValueError) as exc:
        raise fail(str(exc), soft_wrap=True) from None
    state = setup.state
    terminal = CardsTerminal(show_pile)
    name_seats(setup.seats, terminal.table_names(state), computer_names=True)
    heading = gettext("Limits (Uwe Rosenberg), %(players)d players.") % {
        "players": state.num_players
    }
    console.print(heading + " " + seats_line(setup.seats), highlight=False)
    console.print(seed_heading(setup.seed), highlight=False, soft_wrap=True)
    people = any(s.is_human for s in setup.seats)
    if people:
        console.print(gettext("Type help for the commands; a number chooses from the list."))
    session = TerminalSession(
        console,
        state,
        setup.seats,
        record_path=setup.record_path,
        seed=setup.seed,
        pause=pause if pause is not None else (COMPUTER_PACE if people else 0.0),
        terminal=terminal,
        quiet=quiet,
        analysis=analysis,
    )
    session.run()
    if session.interrupted:
        raise typer.Exit(130)


def measure_random_games(players: int, seconds: float, seed: int) -> dict[str, float]:
    """Play uniformly random games of ``players`` seats for about ``seconds``.

    Returns ``games``, ``seconds``, ``games_per_second``, ``decisions_per_second``
    and ``decisions_per_game``. Each game is a fresh deal (setup included)
    played out with the engine's ``playout``.
    """
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        state = CARDS.new_initial_state(seed=rng.getrandbits(62), players=players)
        state.playout(rng)
        games += 1
        decisions += len(state.history())
        elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "decisions_per_second": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }


BENCH_HELP = N_(
    "Measure random Limits games per second on one process (setup and playout).\n\n"
    "Example: limit bench cards -n 6 --seconds 2"
)
"""The help of ``limit bench cards`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@variant_options("cards", exclude=("limit_cards", "returns"))
def bench_cards(
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help=N_("How long to measure."))
    ] = 5.0,
    seed: Annotated[int, typer.Option("--seed", help=N_("Seed of the random games."))] = 0,
    language: CommandLanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit bench cards`` (what ``--help`` says is :data:`BENCH_HELP`): one line in the
    session's language, the figures as in English. ``variant``: the players given (``-n``)."""
    choose_language(language)
    players = CARDS.info.resolve_variant(variant)["players"]
    result = measure_random_games(players, seconds, seed)
    Console().print(
        gettext(
            "cards, %(players)d players: %(games)d random games in %(seconds)s s = "
            "%(per_second)s games/s, %(decisions)s decisions/s (%(per_game)s decisions per game)"
        )
        % {
            "players": players,
            "games": result["games"],
            "seconds": f"{result['seconds']:.2f}",
            "per_second": f"{result['games_per_second']:.0f}",
            "decisions": f"{result['decisions_per_second']:.0f}",
            "per_game": f"{result['decisions_per_game']:.1f}",
        },
        highlight=False,
    )
