"""Takebacks between people over the WebSocket (``web/takebacks.py``).

Expected results are reasoned by hand beside each test: a takeback asked by the seat
that made the game's last move and accepted by the other person leaves the game, its
stored record and every view (seats and spectators) as they were before that move.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from limitgames.core import get_game
from limitgames.web.takebacks import hidden_refusal
from tests.web.conftest import new_game
from tests.web.conftest import receive_error as _error
from tests.web.conftest import receive_view as _view
from tests.web.conftest import say_hello as _hello


def _board(view: dict[str, Any]) -> Any:
    """What the view shows of the position (the engine's observation)."""
    return view["observation"]


def test_a_hex_move_taken_back_with_the_opponents_consent(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], seed=5)
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        _hello(watcher, {})
        views = {0: _view(ws0), 1: _view(ws1)}
        start = _board(_view(watcher))
        seats = {0: ws0, 1: ws1}
        mover_seat = views[0]["to_move"]
        mover, other = seats[mover_seat], seats[1 - mover_seat]
        first = mine = views[mover_seat]
        # nothing to take back yet; a spectator may not ask
        mover.send_json({"type": "takeback"})
        assert "only your own move" in _error(mover)
        watcher.send_json({"type": "takeback"})
        assert "spectators cannot" in _error(watcher)
        mover.send_json({"type": "act", "action": mine["legal"][0]})
        moved = _view(mover, lambda m: m["ply"] == 1)
        assert moved["can_takeback"] and not _view(other, lambda m: m["ply"] == 1)["can_takeback"]
        # the seat that did not make the last move cannot ask; nor answer an offer not made
        other.send_json({"type": "takeback"})
        assert "only your own move" in _error(other)
        other.send_json({"type": "takeback", "answer": "accept"})
        assert "no takeback offer" in _error(other)
        mover.send_json({"type": "takeback"})
        asked = _view(other, lambda m: m["takeback_offer"] == mover_seat)
        assert asked["ply"] == 1
        assert _view(watcher, lambda m: m["takeback_offer"] == mover_seat)["ply"] == 1
        # the asker cannot accept its own offer; a spectator cannot accept it either
        mover.send_json({"type": "takeback", "answer": "accept"})
        assert "your own" in _error(mover)
        watcher.send_json({"type": "takeback", "answer": "accept"})
        assert "spectators cannot" in _error(watcher)
        other.send_json({"type": "takeback", "answer": "accept"})
        # every view goes back to the position before the move, the asker to move again
        back = _view(mover, lambda m: m["ply"] == 0)
        assert back["your_turn"] and back["takeback_offer"] is None and back["moves"] == []
        assert _board(back) == _board(first)
        assert _view(other, lambda m: m["ply"] == 0)["your_turn"] is False
        assert _board(_view(watcher, lambda m: m["ply"] == 0)) == start
    # the stored record ends as if the move had not been made
    record = client.get(f"/games/{game['id']}/record.json").json()
    assert record["actions"] == []


def test_a_takeback_declined_withdrawn_or_lapsed_changes_nothing(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], seed=5)
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        views = {0: _view(ws0), 1: _view(ws1)}
        seats = {0: ws0, 1: ws1}
        to_move = views[0]["to_move"]
        mover, other = seats[to_move], seats[1 - to_move]
        mine = views[to_move]
        mover.send_json({"type": "act", "action": mine["legal"][0]})
        _view(mover, lambda m: m["ply"] == 1)
        # declined: the offer is gone, the move stays
        mover.send_json({"type": "takeback"})
        _view(other, lambda m: m["takeback_offer"] is not None)
        other.send_json({"type": "takeback", "answer": "decline"})
        declined = _view(mover, lambda m: m["takeback_offer"] is None)
        assert declined["ply"] == 1
        # withdrawn by its asker (the other seat cannot withdraw it)
        mover.send_json({"type": "takeback"})
        _view(other, lambda m: m["takeback_offer"] is not None)
        other.send_json({"type": "takeback", "answer": "withdraw"})
        assert "no takeback offer of yours" in _error(other)
        mover.send_json({"type": "takeback", "answer": "withdraw"})
        assert _view(other, lambda m: m["takeback_offer"] is None)["ply"] == 1
        # lapsed: the seat to move (a hex turn may take more than one action) moves on
        mover.send_json({"type": "takeback"})
        offered = {
            ws: _view(ws, lambda m: m["takeback_offer"] is not None) for ws in (mover, other)
        }
        turn = next(ws for ws, view in offered.items() if view["your_turn"])
        turn.send_json({"type": "act", "action": offered[turn]["legal"][0]})
        lapsed = _view(other, lambda m: m["ply"] == 2)
        assert lapsed["takeback_offer"] is None
        other.send_json({"type": "takeback", "answer": "decline"})
        assert "no takeback offer" in _error(other)
    record = client.get(f"/games/{game['id']}/record.json").json()
    assert len(record["actions"]) == 2


