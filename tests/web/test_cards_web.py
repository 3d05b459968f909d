"""Cards in the browser, through the API and the websocket: the lobby's names, computer pacing.

Issue 12 ("cards"): the lobby numbers seats 1-4 and asks for a name; the game
page must use that name (not the engine's ``seat 0``), and computer seats must
leave a person time to see each of their actions.
"""

from __future__ import annotations

import asyncio
import json
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx
from fastapi.testclient import TestClient
from websockets.asyncio.client import connect

from limitgames.cards.words import limit_card_words
from limitgames.core import Chance, get_game
from limitgames.web.app import create_app
from limitgames.web.limits import ServerLimits
from tests.deadlines import scaled
from tests.web.conftest import ThreadServer, new_game, receive_until


def _play_to_the_end(ws: Any, token: str) -> list[dict[str, Any]]:
    """Play seat 0 (the last legal action each turn); return every view received."""
    ws.receive_json()
    ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": token}]})
    views: list[dict[str, Any]] = []
    while True:
        view = receive_until(ws, lambda m: m["type"] == "view" and m["seats"] == [0])
        views.append(view)
        if view["finished"]:
            return views
        if view["your_turn"]:
            ws.send_json({"type": "act", "action": view["legal"][-1], "ply": view["ply"]})


def test_the_lobby_names_are_used_everywhere_on_the_cards_page(client: TestClient) -> None:
    answer = new_game(
        client,
        "cards",
        [
            {"kind": "me", "name": "Ada"},
            {"kind": "computer", "level": "random"},
            {"kind": "friend"},
        ],
        {"players": 3},
        seed=None,
    )
    with client.websocket_connect(f"{answer['url']}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": answer["tokens"]["0"]}]})
        view = receive_until(ws, lambda m: m["type"] == "view" and m["seats"] == [0])
    # Ada typed her name; the computer and the unnamed friend are numbered 1-3 like the lobby
    assert [p["name"] for p in view["players"]] == ["Ada", "seat 2", "seat 3"]
    assert "Ada (you)" in view["board"] and "Ada" in view["side"]
    page = view["board"] + view["side"] + view["status"]
    assert not re.search(r"seat 0\b", page), "the engine's 0-based seat names leaked"


def test_a_whole_game_says_the_names_and_never_seat_0(client: TestClient) -> None:
    answer = new_game(
        client,
        "cards",
        [{"kind": "me", "name": "Ada"}, {"kind": "computer", "level": "random"}],
        {"players": 2},
        seed=11,
    )
    with client.websocket_connect(f"{answer['url']}/ws") as ws:
        views = _play_to_the_end(ws, answer["tokens"]["0"])
    last = views[-1]
    # the computer plays at random: any result, but said with the names
    assert re.fullmatch(
        r"Game over: (Ada wins|seat 2 wins|Ada and seat 2 share the win|draw)\.", last["status"]
    ), last["status"]
    # Ada is the lobby's seat 1 and the computer its seat 2: "seat 0" and "seat 1" never appear
    for view in views:
        text = view["board"] + view["side"] + view["status"]
        assert not re.search(r"seat [01]\b", text), text
    # every reveal names who suspected whom by these names
    reveals = re.findall(r"(Ada|seat 2) suspects (Ada|seat 2)\. Counted", last["side"])
    assert len(reveals) == last["side"].count("suspects") >= 1
    replay = client.get(f"/api/games/{answer['id']}/replay/1").json()
    assert replay["names"] == ["Ada", "seat 2"]
    # the replay's last step: the limit cards of the rounds in words, never as codes (026X1)
    plies = replay["plies"]
    end = client.get(f"/api/games/{answer['id']}/replay/{plies}").json()
    codes = [r["limit_card"] for r in last["observation"]["rounds"]]
    assert codes and all(code not in end["side"] for code in codes)
    assert end["side"].count("limit card: red ") == len(codes)
    assert "Ada" in end["side"] and not re.search(r"seat [01]\b", end["side"] + end["status"])


def test_a_limit_card_in_words() -> None:
    # by hand, colour order red yellow green blue purple (rules/cards.md, "Material"; X: no limit)
    assert limit_card_words("026X1") == "red 0, yellow 2, green 6, blue no limit, purple 1"
    assert limit_card_words("X3035") == "red no limit, yellow 3, green 0, blue 3, purple 5"
    assert limit_card_words("bad") == "bad"


