"""``limit play hex`` (on the shared terminal session) and ``limit bench hex``."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

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
from limitgames.cli.seats import name_seats, seats_line
from limitgames.cli.session import GameTerminal, Line, TerminalSession, Transition
from limitgames.cli.variant_options import variant_options
from limitgames.core import IllegalActionError, LimitGamesError, State, get_game
from limitgames.translation import N_, gettext

if TYPE_CHECKING:  # the engine (compiled code) loads only when a hex command runs
    from limitgames.hex.notation import Frame
    from limitgames.hex.state import HexState

console = Console()


COLOUR_WORDS = (N_("red"), N_("blue"), N_("yellow"), N_("white"), N_("red"), N_("black"))
"""The seats' colours of ``limit bench hex``: nestorgames (the first three), 2008 (the last
three); translated where shown."""


def as_hex(state: State) -> HexState:
    """``state`` as a :class:`HexState` (imported here, so ``limit`` starts without the engine)."""
    from limitgames.hex.state import HexState

    assert isinstance(state, HexState)
    return state


class HexTerminal(GameTerminal):
    """Browne's Limit at the terminal: cells named from the top-left of the surface in both
    editions, removable tiles and 2008 tile sites marked, every capture, cut-off tile,
    elimination and skipped step told in words, and the end with its reason."""

    help_text = N_(
        "Type a move as c4-e5 (your pawn on c4 to the empty tile e5), a removal as x d4, and in\n"
        "the 2008 placement a tile as +d4 (on a + cell) and a ball as @d4. Commands:\n"
        "  moves   list the legal actions\n"
        "  board   draw the table again\n"
        "  undo    take back your last decision (against the computer)\n"
        "  quit    stop and save the record"
    )

    def __init__(self) -> None:
        super().__init__()
        self._placement_frame: Frame | None = None

    def table_names(self, state: State) -> list[str]:
        """The seats' colours, in the session's language."""
        return [gettext(name) for name in state.seat_names()]

    def frame(self, state: HexState) -> Frame:
        """The frame naming ``state``'s cells for people (see :func:`hex_view.display_frame`);
        during the 2008 placement it only moves when the surface outgrows it."""
        from limitgames.cli.hex_view import display_frame

        frame = display_frame(state, self._placement_frame)
        if state.placement is not None:
            self._placement_frame = frame
        return frame

    def render(self, console: Console, state: State, seat: int | None) -> None:
        from limitgames.cli.hex_view import render

        state = as_hex(state)
        highlight: list[str] = []
        if not state.is_terminal() and state.step in ("remove", "ball", "ball-any"):
            highlight = [self.action_text(state, a).lstrip("x@ ") for a in state.legal_actions()]
        render(console, state, seat, highlight, self.names, self.frame(state))

    def action_text(self, state: State, action: Any) -> str:
        from limitgames.cli.hex_view import rename_cells

        state = as_hex(state)
        return rename_cells(state.action_to_string(action), state.frame, self.frame(state))

    def parse(self, state: State, text: str) -> Any:
        from limitgames.cli.hex_view import rename_cells

        state = as_hex(state)
        return state.parse_action(rename_cells(text.lower(), self.frame(state), state.frame))

    def illegal_reason(self, state: State, exc: IllegalActionError) -> str:
        from limitgames.cli.hex_view import rename_cells

        state = as_hex(state)
        return rename_cells(exc.reason, state.frame, self.frame(state))

    def decision_line(
        self, before: State, action: Any, seat: int, viewer: int | None, text: str
    ) -> RenderableType:
        from limitgames.cli.hex_view import decision_words

        before = as_hex(before)
        return decision_words(before, action, self.names, self.frame(before))

    def narrate(
        self, before: State, action: Any, after: State, seat: int, viewer: int | None
    ) -> list[Line]:
        from limitgames.cli.hex_view import what_happened

        before, after = as_hex(before), as_hex(after)
        frame = self.frame(after)
        return [Line(text, key=True) for text in what_happened(before, action, self.names, frame)]

    def end_lines(self, state: State, viewer: int | None, last: Transition | None) -> list[Line]:
        from limitgames.cli.hex_view import end_reason, result_for

        state = as_hex(state)
        reason = end_reason(state, self.names)
        return [
            Line(
                Text(gettext("Game over: %(reason)s") % {"reason": reason}, style="bold"), key=True
            ),
            Line(Text(result_for(state, viewer, self.names), style="bold green"), key=True),
        ]


PLAY_HELP = N_(
    "Play Browne's Limit in the terminal. With no person at the table the computer plays a "
    "whole game.\n\n"
    "Examples: limit play hex --opponent hard --size 6; "
    "limit play hex --edition 2008 -n 3 -s human -s random -s hexmcts:seconds=1"
)
"""The help of ``limit play hex`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@variant_options("hex")
def play_hex(
    seat: SeatOption = None,
    opponent: OpponentOption = None,
    seed: SeedOption = None,
    record: RecordOption = None,
    no_record: NoRecordOption = False,
    position: PositionOption = None,
    quiet: QuietOption = False,
    analysis: AnalysisOption = False,
    pause: PauseOption = 0.0,
    language: LanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit play hex``: play Browne's Limit in the terminal (what ``--help`` says is
    :data:`PLAY_HELP`). ``variant``: the variant parameters given (``--size 6``, ``-v
    layout=uniform``; :func:`~limitgames.cli.variant_options.variant_options`)."""
    choose_language(language)
    game = get_game("hex")
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run

    def new_state(game_seed: int) -> State:
        return game.new_initial_state(seed=game_seed, **(variant or {}))

    try:
        setup = resolve_play(
            "hex", new_state, seat, opponent, seed, record, no_record, position, fill="medium"
        )
    except (LimitGamesError, ValueError) as exc:
        raise fail(str(exc)) from None
    state = setup.state
    state = as_hex(state)
    terminal = HexTerminal()
    table = terminal.table_names(state)
    name_seats(setup.seats, table, computer_names=False)
    heading = gettext(
        "[bold]Limit[/] (Cameron Browne), %(edition)s edition, %(players)d players, size "
        "%(size)s, seed %(seed)s."
    ) % {
        "edition": state.variant["edition"],
        "players": state.num_players,
        "size": state.variant["size"],
        "seed": setup.seed,
    }
    console.print(heading + " " + seats_line(setup.seats, table), highlight=False)
    if any(s.is_human for s in setup.seats):
        console.print(
            gettext("Type help for the commands. Moves: c4-e5, removals: x d4."), highlight=False
        )
    session = TerminalSession(
        console,
        state,
        setup.seats,
        record_path=setup.record_path,
        seed=setup.seed,
        pause=pause,
        terminal=terminal,
        quiet=quiet,
        analysis=analysis,
    )
    session.run()
    if session.interrupted:
        raise typer.Exit(130)


def bench_layouts(
    n: int, players: int, seconds: float, rng: random.Random, law: str = "grown"
) -> tuple[int, float]:
    """Layouts of ``law`` generated in about ``seconds``: ``(count, elapsed seconds)``."""
    from limitgames.hex.layout import draw_layout

    count = 0
    start = time.perf_counter()
    while True:
        draw_layout(law, n, players, rng)
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count, elapsed


def layout_starts(
    law: str, size: int, players: int, count: int, rng: random.Random
) -> list[HexState]:
    """``count`` nestorgames starts on layouts of ``law`` (fixed colours: red is seat 0)."""
    from limitgames.hex.game import HexGame
    from limitgames.hex.layout import draw_layout

    game = get_game("hex")
    assert isinstance(game, HexGame)
    return [
        game.state_from_layout(
            draw_layout(law, size, players, rng), {"players": players, "size": size}
        )
        for _ in range(count)
    ]


def bench_playouts(
    edition: str,
    players: int,
    size: int,
    seconds: float,
    rng: random.Random,
    pool: int = 200,
    law: str = "grown",
) -> dict[str, Any]:
    """Uniformly random playouts from pre-generated starts for about ``seconds``.

    Returns ``{"games", "decisions", "elapsed", "wins": [per seat], "draws"}``.
    """
    from limitgames.hex.game import HexGame

    if edition == "nestorgames":
        starts = layout_starts(law, size, players, pool, rng)
    else:
        starts = [
            HexGame().new_initial_state(
                seed=rng.randrange(1 << 30), edition=edition, players=players, size=size
            )
        ]
    wins = [0] * players
    draws = 0
    games = decisions = 0
    start = time.perf_counter()
    while True:
        state = starts[games % len(starts)].clone()
        returns = state.playout(rng)
        decisions += len(state._hist)
        games += 1
        best = max(returns)
        if best > 0:
            wins[returns.index(best)] += 1
        else:
            draws += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "games": games,
        "decisions": decisions,
        "elapsed": elapsed,
        "wins": wins,
        "draws": draws,
    }


BENCH_HELP = N_(
    "Random playouts per second, decisions per second, results, and layouts per second.\n\n"
    "The first figures come from single games played one after another on one core (what a "
    "search does); with --threads N the batch kernel also plays 512 games at a time on N cores."
    "\n\nExample: limit bench hex --size 6 --threads 2"
)
"""The help of ``limit bench hex`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@variant_options("hex", exclude=("colours",))
def bench_hex(
    seconds: Annotated[float, typer.Option(help=N_("Seconds of playouts to time."))] = 10.0,
    seed: Annotated[int, typer.Option(help=N_("Seed of the layouts and playouts."))] = 1,
    threads: Annotated[
        int,
        typer.Option(
            help=N_("Also time the batch kernel (many games at once) on this many cores; 0: skip."),
            min=0,
        ),
    ] = 0,
    language: CommandLanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit bench hex`` (what ``--help`` says is :data:`BENCH_HELP`): the measures' names
    in the session's language, the figures as in English. ``variant``: the edition, players,
    size and layout given (the others are the game's defaults)."""
    choose_language(language)
    chosen = get_game("hex").info.resolve_variant(variant)
    edition, players, size, layout = (
        chosen["edition"],
        chosen["players"],
        chosen["size"],
        chosen["layout"],
    )
    rng = random.Random(seed)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    console.print(
        gettext(
            "hex %(edition)s, %(players)d players, size %(size)d: timing %(seconds)s s of "
            "random playouts..."
        )
        % {"edition": edition, "players": players, "size": size, "seconds": f"{seconds:g}"}
    )
    result = bench_playouts(edition, players, size, seconds, rng, law=layout)
    table = Table(title="limit bench hex", title_justify="left")
    table.add_column(gettext("measure"))
    table.add_column(gettext("value"), justify="right")
    el = result["elapsed"]
    table.add_row(gettext("playouts per second"), f"{result['games'] / el:,.0f}")
    table.add_row(gettext("decisions per second"), f"{result['decisions'] / el:,.0f}")
    table.add_row(gettext("decisions per game"), f"{result['decisions'] / result['games']:.1f}")
    table.add_row(gettext("games played"), f"{result['games']:,}")
    names = COLOUR_WORDS[:3] if edition == "nestorgames" else COLOUR_WORDS[3:]
    for s in range(players):
        table.add_row(
            gettext("%(colour)s wins") % {"colour": gettext(names[s])},
            f"{100 * result['wins'][s] / result['games']:.1f}%",
        )
    table.add_row(gettext("draws (no winner)"), f"{100 * result['draws'] / result['games']:.1f}%")
    if threads and edition == "nestorgames":
        try:
            batch = bench_batch(players, size, seconds, threads, rng, law=layout)
        except ValueError as exc:
            raise fail(str(exc)) from None
        table.add_row(
            gettext("batch playouts per second, %(threads)d thread(s)") % {"threads": threads},
            f"{batch['games'] / batch['elapsed']:,.0f}",
        )
        table.add_row(
            gettext("batch decisions per second, %(threads)d thread(s)") % {"threads": threads},
            f"{batch['decisions'] / batch['elapsed']:,.0f}",
        )
    if edition == "nestorgames":
        count, lel = bench_layouts(size, players, max(1.0, seconds / 4), rng, law=layout)
        table.add_row(gettext("layouts per second"), f"{count / lel:,.0f}")
    console.print(table)


def bench_batch(
    players: int,
    size: int,
    seconds: float,
    threads: int,
    rng: random.Random,
    games: int = 512,
    law: str = "grown",
) -> dict[str, Any]:
    """Random playouts of ``games`` games at a time with the batch kernel on ``threads`` cores.

    Returns ``{"games", "decisions", "elapsed"}``. Raises ValueError for a bad thread count.
    """
    from limitgames.hex.batch import HexBatch, set_threads

    starts = layout_starts(law, size, players, 64, rng)
    batch = HexBatch([starts[i % len(starts)] for i in range(games)], seed=rng.randrange(1 << 30))
    set_threads(threads)
    batch.playout()  # load the compiled code before timing
    played = decisions = 0
    start = time.perf_counter()
    while True:
        batch.reset()
        _, lengths = batch.playout()
        played += len(batch)
        decisions += int(lengths.sum())
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"games": played, "decisions": decisions, "elapsed": elapsed}
