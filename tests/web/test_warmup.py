"""``web/warmup.py``: once every game has been played at start-up, playing through the
server loads no compiled kernel (none is loaded on the event loop during somebody's action).

Counted, not timed: the machine code Numba holds for every kernel function
(``Dispatcher.overloads``, one entry per compiled or cache-loaded signature)
in a fresh interpreter, before and after the warm-up, and after hex games
played through the app's WebSocket, to their end, one seat per connection.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from limitgames.web.warmup import play_every_game

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json, random, sys
    from fastapi.testclient import TestClient
    from numba.core.dispatcher import Dispatcher

    def loaded():
        kernels = {
            id(value): value
            for name, module in list(sys.modules.items())
            if name.startswith("limitgames.")
            for value in list(vars(module).values())
            if isinstance(value, Dispatcher)
        }
        return sum(len(kernel.overloads) for kernel in kernels.values())

    from limitgames.web.app import create_app
    from limitgames.web.warmup import play_every_game

    before = loaded()
    play_every_game()
    warmed = loaded()
    rng = random.Random(1)
    with TestClient(create_app("sqlite:///" + sys.argv[1])) as client:
        for variant in ({}, {"size": 8}):
            body = {"game": "hex", "variant": variant, "seats": [{"kind": "me"}, {"kind": "me"}],
                    "seed": 5}
            game = client.post("/api/games", json=body).json()
            with client.websocket_connect(game["url"] + "/ws") as ws:
                hello = [{"seat": s, "token": game["tokens"][str(s)]} for s in (0, 1)]
                ws.send_json({"type": "hello", "seats": hello})
                plies = 0
                while True:
                    message = ws.receive_json()
                    if message["type"] != "view" or message["ply"] < plies:
                        continue
                    if message["finished"]:
                        break
                    if not message["your_turn"]:
                        continue
                    action = rng.choice(message["legal"])
                    ws.send_json({"type": "act", "action": action, "ply": message["ply"]})
                    plies = message["ply"] + 1
    print(json.dumps({"before": before, "warmed": warmed, "after": loaded()}))
    """
)


def test_every_game_is_played_to_its_end_or_the_bound() -> None:
    played = play_every_game(plies=30)
    assert set(played) >= {"hex", "cards", "world"}
    assert all(0 < count <= 30 for count in played.values())


@pytest.mark.slow
def test_after_the_warm_up_a_game_through_the_server_loads_no_kernel(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "games.sqlite3")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["before"] == 0  # a fresh interpreter: nothing loaded yet
    assert counts["warmed"] > 0  # the warm-up loaded the hex kernels
    assert counts["after"] == counts["warmed"]  # the games through the server loaded none more