def test_against_the_computer_a_takeback_is_refused_for_undo(client: TestClient) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "computer", "level": "random"}])
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        view = _view(ws, lambda m: m["your_turn"])
        ws.send_json({"type": "act", "action": view["legal"][0]})
        _view(ws, lambda m: m["ply"] >= 1)
        ws.send_json({"type": "takeback"})
        assert "use undo" in _error(ws)


def test_cards_a_hidden_card_may_be_taken_back_a_played_one_not() -> None:
    # rules/cards.md, "A round" 2: a hidden card tells the table only that a card was
    # hidden, and its seat only its own card: taking it back tells nobody anything.
    # 3: a played card is shown face up and a new one drawn: the table saw the card and
    # the seat the top of the pile, so it may not be taken back.
    state = get_game("cards").new_initial_state(seed=3, players=2)
    hides = []
    while state.current_player() is not None and not state.is_terminal():
        action = state.legal_actions()[0]
        notation = state.action_to_string(action)
        before = state.clone()
        state.apply(action)
        refusal = hidden_refusal("cards", before, state, notation)
        if notation.startswith("hide"):
            hides.append(refusal)
            continue
        assert notation.startswith("play"), notation
        assert refusal is not None and "showed something hidden" in refusal
        break
    assert hides and all(r is None for r in hides)  # two hidden cards each (2 players)


def test_world_decisions_are_never_taken_back() -> None:
    # the first decision of LIMIT (world) draws from a deck: the seat saw new cards
    state = get_game("world").new_initial_state(seed=3)
    before = state.clone()
    action = state.legal_actions()[0]
    notation = state.action_to_string(action)
    state.apply(action)
    assert hidden_refusal("world", before, state, notation) is not None


def test_cards_over_the_socket_a_hidden_card_back_a_played_one_refused(
    client: TestClient,
) -> None:
    # two people at cards (the server draws the seed): the first hidden card is taken back and
    # each seat's view is again what it was (nobody learnt anything); a played card is not
    game = new_game(client, "cards", [{"kind": "me"}, {"kind": "friend"}], {"players": 2}, None)
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
        client.websocket_connect(f"{game['url']}/ws") as watcher,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        _hello(watcher, {})
        sockets = {0: ws0, 1: ws1}
        views = {0: _view(ws0), 1: _view(ws1)}
        before = {s: _board(v) for s, v in views.items()}
        before_watcher = _board(_view(watcher))
        mover = views[0]["to_move"]
        other = 1 - mover
        hide = views[mover]["legal"][0]
        assert hide.startswith("hide"), hide  # rules/cards.md "A round" 2 comes first
        sockets[mover].send_json({"type": "act", "action": hide})
        _view(sockets[mover], lambda m: m["ply"] == 1)
        sockets[mover].send_json({"type": "takeback"})
        _view(sockets[other], lambda m: m["takeback_offer"] == mover)
        sockets[other].send_json({"type": "takeback", "answer": "accept"})
        back = {s: _view(sockets[s], lambda m: m["ply"] == 0) for s in (0, 1)}
        for seat in (0, 1):
            assert _board(back[seat]) == before[seat]
        assert _board(_view(watcher, lambda m: m["ply"] == 0)) == before_watcher
        # play on through the hidden cards (two each) to the first played card
        ply, view = 0, back[mover]
        assert view["your_turn"]
        while True:
            action = view["legal"][0]
            seat = view["seat"]
            sockets[seat].send_json({"type": "act", "action": action})
            ply += 1
            if action.startswith("play"):
                break
            for s in (0, 1):
                fresh = _view(sockets[s], lambda m, p=ply: m["ply"] == p)
                if fresh["your_turn"]:
                    view = fresh
        _view(sockets[seat], lambda m, p=ply: m["ply"] == p)
        sockets[seat].send_json({"type": "takeback"})
        assert "showed something hidden" in _error(sockets[seat])
