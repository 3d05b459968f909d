"""The material of Limits: colour cards, limit cards and the sets of limit cards.

Rules: ``rules/cards.md`` ("Material", "Setup"); rulebook
``seeds/002_c0d7faeb65de5327.txt``, "Inhalt" and "Spielvorbereitung".

- 60 colour cards, 12 in each of five colours. A colour is an ``int``
  ``0..4`` in :data:`COLOURS` order (red, yellow, green, blue, purple);
  its one-letter code is :data:`COLOUR_LETTERS`.
- 24 limit cards. A limit card is a tuple of five ``int`` (one per colour,
  in :data:`COLOURS` order): ``0..9``, or :data:`NO_LIMIT` for ``X``. Its
  code is five characters, one per colour: ``"X0335"`` is red X, yellow 0,
  green 3, blue 3, purple 5 (the card the rulebook shows).

The values of the printed limit cards are not in the sources; the package
ships a reconstructed set (``limit_cards.json``, labelled as such) and
:func:`load_limit_cards` reads any other set from a file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from limitgames.core.errors import VariantError
from limitgames.translation import N_

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
"""The five colours, in the order used everywhere (index = colour number)."""

COLOUR_LETTERS: str = "rygbp"
"""One letter per colour, in :data:`COLOURS` order (used in chance outcomes)."""

CARDS_PER_COLOUR: int = 12
"""Colour cards of each colour (60 in all)."""

LIMIT_CARDS_PRINTED: int = 24
"""Limit cards in the box."""

NO_LIMIT: int = -1
"""The value of an ``X`` on a limit card: no limit for that colour."""

LIMIT_CARD_PENALTY: int = 2
"""Points a taken limit card costs at the end (its back shows -2)."""

LIMIT_CARD_SET_FORMAT = "limitgames-limit-cards"
"""The ``format`` field of a limit-card file."""


def hand_size(players: int, hand: int | None = None) -> int:
    """Cards in a full hand: ``hand`` if the variant sets it, else the rulebook's 6 with
    2 players and 5 otherwise ("Sonderregeln")."""
    if hand is not None:
        return int(hand)
    return 6 if players == 2 else 5


def hidden_per_round(players: int) -> int:
    """Cards each player hides per round: 2 with 2 players, 1 otherwise."""
    return 2 if players == 2 else 1


def limit_cards_put_aside(
    players: int, limit_pile: int | None = None, set_size: int | None = None
) -> int:
    """Limit cards put aside unseen at the start.

    The rulebook's count (``limit_pile`` ``None``): 14 with 2 players, 6 with 3-4, 10
    with 5-6. A variant that sets the limit pile to ``limit_pile`` cards puts the rest of
    the ``set_size`` cards aside.

    Raises:
        VariantError: if the set has fewer than ``limit_pile`` cards.
    """
    if limit_pile is None:
        if players == 2:
            return 14
        return 6 if players <= 4 else 10
    size = LIMIT_CARDS_PRINTED if set_size is None else set_size
    if limit_pile > size:
        raise VariantError.because(
            N_("limit_pile: %(wanted)s limit cards wanted, but the set has %(size)s"),
            wanted=limit_pile,
            size=size,
        )
    return size - limit_pile


def colour_card_counts(variant: Mapping[str, Any]) -> list[int]:
    """The colour cards of a variant, per colour (``int`` x5, :data:`COLOURS` order).

    The rulebook's 12 of each of the five colours, or the variant's ``cards_per_colour``
    of each of its first ``colours`` colours (none of the others).
    """
    colours = int(variant.get("colours") or len(COLOURS))
    per_colour = int(variant.get("cards_per_colour") or CARDS_PER_COLOUR)
    return [per_colour if c < colours else 0 for c in range(len(COLOURS))]


def check_deal(players: int, hand: int, deck: list[int]) -> None:
    """Check that ``players`` hands of ``hand`` cards can be dealt from ``deck`` (counts per
    colour) and that a hand keeps a card after the hide step (``rules/cards.md``, "Setup"
    and "A round" 2).

    Raises:
        VariantError: naming the parameter to change.
    """
    hide = hidden_per_round(players)
    if hand <= hide:
        raise VariantError.because(
            N_(
                "hand: %(players)s players hide %(hide)s cards a round, so a hand needs at least %(least)s"
            ),
            players=players,
            hide=hide,
            least=hide + 1,
        )
    if players * hand > sum(deck):
        raise VariantError.because(
            N_(
                "hand: %(players)s hands of %(hand)s cards need %(need)s colour cards, "
                "but the deck (colours x cards_per_colour) has %(size)s"
            ),
            players=players,
            hand=hand,
            need=players * hand,
            size=sum(deck),
        )


def limit_card_code(card: tuple[int, ...]) -> str:
    """The five-character code of ``card`` (``"X0335"``)."""
    return "".join("X" if v == NO_LIMIT else str(v) for v in card)


def limit_card_from_code(code: str) -> tuple[int, ...]:
    """The limit card written as ``code`` (five characters ``0-9`` or ``X``).

    Raises:
        ValueError: with a one-line reason if ``code`` is not such a code.
    """
    if not isinstance(code, str) or len(code) != len(COLOURS):
        raise ValueError(f"{code!r} is not a limit card code (five characters 0-9 or X)")
    values: list[int] = []
    for char in code:
        if char in "Xx":
            values.append(NO_LIMIT)
        elif char.isdigit():
            values.append(int(char))
        else:
            raise ValueError(f"{code!r} is not a limit card code (five characters 0-9 or X)")
    return tuple(values)


def limit_card_text(card: tuple[int, ...]) -> str:
    """The card in words: ``"red X, yellow 0, green 3, blue 3, purple 5"``."""
    return ", ".join(
        f"{name} {'X' if v == NO_LIMIT else v}" for name, v in zip(COLOURS, card, strict=True)
    )


class LimitCardsError(VariantError):
    """A limit-card set (file or data) that is malformed; the message names the problem."""


@dataclass(frozen=True)
class LimitCardSet:
    """A set of limit cards.

    Attributes:
        name: what the set is called.
        cards: the cards, each a tuple of five ``int`` (``NO_LIMIT`` for X).
        reconstructed: ``True`` if the values are not the printed ones.
        source: where it was read from (``"package"`` or a file name).
        note: a free-text note from the file.
    """

    name: str
    cards: tuple[tuple[int, ...], ...]
    reconstructed: bool
    source: str
    note: str = ""

    @property
    def codes(self) -> list[str]:
        """The cards' codes, in set order."""
        return [limit_card_code(c) for c in self.cards]


