"""The world page's drawing (``web/world_html.py``) checked against the engine, not itself.

- Each nation board shows its nation's numbers as the observation dict holds them.
- What a seat sees depends only on what it may know: a re-deal of the cards it cannot
  see (``determinize``) draws exactly the same page for it, previews included.
- Choices and previews appear only on the page of the seat that decides.
- The end screen counts the rulebook's p23 example line by line (8 x 4 + 15 + 20 + 1 - 18 =
  50, written out in ``tests/world/test_referee.py``), and a whole game played through the
  hub ends with every nation's scorecard and a World3 debrief page.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from limitgames.core import get_game
from limitgames.web.views import render_view
from limitgames.world.state import WorldState
from tests.web.conftest import new_game, receive_until

FIELD = re.compile(r'data-field="([^"]+)"[^>]*>([^<]*)<')


def _played(seed: int, players: int, decisions: int) -> WorldState:
    state = get_game("world").new_initial_state(seed=seed, players=players)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, WorldState)
    return state


def _boards(html: str) -> dict[str, dict[str, str]]:
    """``{nation: {data-field: text}}`` of each nation board drawn in ``html``."""
    boards: dict[str, dict[str, str]] = {}
    for chunk in html.split('<article class="nation-board')[1:]:
        name = re.search(r'data-nation="([a-z]+)"', chunk)
        assert name is not None
        body = chunk.split("</article>")[0]
        boards[name.group(1)] = {k: v.strip() for k, v in FIELD.findall(body)}
    return boards


def _expected(view: dict[str, Any]) -> dict[str, str]:
    """What a printed nation board shows, read from the observation (``observe.nation_view``)."""
    out = {
        "population": view["population"]["value"],
        "unrest": view["unrest"],
        "shift_zone": view["shift_zone"],
        "fossil": view["fossil"],
        "money": view["money"],
        "territory": view["territory"],
        "pollution": view["pollution"],
        "disruption": view["disruption"],
        "hand_count": view["hand_count"],
    }
    out.update({f"sol.{c}": level for c, level in view["sol"].items()})
    out.update({f"plants.{p}": v["value"] for p, v in view["plants"].items()})
    out.update({f"stock.{p}": n for p, n in view["stock"].items()})
    out.update({f"deck_counts.{d}": n for d, n in view["deck_counts"].items()})
    return {k: str(v) for k, v in out.items()}


@pytest.mark.parametrize(("seed", "players", "decisions"), [(1, 2, 0), (2, 4, 60), (3, 6, 150)])
def test_each_nation_board_shows_the_observation(seed: int, players: int, decisions: int) -> None:
    state = _played(seed, players, decisions)
    seat = state.current_player()
    drawn = render_view(state, seat, perfect_information=False)
    observation = state.observation(seat)
    boards = _boards(drawn["board"])
    assert list(boards) == [v["name"] for v in observation["nations"]]
    for view in observation["nations"]:
        assert boards[view["name"]] == _expected(view), view["name"]
    # the hand drawn is the seat's own hand, card by card
    hand = re.findall(r'<li class="world-card[^"]*" data-card="([^"]+)"', drawn["board"])
    assert hand == observation["hand"]
    # the marketplace beside it
    for resource, market in observation["market"].items():
        row = drawn["side"].split(f'data-resource="{resource}"')[1].split("</tr>")[0]
        assert dict(FIELD.findall(row)) == {
            "price": str(market["price"]),
            "stock": str(market["stock"]),
        }


@pytest.mark.parametrize(("seed", "decisions"), [(4, 3), (5, 25), (6, 70), (7, 140)])
def test_a_seat_sees_the_same_page_whatever_it_cannot_see(seed: int, decisions: int) -> None:
    """Another nation's hand and every deck's order re-dealt: the seat's page is unchanged
    (its previews are made on a re-deal of exactly what it cannot see)."""
    state = _played(seed, 3, decisions)
    for seat in range(3):
        mine = render_view(state, seat, perfect_information=False)
        for deal in range(2):
            other = state.determinize(seat, random.Random(100 + deal))
            theirs = render_view(other, seat, perfect_information=False)
            assert theirs["board"] == mine["board"], (seat, deal)
            assert theirs["side"] == mine["side"]


def test_only_the_deciding_seat_gets_choices_and_previews() -> None:
    state = _played(8, 2, 0)
    while state.pending[-1].kind != "policy":
        state.apply(state.legal_actions()[0])
    seat = state.current_player()
    deciding = render_view(state, seat, perfect_information=False)["board"]
    waiting = render_view(state, 1 - seat, perfect_information=False)["board"]
    spectator = render_view(state, None, perfect_information=False)["board"]
    options = re.findall(r'class="action-button world-option" data-action="([^"]+)"', deciding)
    assert sorted(options) == sorted(state.action_to_string(a) for a in state.legal_actions())
    assert "Cards played this turn: 0 of 2." in deciding  # the rulebook's "2 by 2"
    assert 'class="card-now"' in deciding and "Now:" in deciding
    for page in (waiting, spectator):
        assert "world-option" not in page and "Now:" not in page
        assert f"Waiting for {state.seat_names()[seat]}:" in page
    assert "Your hand" not in spectator


def test_quantity_choices_are_number_inputs_over_the_whole_range() -> None:
    state = _played(9, 2, 0)
    rng = random.Random(9)
    while not state.action_forms():
        state.apply(rng.choice(state.legal_actions()))
    board = render_view(state, state.current_player(), perfect_information=False)["board"]
    found = re.findall(r'data-notation="([^"]+)" data-minimum="(\d+)" data-maximum="(\d+)"', board)
    assert found == [(f.notation, str(f.minimum), str(f.maximum)) for f in state.action_forms()]
    verbs = {f.verb for f in state.action_forms()}
    buttons = re.findall(r'world-option" data-action="([^"]+)"', board)
    assert not [b for b in buttons if b.split()[0] in verbs]  # no button per sampled amount


def test_the_end_screen_counts_the_rulebook_example_line_by_line() -> None:
    from limitgames.world.position import stress_test
    from tests.world.test_referee import rulebook_example

    state = stress_test(rulebook_example(), stress_tests=0)
    board = render_view(state, 0, perfect_information=False)["board"]
    circle = board.split('data-nation="circle" aria-label="Score of circle"')[1].split(
        "</section>"
    )[0]
    parts = dict(re.findall(r'data-part="(\w+)"><strong>[^<]*<span class="points">(-?\d+)', circle))
    # p23: GDH 8 x 4 = 32, money 154 / 10 x (5 - 4) = 15, 4 territories x 5 = 20,
    # 4 military / 3 = 1, 5 pollution x 2 + 8 disruption = -18; in all 50
    assert parts == {
        "happiness": "32",
        "financial": "15",
        "territory": "20",
        "military": "1",
        "impact": "-18",
    }
    assert 'data-total="50"' in circle
    assert "8 x 4 = 32" in circle and "154 $ / 10 = 15" in circle
    assert "crisis tile 4 was placed" in board


def test_a_whole_game_ends_with_the_scorecards_and_the_debrief(client: TestClient) -> None:
    people = [{"kind": "me"}, {"kind": "friend"}]
    game = new_game(client, "world", people, {"players": 2}, seed=None)
    assert client.get(f"/games/{game['id']}/debrief").status_code == 409  # not over yet
    rng = random.Random(5)
    hello = [{"seat": s, "token": game["tokens"][str(s)]} for s in (0, 1)]
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        receive_until(ws, lambda m: m["type"] == "view")
        ws.send_json({"type": "hello", "seats": hello})
        receive_until(ws, lambda m: m["type"] == "welcome")
        while True:
            view = receive_until(ws, lambda m: m["type"] in ("view", "error"), limit=50)
            assert view["type"] == "view", view
            if view["finished"]:
                break
            if view["your_turn"]:
                ws.send_json(
                    {"type": "act", "action": rng.choice(view["legal"]), "ply": view["ply"]}
                )
    scores = view["observation"]["scores"]
    for name, total in zip(("circle", "square"), scores, strict=True):
        card = view["board"].split(f'aria-label="Score of {name}"')[1].split("</section>")[0]
        points = [int(p) for p in re.findall(r'class="points">(-?\d+)<', card)]
        assert len(points) == 5 and sum(points) == total  # five lines adding up to the score
        assert f'data-total="{total}"' in card
    best = max(scores)
    winners = [n for n, s in zip(("circle", "square"), scores, strict=True) if s == best]
    outcome = view["end_screen"]["outcome"].lower()  # one screen plays both: in words
    assert all(name in outcome for name in winners)
    page = client.get(f"/games/{game['id']}/debrief")
    assert page.status_code == 200, page.text
    for title in ("Population", "Pollution", "Fossil and nonrenewable resources", "Production"):
        assert f"<h2>{title}</h2>" in page.text
    assert page.text.count('<svg xmlns="http://www.w3.org/2000/svg"') == 7  # inline, no image
    assert 'class="debrief-account"' in page.text and "nations played" in page.text
    assert "World3" in page.text
    replay = client.get(f"/api/games/{game['id']}/replay/40").json()  # a spectator's page
    assert replay["board"].count('<article class="nation-board') == 2
    # no hand section and no choices (the prompt may still say, publicly, that a nation must
    # discard: "Your hand is above your political action capacity")
    assert 'id="world-hand-title"' not in replay["board"]
    assert "world-option" not in replay["board"]
    hex_game = new_game(client, "hex", [{"kind": "me"}, {"kind": "friend"}], {})
    assert client.get(f"/games/{hex_game['id']}/debrief").status_code == 404
    assert client.get("/games/nosuchgame/debrief").status_code == 404
