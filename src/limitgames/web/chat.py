"""The chat of a live game: two channels, the seats' and the spectators'.

A connection receives only its own channel's messages: a seat writes to and
reads the seats' channel, a spectator the spectators'. The text is stored and
sent as plain text (control and bidirectional-override characters removed;
clients show it as text, never as HTML), no faster than
``ServerLimits.chat_per_minute`` per connection and per game.
"""

from __future__ import annotations

import json
import re
from typing import Any

from limitgames.translation import gettext
from limitgames.web.connection import Connection
from limitgames.web.database import Database
from limitgames.web.live_game import LiveGame
from limitgames.web.refusals import RefusedError, TooManyError
from limitgames.web.storage import CHANNEL_SEATS, CHANNEL_SPECTATORS
from limitgames.web.viewers import Viewers

CHAT_HISTORY = 50
"""How many earlier chat messages of its channel a connection gets when it says hello."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Control and bidirectional-override characters, removed from chat text."""


def clean_chat(text: str) -> str:
    """Chat text as stored and sent: control characters removed, spaces trimmed.

    The text is kept as plain text (clients show it as text, never as HTML).

    Raises:
        ValueError: nothing is left.
    """
    cleaned = _CONTROL.sub("", text).strip()
    if not cleaned:
        raise ValueError(gettext("the chat message is empty"))
    return cleaned


def chat_author(live: LiveGame, seat: int) -> str:
    """The name a seat's chat lines carry: the name typed in the lobby (else the seat's own).

    A name another seat shares gets what tells them apart: the seat's own
    name in the game (hex's colours, world's nations: ``Ann (red)``), else
    its number (``Ann (seat 2)``, :meth:`LiveGame.seat_names`).
    """
    label = live.seats[seat].label
    if not label:
        return live.state.seat_names()[seat]
    if not any(s.seat != seat and s.label == label for s in live.seats):
        return label
    own = live.seat_names()[seat]
    return own if own.startswith(label) else f"{label} ({own})"


class ChatService:
    """The chat of one server process's games (see the module docstring).

    Args:
        database: where messages are stored.
        viewers: whom they are sent to (and the other server processes).
    """

    def __init__(self, database: Database, viewers: Viewers) -> None:
        self.database = database
        self.viewers = viewers

    async def start(self, live: LiveGame, connection: Connection) -> None:
        """Put a connection that said hello in its channel and send it that channel's history."""
        channel = CHANNEL_SEATS if connection.seats else CHANNEL_SPECTATORS
        connection.chat_channel = channel
        history = await self.database.run(
            self.database.store.chat_history, live.id, channel, CHAT_HISTORY
        )
        await connection.send({"type": "chat", "history": True, "messages": history})

    async def post(self, live: LiveGame, connection: Connection, text: str) -> None:
        """Store a chat message and send it to the connections of the sender's channel.

        A seat writes to the seats' channel, a spectator to the spectators';
        neither ever receives the other's. Raises :class:`RefusedError`
        before a hello, when the text is empty, or beyond the chat rate
        (``ServerLimits.chat_per_minute``, per connection and per game and channel).
        """
        channel = connection.chat_channel
        if channel is None:
            raise RefusedError(gettext("say hello first (the page does): chat is per channel"))
        try:
            cleaned = clean_chat(text)
        except ValueError as exc:
            raise RefusedError(str(exc)) from None
        # the seats and the spectators each have their own budget in a game: spectators
        # chatting as fast as they may never leave the players without theirs
        game_bucket = live.chat_bucket if channel == CHANNEL_SEATS else live.spectator_chat_bucket
        if not connection.chat_bucket.take() or not game_bucket.take():
            raise TooManyError(gettext("you are chatting too fast: wait a moment"))
        if channel == CHANNEL_SEATS:
            writer = min(connection.seats)
            seat: int | None = writer
            author = chat_author(live, writer)
        else:
            seat, author = None, "spectator"
        message = await self.database.run(
            self.database.store.add_chat, live.id, channel, seat, author[:64], cleaned
        )
        self.deliver(live, channel, message)
        self.viewers.share(live, {"kind": "chat", "channel": channel, "message": message})

    def deliver(self, live: LiveGame, channel: str, message: dict[str, Any]) -> None:
        """Queue a stored chat message to this server's connections of ``channel``."""
        text_out = json.dumps({"type": "chat", "history": False, "messages": [message]})
        for other in list(live.connections):
            if other.chat_channel == channel:
                other.push(text_out)


__all__ = ["CHAT_HISTORY", "ChatService", "chat_author", "clean_chat"]
