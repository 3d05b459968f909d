"""A game at the terminal, for all three games: seats, input, narration, undo, records.

One loop (:class:`TerminalSession`) runs ``limit play hex|cards|world``; each
game supplies a :class:`GameTerminal` that draws its table, reads and writes
its actions in the player's words, tells what each decision did, says how
the game ended, and decides how far ``undo`` may go.

- A person types actions in the game's notation. ``help`` lists the
  commands, ``moves`` the legal actions, ``board`` draws the table again,
  ``undo`` takes back their last decision (and the computer's replies) in
  games against the computer, as far as hidden information allows, ``quit``
  stops and saves the record.
- A computer seat is any agent spec (``random``, ``mcts:seconds=1``...) or a
  level (easy...expert); it thinks behind a spinner.
- The record is saved at the end, on ``quit``, on end of input and on
  Ctrl-C (unless ``--no-record``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from typer.core import TyperCommand

from limitgames.agents import Agent, is_level, level_spec, make_agent
from limitgames.core import (
    TERMINAL,
    GameRecord,
    IllegalActionError,
    LimitGamesError,
    NotationError,
    PositionError,
    RecordError,
    State,
    get_game,
)
from limitgames.translation import (
    LANGUAGES,
    N_,
    current_language,
    from_environment,
    gettext,
    supported,
    using,
)

Renderer = Callable[[Console, State, "int | None"], None]


# --- the options every ``limit play GAME`` takes ------------------------------------------------
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
            "moves). Example: --opponent hard"
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
            "game again (default: a new one, printed at the start). Example: --seed 42"
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
    Console(stderr=True).print(
        "[bold red]" + gettext("error:") + f"[/] {message}", highlight=False, soft_wrap=soft_wrap
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


# --- seats and names ---------------------------------------------------------------------------
@dataclass
class Seat:
    """Who plays a seat: a person (``agent is None``) or an agent.

    ``label`` is what the record keeps (``human``, ``human:Ann``, an agent
    spec); ``name`` is what people read (``You``, ``Ann``, ``Barbara``, ``red``).
    """

    label: str
    agent: Agent | None = None
    name: str = ""

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.agent is None

    @property
    def given_name(self) -> str:
        """The name typed after ``human:``, or ``""``."""
        head, _, rest = self.label.partition(":")
        return rest.strip() if head.strip().lower() == "human" else ""


def is_human_spec(spec: str) -> bool:
    """Whether ``spec`` names a person (``human`` or ``human:NAME``)."""
    return spec.partition(":")[0].strip().lower() == "human"


def parse_seats(
    specs: Sequence[str],
    players: int,
    default: str = "random",
    seed: int | None = None,
    game_id: str | None = None,
) -> list[Seat]:
    """Seats from ``--seat`` options; missing seats get ``default``.

    ``human`` / ``human:NAME`` is a person; a level (easy...expert) becomes
    its agent for ``game_id``; anything else is an agent spec.

    Raises:
        AgentSpecError: for an unknown agent, level or option.
        ValueError: for more seats than players.
    """
    if len(specs) > players:
        raise ValueError(
            gettext("%(count)d --seat options for %(players)d players")
            % {"count": len(specs), "players": players}
        )
    seats: list[Seat] = []
    for i, spec in enumerate([*specs, *[default] * (players - len(specs))]):
        spec = spec.strip()
        if is_human_spec(spec):
            name = spec.partition(":")[2].strip()
            seats.append(Seat(f"human:{name}" if name else "human"))
            continue
        if game_id is not None and is_level(spec):
            spec = level_spec(game_id, spec)
        seats.append(Seat(spec, make_agent(spec, None if seed is None else seed * 7919 + i)))
    return seats


def name_seats(seats: list[Seat], table_names: Sequence[str], computer_names: bool) -> None:
    """Give every seat the name people read.

    A person is called by the name they gave, or ``You`` when they are the
    only person at the table. Computers keep the table's name for the seat
    (a colour, a nation, or in cards the rulebook's players). In games whose
    seats are colours or nations (``computer_names`` false), a named person
    reads ``Ann (red)``. Two seats of one name get their seat number.
    """
    people = sum(1 for s in seats if s.is_human)
    for i, seat in enumerate(seats):
        given = seat.given_name
        if seat.is_human and (given or people == 1):
            own = given or you()
            seat.name = own if computer_names or is_you(own) else f"{own} ({table_names[i]})"
        else:
            seat.name = table_names[i]
    lowered = [s.name.lower() for s in seats]
    for i, seat in enumerate(seats):
        if lowered.count(seat.name.lower()) > 1:
            seat.name = f"{seat.name} {i + 1}"


def you() -> str:
    """The name of the one person at the screen (``You``), in the session's language."""
    return gettext("You")


def is_you(name: str) -> bool:
    """Whether ``name`` is the person at the screen (``You``, in any of the languages)."""
    return name in ("You", you())


def phrase(who: str, second_person: str, third_person: str, **values: Any) -> str:
    """A sentence about ``who``: ``second_person`` (already translated) when ``who`` is the
    person at the screen, else ``third_person`` with ``%(player)s`` for ``who``.

    Both are whole sentences so that each language conjugates its own verbs.
    """
    words = second_person if is_you(who) else third_person
    return words % {"player": who, **values}


def says(who: str, verb: str) -> str:
    """``who`` and ``verb`` in agreement: ``"Barbara plays"``, but ``"You play"``.

    ``verb`` is given in the third person singular (``plays``, ``passes``, ``has``, ``is``).
    """
    if not is_you(who):
        return f"{who} {verb}"
    irregular = {"has": "have", "is": "are", "was": "were"}
    if verb in irregular:
        plain = irregular[verb]
    elif verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        plain = verb[:-2]
    elif verb.endswith("ies"):
        plain = verb[:-3] + "y"
    elif verb.endswith("s"):
        plain = verb[:-1]
    else:
        plain = verb
    return f"You {plain}"


def seats_line(seats: Sequence[Seat], table_names: Sequence[str] | None = None) -> str:
    """Who plays, in words: ``"Seats: You; Barbara (computer: random)."``, or with the
    seats' colours or nations (``table_names``): ``"Seats: red: you; blue: computer (random)."``.
    """
    parts = []
    for i, seat in enumerate(seats):
        if table_names is None:
            parts.append(
                seat.name
                if seat.is_human
                else gettext("%(player)s (computer: %(level)s)")
                % {"player": seat.name, "level": seat.label}
            )
            continue
        if seat.is_human:
            who = gettext("you") if is_you(seat.name) else (seat.given_name or gettext("a person"))
        else:
            who = gettext("computer (%(level)s)") % {"level": seat.label}
        parts.append(f"{table_names[i]}: {who}")
    return gettext("Seats: %(seats)s.") % {"seats": "; ".join(parts)}


def default_record_path(game_id: str) -> Path:
    """``records/<game>-<UTC date>-<time>.json`` in the current directory."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"{game_id}-{stamp}.json"


def load_start(game_id: str, path: Path) -> tuple[State, int | None]:
    """The state to play on from ``path``: a game record (replayed) or a position file.

    Returns ``(state, seed)`` (the record's seed, or ``None``).

    Raises:
        PositionError: the file cannot be read, is not JSON, is a record of
            another game, or is not a position of ``game_id`` (one line).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PositionError(
            gettext("%(file)s: cannot read the file: %(reason)s")
            % {"file": path, "reason": exc.strerror}
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PositionError(
            gettext("%(file)s: not JSON: %(reason)s") % {"file": path, "reason": exc}
        ) from None
    if isinstance(data, dict) and "actions" in data:
        try:
            record = GameRecord.read(path)
            if record.game != game_id:
                raise PositionError(
                    gettext("%(file)s is a record of %(game)s, not of %(wanted)s")
                    % {"file": path, "game": record.game, "wanted": game_id}
                )
            return record.replay(), record.seed
        except RecordError as exc:
            raise PositionError(f"{path}: {exc}") from None
    try:
        return get_game(game_id).state_from_position(data), None
    except NotImplementedError:
        raise PositionError(
            gettext("%(file)s: %(game)s has no position files; give a game record saved earlier")
            % {"file": path, "game": game_id}
        ) from None
    except PositionError as exc:
        raise PositionError(f"{path}: {exc}") from None


def describe_info(info: dict[str, Any]) -> str:
    """An agent's report in words (visit share, win estimate, iterations)."""
    parts = []
    if "share" in info:
        parts.append(f"{100 * float(info['share']):.0f}% of visits")
    if "value" in info:
        parts.append(f"win estimate {100 * (float(info['value']) + 1) / 2:.0f}%")
    if "iterations" in info:
        parts.append(f"{info['iterations']} iterations")
    if "depth" in info:
        parts.append(f"depth {info['depth']}")
    return ", ".join(parts)


# --- what each game supplies ---------------------------------------------------------------------
@dataclass
class Line:
    """One line of narration; ``key`` lines are printed even with ``--quiet``."""

    text: RenderableType
    key: bool = False


GENERIC_HELP = N_(
    "Type an action (moves lists them), or:\n"
    "  moves   list the legal actions\n"
    "  board   draw the table again\n"
    "  undo    take back your last decision (against the computer)\n"
    "  quit    stop and save the record"
)


class GameTerminal:
    """How one game looks and reads at the terminal. The defaults fit any game.

    Args:
        render: draws the state as a seat sees it (``None``: a spectator).
    """

    computer_names = False
    """Whether computer seats take names (cards) instead of the seat's colour or nation."""
    private = False
    """Whether hands are hidden, so people sharing a screen hand it over between turns."""
    help_text = GENERIC_HELP

    def __init__(self, render: Renderer | None = None) -> None:
        self._render = render
        self.names: list[str] = []

    def table_names(self, state: State) -> list[str]:
        """The name of each seat before people's names are put in."""
        return state.seat_names()

    def render(self, console: Console, state: State, seat: int | None) -> None:
        """Draw ``state`` as ``seat`` may see it."""
        if self._render is not None:
            self._render(console, state, seat)
        else:
            from limitgames.cli.render import render_state

            render_state(console, state, seat)

    def action_text(self, state: State, action: Any) -> str:
        """``action`` (legal in ``state``) in the notation a person types."""
        return state.action_to_string(action)

    def parse(self, state: State, text: str) -> Any:
        """The action a person typed. Raises NotationError."""
        return state.parse_action(text)

    def illegal_reason(self, state: State, exc: IllegalActionError) -> str:
        """Why an action is illegal, in the person's words."""
        return exc.reason

    def menu(self, state: State, seat: int) -> RenderableType | None:
        """What to print before asking a person (e.g. numbered choices); ``None`` for nothing."""
        return None

    def moves_text(self, state: State) -> str:
        """The legal actions, for ``moves``; for a quantity, its whole range (the list of legal
        actions holds only a sample of the amounts)."""
        actions = [self.action_text(state, a) for a in state.legal_actions()]
        forms = state.action_forms()
        if forms:
            ranges = "  ".join(f"{f.notation} (N {f.minimum}-{f.maximum})" for f in forms)
            return gettext("Quantities: %(ranges)s\nExamples: %(examples)s") % {
                "ranges": ranges,
                "examples": "  ".join(actions),
            }
        return gettext("%(num)d legal: %(actions)s") % {
            "num": len(actions),
            "actions": "  ".join(actions),
        }

    def command(self, console: Console, state: State, seat: int, word: str) -> bool:
        """Answer a game-specific command (e.g. ``pile``); ``True`` if ``word`` was one."""
        return False

    def opening(self, state: State) -> list[Line]:
        """Lines printed before the first decision."""
        return []

    def decision_line(
        self, before: State, action: Any, seat: int, viewer: int | None, text: str
    ) -> RenderableType:
        """The line telling the table that ``seat`` took ``action`` in ``before``, as ``viewer``
        may know it; ``text`` is the action's notation (or what may be said of it)."""
        return phrase(
            self.names[seat],
            gettext("You play %(action)s"),
            gettext("%(player)s plays %(action)s"),
            action=text,
        )

    def narrate(
        self, before: State, action: Any, after: State, seat: int, viewer: int | None
    ) -> list[Line]:
        """What else happened when ``seat`` took ``action`` (``before`` -> ``after``): captures,
        skipped steps, the end of a round..., as ``viewer`` may know it."""
        return []

    def end_lines(self, state: State, viewer: int | None, last: Transition | None) -> list[Line]:
        """The result and why the game ended, for ``viewer`` (``None``: everybody)."""
        from limitgames.core.outcome import result_in_words

        returns = state.returns()
        if viewer is None:
            result = result_in_words(self.names, returns)
            return [Line(gettext("Game over: %(result)s.") % {"result": result}, key=True)]
        mine = returns[viewer]
        who = self.names[viewer]
        if mine > 0 and sum(1 for r in returns if r > 0) > 1:
            words = phrase(
                who,
                gettext("Game over: You shared the win."),
                gettext("Game over: %(player)s shared the win."),
            )
        elif mine > 0:
            words = phrase(
                who, gettext("Game over: You won."), gettext("Game over: %(player)s won.")
            )
        elif mine < 0:
            words = phrase(
                who, gettext("Game over: You lost."), gettext("Game over: %(player)s lost.")
            )
        else:
            words = phrase(
                who, gettext("Game over: You drew."), gettext("Game over: %(player)s drew.")
            )
        return [Line(words, key=True)]

    def undo_refusal(self, before: State, now: State, person: int) -> str | None:
        """Why ``person`` may not go back from ``now`` to ``before``; ``None`` if they may.

        The default allows it (perfect information); games with hidden
        information refuse when something hidden was shown since.
        """
        return None

    def record_meta(self) -> dict[str, Any]:
        """Extra fields for the record's ``meta``."""
        return {"names": list(self.names)}


@dataclass
class Transition:
    """The last decision: the state before it, the action, who took it."""

    before: State
    action: Any
    seat: int


@dataclass
class _Undo:
    before: State
    seat: int


class TerminalSession:
    """Runs one game in the terminal.

    Args:
        console: where to draw.
        state: the starting state.
        seats: one per seat (named here if they have no name yet).
        render: draws the state as a seat sees it (used when ``terminal`` is not given).
        record_path: where to save the record; ``None``: no record.
        seed: the game's seed, written into the record.
        input_fn: reads a line (defaults to ``console.input``); raises EOFError at end of input.
        pause: seconds to wait after each computer decision.
        terminal: the game's :class:`GameTerminal`.
        quiet: print only the lines marked as key (and the people's turns).
    """

    def __init__(
        self,
        console: Console,
        state: State,
        seats: list[Seat],
        render: Renderer | None = None,
        record_path: Path | None = None,
        seed: int | None = None,
        input_fn: Callable[[str], str] | None = None,
        pause: float = 0.0,
        terminal: GameTerminal | None = None,
        quiet: bool = False,
    ) -> None:
        self.console = console
        self.state = state
        self.seats = seats
        self.terminal = terminal or GameTerminal(render)
        self.record_path = record_path
        self.seed = seed
        self.input = input_fn or (lambda prompt: console.input(prompt))
        self.pause = pause
        self.quiet = quiet
        self.undo_stack: list[_Undo] = []
        self.last: Transition | None = None
        self.interrupted = False
        self.quit = False
        if not all(s.name for s in seats):
            name_seats(seats, self.terminal.table_names(state), self.terminal.computer_names)
        self.terminal.names = [s.name for s in seats]
        humans = [i for i, s in enumerate(seats) if s.is_human]
        self.humans = humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.can_undo = bool(humans) and any(not s.is_human for s in seats)
        self._screen_holder: int | None = None

    @property
    def names(self) -> list[str]:
        """The seats' names as people read them."""
        return self.terminal.names

    # --- the loop -------------------------------------------------------------
    def run(self) -> State:
        """Play until the end or until the person quits; save the record; return the final state.

        Sets ``interrupted`` on Ctrl-C and ``quit`` when a person stopped.
        """
        try:
            self.say(self.terminal.opening(self.state))
            while not self.state.is_terminal():
                seat = self.state.current_player()
                if seat == TERMINAL or seat < 0:
                    break
                if self.seats[seat].is_human:
                    if not self.human_turn(seat):
                        self.quit = True
                        break
                else:
                    self.computer_turn(seat)
        except KeyboardInterrupt:
            self.console.print("\n[yellow]" + gettext("Interrupted.") + "[/]")
            self.interrupted = True
        finally:
            self.finish()
        return self.state

    def say(self, lines: list[Line]) -> None:
        """Print narration lines (only the key ones when quiet)."""
        for line in lines:
            if line.key or not self.quiet:
                if isinstance(line.text, str):
                    self.console.print(line.text, highlight=False)
                else:
                    self.console.print(line.text)

    def finish(self) -> None:
        """Draw the end (if the game is over), give the result, save the record."""
        state = self.state
        if state.is_terminal():
            self.terminal.render(self.console, state, self.viewer)
            self.say(self.terminal.end_lines(state, self.viewer, self.last))
        if self.record_path is not None:
            labels = [s.label for s in self.seats]
            record = GameRecord.of_state(
                state, seats=labels, seed=self.seed, meta=self.terminal.record_meta()
            )
            path = record.write(self.record_path)
            self.console.print(
                gettext("Record saved to %(path)s") % {"path": path},
                highlight=False,
                soft_wrap=True,
            )

    def apply(self, seat: int, action: Any, info: str = "") -> None:
        """Apply ``action`` of ``seat``, tell the agents, narrate it (``info``: the computer's
        report)."""
        before = self.state.clone()
        for other in self.seats:
            if other.agent is not None:
                other.agent.observe(self.state, action)
        self.state.apply(action)
        self.last = Transition(before, action, seat)
        if not self.quiet:
            self.announce(seat, action, self.terminal.action_text(before, action), info)
        self.say(self.terminal.narrate(before, action, self.state, seat, self.viewer))

    def announce(self, seat: int, action: Any, text: str, info: str = "") -> None:
        """Print that ``seat`` took ``action`` (notation ``text``; ``info``: how sure the
        computer was). Runs just after the action is applied."""
        assert self.last is not None
        line = self.terminal.decision_line(self.last.before, action, seat, self.viewer, text)
        if info:
            line = f"{line} ({info})" if isinstance(line, str) else line
        self.console.print(line, highlight=False)

    def computer_turn(self, seat: int) -> None:
        """Let the agent of ``seat`` decide, then apply and narrate its decision."""
        agent = self.seats[seat].agent
        assert agent is not None
        started = time.perf_counter()
        if self.humans:
            with self.console.status(
                gettext("%(player)s is thinking...") % {"player": self.names[seat]}
            ):
                action = agent.choose(self.state)
        else:
            action = agent.choose(self.state)
        elapsed = time.perf_counter() - started
        info = describe_info(agent.last_info) if self.humans else ""
        if self.humans and elapsed > 0.5:
            info = (info + ", " if info else "") + f"{elapsed:.1f} s"
        self.apply(seat, action, info)
        if self.pause:
            time.sleep(self.pause)

    def human_turn(self, seat: int) -> bool:
        """Ask the person at ``seat`` for an action; False if they quit."""
        if self.terminal.private and len(self.humans) > 1 and self._screen_holder != seat:
            # Several people at one screen: hide the last hand before the next one looks.
            try:
                self.input(
                    gettext("[bold]Pass the screen to %(player)s[/] and press Enter ")
                    % {"player": self.names[seat]}
                )
            except EOFError:
                return False
            self.console.clear()
        self._screen_holder = seat
        self.terminal.render(self.console, self.state, seat)
        menu = self.terminal.menu(self.state, seat)
        if menu is not None:
            self.console.print(menu)
        while True:
            try:
                who = self.names[seat]
                prompt = (
                    gettext("Your move: ")
                    if is_you(who)
                    else gettext("%(player)s, your move: ") % {"player": who}
                )
                line = self.input(f"[bold]{prompt}[/]").strip()
            except EOFError:
                self.console.print("\n" + gettext("End of input."))
                return False
            if not line:
                continue
            word = line.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?", "h"):
                self.console.print(gettext(self.terminal.help_text), highlight=False)
                continue
            if word in ("moves", "legal", "l", "actions"):
                # one long line (no wrapping inside an action): the terminal folds it
                self.console.print(
                    self.terminal.moves_text(self.state), highlight=False, soft_wrap=True
                )
                continue
            if word in ("board", "show"):
                self.terminal.render(self.console, self.state, seat)
                continue
            if word == "undo":
                if self.undo(seat):
                    return True
                continue
            if self.terminal.command(self.console, self.state, seat, word):
                continue
            try:
                action = self.terminal.parse(self.state, line)
                if not self.state.is_legal(action):
                    self.state.clone().apply(action)  # raises with the reason
                before = self.state.clone()
                self.apply(seat, action)
            except NotationError as exc:
                self.console.print(
                    "[red]"
                    + gettext("Not understood:")
                    + "[/] "
                    + gettext("%(reason)s. Type help for help.") % {"reason": exc.reason},
                    highlight=False,
                )
                continue
            except IllegalActionError as exc:
                reason = self.terminal.illegal_reason(self.state, exc)
                self.console.print(
                    "[red]" + gettext("Illegal:") + f"[/] {reason}.", highlight=False
                )
                continue
            except LimitGamesError as exc:
                self.console.print("[red]" + gettext("Illegal:") + f"[/] {exc}.", highlight=False)
                continue
            self.undo_stack.append(_Undo(before, seat))
            return True

    def undo(self, seat: int) -> bool:
        """Take back the last decision of the person at ``seat`` and what followed it.

        Refused (with the reason) in games between people only, when there is
        nothing to take back, or when the game says something hidden was
        shown since. Returns whether the state went back.
        """
        if not self.can_undo:
            self.console.print(
                "[yellow]" + gettext("Undo is only for games against the computer.") + "[/]"
            )
            return False
        while self.undo_stack and self.undo_stack[-1].seat != seat:
            self.undo_stack.pop()
        if not self.undo_stack:
            self.console.print("[yellow]" + gettext("Nothing to undo.") + "[/]")
            return False
        target = self.undo_stack[-1]
        reason = None
        if self.state.revelations(seat) != target.before.revelations(seat):
            # the engine counts what each seat was shown (world: cards drawn, secret choices)
            reason = gettext(
                "since that decision you have seen what was hidden (cards drawn, or other "
                "players' secret choices); a decision is made without it"
            )
        if reason is None:
            reason = self.terminal.undo_refusal(target.before, self.state, seat)
        if reason is not None:
            self.console.print(
                "[yellow]" + gettext("Cannot undo:") + f"[/] {reason}.", highlight=False
            )
            return False
        self.undo_stack.pop()
        self.state = target.before
        self.last = None
        for other in self.seats:
            if other.agent is not None:
                other.agent.reset()
        self.console.print("[yellow]" + gettext("Took back your last decision.") + "[/]")
        return True


@dataclass
class PlaySetup:
    """What ``limit play GAME`` resolved from its options."""

    state: State
    seats: list[Seat]
    seed: int
    record_path: Path | None
    notes: list[str] = field(default_factory=list)


def resolve_play(
    game_id: str,
    new_state: Callable[[int], State],
    seat: Sequence[str] | None,
    opponent: str | None,
    seed: int | None,
    record: Path | None,
    no_record: bool,
    position: Path | None,
) -> PlaySetup:
    """The starting state, seats, seed and record path of a ``limit play`` command.

    ``new_state(seed)`` makes a new game; ``position`` (a record or a
    position file) replaces it. Without ``--seat`` a person takes the first
    seat; ``--opponent LEVEL`` sets the missing and computer seats.

    Raises:
        LimitGamesError: for a bad file, agent or level (one line).
        ValueError: for more seats than players.
    """
    from limitgames.core import fresh_seed

    if position is not None:
        state, recorded = load_start(game_id, position)
        seed = seed if seed is not None else recorded
    if seed is None:
        seed = fresh_seed()
    if position is None:
        state = new_state(seed)
    specs = list(seat or ["human"])
    default = "random"
    if opponent:
        default = level_spec(game_id, opponent)
        specs = [s if is_human_spec(s) else default for s in specs]
    seats = parse_seats(specs, state.num_players, default=default, seed=seed, game_id=game_id)
    path = None if no_record else (record or default_record_path(game_id))
    return PlaySetup(state, seats, seed, path)
