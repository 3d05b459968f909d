"""The ``limit`` command: play, check and measure the three games.

Every game plugs its own ``play`` and ``bench`` subcommands into the sub-apps
below; the generic commands (``games``, ``replay``, ``perft``) go through the
game protocol only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, ClassVar

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperGroup

from limitgames.cli.options import (
    CommandLanguageOption,
    LanguageOption,
    TranslatedHelpCommand,
    choose_language,
    fail,
    help_language,
    help_translated,
)
from limitgames.core import (
    GameInfo,
    GameRecord,
    LimitGamesError,
    Parameter,
    PositionError,
    RecordError,
    available_games,
    get_game,
)
from limitgames.core.perft import divide, perft
from limitgames.translation import N_
from limitgames.translation import gettext as _


class PlainFlagsGroup(TyperGroup):
    """A command group whose help shows no value type after on/off flags.

    Typer labels every option with its type (``<int>``); a flag takes no
    value, so ``--quiet <bool>`` would mislead. This group clears the label of
    every flag (``--help`` included) of itself and of the commands it hands out.
    """

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            plain_flags(command, ctx)
        return command

    def get_params(self, ctx: Any) -> Any:
        plain_flags(self, ctx)
        return super().get_params(ctx)


class LimitGroup(PlainFlagsGroup):
    """The ``limit`` group. A command that takes a game's variant options (``referee``) is
    registered with a stand-in and built when it is asked for, so that drawing ``limit --help``
    (which lists it from the stand-in's help) loads no game."""

    deferred: ClassVar[dict[str, tuple[str, str, str]]] = {
        "referee": ("referee_cmd", "referee_command", "REFEREE_HELP"),
    }
    """Command name -> (module, function, help constant) in ``limitgames.cli``."""

    listing = False
    """``True`` while the group's own help is drawn (the stand-ins are listed as they are)."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = self.commands.get(cmd_name)
        if command is not None and getattr(command, "stand_in", False) and not self.listing:
            self.commands[cmd_name] = build_game_command(cmd_name, *self.deferred[cmd_name])
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


class TranslatedHelpGroup(PlainFlagsGroup):
    """A command group whose ``--help`` is in the player's language (the locale variables, as
    :func:`~limitgames.cli.options.help_language`): its own help and its commands' short helps
    are kept in English (marked ``N_``) and translated when drawn, as
    :class:`~limitgames.cli.options.TranslatedHelpCommand` does for a command."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Draw the help with the group's and its commands' texts translated."""
        import os

        with help_translated([self, *self.commands.values()], help_language([], os.environ)):
            super().format_help(ctx, formatter)


class GameCommandsGroup(TranslatedHelpGroup):
    """``limit play`` or ``limit bench``: one command per game, each built when first asked for.

    A game's command takes the game's variant parameters as options
    (:mod:`limitgames.cli.variant_options`), so building it loads the game's declaration (for
    hex, its compiled engine); building them on demand keeps ``limit --help`` and the other
    commands quick. Subclasses list their commands in :attr:`builders`.
    """

    builders: ClassVar[dict[str, tuple[str, str, str]]] = {}
    """Command name -> (module, function, help constant) in ``limitgames.cli``."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in self.builders if n not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in self.builders:
            self.commands[cmd_name] = build_game_command(cmd_name, *self.builders[cmd_name])
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Draw the help (every game's command built first, for its short help)."""
        for name in self.builders:
            self.get_command(ctx, name)
        super().format_help(ctx, formatter)


def build_game_command(name: str, module: str, function: str, help_name: str) -> Any:
    """The Click command ``name`` made by Typer from ``limitgames.cli.MODULE.FUNCTION``, its
    help ``MODULE.HELP_NAME`` translated when drawn."""
    import importlib

    source = importlib.import_module(f"limitgames.cli.{module}")
    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    single.command(name, cls=TranslatedHelpCommand, help=getattr(source, help_name))(
        getattr(source, function)
    )
    command = typer.main.get_command(single)
    command.name = name
    return command


class PlayGroup(GameCommandsGroup):
    """``limit play GAME``."""

    builders: ClassVar[dict[str, tuple[str, str, str]]] = {
        "hex": ("hex_play", "play_hex", "PLAY_HELP"),
        "cards": ("cards_play", "play_cards", "PLAY_HELP"),
        "world": ("world_play", "play_world", "PLAY_HELP"),
    }


