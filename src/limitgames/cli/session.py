"""A game at the terminal: people and computer seats, input, undo, records.

Generic over the protocol; each game supplies how to draw its state. Used by
``limit play <game>``.

- A human seat types actions in the game's notation. ``help`` lists the
  commands, ``moves`` the legal actions, ``undo`` takes back the last own
  decision (and the computer's replies) in games against the computer,
  ``quit`` stops and saves the record.
- A computer seat is any agent spec (``random``, ``mcts:seconds=1``...); it
  thinks behind a spinner and says how sure it is when the agent reports it.
- The record is saved at the end, on ``quit``, on end of input and on Ctrl-C.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from limitgames.agents import Agent, make_agent
from limitgames.core import GameRecord, IllegalActionError, NotationError, State

Renderer = Callable[[Console, State, "int | None"], None]


@dataclass
class Seat:
    """Who plays a seat: a person (``agent is None``) or an agent."""

    label: str
    agent: Agent | None = None

    @property
    def is_human(self) -> bool:
        return self.agent is None


def parse_seats(
    specs: Sequence[str], players: int, default: str = "random", seed: int | None = None
) -> list[Seat]:
    """Seats from ``--seat`` options: ``human`` / ``human:NAME`` or an agent spec; missing seats get ``default``.

    Raises:
        AgentSpecError: for an unknown agent or option.
        ValueError: for more seats than players.
    """
    if len(specs) > players:
        raise ValueError(f"{len(specs)} seats given for a {players}-player game")
    seats: list[Seat] = []
    for i, spec in enumerate([*specs, *[default] * (players - len(specs))]):
        if spec == "human" or spec.startswith("human:"):
            seats.append(Seat(spec))
        else:
            seats.append(Seat(spec, make_agent(spec, None if seed is None else seed * 7919 + i)))
    return seats


def default_record_path(game_id: str) -> Path:
    """``records/<game>-<UTC time>.json`` in the current directory."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"{game_id}-{stamp}.json"


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


