"""The outcome the server decides and its end screen, over the API and the WebSocket.

Expected values are reasoned by hand beside each test: the returns of an ending at the
table are ``resign_result``'s (+1 the one opponent left, -1 who resigned or ran out of
time), the sentences are the ones of ``core/outcome.py`` and the games' words modules read
by hand, and a web-stored record replays with ``limit replay``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from limitgames.cli.app import build_app
from limitgames.core import GameRecord, get_game
from limitgames.core.events import Termination
from limitgames.web.end_screen import outcome_of, score_table, stored_ending
from limitgames.web.live_game import build_state
from limitgames.web.storage import SeatInfo, StoredGame
from tests.web.conftest import new_game, receive_until
from tests.web.conftest import say_hello as _hello


def _stored(status: str, result: list[float] | None, ending: str | None) -> StoredGame:
    seats = [SeatInfo(seat=i, kind="human", label=f"p{i}", token_hash="0" * 64) for i in (0, 1)]
    return StoredGame(
        id="g1",
        game="toy-nim",
        variant={},
        seed=3,
        chance=[],
        rules_version="",
        status=status,
        result=result,
        seats=seats,
        ending=ending,
    )


def _view(ws: Any, predicate: Any = lambda m: True) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "view" and predicate(m), limit=400)


def test_endings_at_the_table_are_decided_from_what_is_stored() -> None:
    # nothing played yet: the pile is not empty, so the rules have not ended the game
    state = build_state(_stored("playing", None, None))
    assert outcome_of(_stored("playing", None, None), state) is None
    resigned = outcome_of(_stored("finished", [1.0, -1.0], "resign:1"), state)
    assert resigned is not None
    assert (resigned.termination, resigned.by, resigned.winners) == (
        Termination.RESIGNATION,
        1,
        (0,),
    )
    timed = outcome_of(_stored("finished", [-1.0, 1.0], "time:0"), state)
    assert timed is not None
    assert (timed.termination, timed.by, timed.winners) == (Termination.TIME_FORFEIT, 0, (1,))
    drawn = outcome_of(_stored("finished", [0.0, 0.0], "draw"), state)
    assert drawn is not None and drawn.termination is Termination.AGREED_DRAW and drawn.is_draw
    left = outcome_of(_stored("abandoned", None, None), state)
    assert left is not None
    # abandoned: nobody won, and no seat is blamed (nobody played for too long)
    assert (left.termination, left.by, left.winners) == (Termination.ABANDONMENT, None, ())
    assert stored_ending(2, Termination.TIME_FORFEIT) == "time:2"
    assert stored_ending(0, Termination.RESIGNATION) == "resign:0"


def test_a_cards_score_table_counts_points_less_two_per_limit_card() -> None:
    from limitgames.core.events import Outcome

    # rules/cards.md "End": score = points - 2 x limit cards taken; Ann 5 - 2x1 = +3, Bob 1 - 2x2 = -3
    outcome = Outcome(
        Termination.LIMIT_CARDS_TAKEN,
        returns=(1.0, -1.0),
        winners=(0,),
        scores=(3.0, -3.0),
        details={"points": [5, 1], "limit_cards": [["R2"], ["B3", "G1"]], "rounds": []},
    )
    table = score_table(outcome, "cards", ["Ann", "Bob"])
    assert table["columns"] == ["player", "points", "limit cards", "score"]
    assert [row[0] for row in table["rows"]] == ["Ann", "Bob"]
    assert [row[1] for row in table["rows"]] == ["5", "1"]
    assert [row[2] for row in table["rows"]] == ["1", "2"]
    assert [row[3] for row in table["rows"]] == ["+3", "-3"]
    assert table["winners"] == [0]


def _replay_cli(record: dict[str, Any], tmp_path: Path) -> str:
    """``limit replay`` on ``record`` (written to a file); its output, after checking it exits 0."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(build_app(), ["replay", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return str(result.output)


