"""``limit play world`` and ``limit bench world``.

At the terminal a person sees the world (marketplace, reserves, World Bank,
generation and crisis track), every nation board, their hand with each
card's cost and effect, the decision asked of them with its options, and the
log of what happened. Before a card is played its preview (what it would
change, what it asks next) is shown and must be confirmed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.table import Table

from limitgames.cli.options import (
    AnalysisOption,
    CommandLanguageOption,
    LanguageOption,
    NoRecordOption,
    OpponentOption,
    PauseOption,
    PositionOption,
    QuietOption,
    RecordOption,
    SeatOption,
    SeedOption,
    choose_language,
    fail,
)
from limitgames.cli.play_setup import resolve_play
from limitgames.cli.seats import is_you, name_seats, seats_line
from limitgames.cli.session import GameTerminal, Line, TerminalSession, seed_heading
from limitgames.cli.variant_options import variant_options
from limitgames.cli.world_view import _log, card_effect
from limitgames.core import LimitGamesError, NotationError, State, get_game
from limitgames.core.events import Event
from limitgames.translation import N_, ngettext
from limitgames.translation import gettext as _

console = Console()


class WorldInput:
    """Reads a person's line, answering the world-only commands itself.

    ``preview ACTION`` shows what an action would do; ``card CARD`` shows a card;
    ``log`` shows the whole log; ``play CARD`` is previewed and must be confirmed
    (unless ``confirm`` is off); ``position FILE`` saves the table (every hand and deck), so
    only when every seat is a person (``referee``). Everything else goes to the session.
    """

    def __init__(
        self,
        console: Console,
        state: Callable[[], State],
        read: Callable[[str], str],
        confirm: bool = True,
        referee: bool = False,
    ) -> None:
        self.console = console
        self.state = state
        self.read = read
        self.confirm = confirm
        self.referee = referee

    def __call__(self, prompt: str) -> str:
        while True:
            line = self.read(prompt)
            words = line.strip().split()
            if not words:
                return line
            verb = words[0].lower()
            if verb == "help":
                self.console.print(
                    _(
                        "World commands: world (the marketplace, reserves and crisis track in "
                        "full), nations (every field of every nation board), hand (your cards "
                        "with cost, effect and what each would do now), log (everything that "
                        "happened), preview ACTION (what it would do), card CARD (a card's "
                        "text), position FILE (when every seat is a person: save the table at "
                        "the start of this generation, to play on later with --position FILE)."
                    ),
                    highlight=False,
                )
                return line
            if verb == "position" and len(words) == 2:
                if not self.referee:
                    self.console.print(
                        "[yellow]"
                        + _("position is for a table of people only:")
                        + "[/] "
                        + _("the file holds every hand and the order of every deck."),
                        highlight=False,
                    )
                    continue
                self.save_position(Path(words[1]))
                continue
            if verb in ("world", "nations", "hand") and len(words) == 1:
                self.show_tables(verb)
                continue
            if verb == "log":
                seat = self.state().current_player()
                for text in _log(self.state(), seat):
                    self.console.print(text, highlight=False)
                continue
            if verb == "card" and len(words) == 2:
                self.show_card(words[1].lower())
                continue
            if verb == "preview" and len(words) > 1:
                self.preview(" ".join(words[1:]))
                continue
            if verb == "play" and self.confirm:
                if not self.preview(line):
                    continue
                answer = self.read(_("Play it? [Y/n] ")).strip().lower()
                if answer in ("", "y", "yes", _("y"), _("yes")):
                    return line
                continue
            return line

    def show_tables(self, verb: str) -> None:
        """``world``, ``nations`` or ``hand``: the full table the redraw leaves out, as the seat
        to move sees it."""
        from limitgames.cli.world_view import hand_table, nations_table, world_table

        state = self.state()
        seat = None if state.is_terminal() else state.current_player()
        obs = state.observation(seat)
        if verb == "world":
            self.console.print(world_table(obs))
        elif verb == "nations":
            self.console.print(nations_table(obs, seat))
        elif seat is not None:
            self.console.print(hand_table(state, obs, seat))

    def save_position(self, path: Path) -> None:
        """Write the position at the start of the current generation to ``path``."""
        import json

        from limitgames.world.position import position_json

        try:
            position = position_json(self.state())  # type: ignore[arg-type]
            path.write_text(json.dumps(position, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            self.console.print(
                "[red]" + _("Cannot write %(path)s:") % {"path": path} + f"[/] {exc.strerror}",
                highlight=False,
            )
            return
        self.console.print(
            _("Position at the start of this generation saved to %(path)s") % {"path": path},
            highlight=False,
        )

    def show_card(self, cid: str) -> None:
        cards = self.state().data.cards  # type: ignore[attr-defined]
        if cid not in cards:
            self.console.print(
                "[red]"
                + _("No card %(card)r.") % {"card": cid}
                + "[/] "
                + _("Card ids look like public-expenditure."),
                highlight=False,
            )
            return
        card = cards[cid]
        self.console.print(
            f"[bold]{_(card.name)}[/] "
            f"({_(card.deck)}, {card_effect(card.permanent)}, {_(card.kind)})",
            highlight=False,
        )
        self.console.print("  " + _("cost: %(cost)s") % {"cost": _(card.cost)}, highlight=False)
        self.console.print("  " + _("effect: %(text)s") % {"text": _(card.text)}, highlight=False)
        if card.quote:
            self.console.print(f"  [italic]{_(card.quote)}[/]", highlight=False)

    def preview(self, text: str) -> bool:
        """Show what ``text`` would do; ``False`` if it is not a legal action now."""
        from limitgames.cli.world_view import preview_lines

        state = self.state()
        try:
            action = state.parse_action(text)
            lines = preview_lines(state, action)
        except NotationError as exc:
            self.console.print(
                "[red]" + _("Not understood:") + f"[/] {exc.reason}.", highlight=False
            )
            return False
        except LimitGamesError as exc:
            self.console.print(
                "[red]" + _("Illegal:") + f"[/] {getattr(exc, 'reason', exc)}.", highlight=False
            )
            return False
        self.console.print(
            "[bold]" + _("Preview of %(action)s:") % {"action": text.strip()} + "[/]",
            highlight=False,
        )
        for line in lines or [_("(nothing visible changes)")]:
            self.console.print(f"  {line}", highlight=False)
        return True


def make_session(
    console: Console,
    state: State,
    seats: list[Any],
    render: Any,
    record_path: Path | None,
    **options: Any,
) -> TerminalSession:
    """The terminal session ``limit play world`` runs: the shared session with the
    :class:`WorldTerminal` (``options`` as :class:`~limitgames.cli.session.TerminalSession`)."""
    return TerminalSession(
        console, state, seats, render, record_path, terminal=WorldTerminal(render), **options
    )


class WorldTerminal(GameTerminal):
    """LIMIT at the terminal: the generic narration, secret choices announced without their
    content, and ``undo`` only while nothing hidden was shown since (no other nation decided,
    no card drawn). Hands are hidden, so people sharing the screen hand it over between
    nations (:meth:`~limitgames.cli.session.TerminalSession.hand_over`)."""

    private = True

    def __init__(self, render: Any = None) -> None:
        super().__init__(render)
        self.events: list[Event] = []
        """Every event since the game started here (each with its audience)."""
        self.seen: dict[int, int] = {}
        """For each seat drawn for, how many of :attr:`events` it had when last drawn."""

    def narrate(
        self, before: State, action: Any, after: State, seat: int, viewer: int | None
    ) -> list[Line]:
        """Nothing more is said at once (the log says it); the decision's events are kept for
        the summary shown to a person at their next decision (:meth:`render`); only once a
        person was drawn for (a table of computers needs none)."""
        if self.seen:
            self.events += before.clone().apply_with_events(action)
        return []

    def render(self, console: Console, state: State, seat: int | None) -> None:
        """The one-screen redraw (:func:`limitgames.cli.world_screen.render`), after, when
        phases were resolved since ``seat`` last decided (the rest of a generation), a summary
        of them and of the other nations' public decisions
        (:func:`limitgames.cli.world_screen.summary_lines`)."""
        from limitgames.cli.world_screen import summary_lines, summary_panel

        if seat is not None:
            since = self.seen.get(seat)
            self.seen[seat] = len(self.events)
            if since is not None:
                lines = summary_lines(self.events[since:], seat)
                if lines:
                    console.print(summary_panel(lines))
        super().render(console, state, seat)

    def decision_line(
        self, before: State, action: Any, seat: int, viewer: int | None, text: str
    ) -> RenderableType:
        """Which choices are secret is the engine's answer (``WorldState.announcement``): a
        computer seat's choice in a simultaneous step, and any card it keeps or discards, is
        announced without its content (the log tells the rest when the step closes)."""
        from limitgames.cli.world_view import CHOICE_WORDS

        said = before.announcement(action, viewer)
        if said is None:
            pending = getattr(before, "pending", None)
            kind = pending[-1].kind if pending else ""
            words = _(CHOICE_WORDS.get(kind, kind)).split(" (")[0]
            said = _("a hidden choice (%(words)s)") % {"words": words}
        # the notation starts with its own verb ("play education", "deck society")
        who = self.names[seat]
        if is_you(who):
            return _("You: %(action)s") % {"action": said}
        return _("%(player)s: %(action)s") % {"player": who, "action": said}

    def after_record(self, path: Path) -> list[Line]:
        """The command that sets this game beside World3 (``limit debrief``)."""
        return [
            Line(
                _("Compare this game with World3: limit debrief %(path)s") % {"path": path},
                key=True,
            )
        ]

    def undo_refusal(self, before: State, now: State, person: int) -> str | None:
        replica = before.clone()
        for action in now.history()[len(before.history()) :]:
            seat = replica.current_player()
            replica.apply(action)
            verb = action[0] if isinstance(action, tuple) and action else ""
            if seat != person:
                return _("%(player)s has decided since, which you could not know before") % {
                    "player": self.names[seat]
                }
            if verb == "deck":
                return _("you have seen the cards you drew")
        return None


PLAY_HELP = N_(
    "Play Poyé's LIMIT in the terminal. With no person at the table the computer plays a "
    "whole game.\n\n"
    "Examples: limit play world -n 3 --opponent medium; limit play world --position FILE"
)
"""The help of ``limit play world`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@variant_options("world", exclude=("draws", "returns"))
def play_world(
    seat: SeatOption = None,
    opponent: OpponentOption = None,
    seed: SeedOption = None,
    record: RecordOption = None,
    no_record: NoRecordOption = False,
    position: PositionOption = None,
    quiet: QuietOption = False,
    analysis: AnalysisOption = False,
    pause: PauseOption = 0.0,
    confirm: Annotated[
        bool,
        typer.Option(
            "--confirm/--no-confirm",
            metavar="",
            help=N_("Preview each card and ask before playing it."),
        ),
    ] = True,
    language: LanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit play world``: play Poyé's LIMIT in the terminal (what ``--help`` says is
    :data:`PLAY_HELP`). ``variant``: the variant parameters given (``-n 3``, ``--solo``,
    ``--data FILE``, ``-v alliances=off``)."""
    choose_language(language)
    from limitgames.cli.world_view import render

    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run

    def new_state(game_seed: int) -> State:
        return get_game("world").new_initial_state(seed=game_seed, **(variant or {}))

    try:
        setup = resolve_play("world", new_state, seat, opponent, seed, record, no_record, position)
    except (LimitGamesError, ValueError) as exc:
        raise fail(str(exc)) from None
    state, seats = setup.state, setup.seats
    names = state.seat_names()
    name_seats(seats, names, computer_names=False)
    console.print(
        "[bold]LIMIT[/] "
        + ngettext(
            "(Alexandre Poyé), %(count)d nation.",
            "(Alexandre Poyé), %(count)d nations.",
            state.num_players,
        )
        % {"count": state.num_players}
        + " "
        + seats_line(seats, names),
        highlight=False,
    )
    console.print(seed_heading(setup.seed), highlight=False, soft_wrap=True)
    if any(s.is_human for s in seats):
        console.print(
            _(
                "Type help for the commands; moves lists your options; preview ACTION shows what "
                "it would do."
            ),
            highlight=False,
        )
    session = make_session(
        console,
        state,
        seats,
        render,
        setup.record_path,
        seed=setup.seed,
        pause=pause,
        quiet=quiet,
        analysis=analysis,
    )
    session.input = WorldInput(
        console,
        lambda: session.state,
        session.input,
        confirm=confirm,
        referee=all(s.is_human for s in seats),
    )
    session.run()
    if session.interrupted:
        raise typer.Exit(130)


def measure_random_games(players: int, seconds: float, seed: int = 1) -> dict[str, float]:
    """Uniformly random games for about ``seconds`` (at least one game).

    Returns ``{"games", "elapsed", "games_per_second", "decisions_per_second", "decisions_per_game"}``.
    """
    game = get_game("world")
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state(seed=rng.randrange(1 << 30), players=players)
        state.playout(rng)
        decisions += len(state.history())
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "games": games,
        "elapsed": elapsed,
        "games_per_second": games / elapsed,
        "decisions_per_second": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }


BENCH_HELP = N_(
    "Random games per second (uniformly random decisions), from setup to scoring.\n\n"
    "Example: limit bench world --players 3 --seconds 5"
)
"""The help of ``limit bench world`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@variant_options("world", only=("players",))
def bench_world(
    seconds: Annotated[float, typer.Option(help=N_("Seconds of random games to time."))] = 10.0,
    seed: Annotated[int, typer.Option(help=N_("Seed of the games."))] = 1,
    language: CommandLanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit bench world`` (what ``--help`` says is :data:`BENCH_HELP`): the measures' names
    in the session's language, the figures as in English. ``variant``: the nations given
    (``--players``, checked against the game's range)."""
    choose_language(language)
    players = get_game("world").info.resolve_variant(variant)["players"]
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    console.print(
        _("world, %(players)d nations: timing %(seconds)s s of random games...")
        % {"players": players, "seconds": f"{seconds:g}"}
    )
    r = measure_random_games(players, seconds, seed)
    table = Table(title="limit bench world", title_justify="left")
    table.add_column(_("measure"))
    table.add_column(_("value"), justify="right")
    table.add_row(_("random games per second"), f"{r['games_per_second']:,.1f}")
    table.add_row(_("decisions per second"), f"{r['decisions_per_second']:,.0f}")
    table.add_row(_("decisions per game"), f"{r['decisions_per_game']:.1f}")
    table.add_row(_("games played"), f"{r['games']:,}")
    console.print(table)
