"""Actions of Limits: their integer encoding and their notation.

Rules: ``rules/cards.md``, "A round" steps 2-3. Every action is an ``int``
in ``0 .. NUM_ACTIONS-1`` (a fixed encoding the research adapters can use):

=============  ==========  =========================================
action         int         notation
=============  ==========  =========================================
hide a card    0-4         ``hide red`` (colour = int - 0)
play a card    5-9         ``play yellow`` (colour = int - 5)
exchange       10-14       ``exchange blue`` (colour = int - 10)
suspect        15-20       ``suspect 3`` (seat = int - 15)
pass           21          ``pass``
=============  ==========  =========================================

Colours may be written in full (``red yellow green blue purple``), by their
first letter (``r y g b p``) or as ``violet``; case does not matter. The
canonical form is the full lower-case name. ``suspect`` also reads
``suspect seat 3``.
"""

from __future__ import annotations

from limitgames.cards.material import COLOUR_LETTERS, COLOURS
from limitgames.core.errors import NotationError

HIDE: int = 0
"""``HIDE + colour``: put a hand card of that colour face down (step 2)."""
PLAY: int = 5
"""``PLAY + colour``: play a hand card of that colour on the pile, then draw."""
EXCHANGE: int = 10
"""``EXCHANGE + colour``: exchange four cards of that colour."""
SUSPECT: int = 15
"""``SUSPECT + seat``: suspect that seat's last card of exceeding the limit."""
PASS: int = 21
"""Do nothing: only for a seat that has no other action (empty hand, nobody to suspect)."""
NUM_ACTIONS: int = 22
"""Size of the fixed action encoding."""
MAX_SEATS: int = 6

_COLOUR_WORDS: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
_COLOUR_WORDS.update({letter: i for i, letter in enumerate(COLOUR_LETTERS)})
_COLOUR_WORDS["violet"] = COLOURS.index("purple")

_VERBS: dict[str, int] = {"hide": HIDE, "play": PLAY, "exchange": EXCHANGE}


def action_kind(action: int) -> str:
    """``"hide"``, ``"play"``, ``"exchange"``, ``"suspect"`` or ``"pass"``."""
    if action < PLAY:
        return "hide"
    if action < EXCHANGE:
        return "play"
    if action < SUSPECT:
        return "exchange"
    if action < PASS:
        return "suspect"
    return "pass"


def action_name(action: int) -> str:
    """The canonical notation of ``action`` (``"play red"``, ``"suspect 2"``, ``"pass"``).

    Raises:
        ValueError: if ``action`` is not in ``0 .. NUM_ACTIONS-1``.
    """
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"{action!r} is not a Limits action (0-{NUM_ACTIONS - 1})")
    if action < SUSPECT:
        kind = action_kind(action)
        return f"{kind} {COLOURS[action - _VERBS[kind]]}"
    if action < PASS:
        return f"suspect {action - SUSPECT}"
    return "pass"


def parse_colour(word: str, text: str) -> int:
    """The colour named by ``word``; raise :class:`NotationError` on ``text`` if none."""
    colour = _COLOUR_WORDS.get(word.lower())
    if colour is None:
        raise NotationError(text, f"{word!r} is not a colour (red, yellow, green, blue, purple)")
    return colour


def parse_action_text(text: str) -> int:
    """Read notation; return the action's ``int``.

    Raises:
        NotationError: if ``text`` is not an action of Limits (legality is
            checked by ``apply``, not here).
    """
    words = text.strip().lower().split()
    if not words:
        raise NotationError(
            text, "empty; write e.g. 'play red', 'hide blue', 'exchange green', 'suspect 2', 'pass'"
        )
    verb = words[0]
    if verb == "pass":
        if len(words) != 1:
            raise NotationError(text, "'pass' takes nothing after it")
        return PASS
    if verb in _VERBS:
        if len(words) != 2:
            raise NotationError(text, f"write '{verb} COLOUR', e.g. '{verb} red'")
        return _VERBS[verb] + parse_colour(words[1], text)
    if verb == "suspect":
        rest = words[1:]
        if rest and rest[0] == "seat":
            rest = rest[1:]
        if len(rest) != 1 or not rest[0].isdigit():
            raise NotationError(text, "write 'suspect SEAT' with a seat number, e.g. 'suspect 2'")
        seat = int(rest[0])
        if seat >= MAX_SEATS:
            raise NotationError(text, f"there is no seat {seat} (seats are 0-{MAX_SEATS - 1})")
        return SUSPECT + seat
    raise NotationError(text, f"unknown action {verb!r} (hide, play, exchange, suspect, pass)")
