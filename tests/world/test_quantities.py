"""Quantity actions are legal over their whole range, and every caller accepts them.

``legal_actions()`` lists a sample of a long range (``sell 11 renewable`` may be missing from
it); ``action_forms()`` declares each range and ``is_legal`` is exact. Whole games are played
through the engine, the terminal session and the web hub with amounts drawn uniformly from the
declared ranges: none may be refused (the web app once answered "sell 11 renewable ... not
among the legal actions").
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rich.console import Console

from limitgames.cli import world_play, world_view
from limitgames.cli.seats import Seat
from limitgames.core import AmountForm, State
from tests.world.scenario import new_state


def _pick(state: State, rng: random.Random) -> str:
    """A random decision; when quantities are open, usually an amount from a whole range."""
    forms = state.action_forms()
    if forms and rng.random() < 0.8:
        form = rng.choice(forms)
        amount = rng.randint(form.minimum, form.maximum)
        return state.action_to_string(form.action(amount))
    actions = state.legal_actions()
    return state.action_to_string(actions[rng.randrange(len(actions))])


def _check_form(state: State, form: AmountForm, rng: random.Random) -> None:
    inside = {form.minimum, form.maximum, rng.randint(form.minimum, form.maximum)}
    for amount in inside:
        assert state.is_legal(form.action(amount)), (form, amount)
    assert not state.is_legal((*form.prefix, form.maximum + 1, *form.suffix))
    assert not state.is_legal((*form.prefix, form.minimum - 1, *form.suffix))
    sample = [a for a in state.legal_actions() if a[: len(form.prefix)] == form.prefix]
    assert all(state.is_legal(a) for a in sample)


def test_whole_games_with_amounts_from_the_whole_range() -> None:
    seen = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (6, 4)):
        state = new_state(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for form in state.action_forms():
                _check_form(state, form, rng)
                seen += form.maximum - form.minimum >= 12  # a range longer than its listed sample
            state.apply_string(_pick(state, rng))
    assert seen > 0


def test_sell_any_quantity_in_range() -> None:
    # a nation with 40 renewable at the 4th price position (3 $) may sell 11 though the
    # listed sample (1-10 and a spread) does not hold 11
    from limitgames.world.market import start_trading
    from tests.world.scenario import at_policy, set_board

    state = new_state(2)
    n = at_policy(state, 0, ["market-access"])
    set_board(n, stock_renewable=40)
    state.market_price[0] = 4
    start_trading(state, n)
    state.pending.pop(-2)  # the trade choice is on top; drop the policy choice below it
    state._legal = None
    assert ("sell", 11, "renewable") not in state.legal_actions()
    assert state.is_legal(("sell", 11, "renewable"))
    sell = next(f for f in state.action_forms() if f.notation == "sell N renewable")
    assert (sell.minimum, sell.maximum) == (1, 40)
    state.apply(("sell", 11, "renewable"))
    assert n.stock[0] == 29 and n.money == 5 + 11 * 3


def test_a_whole_game_in_the_terminal_with_amounts_from_the_whole_range(tmp_path: Path) -> None:
    state = new_state(2, seed=8)
    rng = random.Random(8)
    console = Console(record=True, width=200, color_system=None)
    holder: dict[str, Any] = {}

    def read(prompt: str) -> str:
        if prompt.startswith("Play it?"):
            return "y"
        return _pick(holder["session"].state, rng)

    seats = [Seat("human"), Seat("human:ann")]
    session = world_play.make_session(
        console, state, seats, world_view.render, tmp_path / "game.json", input_fn=read
    )
    holder["session"] = session
    session.input = world_play.WorldInput(console, lambda: session.state, read, confirm=True)
    final = session.run()
    assert final.is_terminal()
    out = console.export_text()
    assert "Illegal" not in out and "Not understood" not in out