class BenchGroup(GameCommandsGroup):
    """``limit bench GAME``."""

    builders: ClassVar[dict[str, tuple[str, str, str]]] = {
        "hex": ("hex_play", "bench_hex", "BENCH_HELP"),
        "cards": ("cards_play", "bench_cards", "BENCH_HELP"),
        "world": ("world_play", "bench_world", "BENCH_HELP"),
    }


def plain_flags(command: Any, ctx: Any) -> None:
    """Clear the value label of ``command``'s flags and of its help option."""
    params = list(command.params)
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        params.append(help_option)
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""


def version_callback(value: bool) -> None:
    """``limit --version``: print the version and stop."""
    if value:
        from limitgames import __version__

        console.print(f"limitgames {__version__}", highlight=False)
        raise typer.Exit()


app = typer.Typer(
    name="limit",
    cls=LimitGroup,
    help="Play and study the three games called Limit: hex (Browne), cards (Rosenberg), world "
    "(Poyé).\n\nExamples: limit play hex; limit play cards -n 3 --opponent medium; "
    "limit rules world",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(
    cls=PlayGroup,
    help=N_(
        "Play a game in the terminal: limit play hex|cards|world (the same options for "
        "the three; --help on each)."
    ),
    no_args_is_help=True,
)
bench_app = typer.Typer(
    cls=BenchGroup,
    help=N_("Measure an engine's speed (random playouts per second)."),
    no_args_is_help=True,
)
app.add_typer(play_app, name="play")
app.add_typer(bench_app, name="bench")

console = Console()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            metavar="",
            callback=version_callback,
            is_eager=True,
            help="Print the version and stop.",
        ),
    ] = False,
) -> None:
    """Play and study the three games called Limit: hex (Browne), cards (Rosenberg), world (Poyé)."""


GAMES_HELP = N_("List the games, their editions, player counts and variant parameters.")
"""The help of ``limit games`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def parameter_values(p: Parameter) -> str:
    """The values ``p`` takes, for people: its choices, its range (``2..16``) or ``any``."""
    if p.choices is not None:
        return ", ".join(str(c) for c in p.choices)
    if p.minimum is not None or p.maximum is not None:
        lo = "" if p.minimum is None else f"{p.minimum:g}"
        hi = "" if p.maximum is None else f"{p.maximum:g}"
        return f"{lo}..{hi}"
    return _("any")


def parameters_markdown(info: GameInfo) -> str:
    """A Markdown table of ``info``'s variant parameters in the session's language: the
    parameter (with its label where that differs), kind, default, values (each choice with
    its label) and meaning. The docs' tables are this text (``limit games --markdown``)."""
    lines = [
        f"### {info.id}: {info.title} ({info.designer}, {info.year})",
        "",
        "| "
        + " | ".join([_("parameter"), _("kind"), _("default"), _("values"), _("meaning")])
        + " |",
        "|---|---|---|---|---|",
    ]
    for p in info.parameters:
        values = parameter_values(p)
        if p.choices is not None and p.choice_labels:
            values = "; ".join(f"`{c}`: {_(p.choice_label(c))}" for c in p.choices)
        default = "" if p.default is None else f"`{p.default}`"
        name = f"`{p.name}`"
        if _(p.title) != p.name:
            name += f" ({_(p.title)})"
        cells = [name, p.kind, default, values, _(p.help)]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines.append("")
    lines.append(
        _("Players %(low)d-%(high)d; rules %(version)s; rules as played: %(document)s.")
        % {
            "low": info.min_players,
            "high": info.max_players,
            "version": info.rules_version,
            "document": info.rules_doc,
        }
    )
    return "\n".join(lines) + "\n"


@app.command("games", cls=TranslatedHelpCommand, help=GAMES_HELP)
def games_command(
    markdown: Annotated[
        bool,
        typer.Option(
            "--markdown",
            metavar="",
            help=N_("Print Markdown tables (as in docs/parameters.md) instead."),
        ),
    ] = False,
    language: CommandLanguageOption = None,
) -> None:
    """``limit games`` (what ``--help`` says is :data:`GAMES_HELP`).

    The headings, sentences, labels and the parameters' meanings are in the session's
    language; the game ids and the parameters' names, kinds and values stay as the games
    give them (they are what ``--variant`` takes). ``--markdown``: one Markdown table per game
    (:func:`parameters_markdown`), the games apart by a blank line.
    """
    choose_language(language)
    if markdown:
        tables = [parameters_markdown(get_game(g).info) for g in available_games()]
        typer.echo("\n".join(tables), nl=False)
        return
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    for game_id in available_games():
        info = get_game(game_id).info
        table = Table(
            title=f"{info.id}: {info.title} ({info.designer}, {info.year})", title_justify="left"
        )
        table.add_column(_("parameter"))
        table.add_column(_("kind"))
        table.add_column(_("default"))
        table.add_column(_("values"))
        table.add_column(_("meaning"))
        for p in info.parameters:
            table.add_row(p.name, p.kind, str(p.default), parameter_values(p), _(p.help))
        console.print(table)
        line = _("  players %(low)d-%(high)d; rules %(version)s; rules as played: %(document)s") % {
            "low": info.min_players,
            "high": info.max_players,
            "version": info.rules_version,
            "document": info.rules_doc,
        }
        console.print(line + "\n", highlight=False)


