"""The WebSocket and HTTP messages, validated with pydantic.

Client -> server, over ``/games/{id}/ws`` (JSON text frames, at most
:data:`MAX_MESSAGE_BYTES` bytes):

- ``{"type": "hello", "seats": [{"seat": 0, "token": "..."}]}``: say which
  seats this connection plays (an empty list, or no hello at all, is a
  spectator). Each token is checked in constant time; a wrong one is refused.
- ``{"type": "act", "action": "c3-e5", "ply": 12}``: take an action in
  notation for the seat to move; ``ply`` (optional) is the number of actions
  the client has seen, so a click on a stale position is refused.
- ``{"type": "undo"}``: take back your last decision (games against the
  computer only).
- ``{"type": "ping"}``: answered with ``{"type": "pong"}``.
- ``{"type": "resign", "seat": 0}``: resign (``seat`` may be left out when
  the connection plays one seat); the game ends (``live.resign_result``).
- ``{"type": "draw", "accept": true}``: offer a draw, or agree to the one
  offered (games that allow one: ``live.draw_allowed``); ``"accept": false``
  declines it. Any action withdraws an offer.
- ``{"type": "takeback", "answer": "ask"}``: ask the other people at the table to
  take back your move, the last one of the game (games between people; see
  ``takebacks.py`` for what each game allows); ``"accept"`` or ``"decline"``
  answers the offer of another seat, ``"withdraw"`` takes back one's own.
  Any move lets an offer lapse.
- ``{"type": "presence", "away": true}``: the page is hidden or its person gave no
  input for a while (``false``: back); each seat's presence is in the views
  (``LiveGame.seat_presence``).
- ``{"type": "rematch"}``: once the game is over, a seat asks for a rematch:
  a new game with the same settings, seats rotated (see ``live.GameHub.rematch``).
- ``{"type": "chat", "text": "..."}``: a chat message (at most
  :data:`MAX_CHAT_CHARS` characters) to the seats' channel, or to the
  spectators' channel from a spectator.
- ``{"type": "reclaim"}``: take back this connection's seats that the
  computer plays (zombie seats, see ``clocks.ClockService.reclaim``).

Server -> client: ``{"type": "view", ...}`` (see ``live.LiveGame.view_for``),
``{"type": "error", "message": "..."}`` (one line; the game is unchanged),
``{"type": "welcome", "seats": [...]}`` (with ``"tokens": {seat: token}`` when
an invited seat was opened for the first time: its token was replaced, keep
the new one), ``{"type": "pong"}``, ``{"type": "chat", "messages": [...], "history": bool}``
(messages of this connection's channel only), ``{"type": "rematch", "game_id":
"...", "tokens": {new seat: token}}`` (only the tokens of the seats this
connection played). Close codes: 4000 (reason ``resync``:
this client fell behind; reconnect for the current view), 1013 (refused by a
cap or the database: try again later), 4404 (no such game).

Lobby -> server: ``POST /api/games`` with :class:`NewGame`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from limitgames.translation import gettext as _

MAX_MESSAGE_BYTES = 4096
"""The largest client message accepted over the WebSocket (bytes of UTF-8)."""

MAX_ACTION_CHARS = 120
"""The longest action text accepted."""

MAX_CHAT_CHARS = 500
"""The longest chat message accepted, in characters."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class SeatToken(_Strict):
    """A seat and its secret token."""

    seat: int = Field(ge=0, le=15)
    token: str = Field(min_length=8, max_length=128)


class Hello(_Strict):
    """Which seats this connection plays; in a correspondence game, ``email`` is where
    reminders go (``correspondence.py``; never shown to anybody)."""

    type: Literal["hello"]
    seats: list[SeatToken] = Field(default_factory=list, max_length=16)
    email: str | None = Field(default=None, max_length=254)


class Act(_Strict):
    """An action in notation for the seat to move."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=MAX_ACTION_CHARS)
    ply: int | None = Field(default=None, ge=0)


class Undo(_Strict):
    """Take back the last decision of this connection's seat(s)."""

    type: Literal["undo"]


class Ping(_Strict):
    """Keep-alive."""

    type: Literal["ping"]


class Resign(_Strict):
    """Resign a seat this connection plays."""

    type: Literal["resign"]
    seat: int | None = Field(default=None, ge=0, le=15)


class Draw(_Strict):
    """Offer or agree to a draw (``accept``), decline the one offered, or ``withdraw`` one's own.

    ``{"type": "draw", "withdraw": true}`` takes back the offer of this
    connection's seats; ``accept`` may then be left out (or be ``false``).
    """

    type: Literal["draw"]
    accept: bool = True
    withdraw: bool = False

    @model_validator(mode="after")
    def _accept_or_withdraw(self) -> Draw:
        if self.withdraw and self.accept and "accept" in self.model_fields_set:
            raise ValueError("a draw message can either accept or withdraw, not both")
        return self


class Takeback(_Strict):
    """Ask for a takeback of one's last move, accept or decline another seat's, or withdraw one's own."""

    type: Literal["takeback"]
    answer: Literal["ask", "accept", "decline", "withdraw"] = "ask"


class Presence(_Strict):
    """The page says whether its person is away (page hidden, or no input for a while)."""

    type: Literal["presence"]
    away: bool


class Rematch(_Strict):
    """Ask for a rematch of a game that is over."""

    type: Literal["rematch"]