class TerminalSession:
    """Runs one game in the terminal.

    Args:
        console: where to draw.
        state: the starting state.
        seats: one per seat.
        render: draws the state as a seat sees it.
        record_path: where to save the record.
        seed: the game's seed, written into the record.
        input_fn: reads a line (defaults to ``console.input``); raises EOFError at end of input.
    """

    def __init__(
        self,
        console: Console,
        state: State,
        seats: list[Seat],
        render: Renderer,
        record_path: Path,
        seed: int | None = None,
        input_fn: Callable[[str], str] | None = None,
        pause: float = 0.0,
    ) -> None:
        self.console = console
        self.state = state
        self.seats = seats
        self.render = render
        self.record_path = record_path
        self.seed = seed
        self.input = input_fn or (lambda prompt: console.input(prompt))
        self.pause = pause
        self.undo_stack: list[State] = []
        humans = [i for i, s in enumerate(seats) if s.is_human]
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.can_undo = bool(humans) and any(not s.is_human for s in seats)

    # --- the loop -------------------------------------------------------------
    def run(self) -> State:
        """Play until the end or until the person quits; save the record; return the final state."""
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player()
                if self.seats[seat].is_human:
                    if not self.human_turn(seat):
                        break
                else:
                    self.computer_turn(seat)
        except KeyboardInterrupt:
            self.console.print("\n[yellow]Interrupted.[/]")
        finally:
            self.finish()
        return self.state

    def finish(self) -> None:
        state = self.state
        if state.is_terminal():
            self.render(self.console, state, self.viewer)
        labels = [s.label for s in self.seats]
        record = GameRecord.of_state(state, seats=labels, seed=self.seed)
        path = record.write(self.record_path)
        self.console.print(f"Record saved to {path}", highlight=False, soft_wrap=True)

    def announce(self, seat: int, action: Any, text: str, info: str = "") -> None:
        name = self.state.seat_names()[seat]
        suffix = f" ({info})" if info else ""
        self.console.print(f"[bold]{name}[/] plays {text}{suffix}", highlight=False)

    def secret_choice_words(self) -> str:
        """How a computer's secret choice (``announcement`` is ``None``) is announced."""
        return "a hidden choice"

    def computer_turn(self, seat: int) -> None:
        agent = self.seats[seat].agent
        assert agent is not None
        name = self.state.seat_names()[seat]
        started = time.perf_counter()
        with self.console.status(f"{name} ({self.seats[seat].label}) is thinking..."):
            action = agent.choose(self.state)
        text = self.state.announcement(action, self.viewer)
        if text is None:
            text = self.secret_choice_words()
        info = describe_info(agent.last_info)
        elapsed = time.perf_counter() - started
        if elapsed > 0.5:
            info = (info + ", " if info else "") + f"{elapsed:.1f} s"
        for other in self.seats:
            if other.agent is not None:
                other.agent.observe(self.state, action)
        self.state.apply(action)
        self.announce(seat, action, text, info)
        if self.pause:
            time.sleep(self.pause)

    def human_turn(self, seat: int) -> bool:
        """Ask the person for an action; False if they quit."""
        self.render(self.console, self.state, seat if self.viewer is None else self.viewer)
        name = self.state.seat_names()[seat]
        while True:
            try:
                line = self.input(f"[bold]{name}[/] > ").strip()
            except EOFError:
                self.console.print("\nEnd of input.")
                return False
            if not line:
                continue
            word = line.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?", "h"):
                self.show_help()
                continue
            if word in ("moves", "legal", "l", "actions"):
                self.show_moves()
                continue
            if word in ("board", "show"):
                self.render(self.console, self.state, seat)
                continue
            if word == "undo":
                if self.undo():
                    return True
                continue
            try:
                action = self.state.parse_action(line)
                before = self.state.clone()
                for other in self.seats:
                    if other.agent is not None:
                        other.agent.observe(self.state, action)
                self.state.apply(action)
            except NotationError as exc:
                self.console.print(
                    f"[red]Not understood:[/] {exc.reason}. Type help for help.", highlight=False
                )
                continue
            except IllegalActionError as exc:
                self.console.print(f"[red]Illegal:[/] {exc.reason}.", highlight=False)
                continue
            self.undo_stack.append(before)
            return True

    def show_moves(self) -> None:
        """The legal actions; for a quantity, its whole range (the list holds a sample)."""
        forms = self.state.action_forms()
        actions = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        if forms:
            ranges = "  ".join(f"{f.notation} (N {f.minimum}-{f.maximum})" for f in forms)
            self.console.print(f"Quantities: {ranges}", highlight=False)
            self.console.print("Examples: " + "  ".join(actions), highlight=False)
            return
        self.console.print(f"{len(actions)} legal: " + "  ".join(actions), highlight=False)

    def undo(self) -> bool:
        if not self.can_undo:
            self.console.print("[yellow]Undo is for games against the computer.[/]")
            return False
        if not self.undo_stack:
            self.console.print("[yellow]Nothing to undo.[/]")
            return False
        before = self.undo_stack[-1]
        people = [i for i, s in enumerate(self.seats) if s.is_human]
        if any(self.state.revelations(i) != before.revelations(i) for i in people):
            self.console.print(
                "[yellow]Cannot undo: since that decision you have seen what was hidden "
                "(cards drawn, or other nations' secret choices); a decision is made without it.[/]",
                highlight=False,
            )
            return False
        self.state = self.undo_stack.pop()
        for seat in self.seats:
            if seat.agent is not None:
                seat.agent.reset()
        self.console.print("[yellow]Took back your last decision.[/]")
        return True

    def show_help(self) -> None:
        self.console.print(
            "Type an action in notation (moves lists them), or:\n"
            "  moves   list the legal actions\n"
            "  board   draw the position again\n"
            "  undo    take back your last decision (against the computer)\n"
            "  quit    stop and save the record",
            highlight=False,
        )
