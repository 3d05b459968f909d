"""``limit play cards`` and ``limit bench cards``: Limits in the terminal.

Seats are people (``human`` or ``human:NAME``) or computer players (any agent
spec such as ``random`` or ``ismcts:seconds=1``, or a level: easy, medium,
hard, expert). Missing seats are filled with ``random``. With no human seat
the game plays unattended and is narrated. The game is recorded (at the end
or on Ctrl-C) so that ``limit replay FILE`` re-plays and checks it.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from limitgames.agents import Agent, is_level, level_spec, make_agent
from limitgames.cards import CARDS, CardsState
from limitgames.cards.notation import SUSPECT, action_name
from limitgames.cli import cards_view
from limitgames.core import GameRecord, LimitGamesError, NotationError, fresh_seed

console = Console()
err_console = Console(stderr=True)

HELP_TEXT = """Actions (one a turn; colours: red yellow green blue purple, or r y g b p):
  hide COLOUR        the hide step: put a hand card face down (2 players: twice)
  play COLOUR        put a card on the pile, then draw one
  exchange COLOUR    with four cards of one colour: +1 point, draw four, two go on
                     the pile and two face down on the draw pile
  suspect SEAT       a seat number or name: its last card exceeded the limit?
  pass               only when you can do nothing else
  NUMBER             the action of that number in the list shown
Commands: help, moves (the legal actions), board (show the table again),
  pile (the whole pile, only with --show-pile), quit (stop and save the record)"""


def _fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(1)


class Seat:
    """One seat of the table: a person or an agent."""

    def __init__(self, spec: str, name: str, agent: Agent | None) -> None:
        self.spec = spec
        self.name = name
        self.agent = agent

    @property
    def human(self) -> bool:
        """Whether a person plays this seat."""
        return self.agent is None


def make_seats(specs: list[str], players: int, seed: int, fill: str = "random") -> list[Seat]:
    """The seats from ``--seat`` options, padded with ``fill`` (an agent spec).

    A level (easy...expert) becomes its agent spec; people are named by
    ``human:NAME``, or "You" when alone, and agents get the rulebook's names.

    Raises:
        typer.BadParameter: for more seats than players.
        AgentSpecError: for an unknown agent or a bad option.
    """
    if len(specs) > players:
        raise typer.BadParameter(f"{len(specs)} --seat options for {players} players")
    specs = specs + [fill] * (players - len(specs))
    humans = sum(1 for s in specs if s.split(":", 1)[0].strip().lower() == "human")
    seats: list[Seat] = []
    for i, spec in enumerate(specs):
        head, _, rest = spec.partition(":")
        default = cards_view.RULEBOOK_NAMES[i]
        if head.strip().lower() == "human":
            name = rest.strip() or ("You" if humans == 1 else default)
            seats.append(Seat(f"human:{name}", name, None))
            continue
        agent_spec = level_spec("cards", spec) if is_level(spec) else spec
        agent = make_agent(agent_spec, seed=seed * 7919 + i)
        seats.append(Seat(agent_spec, default, agent))
    taken = [s.name.lower() for s in seats]
    for i, s in enumerate(seats):
        if taken.count(s.name.lower()) > 1:
            s.name = f"{s.name} {i}"  # two seats of one name: tell them apart by seat number
    return seats


def default_record_path(seed: int) -> Path:
    """``records/cards-YYYYmmdd-HHMMSS-SEED.json``."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"cards-{stamp}-{seed}.json"


def _read_action(state: CardsState, seat: Seat, names: list[str], show_pile: bool) -> int | None:
    """Ask the person at ``seat`` for an action; ``None`` means quit."""
    legal = state.legal_actions()
    listing = "  ".join(f"{k + 1}) {_action_label(a, names)}" for k, a in enumerate(legal))
    console.print(Text(listing, style="cyan"))
    while True:
        try:
            text = console.input(f"[bold]{seat.name}[/], your action: ").strip()
        except EOFError:
            return None
        low = text.lower()
        if not low:
            continue
        if low in ("quit", "exit", "q"):
            return None
        if low in ("help", "?", "h"):
            console.print(HELP_TEXT, highlight=False)
            continue
        if low in ("moves", "legal", "actions"):
            console.print(Text(listing, style="cyan"))
            continue
        if low == "board":
            cards_view.render(console, state, state.current_player(), show_pile, names)
            continue
        if low == "pile":
            if show_pile:
                pile = state.observation(state.current_player())["pile"]
                console.print(", ".join(f"{names[s]}: {c}" for s, c in pile) or "(empty)")
            else:
                console.print(
                    "The pile may not be looked through (start with --show-pile to allow it)."
                )
            continue
        if low.isdigit() and 1 <= int(low) <= len(legal):
            return _as_action(legal[int(low) - 1])
        words = low.split()
        if len(words) >= 2 and words[0] == "suspect":
            target = " ".join(words[1:])
            for s, name in enumerate(names):
                if name.lower() == target:
                    text = f"suspect {s}"
        try:
            action = state.parse_action(text)
        except NotationError as exc:
            console.print(f"[red]{exc.reason}[/] (type help)", highlight=False)
            continue
        if not state.is_legal(action):
            try:
                state.clone().apply(action)
            except LimitGamesError as exc:
                console.print(f"[red]{exc}[/]", highlight=False)
            continue
        return _as_action(action)


def _as_action(action: object) -> int:
    """A Limits action (an ``int``) from the protocol's ``Action``."""
    if not isinstance(action, int):
        raise TypeError(f"{action!r} is not a Limits action")
    return action


def _action_label(action: Any, names: list[str]) -> str:
    """An action for the menu: its notation, with the seat's name for a suspicion."""
    if SUSPECT <= action < SUSPECT + len(names):
        return f"suspect {action - SUSPECT} ({names[action - SUSPECT]})"
    return action_name(action)


