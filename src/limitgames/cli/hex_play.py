"""``limit play hex`` and ``limit bench hex``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from limitgames.core import LimitGamesError, State, fresh_seed, get_game
from limitgames.hex.game import HexGame
from limitgames.hex.layout import generate_layout
from limitgames.hex.state import HexState

console = Console()


def _fail(message: str) -> typer.Exit:
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(1)


def opponent_spec(game_id: str, level: str) -> str:
    """The agent spec of a difficulty level (easy / medium / hard / expert) for ``game_id``."""
    from limitgames import agents

    level_spec = getattr(agents, "level_spec", None)
    if level_spec is None:
        raise LimitGamesError(
            "difficulty levels are not available in this version; use --seat SPEC"
        )
    return str(level_spec(game_id, level))


def render_for_person(console: Console, state: State, seat: int | None) -> None:
    """Draw the surface; on a person's removal step, mark the removable tiles with ``*``."""
    from limitgames.cli.hex_view import render

    assert isinstance(state, HexState)
    highlight: list[str] = []
    if not state.is_terminal() and state.step == "remove":
        highlight = [state.action_to_string(a)[2:] for a in state.legal_actions()]
    render(console, state, seat, highlight)


def play_hex(
    edition: Annotated[
        str, typer.Option(help="nestorgames (random coloured layout) or 2008 (placement phase).")
    ] = "nestorgames",
    players: Annotated[int, typer.Option(help="2 or 3 players.")] = 2,
    size: Annotated[int, typer.Option(help="Tiles per colour and pawns per player (2-16).")] = 8,
    colours: Annotated[
        str,
        typer.Option(
            help="random: colours dealt to the seats by chance (red moves first); fixed: seat order."
        ),
    ] = "random",
    seat: Annotated[
        list[str] | None,
        typer.Option(
            help="Who plays each seat, in order: human, human:NAME, random, or an agent spec (mcts:seconds=1). Repeat per seat."
        ),
    ] = None,
    opponent: Annotated[
        str | None,
        typer.Option(help="Fill the computer seats with a level: easy, medium, hard, expert."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the layout and of the computer players.")
    ] = None,
    position: Annotated[
        Path | None,
        typer.Option(help="Start from a position file (position JSON) instead of a new layout."),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(help="Where to save the game record (default records/hex-<time>.json)."),
    ] = None,
    pause: Annotated[float, typer.Option(help="Seconds to wait after each computer move.")] = 0.0,
) -> None:
    """Play Browne's Limit in the terminal. With no human seat the computer plays a whole game."""
    from limitgames.cli.session import TerminalSession, default_record_path, parse_seats

    game = get_game("hex")
    seed = fresh_seed() if seed is None else seed
    try:
        if position is not None:
            try:
                data = json.loads(position.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise LimitGamesError(f"{position}: cannot read the position: {exc}") from None
            state = game.state_from_position(data)
        else:
            state = game.new_initial_state(
                seed=seed, edition=edition, players=players, size=size, colours=colours
            )
        specs = list(seat or [])
        if not specs:
            specs = ["human"]
        default = opponent_spec("hex", opponent) if opponent else "random"
        if opponent:
            specs = [s if s.startswith("human") else default for s in specs]
        seats = parse_seats(specs, state.num_players, default=default, seed=seed)
    except (LimitGamesError, ValueError) as exc:
        raise _fail(str(exc)) from None
    names = state.seat_names()
    console.print(
        f"[bold]Limit[/] (Cameron Browne), {state.variant['edition']} edition, {state.num_players} players, "
        f"size {state.variant['size']}, seed {seed}.",
        highlight=False,
    )
    console.print(", ".join(f"{names[i]}: {s.label}" for i, s in enumerate(seats)), highlight=False)
    if any(s.is_human for s in seats):
        console.print("Type help for the commands. Moves: c4-e5, removals: x d4.", highlight=False)
    session = TerminalSession(
        console,
        state,
        seats,
        render_for_person,
        record or default_record_path("hex"),
        seed=seed,
        pause=pause,
    )
    session.run()


def bench_layouts(n: int, players: int, seconds: float, rng: random.Random) -> tuple[int, float]:
    """Layouts generated in about ``seconds``: ``(count, elapsed seconds)``."""
    count = 0
    start = time.perf_counter()
    while True:
        generate_layout(n, players, rng)
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count, elapsed


def bench_playouts(
    edition: str, players: int, size: int, seconds: float, rng: random.Random, pool: int = 200
) -> dict[str, Any]:
    """Uniformly random playouts from pre-generated starts for about ``seconds``.

    Returns ``{"games", "decisions", "elapsed", "wins": [per seat], "draws"}``.
    """
    game = get_game("hex")
    assert isinstance(game, HexGame)
    if edition == "nestorgames":
        starts: list[HexState] = [
            game.state_from_layout(
                generate_layout(size, players, rng), {"players": players, "size": size}
            )
            for _ in range(pool)
        ]
    else:
        starts = [
            game.new_initial_state(
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


def bench_hex(
    edition: Annotated[str, typer.Option(help="nestorgames or 2008.")] = "nestorgames",
    players: Annotated[int, typer.Option(help="2 or 3.")] = 2,
    size: Annotated[int, typer.Option(help="Tiles per colour (2-16).")] = 8,
    seconds: Annotated[float, typer.Option(help="Seconds of playouts to time.")] = 10.0,
    seed: Annotated[int, typer.Option(help="Seed of the layouts and playouts.")] = 1,
    threads: Annotated[
        int,
        typer.Option(
            help="Also time the batch kernel (many games at once) on this many cores; 0: skip.",
            min=0,
        ),
    ] = 0,
) -> None:
    """Random playouts per second, decisions per second, results, and layouts per second.

    The first figures come from single games played one after another on one
    core (what a search does); with --threads N the batch kernel also plays
    512 games at a time on N cores.
    """
    try:
        get_game("hex").info.resolve_variant({"edition": edition, "players": players, "size": size})
    except LimitGamesError as exc:
        raise _fail(str(exc)) from None
    rng = random.Random(seed)
    console.print(
        f"hex {edition}, {players} players, size {size}: timing {seconds:g} s of random playouts..."
    )
    result = bench_playouts(edition, players, size, seconds, rng)
    table = Table(title="limit bench hex", title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    el = result["elapsed"]
    table.add_row("playouts per second", f"{result['games'] / el:,.0f}")
    table.add_row("decisions per second", f"{result['decisions'] / el:,.0f}")
    table.add_row("decisions per game", f"{result['decisions'] / result['games']:.1f}")
    table.add_row("games played", f"{result['games']:,}")
    names = ("red", "blue", "yellow") if edition == "nestorgames" else ("white", "red", "black")
    for s in range(players):
        table.add_row(f"{names[s]} wins", f"{100 * result['wins'][s] / result['games']:.1f}%")
    table.add_row("draws", f"{100 * result['draws'] / result['games']:.1f}%")
    if threads and edition == "nestorgames":
        try:
            batch = bench_batch(players, size, seconds, threads, rng)
        except ValueError as exc:
            raise _fail(str(exc)) from None
        table.add_row(
            f"batch playouts per second, {threads} thread(s)",
            f"{batch['games'] / batch['elapsed']:,.0f}",
        )
        table.add_row(
            f"batch decisions per second, {threads} thread(s)",
            f"{batch['decisions'] / batch['elapsed']:,.0f}",
        )
    if edition == "nestorgames":
        count, lel = bench_layouts(size, players, max(1.0, seconds / 4), rng)
        table.add_row("layouts per second", f"{count / lel:,.0f}")
    console.print(table)


def bench_batch(
    players: int, size: int, seconds: float, threads: int, rng: random.Random, games: int = 512
) -> dict[str, Any]:
    """Random playouts of ``games`` games at a time with the batch kernel on ``threads`` cores.

    Returns ``{"games", "decisions", "elapsed"}``. Raises ValueError for a bad thread count.
    """
    from limitgames.hex.batch import HexBatch, set_threads

    game = get_game("hex")
    assert isinstance(game, HexGame)
    starts = [
        game.state_from_layout(
            generate_layout(size, players, rng), {"players": players, "size": size}
        )
        for _ in range(64)
    ]
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
