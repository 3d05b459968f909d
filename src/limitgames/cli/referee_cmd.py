"""``limit referee world`` (keep the books of a game at a real table) and ``limit score world``
(the score calculator, with the stress test)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from limitgames.cli.options import LanguageOption, choose_language, fail
from limitgames.cli.variant_options import variant_options
from limitgames.core import LimitGamesError, VariantError, get_game, parse_variant_options
from limitgames.translation import N_
from limitgames.translation import gettext as _

console = Console()
"""The session's console, made again when a command runs (it reads this run's terminal width)."""

GAMES = ("world",)

HELP = N_(
    "Type each decision taken at the table in the game's notation (`moves` lists them), and "
    "the cards drawn when asked. Commands: moves, board, score (if the game ended now), log, "
    "undo (any decision), position FILE (the table at the start of this generation), quit."
)

REFEREE_HELP = N_(
    "Keep the books of a game played at a real table: you type the decisions and the cards "
    "drawn.\n\n"
    "The program takes the real chance outcomes (who starts, the cards drawn from each deck) "
    "instead of its own deck order, and any decision can be undone.\n\n"
    "Example: limit referee world --players 3 --start-player square"
)
"""The help of ``limit referee`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""

SCORE_HELP = N_(
    "The score calculator: the stress test, then each line of the score as the rulebook counts "
    "it.\n\n"
    "The game is taken as ended where the position stands. A shortage in the stress test may "
    "ask a nation which plant or class loses a level.\n\n"
    "Example: limit score world table.json"
)
"""The help of ``limit score`` (translated when drawn)."""


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LimitGamesError(
            _("%(path)s: cannot read the file: %(reason)s") % {"path": path, "reason": exc.strerror}
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise LimitGamesError(
            _("%(path)s: not JSON: %(reason)s") % {"path": path, "reason": exc}
        ) from None


class EndOfInput(Exception):
    """The input ended (the session stops and saves)."""


def _read(prompt: str) -> str:
    try:
        return str(typer.prompt(prompt, prompt_suffix=" ", default="", show_default=False))
    except (EOFError, typer.Abort):
        raise EndOfInput from None


def _ask_outcome(kind: str, request: Mapping[str, Any]) -> Any:
    """Ask the referee for a chance outcome as it happened at the table (re-asks on a typo)."""
    from limitgames.world.referee import OutcomeNeeded, request_refusal
    from limitgames.world.words import render

    request = {**request, "label": render(request["label"])}

    names = list(request.get("names") or [])
    while True:
        if request.get("count") is None:
            shown = names or [str(o) for o in request["options"]]
            text = _read(f"{request['label']} ({', '.join(shown)}):").strip()
            value: Any = names.index(text) if text in names else text
        else:
            text = _read(
                _("%(label)s: the cards drawn (card ids, any order):") % {"label": request["label"]}
            )
            value = [c for c in re.split(r"[,\s]+", text.strip()) if c]
        if text.strip() in ("cancel", "quit"):
            raise OutcomeNeeded(_("%(label)s: cancelled") % {"label": request["label"]})
        reason = request_refusal(request, value)
        if reason is None:
            return value
        held = (
            ""
            if request.get("count") is None
            else _(" (the deck: %(cards)s)") % {"cards": ", ".join(request["options"])}
        )
        console.print(
            _("Not possible: %(reason)s") % {"reason": reason} + held,
            highlight=False,
            soft_wrap=True,
        )


def _show_choice(state: Any) -> None:
    from limitgames.cli.world_view import CHOICE_WORDS

    top = state.pending[-1]
    choice = state.observation(top.seat)["choice"]
    console.print(
        _("[bold]%(nation)s[/] decides: %(kind)s  (%(options)s)")
        % {
            "nation": choice["nation"],
            "kind": _(CHOICE_WORDS[choice["kind"]]).split(" (")[0]
            if choice["kind"] in CHOICE_WORDS
            else choice["kind"].replace("_", " "),
            "options": " | ".join(choice["options"]),
        },
        highlight=False,
        soft_wrap=True,
    )
    for amount in choice.get("amounts", []):
        console.print(
            _("  any amount: %(amount)s")
            % {"amount": f"{amount['notation']} (N {amount['minimum']}-{amount['maximum']})"},
            highlight=False,
            soft_wrap=True,
        )


def print_scorecards(state: Any) -> None:
    """Each nation's scorecard, line by line, and the totals."""
    from limitgames.world.scoring import scorecards
    from limitgames.world.words import render

    for name, lines, total in scorecards(state):
        table = Table(
            title=_("%(nation)s: %(total)d points") % {"nation": name, "total": total},
            title_justify="left",
        )
        table.add_column(_("Line"))
        table.add_column(_("Points"), justify="right")
        table.add_column(_("Reckoning"))
        for line in lines:
            table.add_row(render(line.title), str(line.points), render(line.reckoning))
        table.add_row(_("Total"), str(total), "")
        console.print(table)


def with_readings(variant: Mapping[str, Any], readings: Sequence[str]) -> dict[str, Any]:
    """``variant`` with the ``--reading KEY=VALUE`` options put into its parameter
    ``overrides`` as ``{"readings": {KEY: VALUE}}`` (over the readings already there); a value
    is JSON when it parses (a list such as ``["fossil:2"]``), else the text. The data checks
    the readings when the game starts (an unknown key or a value out of its choices is refused
    in one line).

    Raises:
        VariantError: an option that is not ``KEY=VALUE``, or overrides that are not a JSON
            object.
    """
    out = dict(variant)
    if not readings:
        return out
    chosen: dict[str, Any] = {}
    for key, value in parse_variant_options(list(readings)).items():
        try:
            chosen[key] = json.loads(value)
        except ValueError:
            chosen[key] = value
    given = json.loads(out["overrides"]) if out.get("overrides") else {}
    if not isinstance(given, dict):
        raise VariantError("overrides: a JSON object of sections, as in the data file")
    given["readings"] = {**dict(given.get("readings") or {}), **chosen}
    out["overrides"] = json.dumps(given, sort_keys=True)
    return out


ALLIANCE_WORDS = {"yes": "on", "no": "off"}
"""What a referee may also type for ``--alliances`` (the rulebook advises a first game
"without alliances"): ``yes`` is ``on``, ``no`` is ``off``."""


@variant_options("world", exclude=("draws", "returns", "alliances"))
def referee_command(
    game: Annotated[str, typer.Argument(help=N_("The game (world)."))],
    start_player: Annotated[
        str | None,
        typer.Option(help=N_("The nation holding the leadership tile at the start (else asked).")),
    ] = None,
    position: Annotated[
        Path | None,
        typer.Option(help=N_("Start from a position file, at any step of a generation (JSON).")),
    ] = None,
    alliances: Annotated[
        str | None,
        typer.Option(
            metavar="auto|on|off|yes|no",
            help=N_("The alliance step: auto (on for 4-6 nations), on (yes) or off (no)."),
        ),
    ] = None,
    reading: Annotated[
        list[str] | None,
        typer.Option(
            "--reading",
            metavar="KEY=VALUE",
            help=N_("A reading of a lost icon, e.g. war_plants=any (see limit rules world)."),
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(help=N_("Where to save the record (default records/referee-<time>.json).")),
    ] = None,
    language: LanguageOption = None,
    variant: dict[str, Any] | None = None,
) -> None:
    """``limit referee world`` (what ``--help`` says is :data:`REFEREE_HELP`). ``variant``: the
    variant parameters given (``-n 3``, ``--stress-tests 1``, ``-v alliances=off``); the number
    of nations is that of a new game (a position has its own); the cards are always drawn at
    the table."""
    global console
    choose_language(language)
    console = Console()
    from limitgames.world.position import position_json
    from limitgames.world.referee import OutcomeNeeded, Referee

    if game not in GAMES:
        raise fail(
            _("the referee knows only %(games)s, not %(game)r")
            % {"games": ", ".join(GAMES), "game": game}
        )
    try:
        variant = with_readings(variant or {}, reading or [])
        if alliances is not None:
            if "alliances" in variant:
                raise VariantError(_("%(name)s: given twice") % {"name": "alliances"})
            variant["alliances"] = (
                get_game("world")
                .info.parameter("alliances")
                .coerce(ALLIANCE_WORDS.get(alliances, alliances))
            )
    except LimitGamesError as exc:
        raise fail(str(exc)) from None
    players = variant.pop("players", get_game("world").info.parameter("players").default)
    try:
        if position is not None:
            referee = Referee(position=_read_json(position), variant=variant, ask=_ask_outcome)
        else:
            referee = Referee(players, variant=variant, ask=_ask_outcome, start_player=start_player)
    except EndOfInput:
        raise fail(_("no start player given")) from None
    except LimitGamesError as exc:
        raise fail(str(exc)) from None
    target = record or Path("records") / (
        f"referee-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}.json"
    )
    console.print(_(HELP), highlight=False, soft_wrap=True)
    shown = 0
    try:
        while not referee.state.is_terminal():
            state = referee.state
            lines = state.log_lines(None)
            for line in lines[shown:]:
                console.print(f"  {line}", highlight=False, soft_wrap=True)
            shown = len(lines)
            _show_choice(state)
            text = _read(">").strip()
            word, _sep, rest = text.partition(" ")
            if not text:
                continue
            if word == "quit":
                break
            if word == "moves":
                continue  # the decision and its options are shown again
            if word == "board":
                from limitgames.cli.world_view import render

                render(console, state, None)
            elif word == "log":
                for line in lines:
                    console.print(f"  {line}", highlight=False, soft_wrap=True)
            elif word == "score":
                from limitgames.world.position import stress_test
                from limitgames.world.scoring import scorecards

                try:
                    ended = stress_test(position_json(state), stress_tests=0)
                    console.print(
                        _("If the game ended at the start of this generation (no stress test):"),
                        highlight=False,
                    )
                    for name, _lines, total in scorecards(ended):
                        console.print(f"  {name}: {total}", highlight=False)
                except (LimitGamesError, ValueError) as exc:
                    console.print(
                        _("Cannot score now: %(reason)s") % {"reason": exc}, highlight=False
                    )
            elif word == "undo":
                try:
                    console.print(
                        _("Taken back: %(decision)s") % {"decision": referee.undo()},
                        highlight=False,
                    )
                    shown = min(shown, len(referee.state.log_lines(None)))
                except LimitGamesError as exc:
                    console.print(str(exc), highlight=False)
            elif word == "position" and rest:
                path = Path(rest.strip())
                path.write_text(json.dumps(position_json(state), indent=1) + "\n", encoding="utf-8")
                console.print(_("Position saved to %(path)s") % {"path": path}, highlight=False)
            else:
                try:
                    referee.apply(text)
                except OutcomeNeeded as exc:
                    console.print(
                        _("Not applied: %(reason)s") % {"reason": exc},
                        highlight=False,
                        soft_wrap=True,
                    )
                except LimitGamesError as exc:
                    console.print(
                        _("Refused: %(reason)s") % {"reason": exc}, highlight=False, soft_wrap=True
                    )
    except EndOfInput:
        pass
    state = referee.state
    lines = state.log_lines(None)
    for line in lines[shown:]:
        console.print(f"  {line}", highlight=False, soft_wrap=True)
    if state.is_terminal():
        print_scorecards(state)
    saved = referee.record().write(target)
    console.print(_("Record saved to %(path)s") % {"path": saved}, highlight=False)


def score_command(
    game: Annotated[str, typer.Argument(help=N_("The game (world)."))],
    position: Annotated[Path, typer.Argument(help=N_("A position file (JSON), at any step."))],
    stress_tests: Annotated[
        int | None,
        typer.Option(help=N_("Stress tests before scoring (0-2; default the position's or 1).")),
    ] = None,
    language: LanguageOption = None,
) -> None:
    """``limit score world`` (what ``--help`` says is :data:`SCORE_HELP`)."""
    global console
    choose_language(language)
    console = Console()
    from limitgames.translation import using
    from limitgames.world.position import stress_test

    if game not in GAMES:
        raise fail(
            _("the score calculator knows only %(games)s, not %(game)r")
            % {"games": ", ".join(GAMES), "game": game}
        )
    try:
        state = stress_test(_read_json(position), stress_tests)
    except LimitGamesError as exc:
        raise fail(f"{position}: {exc}") from None
    try:
        while not state.is_terminal():
            _show_choice(state)
            text = _read(">").strip()
            try:
                state.apply_string(text)
            except LimitGamesError as exc:
                console.print(
                    _("Refused: %(reason)s") % {"reason": exc}, highlight=False, soft_wrap=True
                )
    except EndOfInput:
        raise fail(_("the stress test needs a decision (input ended)")) from None
    lines = state.log_lines(None)
    with using("en"):  # the headings are found by their English words
        english = state.log_lines(None)
    start = next((i for i, t in enumerate(english) if t.startswith("== Stress test")), None)
    if start is not None:
        console.print("[bold]" + _("Stress test") + "[/]", highlight=False)
        for index in range(start + 1, len(lines)):
            if english[index].startswith("== Scoring"):
                break
            console.print(f"  {lines[index]}", highlight=False, soft_wrap=True)
    else:
        console.print(_("No stress test."), highlight=False)
    print_scorecards(state)
