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

The seats and their names are in :mod:`limitgames.cli.seats`, the options the
commands share in :mod:`limitgames.cli.options`, and what a ``limit play``
command starts from (state, seats, seed, record path) in
:mod:`limitgames.cli.play_setup`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from limitgames.cli.seats import Seat, is_you, name_seats, phrase
from limitgames.core import (
    TERMINAL,
    GameRecord,
    IllegalActionError,
    LimitGamesError,
    NotationError,
    State,
    seed_commitment,
)
from limitgames.translation import N_, gettext

Renderer = Callable[[Console, State, "int | None"], None]


def describe_info(info: dict[str, Any]) -> str:
    """An agent's report in words (visit share, win estimate, iterations), shown with
    ``--analysis`` only."""
    parts = []
    if "share" in info:
        parts.append(
            gettext("%(share)s of visits") % {"share": f"{100 * float(info['share']):.0f}%"}
        )
    if "value" in info:
        estimate = f"{100 * (float(info['value']) + 1) / 2:.0f}%"
        parts.append(gettext("win estimate %(estimate)s") % {"estimate": estimate})
    if "iterations" in info:
        parts.append(gettext("%(count)s iterations") % {"count": info["iterations"]})
    if "depth" in info:
        parts.append(gettext("depth %(depth)s") % {"depth": info["depth"]})
    return ", ".join(parts)


def seed_heading(seed: int) -> str:
    """What a game of hidden cards says of its seed at the start: only the commitment
    (:func:`~limitgames.core.seed_commitment`), since the seed re-deals every hand and the draw
    pile; the seed itself is shown at the end (:meth:`TerminalSession.finish`)."""
    return gettext("Seed committed as SHA-256 %(commitment)s (the seed is shown at the end).") % {
        "commitment": seed_commitment(seed)
    }


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

    def after_record(self, path: Path) -> list[Line]:
        """Lines printed once the record of a finished game is saved at ``path`` (e.g. the
        command that studies it); none by default."""
        return []

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
        analysis: after each computer decision, say how it searched (:func:`describe_info`).
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
        analysis: bool = False,
    ) -> None:
        self.console = console
        self.analysis = analysis
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
        self._told_since_hand_over: list[RenderableType] = []
        """What the table was told since the last hand-over (everybody may see it: with
        several people ``viewer`` is ``None``), repeated on the hand-over screen."""

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
                self._keep_for_hand_over(line.text)
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
        if self.seed is not None and (state.is_terminal() or not self.terminal.private):
            self.console.print(
                gettext(
                    "Seed: %(seed)s (SHA-256 %(commitment)s; limit play --seed %(seed)s "
                    "deals this game again)."
                )
                % {"seed": self.seed, "commitment": seed_commitment(self.seed)},
                highlight=False,
                soft_wrap=True,
            )
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
            if state.is_terminal():
                self.say(self.terminal.after_record(path))

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
            if isinstance(line, str):
                line = f"{line} ({info})"
            elif isinstance(line, Text):
                line = Text.assemble(line, f" ({info})")
        self._keep_for_hand_over(line)
        self.console.print(line, highlight=False)

    def _keep_for_hand_over(self, text: RenderableType) -> None:
        """Keep a public line for the next hand-over screen (only when people share the
        screen, when lines are told to everybody)."""
        if self.viewer is None and len(self.humans) > 1:
            self._told_since_hand_over.append(text)

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
        info = describe_info(agent.last_info) if self.analysis else ""
        if self.analysis and elapsed > 0.5:
            info = (info + ", " if info else "") + f"{elapsed:.1f} s"
        self.apply(seat, action, info)
        if self.pause:
            time.sleep(self.pause)

    def human_turn(self, seat: int) -> bool:
        """Ask the person at ``seat`` for an action; False if they quit."""
        sharing = self.terminal.private and len(self.humans) > 1
        if sharing and self._screen_holder != seat and not self.hand_over(seat):
            return False
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

    def clear_screen(self) -> None:
        """Clear the screen and, on a terminal, its scrollback (``ESC [3J``), so that what the
        last person saw cannot be scrolled back to."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def hand_over(self, seat: int) -> bool:
        """Several people at one screen, hidden cards: clear the screen, show a neutral
        hand-over screen (nobody's hand, no hidden card: only what the table was told since the
        last hand-over, which everybody may know) and wait for Enter; then clear it again for
        the next person's view. ``False`` at end of input."""
        self.clear_screen()
        self.console.rule(gettext("Hand-over"))
        for text in self._told_since_hand_over:
            self.console.print(text, highlight=False)
        self._told_since_hand_over = []
        try:
            self.input(
                gettext("[bold]Pass the screen to %(player)s[/] and press Enter ")
                % {"player": self.names[seat]}
            )
        except EOFError:
            return False
        self.clear_screen()
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