class Chat(_Strict):
    """A chat message to this connection's channel (plain text)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=MAX_CHAT_CHARS)


class Reclaim(_Strict):
    """Take back the seats of this connection that the computer plays (zombie seats)."""

    type: Literal["reclaim"]


class Email(_Strict):
    """In a correspondence game: where this connection's seats' reminders go (``correspondence.py``)."""

    type: Literal["email"]
    address: str = Field(min_length=1, max_length=254)


AnyClientMessage = (
    Hello
    | Act
    | Undo
    | Ping
    | Resign
    | Draw
    | Rematch
    | Chat
    | Reclaim
    | Email
    | Takeback
    | Presence
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> AnyClientMessage:
    """Read one client message.

    Raises:
        ValueError: with a one-line reason (too large, not JSON, unknown type,
            a bad or missing field).
    """
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ValueError(
            _("message too large (more than %(most)d bytes)") % {"most": MAX_MESSAGE_BYTES}
        )
    from pydantic import ValidationError

    try:
        return CLIENT_MESSAGE.validate_json(text)
    except ValidationError as exc:
        if exc.errors()[0].get("type") == "json_invalid":
            raise ValueError(_("the message is not valid JSON")) from None
        raise ValueError(_("bad message: %(reason)s") % {"reason": first_error(exc)}) from None


def first_error(exc: Any) -> str:
    """One line for a pydantic ``ValidationError``: where and what, never the input itself."""
    errors = exc.errors(include_input=False, include_url=False, include_context=False)
    if not errors:
        return "invalid"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = str(first.get("msg", "invalid")).splitlines()[0].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


class SeatChoice(_Strict):
    """Who fills a seat: ``me``, ``friend`` (an invite link), ``computer`` at a level, or
    ``open`` (listed in the lobby for anyone to take)."""

    kind: Literal["me", "friend", "computer", "open"]
    level: str = Field(default="random", max_length=20)
    name: str = Field(default="", max_length=40)


MAX_AWAY_SECONDS = 7 * 24 * 3600.0
"""The longest time away before a seat becomes a zombie that a game may choose (seconds)."""

MAX_DAYS_PER_MOVE = 14
"""The longest correspondence clock: days per move."""


class ClockChoice(_Strict):
    """The clock of a new game (see ``clocks.py``).

    ``kind``: ``none`` (the default), ``move`` (``seconds`` for each turn),
    ``fischer`` (``minutes`` at the start, ``increment`` seconds added after
    each turn, 0 by default) or ``days`` (correspondence: ``days`` for each
    turn, 1-14; nobody is taken for away). ``away``: seconds a person may be away (no
    open connection) before the computer plays their seat; 0 never; left
    out, the server's ``--zombie-after``. ``forfeit``: a seat whose time runs
    out loses the game (default: the computer plays it on); only with a clock.
    """

    kind: Literal["none", "move", "fischer", "days"] = "none"
    days: int | None = Field(default=None, ge=1, le=MAX_DAYS_PER_MOVE)
    seconds: float | None = Field(default=None, ge=1, le=86400, allow_inf_nan=False)
    minutes: float | None = Field(default=None, gt=0, le=1440, allow_inf_nan=False)
    increment: float | None = Field(default=None, ge=0, le=3600, allow_inf_nan=False)
    away: float | None = Field(default=None, ge=0, le=MAX_AWAY_SECONDS, allow_inf_nan=False)
    forfeit: bool = False

    @model_validator(mode="after")
    def _fits_kind(self) -> ClockChoice:
        if self.forfeit and self.kind == "none":
            raise ValueError(_("losing on time needs a clock (per move or Fischer)"))
        if self.kind == "move":
            if self.seconds is None:
                raise ValueError(_("a clock per move needs seconds (1-86400)"))
            if self.minutes is not None or self.increment is not None:
                raise ValueError(_("a clock per move takes seconds, not minutes or increment"))
        elif self.kind == "fischer":
            if self.minutes is None:
                raise ValueError(_("a Fischer clock needs minutes (the time at the start)"))
            if self.minutes * 60 < 1:
                raise ValueError(_("a Fischer clock needs at least 1 second at the start"))
            if self.seconds is not None:
                raise ValueError(_("a Fischer clock takes minutes and increment, not seconds"))
        elif self.kind == "days":
            if self.days is None:
                raise ValueError(_("a correspondence clock needs days per move (1-14)"))
            if self.seconds is not None or self.minutes is not None or self.increment is not None:
                raise ValueError(_("a correspondence clock takes days, not seconds or minutes"))
        elif self.seconds is not None or self.minutes is not None or self.increment is not None:
            raise ValueError(_("no clock: leave out seconds, minutes and increment"))
        if self.days is not None and self.kind != "days":
            raise ValueError(_("only a correspondence clock takes days"))
        return self


class NewGame(_Strict):
    """The lobby's request to start a game."""

    game: str = Field(min_length=1, max_length=32)
    variant: dict[str, Any] = Field(default_factory=dict, max_length=20)
    seats: list[SeatChoice] = Field(min_length=1, max_length=16)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    clock: ClockChoice = Field(default_factory=ClockChoice)


class TakeSeat(_Strict):
    """Take an open seat (``POST /api/games/{id}/seats/{seat}``) under ``name``."""

    name: str = Field(default="", max_length=40)
