"""The options the ``limit`` commands share, their help in the reader's language, and errors.

- The options of every ``limit play GAME`` (``--seat``, ``--opponent``, ``--seed``,
  ``--record``, ``--position``, ``--quiet``, ``--language``, ``--pause``, ``--players``).
- :class:`TranslatedHelpCommand`: a command whose ``--help`` is drawn in the language of
  ``--language`` or of the locale variables (Typer reads help texts before parsing).
- :func:`choose_language` sets the language of a command's words; :func:`fail` prints the
  one-line error every command ends with.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from typer.core import TyperCommand

from limitgames.translation import (
    LANGUAGES,
    N_,
    current_language,
    from_environment,
    gettext,
    supported,
    using,
)

PLAYERS_HELP: dict[str, str] = {
    "players": N_("Number of players (%(low)d-%(high)d). Example: -n 3"),
    "nations": N_("Number of nations (%(low)d-%(high)d). Example: -n 3"),
}
"""The ``--players`` help, by what a game calls its seats (``%(low)d``-``%(high)d`` filled in)."""

FILLED_HELP: dict[str, tuple[str, dict[str, Any]]] = {}
"""Help texts filled in when the command was built, by their English text: the message to
translate and its values (see :class:`TranslatedHelpCommand`)."""


def players_option(low: int, high: int, noun: str = "players") -> Any:
    """The ``--players/-n`` option: the number of seats, ``low``-``high`` (``noun``: a key of
    :data:`PLAYERS_HELP`)."""
    message, values = PLAYERS_HELP[noun], {"low": low, "high": high}
    text = message % values
    FILLED_HELP[text] = (message, values)
    return typer.Option("--players", "-n", min=low, max=high, help=text)


def help_language(args: Sequence[str], environment: Mapping[str, str]) -> str:
    """The language a command's ``--help`` is shown in: ``--language CODE`` (or
    ``--language=CODE``) among the command line's ``args``, else the locale variables of
    ``environment`` (as :func:`~limitgames.translation.from_environment`), else English.
    An unknown code counts as not given (the command itself then says it is unknown)."""
    for i, arg in enumerate(args):
        value = None
        if arg == "--language" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--language="):
            value = arg.partition("=")[2]
        if value is not None and supported(value) is not None:
            return supported(value) or LANGUAGES[0]
    return from_environment(environment) or LANGUAGES[0]


class TranslatedHelpCommand(TyperCommand):
    """A ``limit play GAME`` command whose ``--help`` is in the player's language.

    Typer reads the help texts when the command is built, before the
    command line is parsed, so they are kept in English (each marked with
    ``N_`` for the catalogue) and translated when the help is drawn: the
    language is :func:`help_language` of the command's own arguments and the
    environment. Typer's own words (``Usage``, ``Options``, ``[default: ...]``)
    stay English.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Remember the arguments (``--help`` is drawn while they are parsed), then parse."""
        ctx.meta["limitgames.args"] = list(args)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """Draw the help with this command's and its options' texts translated."""
        language = help_language(ctx.meta.get("limitgames.args", []), os.environ)
        with help_translated([self, *self.params], language):
            super().format_help(ctx, formatter)


@contextmanager
def help_translated(holders: Sequence[Any], language: str) -> Iterator[None]:
    """Within the block, each holder's ``help`` (a command's, an option's) is translated into
    ``language`` and that language is current; the English texts are put back after."""
    kept: list[tuple[Any, str | None]] = [(h, getattr(h, "help", None)) for h in holders]
    with using(language):
        try:
            for holder, text in kept:
                if text:
                    holder.help = translated_help(text)
            yield
        finally:
            for holder, text in kept:
                holder.help = text


def translated_help(text: str) -> str:
    """A help text in :data:`~limitgames.translation.current_language` (one filled in when the
    command was built, see :data:`FILLED_HELP`, is translated before it is filled in)."""
    filled = FILLED_HELP.get(text)
    if filled is not None:
        message, values = filled
        return gettext(message) % values
    return gettext(text)


SeatOption = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        "-s",
        metavar="WHO",
        help=N_(
            "Who plays each seat, in turn order: human, human:NAME (your name), a level (easy, "
            "medium, hard, expert) or an agent (random, mcts:seconds=1...; see limit agents). "
            "Repeat once per seat; seats not given are computers. Default: you in the first "
            "seat. Example: -s human:Ann -s hard"
        ),
    ),
]
OpponentOption = Annotated[
    str | None,
    typer.Option(
        "--opponent",
        metavar="LEVEL",
        help=N_(
            "The level of every computer seat: easy, medium, hard or expert (default: random "
            "moves in cards and world, medium in hex). Example: --opponent hard"
        ),
    ),
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        metavar="NUMBER",
        help=N_(
            "Seed of the chance in the game and of the computer players, to play the same "
            "game again (default: a new one, printed at the end of the game). Example: --seed 42"
        ),
    ),
]
AnalysisOption = Annotated[
    bool,
    typer.Option(
        "--analysis",
        metavar="",
        help=N_(
            "Show how the computer searched after each of its decisions (share of the visits, "
            "win estimate, iterations, thinking time)."
        ),
    ),
]
RecordOption = Annotated[
    Path | None,
    typer.Option(
        "--record",
        metavar="FILE",
        help=N_(
            "Where to save the game record (default: records/GAME-DATE-TIME.json). "
            "limit replay FILE replays it."
        ),
    ),
]
NoRecordOption = Annotated[
    bool, typer.Option("--no-record", metavar="", help=N_("Do not save a game record."))
]
PositionOption = Annotated[
    Path | None,
    typer.Option(
        "--position",
        metavar="FILE",
        help=N_(
            "Play on from a file: a game record saved earlier (limit play ... --record) or a "
            "position (JSON; hex and world)."
        ),
    ),
]
QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        metavar="",
        help=N_(
            "No narration of the computer's decisions and no board between them: only what "
            "ends a round or the game, and your own turns."
        ),
    ),
]
LanguageOption = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="CODE",
        help=N_(
            "The language of the game's words: en, de, fr or es (default: from the LANGUAGE, "
            "LC_ALL, LC_MESSAGES or LANG environment variables, else English). Example: --language de"
        ),
    ),
]


def fail(message: str, code: int = 1, soft_wrap: bool = False) -> typer.Exit:
    """Print a one-line error on stderr (no traceback; ``error:`` in the session's language)
    and return the Exit (status ``code``) for the command to raise. ``soft_wrap``: leave long
    lines to the terminal instead of Rich's wrapping."""
    from rich.markup import escape  # the message is text, not markup: "[q, r]" stays

    Console(stderr=True).print(
        "[bold red]" + gettext("error:") + f"[/] {escape(message)}",
        highlight=False,
        soft_wrap=soft_wrap,
    )
    return typer.Exit(code)


CommandLanguageOption = Annotated[
    str | None,
    typer.Option(
        "--language",
        metavar="CODE",
        help=N_(
            "The language of this command's words: en, de, fr or es (default: from the "
            "LANGUAGE, LC_ALL, LC_MESSAGES or LANG environment variables, else English). "
            "Example: --language de"
        ),
    ),
]
"""``--language`` of the commands that study and measure the games (``limit games``,
``perft``, ``solve``, ``bench``, ``arena``, ``agents``, ``serve``): their titles, headings and
sentences; figures, ids and specs are the same in every language."""


def choose_language(option: str | None, environment: dict[str, str] | None = None) -> str:
    """Set the terminal session's language (:data:`~limitgames.translation.current_language`)
    from ``--language``, else the locale variables of ``environment`` (default ``os.environ``),
    else English; return it.

    Raises:
        typer.BadParameter: ``option`` names no offered language.
    """
    if option is not None:
        chosen = supported(option)
        if chosen is None:
            with using(from_environment(dict(os.environ)) or LANGUAGES[0]):
                message = gettext("unknown language %(code)r (use %(known)s or %(last)s)") % {
                    "code": option,
                    "known": ", ".join(LANGUAGES[:-1]),
                    "last": LANGUAGES[-1],
                }
            raise typer.BadParameter(
                message,
                param_hint="--language",
            )
    else:
        chosen = from_environment(dict(os.environ) if environment is None else environment)
    language = chosen or LANGUAGES[0]
    current_language.set(language)
    return language


PauseOption = Annotated[
    float,
    typer.Option(
        "--pause",
        min=0.0,
        metavar="SECONDS",
        help=N_(
            "Wait this long after each computer decision, to follow the game. Example: --pause 1"
        ),
    ),
]