REPLAY_HELP = N_(
    "Replay a record, verify every action, print the final position and result.\n\n"
    "Example: limit replay records/hex-20260101-120000.json"
)
"""The help of ``limit replay`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@app.command("replay", cls=TranslatedHelpCommand, help=REPLAY_HELP)
def replay_command(
    record: Annotated[Path, typer.Argument(help=N_("A game record (JSON)."))],
    language: LanguageOption = None,
) -> None:
    """``limit replay RECORD`` (what ``--help`` says is :data:`REPLAY_HELP`)."""
    from limitgames.cli.render import render_final

    choose_language(language)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    try:
        rec = GameRecord.read(record)
        state = rec.replay()
    except LimitGamesError as exc:
        raise fail(f"{record}: {exc}") from None
    render_final(console, state, rec)
    if rec.rules_note():
        today = get_game(rec.game).info.rules_version
        console.print(
            _(
                "Note: this record was made under the rules %(then)s, not today's %(today)s; "
                "every action is legal under today's rules too."
            )
            % {"then": rec.rules_version, "today": today},
            highlight=False,
        )


def read_position(path: Path) -> Any:
    """The decoded JSON of a position file. Raises :class:`PositionError` with a one-line reason
    (in the session's language; the operating system's and the JSON parser's own words stay
    English)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PositionError(
            _("cannot read the file: %(reason)s") % {"reason": exc.strerror}
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PositionError(_("not JSON: %(reason)s") % {"reason": exc}) from None
    except RecursionError:  # Python's parser recurses once per level of nesting
        raise PositionError(_("not JSON: %(reason)s") % {"reason": "nested too deeply"}) from None


PERFT_HELP = N_(
    "Count the decision sequences of exactly DEPTH decisions from a position.\n\n"
    "Example: limit perft hex position.json 3 --divide"
)
"""The help of ``limit perft`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@app.command("perft", cls=TranslatedHelpCommand, help=PERFT_HELP)
def perft_command(
    game: Annotated[str, typer.Argument(help=N_("Game id (hex)."))],
    position: Annotated[
        Path, typer.Argument(help=N_("A position file (the game's position JSON)."))
    ],
    depth: Annotated[int, typer.Argument(help=N_("Number of decisions."), min=0)],
    divide_: Annotated[
        bool,
        typer.Option("--divide", metavar="", help=N_("Also print the count per first action.")),
    ] = False,
    language: CommandLanguageOption = None,
) -> None:
    """``limit perft GAME POSITION DEPTH`` (what ``--help`` says is :data:`PERFT_HELP`).

    The counts (``ACTION: COUNT``, ``perft(DEPTH) = COUNT``) are the same in every language,
    for scripts; only the errors are translated.
    """
    choose_language(language)
    try:
        state = get_game(game).state_from_position(read_position(position))
    except NotImplementedError as exc:
        raise fail(str(exc)) from None
    except LimitGamesError as exc:
        raise fail(f"{position}: {exc}") from None
    if divide_ and depth >= 1:
        total = 0
        for action, count in divide(state, depth):
            console.print(f"{state.action_to_string(action)}: {count}", highlight=False)
            total += count
        console.print(f"\nperft({depth}) = {total}", highlight=False)
    else:
        console.print(f"perft({depth}) = {perft(state, depth)}", highlight=False)


SOLVE_HELP = N_(
    "The exact value of a position for the seat to move, a best action, and the proof size.\n\n"
    "Two players: exact minimax (win, draw or loss). Three players: the outcome under max-n "
    "(each player picks what is best for itself; ties go to the first action in legal order).\n\n"
    "Example: limit solve hex puzzle.json --seconds 30"
)
"""The help of ``limit solve`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


@app.command("solve", cls=TranslatedHelpCommand, help=SOLVE_HELP)
def solve_command(
    game: Annotated[str, typer.Argument(help=N_("Game id (hex)."))],
    position: Annotated[
        Path,
        typer.Argument(help=N_("A position file (the game's position JSON), movement phase.")),
    ],
    seconds: Annotated[
        float, typer.Option(help=N_("Give up after this many seconds."), min=0.01)
    ] = 60.0,
    language: CommandLanguageOption = None,
) -> None:
    """``limit solve GAME POSITION`` (what ``--help`` says is :data:`SOLVE_HELP`): the value
    in words of the session's language; the actions stay the game's notation."""
    choose_language(language)
    if game != "hex":
        raise fail(_("the solver knows only hex, not %(game)r") % {"game": game})
    try:
        state = get_game("hex").state_from_position(read_position(position))
        from limitgames.hex.solver import solve
        from limitgames.hex.state import HexState

        assert isinstance(state, HexState)
        solution = solve(state, seconds=seconds)
    except (LimitGamesError, ValueError) as exc:
        raise fail(f"{position}: {exc}") from None
    names = [_(name) for name in state.seat_names()]  # the colours, in the session's language
    if state.is_terminal():
        from limitgames.cli.render import result_text

        console.print(
            _("The game is over: %(result)s.") % {"result": result_text(state)}, highlight=False
        )
        return
    mover = names[solution.seat]
    if solution.values is None:
        console.print(
            _("Not solved within %(seconds)s s (%(nodes)s positions searched).")
            % {"seconds": f"{seconds:g}", "nodes": f"{solution.nodes:,}"},
            highlight=False,
        )
        raise typer.Exit(2)
    words = {1.0: _("win"), 0.0: _("draw"), -1.0: _("loss")}
    value = words[solution.values[solution.seat]]
    if state.num_players == 2:
        line = _("%(player)s to move: %(value)s.") % {"player": mover, "value": value}
    else:
        line = _("%(player)s to move: %(value)s (under max-n).") % {"player": mover, "value": value}
    console.print(line, highlight=False)
    if state.num_players > 2:
        console.print(
            ", ".join(f"{names[i]} {words[v]}" for i, v in enumerate(solution.values)),
            highlight=False,
        )
    if solution.best_action is not None:
        console.print(
            _("best action: %(action)s") % {"action": state.action_to_string(solution.best_action)},
            highlight=False,
        )
    console.print(
        _("proof size: %(nodes)s positions, %(seconds)s s")
        % {"nodes": f"{solution.nodes:,}", "seconds": f"{solution.seconds:.2f}"},
        highlight=False,
    )


_REGISTERED: list[bool] = []


def build_app() -> typer.Typer:
    """The ``limit`` app with every command plugged in (idempotent); for tests and embedding."""
    if not _REGISTERED:
        _register_games()
        _REGISTERED.append(True)
    return app


def _register_games() -> None:
    """Plug in the commands beside ``games``, ``replay``, ``perft`` and ``solve`` (each game's
    ``play`` and ``bench`` are built on demand: :class:`GameCommandsGroup`)."""
    from limitgames.cli import serve_cmd

    app.command("serve", cls=TranslatedHelpCommand, help=serve_cmd.SERVE_HELP)(serve_cmd.serve)
    from limitgames.cli import agents_cmd, arena_cmd

    agents_cmd.register(app)
    arena_cmd.register(app)
    from limitgames.cli import rules_cmd

    app.command("rules", cls=TranslatedHelpCommand, help=rules_cmd.RULES_HELP)(
        rules_cmd.rules_command
    )
    from limitgames.cli import debrief_cmd

    app.command("debrief", cls=TranslatedHelpCommand, help=debrief_cmd.DEBRIEF_HELP)(
        debrief_cmd.debrief_command
    )
    from limitgames.cli import referee_cmd

    app.command("referee", cls=StandIn, help=referee_cmd.REFEREE_HELP)(_stand_in)
    app.command("score", cls=TranslatedHelpCommand, help=referee_cmd.SCORE_HELP)(
        referee_cmd.score_command
    )


class StandIn(TranslatedHelpCommand):
    """A command of :attr:`LimitGroup.deferred` before it is built: what ``limit --help`` lists."""

    stand_in = True


def _stand_in() -> None:
    """Never run: :class:`LimitGroup` builds the real command first."""
    raise RuntimeError("a deferred command was not built")


def main() -> None:
    """Entry point of the ``limit`` console script."""
    build_app()
    try:
        app()
    except RecordError as exc:  # pragma: no cover - commands catch their own
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    main()
