"""Takebacks and presence across two server processes (two hubs joined by the in-memory
broker of ``test_scaleout.py``): what one process is told, the other's table follows."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from limitgames.web.live import Connection
from limitgames.web.messages import NewGame, SeatChoice
from tests.deadlines import scaled
from tests.web.test_scaleout import two_hubs


def _last_view(connection: Connection) -> dict[str, object]:
    """The newest view queued to ``connection`` (the queue emptied)."""
    view: dict[str, object] = {}
    while not connection.queue.empty():
        message = json.loads(connection.queue.get_nowait())
        if message["type"] == "view":
            view = message
    return view


def test_a_takeback_asked_on_one_process_is_accepted_on_the_other(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            game_id, _tokens = await a.create(
                NewGame(game="hex", variant={"size": 4}, seats=[SeatChoice(kind="me")] * 2, seed=3)
            )
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            red, blue, watcher = Connection(), Connection(), Connection()
            red.seats, blue.seats = frozenset({0}), frozenset({1})
            live_a.connections.add(red)
            live_b.connections.update({blue, watcher})
            first = live_a.state.current_player()
            mover = red if first == 0 else blue
            hub, live = (a, live_a) if mover is red else (b, live_b)
            start = live_b.state.observation(None)
            action = live.state.action_to_string(live.state.legal_actions()[0])
            await hub.act(live, mover, action, 0)
            await broker.flush()
            assert live_a.notations == live_b.notations == [action]
            # asked on the mover's process; the other process knows the offer
            await hub.takebacks.answer(live, mover, "ask")
            await broker.flush()
            assert live_a.takeback_offer == live_b.takeback_offer == (first, 1)
            assert _last_view(watcher)["takeback_offer"] == first
            # accepted on the other seat's process: both go back, the record too
            other, other_hub, other_live = (blue, b, live_b) if mover is red else (red, a, live_a)
            await other_hub.takebacks.answer(other_live, other, "accept")
            await broker.flush()
            assert live_a.notations == live_b.notations == []
            assert live_a.takeback_offer is None and live_b.takeback_offer is None
            assert live_b.state.observation(None) == start
            assert _last_view(watcher)["ply"] == 0
            stored = await a.db(a.store.load_game, game_id)
            assert stored is not None and stored.actions == []

    asyncio.run(run())


def test_presence_here_away_gone_across_two_processes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            seats = [SeatChoice(kind="me"), SeatChoice(kind="friend")]
            game_id, tokens = await a.create(NewGame(game="hex", variant={"size": 4}, seats=seats))
            live_a, live_b = await a.get(game_id), await b.get(game_id)
            assert live_a is not None and live_b is not None
            watcher = Connection()
            live_b.connections.add(watcher)
            # nobody has opened the game: both seats gone
            assert live_b.seat_presence() == ["gone", "gone"]
            red = Connection()
            live_a.connections.add(red)
            await a.join(live_a, red, [(0, tokens[0])])
            await broker.flush()
            # red's page is open on A: here, on B too (told through the broker)
            assert live_b.seat_presence() == ["here", "gone"]
            assert _last_view(watcher)["presence"] == ["here", "gone"]
            # red's page is hidden: away, pushed to B's spectator
            await a.presence.note(live_a, red, True)
            await broker.flush()
            assert live_b.seat_presence() == ["away", "gone"]
            assert _last_view(watcher)["presence"] == ["away", "gone"]
            await a.presence.note(live_a, red, False)
            await broker.flush()
            assert _last_view(watcher)["presence"] == ["here", "gone"]
            # red closes the page: gone
            a.detach(live_a, red)
            await broker.flush()
            assert live_b.seat_presence() == ["gone", "gone"]
            assert _last_view(watcher)["presence"] == ["gone", "gone"]

    asyncio.run(run())


def test_a_seek_change_on_one_process_wakes_the_lobby_feeds_of_the_other(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"

    async def run() -> None:
        async with two_hubs(url) as (broker, hubs):
            a, b = hubs
            waiting = asyncio.create_task(b.viewers.lobby.wait(3600.0))
            await asyncio.sleep(0)  # the feed of B waits for a change
            a.viewers.lobby.touch()  # a seek posted, accepted or withdrawn on A
            await broker.flush()
            await asyncio.wait_for(waiting, scaled(30))

    asyncio.run(run())