def parse_limit_cards(data: Any, source: str = "data") -> LimitCardSet:
    """Read a limit-card set from decoded JSON.

    Accepted shapes: an object ``{"cards": [...], "name": ..., "reconstructed": ...}``
    or a bare list of cards. A card is an object with the five colour names as
    keys (values ``0``-``9`` or ``"X"``) or a five-character code (``"X0335"``).

    Raises:
        LimitCardsError: naming the card and the colour that is wrong.
    """

    def bad(reason: str) -> LimitCardsError:
        return LimitCardsError(f"limit cards ({source}): {reason}")

    name = source
    reconstructed = False
    note = ""
    if isinstance(data, dict):
        fmt = data.get("format", LIMIT_CARD_SET_FORMAT)
        if fmt != LIMIT_CARD_SET_FORMAT:
            raise bad(f"format is {fmt!r}, expected {LIMIT_CARD_SET_FORMAT!r}")
        if "cards" not in data:
            raise bad("no 'cards' list")
        name = str(data.get("name", source))
        reconstructed = bool(data.get("reconstructed", False))
        note = str(data.get("note", ""))
        raw = data["cards"]
    else:
        raw = data
    if not isinstance(raw, list):
        raise bad("'cards' must be a list of limit cards")
    if not raw:
        raise bad("the set has no cards")
    cards: list[tuple[int, ...]] = []
    for number, item in enumerate(raw, start=1):
        if isinstance(item, str):
            try:
                cards.append(limit_card_from_code(item))
            except ValueError as exc:
                raise bad(f"card {number}: {exc}") from None
            continue
        if not isinstance(item, dict):
            raise bad(f"card {number} is neither an object of five colours nor a code like 'X0335'")
        unknown = sorted(set(item) - set(COLOURS))
        if unknown:
            raise bad(
                f"card {number}: unknown colour {unknown[0]!r} (colours: {', '.join(COLOURS)})"
            )
        values: list[int] = []
        for colour in COLOURS:
            if colour not in item:
                raise bad(f"card {number}: no value for {colour}")
            value = item[colour]
            if isinstance(value, str) and value.strip().upper() == "X":
                values.append(NO_LIMIT)
            elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9:
                values.append(value)
            else:
                raise bad(f'card {number}: {colour} is {value!r}, must be 0-9 or "X"')
        cards.append(tuple(values))
    return LimitCardSet(
        name=name, cards=tuple(cards), reconstructed=reconstructed, source=source, note=note
    )


def load_limit_cards(path: str | Path | None = None) -> LimitCardSet:
    """The limit-card set in the file ``path``, or the package's own set for ``None``.

    Raises:
        LimitCardsError: if the file cannot be read, is not JSON, or is malformed.
    """
    if path is None:
        return default_limit_cards()
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LimitCardsError(
            f"limit cards ({source}): cannot read the file: {exc.strerror}"
        ) from None
    except UnicodeDecodeError:
        raise LimitCardsError(f"limit cards ({source}): the file is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LimitCardsError(
            f"limit cards ({source}): not JSON (line {exc.lineno} column {exc.colno}: {exc.msg})"
        ) from None
    return parse_limit_cards(data, source)


_DEFAULT: LimitCardSet | None = None


def default_limit_cards() -> LimitCardSet:
    """The package's reconstructed set (``limit_cards.json``), read once and cached."""
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files("limitgames.cards").joinpath("limit_cards.json").read_text("utf-8")
        _DEFAULT = parse_limit_cards(json.loads(text), "package")
    return _DEFAULT