def play_cards(
    players: Annotated[
        int, typer.Option("--players", "-n", min=2, max=6, help="Number of players (2-6).")
    ] = 4,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            "-s",
            metavar="SPEC",
            help="Who plays each seat, in order: human, human:NAME, an agent spec (random, "
            "ismcts:seconds=1...) or a level (easy...expert). Repeatable; missing seats are random.",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the shuffles (default: random).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", metavar="FILE", help="Where to save the game record (default: records/...)."
        ),
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save a record.")] = False,
    show_pile: Annotated[
        bool,
        typer.Option(
            "--show-pile", help="Show the whole pile (the physical game forbids looking)."
        ),
    ] = False,
    limit_cards: Annotated[
        Path | None,
        typer.Option(
            "--limit-cards", metavar="FILE", help="A JSON file with another set of limit cards."
        ),
    ] = None,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            metavar="LEVEL",
            help="Fill the computer seats with a level: easy, medium, hard, expert.",
        ),
    ] = None,
    pause: Annotated[
        float, typer.Option("--pause", min=0.0, help="Seconds to wait after each computer action.")
    ] = 0.0,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="Unattended games: print only each round's outcome."),
    ] = False,
) -> None:
    """Play Rosenberg's Limits in the terminal.

    Without --seat you play seat 0 against random players; give --seat for
    every seat you want to choose (no human seat: the computer plays alone).
    The limit cards are a reconstructed set (see docs/cards.md).
    """
    seed = fresh_seed() if seed is None else seed
    try:
        variant: dict[str, Any] = {"players": players}
        if limit_cards is not None:
            variant["limit_cards"] = str(limit_cards)
        state = CARDS.new_initial_state(seed=seed, **variant)
        fill = level_spec("cards", opponent) if opponent else "random"
        seats = make_seats(list(seat or ["human"]), players, seed, fill)
    except (LimitGamesError, typer.BadParameter) as exc:
        raise _fail(str(exc)) from None
    names = [s.name for s in seats]
    humans = [i for i, s in enumerate(seats) if s.human]
    viewer = humans[0] if len(humans) == 1 else None
    path = None if no_record else (record or default_record_path(seed))
    console.print(
        f"Limits, {players} players, seed {seed}. Seats: "
        + ", ".join(
            f"{i}: {s.name} ({'human' if s.human else s.spec})" for i, s in enumerate(seats)
        ),
        highlight=False,
    )
    quit_early = False
    interrupted = False
    try:
        quit_early = not _game_loop(state, seats, names, humans, viewer, show_pile, pause, quiet)
    except KeyboardInterrupt:
        console.print("\nInterrupted.")
        quit_early = interrupted = True
    finally:
        if path is not None:
            rec = GameRecord.of_state(
                state, seats=[s.spec for s in seats], seed=seed, meta={"names": names}
            )
            rec.write(path)
            console.print(f"Record saved to {path}", highlight=False)
    if quit_early:
        raise typer.Exit(130 if interrupted else 0)
    cards_view.render(console, state, viewer, show_pile, names, history=False)
    console.print(cards_view.result_text(state, names), style="bold green", highlight=False)


def _game_loop(
    state: CardsState,
    seats: list[Seat],
    names: list[str],
    humans: list[int],
    viewer: int | None,
    show_pile: bool,
    pause: float,
    quiet: bool,
) -> bool:
    """Play to the end; ``False`` if a person quit."""
    narrate = not (quiet and not humans)
    if narrate:
        console.print(cards_view.round_start_text(state.observation(None), names))
    last_turn_seat: int | None = None
    while not state.is_terminal():
        s = state.current_player()
        current = seats[s]
        if current.human:
            if len(humans) > 1 and last_turn_seat != s:
                # Several people at one screen: hide the last hand before the next one looks.
                console.input(f"[bold]Pass the screen to {current.name}[/] and press Enter ")
                console.clear()
            cards_view.render(console, state, s, show_pile, names)
            action = _read_action(state, current, names, show_pile)
            if action is None:
                return False
        else:
            assert current.agent is not None
            if humans:
                with console.status(f"{current.name} is thinking..."):
                    action = _as_action(current.agent.choose(state))
            else:
                action = _as_action(current.agent.choose(state))
        last_turn_seat = s
        for other in seats:
            if other.agent is not None:
                other.agent.observe(state, action)
        rounds_before = len(state.rounds)
        state.apply(action)
        if narrate:
            console.print(cards_view.describe_action(action, s, names, viewer), highlight=False)
            if not current.human and pause:
                time.sleep(pause)
        if len(state.rounds) > rounds_before:
            summary = state.rounds[-1]
            if narrate:
                console.print(cards_view.reveal_text(summary, names))
            console.print(
                f"Round {summary['round'] + 1}: " + cards_view.explain_round(summary, names),
                style="bold",
                highlight=False,
            )
            if not state.is_terminal() and narrate:
                console.print(cards_view.round_start_text(state.observation(None), names))
    return True


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


def bench_cards(
    players: Annotated[
        int, typer.Option("--players", "-n", min=2, max=6, help="Number of players.")
    ] = 4,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.1, help="How long to measure.")
    ] = 5.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random games.")] = 0,
) -> None:
    """Measure random Limits games per second on one process (setup and playout)."""
    result = measure_random_games(players, seconds, seed)
    console.print(
        f"cards, {players} players: {result['games']} random games in {result['seconds']:.2f} s = "
        f"{result['games_per_second']:.0f} games/s, {result['decisions_per_second']:.0f} decisions/s "
        f"({result['decisions_per_game']:.1f} decisions per game)",
        highlight=False,
    )
