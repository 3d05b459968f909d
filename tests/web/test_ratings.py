"""Glicko-2: the library against Glickman's worked example, the pairwise reduction by hand,
and the server's rating updates against the library's own computation on the same results."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from glicko2 import Player

from limitgames.web.ratings import Rating, pairwise_scores, rate_game
from tests.web.conftest import receive_until
from tests.web.people_client import Person, seek_and_accept


def test_the_library_reproduces_glickmans_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system" (2013): a player rated 1500, RD 200,
    # volatility 0.06 (tau 0.5) beats a 1400/30 and loses to 1550/100 and 1700/300;
    # the paper's answer: rating 1464.06, RD 151.52, volatility 0.05999
    player = Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.rating == pytest.approx(1464.06, abs=0.01)
    assert player.rd == pytest.approx(151.52, abs=0.01)
    assert player.vol == pytest.approx(0.05999, abs=0.00001)


def test_pairwise_scores_by_hand() -> None:
    # two seats, seat 0 wins: one game each way
    assert pairwise_scores([1.0, -1.0]) == {0: [(1, 1.0)], 1: [(0, 0.0)]}
    # three seats, seats 1 and 2 share the win (0 each), seat 0 lost (-1): seat 0 lost both
    # its games, 1 and 2 beat seat 0 and drew with each other
    assert pairwise_scores([-1.0, 0.0, 0.0]) == {
        0: [(1, 0.0), (2, 0.0)],
        1: [(0, 1.0), (2, 0.5)],
        2: [(0, 1.0), (1, 0.5)],
    }


def test_a_three_seat_game_is_each_seats_period_against_the_others() -> None:
    before = {0: Rating(1500, 200, 0.06), 1: Rating(1400, 30, 0.06), 2: Rating(1700, 300, 0.06)}
    after = rate_game(before, [1.0, -1.0, 0.0])  # seat 0 first, seat 2 second, seat 1 last
    # seat 0 beat both: the library on those two results, from the ratings before the game
    expected = Player(1500, 200, 0.06)
    expected.update_player([1400, 1700], [30, 300], [1, 1])
    assert after[0].rating == pytest.approx(expected.rating)
    assert after[0].deviation == pytest.approx(expected.rd)
    # seat 1 lost both; its rating falls, seat 2 (one win, one loss) ...
    assert after[1].rating < 1400
    lone = Player(1700, 300, 0.06)
    lone.update_player([1500, 1400], [200, 30], [0, 1])
    assert after[2].rating == pytest.approx(lone.rating)


def _view(ws: Any, predicate: Any = lambda m: True) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "view" and predicate(m))


def test_a_rated_game_moves_both_ratings_as_the_library_says(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    game = seek_and_accept(ann, bob, variant={"size": 3})
    with bob as c, c.websocket_connect(f"{game['url']}/ws") as ws:
        ws.send_json({"type": "hello", "seats": [{"seat": 1, "token": game["tokens"]["1"]}]})
        receive_until(ws, lambda m: m["type"] == "welcome")
        ws.send_json({"type": "resign"})
        assert _view(ws, lambda m: m["finished"])["returns"] == [1.0, -1.0]
    # new players (1500, 350, 0.06): Ann won her one game against Bob, Bob lost it
    winner, loser = Player(1500, 350, 0.06), Player(1500, 350, 0.06)
    winner.update_player([1500], [350], [1])
    loser.update_player([1500], [350], [0])
    with ann as c:
        page = c.get("/api/people/Ann").json()
        board = c.get("/api/leaderboard/hex").json()
    assert page["ratings"]["hex"]["rating"] == pytest.approx(winner.rating, abs=0.01)
    assert page["ratings"]["hex"]["deviation"] == pytest.approx(winner.rd, abs=0.01)
    assert page["ratings"]["hex"]["games"] == 1 and page["ratings"]["hex"]["provisional"]
    [entry] = page["games"]
    assert (entry["id"], entry["opponents"], entry["result"], entry["ending"]) == (
        game["id"],
        ["Bob"],
        "win",
        "resign",
    )
    assert entry["rating_before"] == 1500 and entry["rating_after"] == pytest.approx(
        winner.rating, abs=0.01
    )
    assert [(r["name"], r["rating"]) for r in board] == [
        ("Ann", pytest.approx(winner.rating, abs=0.01)),
        ("Bob", pytest.approx(loser.rating, abs=0.01)),
    ]
    # counted once: reading again changes nothing
    with bob as c:
        again = c.get("/api/people/Bob").json()
    assert again["ratings"]["hex"]["games"] == 1
    assert again["games"][0]["result"] == "loss"
    assert "Bob" in c.get("/leaderboard").text
    assert 'id="graph-hex"' in c.get("/people/Bob").text  # his rating graph: one step down


def test_a_casual_game_changes_no_rating(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    game = seek_and_accept(ann, bob, variant={"size": 3}, rated=False)
    with ann as c, c.websocket_connect(f"{game['url']}/ws") as ws:
        ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": game["tokens"]["0"]}]})
        receive_until(ws, lambda m: m["type"] == "welcome")
        ws.send_json({"type": "resign"})
        _view(ws, lambda m: m["finished"])
        page = c.get("/api/people/Ann").json()
    assert page["ratings"] == {}
    assert page["games"][0]["result"] == "loss" and not page["games"][0]["rated"]


def test_the_rating_graph_by_hand() -> None:
    from limitgames.web.account_pages import rating_graph

    # two points on a 320 x 120 drawing with a margin of 6 and 40 for the labels on the left:
    # the first (lowest) at the bottom left (40, 6 + 108), the second (highest) at the top
    # right (320 - 6, 6)
    svg = rating_graph([1500.0, 1662.3])
    assert 'points="40.0,114.0 314.0,6.0"' in svg
    assert ">1662</text>" in svg and ">1500</text>" in svg


def test_the_history_is_filtered_by_game(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    game = seek_and_accept(ann, bob, variant={"size": 3}, rated=False)
    page = client.get("/people/Ann?game=hex").text
    assert f'data-game-id="{game["id"]}"' in page
    page = client.get("/people/Ann?game=cards").text
    assert f'data-game-id="{game["id"]}"' not in page


def test_a_loss_on_time_counts_and_an_abandoned_game_does_not(
    client: TestClient, db_url: str
) -> None:
    from sqlalchemy import create_engine, text

    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    on_time = seek_and_accept(ann, bob, variant={"size": 3})
    abandoned = seek_and_accept(ann, bob, variant={"size": 3})
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    # Ann's clock ran out in a clock that makes a seat lose on time (end_screen.ENDING_TIME)
    assert store.end_game(on_time["id"], [-1.0, 1.0], "time:0")
    engine = create_engine(db_url)
    with engine.begin() as connection:  # nobody played the other for --abandon-hours
        connection.execute(
            text("UPDATE games SET status = 'abandoned' WHERE id = :g"), {"g": abandoned["id"]}
        )
    engine.dispose()
    person = client.get("/api/people/Ann").json()
    assert person["ratings"]["hex"]["games"] == 1
    endings = {g["id"]: (g["result"], g["ending"]) for g in person["games"]}
    assert endings == {on_time["id"]: ("loss", "time"), abandoned["id"]: (None, "abandoned")}
    assert "on time" in client.get("/people/Ann").text