def test_the_words_agree_with_the_engine_s_own_limit_card() -> None:
    state = get_game("cards").new_initial_state(chance=Chance(seed=1), players=2)
    observation = state.observation(None)
    expected = ", ".join(
        f"{colour} {'no limit' if value == 'X' else value}"
        for colour, value in observation["limit_card"].items()
    )
    assert limit_card_words(observation["limit_card_code"]) == expected


PAUSE = 0.4
"""The computer pause of the pacing test (seconds); ``limit serve`` uses 0.8, the other tests 0."""


def test_computers_pause_between_decisions_without_blocking_other_games(db_url: str) -> None:
    """Against a computer, each computer decision arrives at least ``PAUSE`` after the one before
    (the person sees it); meanwhile another game's people are answered at once (asyncio sleep)."""
    app = create_app(db_url, move_seconds=5.0, limits=ServerLimits(computer_pause=PAUSE))
    with (
        ThreadServer(app) as server,
        httpx.Client(base_url=server.base, timeout=scaled(60)) as http,
    ):
        paced = new_game(
            http,
            "cards",
            [{"kind": "me", "name": "Ada"}, {"kind": "computer", "level": "random"}],
            {"players": 2},
            seed=3,
        )
        people = new_game(
            http, "cards", [{"kind": "me"}, {"kind": "friend"}], {"players": 2}, seed=None
        )

        async def scenario() -> tuple[list[float], list[float]]:
            gaps: list[float] = []  # computer decision: seconds since the decision before it
            answers: list[float] = []  # the other game: seconds until my action is shown
            async with (
                connect(f"{server.ws_base}{paced['url']}/ws", open_timeout=scaled(20)) as a,
                connect(f"{server.ws_base}{people['url']}/ws", open_timeout=scaled(20)) as b,
            ):
                await a.send(json.dumps({"type": "hello", "seats": _claims(paced, [0])}))
                await b.send(json.dumps({"type": "hello", "seats": _claims(people, [0, 1])}))
                other = await _next_view(b, lambda v: v["your_turn"])
                seen: dict[int, float] = {}
                mine: set[int] = set()
                while len(gaps) < 6:
                    view = await _next_view(a, lambda v: v["seats"] == [0] and v["ply"] not in seen)
                    now = time.monotonic()
                    seen[view["ply"]] = now
                    if view["ply"] > 0 and view["ply"] not in mine and view["ply"] - 1 in seen:
                        gaps.append(now - seen[view["ply"] - 1])
                    if view["finished"]:
                        break
                    if view["your_turn"]:
                        mine.add(view["ply"] + 1)
                        await a.send(
                            json.dumps(
                                {"type": "act", "action": view["legal"][0], "ply": view["ply"]}
                            )
                        )
                    elif not other["finished"]:
                        # the computer of game a is pausing now: game b must not wait for it
                        started = time.monotonic()
                        ply = other["ply"]
                        await b.send(
                            json.dumps({"type": "act", "action": other["legal"][0], "ply": ply})
                        )
                        other = await _next_view(
                            b,
                            lambda v, ply=ply: v["ply"] > ply and (v["your_turn"] or v["finished"]),
                        )
                        answers.append(time.monotonic() - started)
            return gaps, answers

        gaps, answers = asyncio.run(scenario())
    assert len(gaps) >= 3, gaps
    # the client's clock sees the server's pause plus the delay of one message less that of
    # the one before: on a busy machine a view read late makes one gap short and the next one
    # long, so their mean is what shows the pause (without it: a few milliseconds)
    assert statistics.mean(gaps) >= PAUSE - 0.1, gaps
    # game b's answers come at once; had the pause of game a blocked the server, most would
    # have waited for the rest of it (nearly the whole pause: b acts as a's computer starts)
    assert answers and statistics.median(answers) < PAUSE / 2, answers


def _claims(game: dict[str, Any], seats: list[int]) -> list[dict[str, Any]]:
    return [{"seat": s, "token": game["tokens"][str(s)]} for s in seats]


async def _next_view(ws: Any, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next ``view`` message of ``ws`` satisfying ``predicate`` (at most 10 s away, scaled)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=scaled(10)))
        if message["type"] == "view" and predicate(message):
            return dict(message)
