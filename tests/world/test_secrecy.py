"""Secrets stay secret: nothing a seat is shown depends on what it could not see at a table.

The check is a re-deal: ``determinize(seat, rng)`` deals again everything the seat cannot see
(the other nations' hands and drawn cards, the order of every deck, the choices others already
made in an open simultaneous step). Every observation, log line, legal action and every
command of the terminal app (board, moves, previews, cards, errors, undo, position) must read
the same on the real game and on two such re-deals. Reading the real deck order (the old
``preview deck society``) or another nation's hand makes them differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from limitgames.agents import make_agent
from limitgames.cli import world_play, world_view
from limitgames.cli.seats import Seat
from limitgames.cli.session import TerminalSession
from limitgames.core import NotationError
from limitgames.world.state import SEQUENTIAL_STAGES, WorldState
from tests.world.scenario import at_policy, new_state, set_board


def _positions() -> Iterator[WorldState]:
    """Every 6th decision of the first two generations of three seeded games (2-4 nations)."""
    for players, seed in ((2, 1), (3, 5), (4, 9)):
        state = new_state(players, seed=seed)
        rng = random.Random(seed)
        k = 0
        while not state.is_terminal() and state.generation <= 2:
            if k % 6 == 0:
                yield state.clone()
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            k += 1


def _candidate_lines(state: WorldState) -> list[str]:
    """Commands a person could type that do not commit a decision (legal actions are previewed)."""
    seat = state.current_player()
    lines = ["help", "moves", "board", "log", "card education", "card nonsense", "undo"]
    lines += ["position secret.json", "preview nonsense", "play"]
    lines += [f"preview {state.action_to_string(a)}" for a in state.legal_actions()]
    lines += [
        f"preview {f.notation.replace('N', str(f.maximum + 1))}" for f in state.action_forms()
    ]
    for cid in sorted(state.data.cards):
        for verb in ("keep", "discard", "play", "recall", "withdraw"):
            lines.append(f"{verb} {cid}")
    lines += ["deck society", "spend 99", "buy 999 fossil", "target " + state.name(seat)]
    out = []
    for line in lines:
        try:
            action = state.parse_action(line)
        except NotationError:
            out.append(line)
            continue
        if line.split()[0] == "play" or not state.is_legal(action):
            out.append(line)  # a legal play is previewed and then declined below
    return out


def _terminal_output(state: WorldState, lines: list[str], tmp: Path) -> str:
    seat = state.current_player()
    console = Console(record=True, width=200, color_system=None)
    script = iter(lines)

    def read(prompt: str) -> str:
        line = next(script, None)
        if line is None:
            raise EOFError
        return line

    agents = [
        Seat("human") if i == seat else Seat("random", make_agent("random", 1))
        for i in range(state.num_players)
    ]
    session = _world_session(console, state.clone(), agents, world_view.render, tmp / "record.json")
    session.input = world_play.WorldInput(
        console, lambda: session.state, _declining(read), confirm=True
    )
    session.run()
    return console.export_text()


def _declining(read: Callable[[str], str]) -> Callable[[str], str]:
    """Answer every ``Play it? [Y/n]`` with no, so a play is previewed and never made."""

    def answer(prompt: str) -> str:
        if prompt.startswith("Play it?"):
            return "n"
        return read(prompt)

    return answer


def _same_for_every_seat(state: WorldState) -> None:
    for seat in range(state.num_players):
        for k in (1, 2):
            other = state.determinize(seat, random.Random(k))
            assert other.observation(seat) == state.observation(seat)
            assert other.log_lines(seat) == state.log_lines(seat)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
                assert other.action_forms() == state.action_forms()
            else:
                for action in state.legal_actions():
                    assert other.announcement(action, seat) == state.announcement(action, seat)


@pytest.mark.slow  # every position of several games, each told in the terminal three times (144 s under load)
def test_nothing_a_seat_sees_depends_on_what_it_cannot_see(tmp_path: Path) -> None:
    kinds: set[str] = set()
    veiled = 0
    for state in _positions():
        kinds.add(state.pending[-1].kind)
        veiled += bool(set(state.veil) - {state.current_player()})
        _same_for_every_seat(state)
        seat = state.current_player()
        lines = _candidate_lines(state)
        real = _terminal_output(state, lines, tmp_path)
        for k in (1, 2):
            redealt = state.determinize(seat, random.Random(k))
            assert _candidate_lines(redealt) == lines
            assert _terminal_output(redealt, lines, tmp_path) == real
    # the sample holds the leaks of old: a deck to choose blind, cards kept, others' hidden choices
    assert {"deck", "keep", "policy", "discard"} <= kinds
    assert veiled > 0


def test_a_deck_preview_does_not_name_the_cards_drawn() -> None:
    state = new_state(2, seed=3)
    assert state.pending[-1].kind == "deck"
    top = set(state.nations[state.current_player()].decks["society"][:5])
    text = "\n".join(world_view.preview_lines(state, ("deck", "society")))
    assert "draws 5 from the society deck" in text
    assert "you see the cards drawn" in text
    assert not any(card in text for card in top)
    names = {state.data.cards[c].name for c in top}
    assert not any(name in text for name in names)


def _world_session(*args: Any, **kwargs: Any) -> TerminalSession:
    """The terminal session ``limit play world`` runs (the world terminal's secret choices)."""
    return TerminalSession(*args, terminal=world_play.WorldTerminal(args[3]), **kwargs)


def _session(state: WorldState, lines: list[str], tmp: Path) -> str:
    console = Console(record=True, width=200, color_system=None)
    script = iter(lines)

    def read(prompt: str) -> str:
        line = next(script, None)
        if line is None:
            raise EOFError
        return line

    seat = state.current_player()
    seats = [
        Seat("human") if i == seat else Seat("random", make_agent("random", 2))
        for i in range(state.num_players)
    ]
    session = TerminalSession(
        console,
        state,
        seats,
        world_view.render,
        tmp / "r.json",
        input_fn=read,
        terminal=world_play.WorldTerminal(world_view.render),
    )
    session.input = world_play.WorldInput(console, lambda: session.state, read, confirm=False)
    session.run()
    return console.export_text()


def test_undo_after_a_draw_is_refused(tmp_path: Path) -> None:
    state = new_state(2, seed=3)
    out = _session(state, ["deck society", "undo"], tmp_path)
    assert "Cannot undo: since that decision you have seen what was hidden" in out
    assert "Took back" not in out


def test_undo_of_a_decision_that_showed_nothing_is_allowed(tmp_path: Path) -> None:
    state = new_state(2, seed=3)
    n = at_policy(state, 0, ["public-expenditure", "education"])
    set_board(n, population=4, money=12, unrest=6)
    out = _session(state, ["play public-expenditure", "undo"], tmp_path)
    assert "Took back your last decision" in out


def test_the_close_of_a_simultaneous_step_is_a_revelation() -> None:
    # new policy: the first nation draws (a revelation to it alone) and keeps a card; it learns
    # nothing more until the last nation has chosen and the step closes (one more revelation)
    state = new_state(2, seed=3)
    first = state.current_player()
    second = 1 - first
    state.apply(("deck", "society"))
    assert (state.revelations(first), state.revelations(second)) == (1, 0)
    while state.current_player() == first:
        state.apply(state.legal_actions()[0])
    assert state.stage == "new_policy" and state.stage not in SEQUENTIAL_STAGES
    assert (state.revelations(first), state.revelations(second)) == (1, 0)
    state.apply(("deck", "military"))
    assert (state.revelations(first), state.revelations(second)) == (1, 1)
    while state.current_player() == second and state.stage == "new_policy":
        state.apply(state.legal_actions()[0])
    assert state.stage != "new_policy"
    assert (state.revelations(first), state.revelations(second)) == (2, 2)


def _new_phase_positions() -> Iterator[WorldState]:
    """The alliance step and allies asked for help (4 nations, alliances on by default), and solo
    mode (the event pile): up to 3 decisions of each alliance choice kind from two seeded games,
    and every 5th decision of the first two generations of a solo game."""
    seen: dict[str, int] = {}
    for seed in (9, 11):
        state = new_state(4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.generation <= 4:
            kind = state.pending[-1].kind
            if (
                kind in ("alliance", "answer", "fee", "ask", "aid", "break")
                and seen.get(kind, 0) < 3
            ):
                seen[kind] = seen.get(kind, 0) + 1
                yield state.clone()
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    state = new_state(2, seed=2, solo=True)
    rng = random.Random(2)
    k = 0
    while not state.is_terminal() and state.generation <= 2:
        if k % 5 == 0:
            yield state.clone()
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        k += 1


@pytest.mark.slow  # every alliance step and solo position told in the terminal (59 s under load)
def test_alliance_steps_and_solo_show_nothing_hidden(tmp_path: Path) -> None:
    kinds: set[str] = set()
    solo = 0
    for state in _new_phase_positions():
        kinds.add(state.pending[-1].kind)
        solo += state.solo
        _same_for_every_seat(state)
        seat = state.current_player()
        lines = [*_candidate_lines(state)[:40], "offer military square", "aid 99", "ask"]
        real = _terminal_output(state, lines, tmp_path)
        for k in (1, 2):
            redealt = state.determinize(seat, random.Random(k))
            assert _terminal_output(redealt, lines, tmp_path) == real
    assert {"alliance", "answer", "fee"} <= kinds and solo > 0