def test_a_time_out_ends_a_game_whose_clock_says_so(client: TestClient, tmp_path: Path) -> None:
    body = {
        "game": "toy-nim",
        "variant": {},
        "seats": [{"kind": "me"}, {"kind": "me"}],
        "seed": 3,
        "clock": {"kind": "move", "seconds": 1, "away": 0, "forfeit": True},
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    game = response.json()
    with (
        client.websocket_connect(f"{game['url']}/ws") as ws0,
        client.websocket_connect(f"{game['url']}/ws") as ws1,
    ):
        _hello(ws0, {0: game["tokens"]["0"]})
        _hello(ws1, {1: game["tokens"]["1"]})
        # seat 0 moves first in nim and never does: its second runs out, it loses (-1), seat 1 wins
        ended = _view(ws1, lambda m: m["finished"])
        assert ended["returns"] == [-1.0, 1.0]
        assert ended["ending"] == {"kind": "time", "seat": 0}
        assert ended["outcome"]["termination"] == "time_forfeit"
        assert ended["outcome"]["by"] == 0 and ended["outcome"]["winners"] == [1]
        names = [p["name"] for p in ended["players"]]
        screen = ended["end_screen"]
        assert screen["outcome"] == "You won"
        assert screen["reason"] == f"{names[0]}'s clock ran out: {names[1]} wins."
        mine = _view(ws0, lambda m: m["finished"])["end_screen"]
        assert mine["outcome"] == "You lost" and mine["reason"] == "Your clock ran out: " + (
            f"{names[1]} wins."
        )
        assert ended["players"][0]["zombie"] is None  # it lost: the computer does not play it on
    record = client.get(f"/games/{game['id']}/record.json").json()
    assert record["outcome"]["termination"] == "time_forfeit" and record["result"] == [-1.0, 1.0]
    GameRecord.loads(json.dumps(record)).replay()  # a position the rules had not ended: accepted


def test_losing_on_time_needs_a_clock(client: TestClient) -> None:
    body = {
        "game": "toy-nim",
        "seats": [{"kind": "me"}, {"kind": "me"}],
        "clock": {"kind": "none", "forfeit": True},
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 422 and "losing on time needs a clock" in response.text


def test_a_resigned_hex_record_replays_with_limit_replay(
    client: TestClient, tmp_path: Path
) -> None:
    game = new_game(client, "hex", [{"kind": "me"}, {"kind": "me"}], {"size": 6})
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {0: game["tokens"]["0"]})
        ws.send_json({"type": "resign", "seat": 0})
        view = _view(ws, lambda m: m["finished"])
        # seat 0 resigned, told to its own page in the second person; seat 1 takes the win
        names = [p["engine_name"] for p in view["players"]]  # the colours (drawn in this game)
        assert view["end_screen"]["reason"] == f"You resigned: {names[1]} wins."
        assert view["end_screen"]["outcome"] == "You lost"
        assert view["end_screen"]["winners"] == f"Winner: {names[1]}"
    record = client.get(f"/games/{game['id']}/record.json").json()
    assert record["outcome"] == {
        "termination": "resignation",
        "returns": [-1.0, 1.0],
        "winners": [1],
        "by": 0,
    }
    out = _replay_cli(record, tmp_path)
    assert f"{names[0]} resigned: {names[1]} wins." in out


def test_a_finished_hex_record_carries_the_rules_outcome(
    client: TestClient, tmp_path: Path
) -> None:
    # two random computers play a size-4 board to its end on their own
    game = new_game(
        client, "hex", [{"kind": "computer", "level": "random"}] * 2, {"size": 4}, seed=11
    )
    with client.websocket_connect(f"{game['url']}/ws") as ws:
        _hello(ws, {})
        end = _view(ws, lambda m: m["finished"])
    record = client.get(f"/games/{game['id']}/record.json").json()
    outcome = record["outcome"]
    # an ending by the rules of hex (rules/hex.md, "End"), and the winners are the seats with
    # the best result, as the record's own result says
    assert outcome["termination"] in {"last_with_pawns", "table_emptied", "stalemate"}
    best = max(record["result"])
    assert outcome["winners"] == [s for s, r in enumerate(record["result"]) if r == best]
    assert end["outcome"] == outcome and end["end_screen"]["reason"]
    replayed = GameRecord.loads(json.dumps(record)).replay()  # checks termination and winners
    assert replayed.is_terminal()
    assert get_game("hex").info.id == "hex"
    _replay_cli(record, tmp_path)


def test_an_abandoned_game_ends_with_no_result(db_url: str) -> None:
    from limitgames.web.app import create_app
    from limitgames.web.limits import ServerLimits

    app = create_app(db_url, move_seconds=5.0, limits=ServerLimits(abandon_after=0.2))
    with TestClient(app) as client:
        game = new_game(client, "toy-nim", [{"kind": "me"}, {"kind": "friend"}])
        with client.websocket_connect(f"{game['url']}/ws") as ws:
            _hello(ws, {0: game["tokens"]["0"]})
            # nobody acts for 0.2 s: the server abandons the game (docs/web.md: no result)
            ended = _view(ws, lambda m: m["game_status"] == "abandoned")
        screen = ended["end_screen"]
        assert screen["outcome"] == "No result" and screen["winners"] == "Nobody won"
        assert screen["reason"] == (
            "Nobody played for too long: the game was abandoned, with no result."
        )
        assert ended["outcome"]["termination"] == "abandonment"
        assert ended["can_rematch"] is False
        record = client.get(f"/games/{game['id']}/record.json").json()
    assert record["result"] is None and record["outcome"]["termination"] == "abandonment"
    GameRecord.loads(json.dumps(record)).replay()  # an unfinished game: its outcome is not read
