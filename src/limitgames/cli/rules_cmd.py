"""``limit rules GAME``: where the rules as played are written, how to play (``--how-to``), and
world's game data with the source of each value (``--reconstructed``, ``--all``,
``--format toml``).

It loads no engine until it runs, so ``limit --help`` stays quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from limitgames.cli.options import LanguageOption, choose_language, fail
from limitgames.core import LimitGamesError
from limitgames.translation import N_
from limitgames.translation import gettext as _

SUPPLIED = ("reconstructed", "decision")
"""Sources of the values the project supplied where the text is lost or silent."""

SOURCE_WORDS: dict[str, str] = {
    "rulebook": N_("rulebook"),
    "rulebook-example": N_("rulebook-example"),
    "reconstructed": N_("reconstructed"),
    "decision": N_("decision"),
}
"""The sources of the data's values as ``limit rules world`` counts them (translated where shown)."""

RULES_HELP = N_(
    "Where the rules as played are written, and (world) the game data's values and their "
    "sources.\n\n"
    "Examples: limit rules hex --how-to; limit rules world --reconstructed"
)
"""The help of ``limit rules`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def rules_command(
    game: Annotated[str, typer.Argument(help=N_("The game: hex, cards or world."))],
    reconstructed: Annotated[
        bool,
        typer.Option(
            "--reconstructed",
            metavar="",
            help=N_(
                "world: list every value the project supplied (reconstructed or decided) "
                "and every reading."
            ),
        ),
    ] = False,
    all_values: Annotated[
        bool, typer.Option("--all", metavar="", help=N_("world: list every value with its source."))
    ] = False,
    output: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="lines|toml",
            help=N_(
                "world: lines, one 'key = value  # source' per line; toml, an override file "
                "to edit."
            ),
        ),
    ] = "lines",
    data: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE", help=N_("world: apply this TOML file of changed values first.")
        ),
    ] = None,
    how_to: Annotated[
        bool,
        typer.Option(
            "--how-to",
            metavar="",
            help=N_("How to play the game, for people: a short page, in your language."),
        ),
    ] = False,
    language: LanguageOption = None,
) -> None:
    """``limit rules GAME`` (what ``--help`` says is :data:`RULES_HELP`). The data's keys,
    values, sources and reasons (``data.toml``) stay English, as the file has them."""
    from limitgames.cli.howto_view import print_how_to
    from limitgames.core import available_games

    choose_language(language)
    console = Console()  # made now: it reads the terminal width (COLUMNS) of this run
    if game not in available_games():
        raise fail(
            _("no game %(game)r (games: %(games)s)")
            % {"game": game, "games": ", ".join(available_games())}
        )
    if how_to:
        if reconstructed or all_values or data:
            raise fail(_("--how-to shows the how-to-play page alone"))
        print_how_to(console, game)
        return
    if game != "world" or not (reconstructed or all_values):
        console.print(
            _("How to play, for people: limit rules %(game)s --how-to") % {"game": game},
            highlight=False,
        )
    if game != "world":
        console.print(
            _(
                "The rules of %(game)s as this project plays them: docs/rules/%(game)s.md in the "
                "repository; how to play them here: docs/%(game)s.md."
            )
            % {"game": game},
            highlight=False,
        )
        if reconstructed or all_values or data:
            raise fail(_("--reconstructed, --all and --data list the game data of world only"))
        return
    if output not in ("lines", "toml"):
        raise fail(_("--format: %(value)r is not lines or toml") % {"value": output})
    from limitgames.world.data import iter_entries, load_data

    try:
        loaded = load_data(str(data) if data else None)
    except LimitGamesError as exc:
        raise fail(str(exc)) from None
    entries = list(iter_entries(loaded.raw))
    if not reconstructed and not all_values:
        counts: dict[str, int] = {}
        for _path, entry in entries:
            counts[entry["source"]] = counts.get(entry["source"], 0) + 1
        console.print(
            _(
                "LIMIT (Alexandre Poyé): the rules as played are in docs/rules/world.md in the "
                "repository (how to play them here: docs/world.md); the numbers and the readings "
                "of lost icons are in src/limitgames/world/data.toml."
            ),
            highlight=False,
        )
        console.print(
            _("Values by source: %(counts)s.")
            % {"counts": ", ".join(f"{n} {_(SOURCE_WORDS.get(s, s))}" for s, n in counts.items())},
            highlight=False,
        )
        console.print(
            _(
                "Use --reconstructed to list what the project supplied, --all for every value, "
                "--format toml for an override file."
            ),
            highlight=False,
        )
        return
    chosen = [
        (path, entry)
        for path, entry in entries
        if all_values or entry["source"] in SUPPLIED or path.startswith("readings.")
    ]
    if output == "toml":
        typer.echo(override_file_text(chosen))
        return
    for path, entry in chosen:
        typer.echo(f"{path} = {_toml_value(entry['value'])}  # {_note(entry)}")
    typer.echo(
        "# "
        + _(
            "%(count)d values. Change any of them in a TOML file (limit rules world "
            "--reconstructed --format toml starts one): limit play world --data FILE"
        )
        % {"count": len(chosen)}
    )


def _toml_value(value: Any) -> str:
    """A value of the data file in TOML (integers, strings, booleans and lists of them)."""
    import json

    return json.dumps(value, ensure_ascii=False)


def _note(entry: dict[str, Any]) -> str:
    parts = [str(entry["source"])]
    if "choices" in entry:
        parts.append("one of " + " | ".join(entry["choices"]))
    if "why" in entry:
        parts.append(str(entry["why"]))
    return "; ".join(parts)


def override_file_text(entries: list[tuple[str, dict[str, Any]]]) -> str:
    """An override file holding ``entries`` (``(key path, entry)``) with their current values,
    each with its source (and choices and reasoning) as a comment: edit and pass with --data."""
    lines = [
        "# Values of LIMIT's game data (limitgames/world/data.toml) with their sources.",
        "# Edit the ones you want, delete the others, and play: limit play world --data FILE",
    ]
    section = ""
    for path, entry in entries:
        if path.startswith("cards."):
            table, key = path.rsplit(".", 1)
        else:
            table, key = path.split(".", 1)
        if table != section:
            lines += ["", f"[{table}]"]
            section = table
        lines.append(f"{key} = {_toml_value(entry['value'])}  # {_note(entry)}")
    return "\n".join(lines)
