"""Notation of LIMIT actions: a verb and its arguments, separated by spaces.

==============================  ================================================
``deck society``                new policy / Political Reform: the deck to draw
``keep graduate-studies``       keep a drawn card
``discard surcharge``           hand limit: a card to the bottom of its deck
``play education``              decide policy: play a card from the hand
``pass``                        decide policy: pass
``withdraw policy-planning``    take back Policy Planning or Intensive Farming
``raise A`` / ``lower E``       a class gains / loses 1 standard of living
``plant industrial``            the plant a rule or card lets you choose
``target square``               the nation a card targets (by its shape)
``spend 12``                    military spent on a war card (at least its minimum)
``resist`` / ``yield``          the target of a war resists or not
``take fossil``                 Military Operation: what to take (readings.military_operation_takes)
``gain military``               Craftsmanship: the resource gained
``produce industrial``          Overproduction: the plant that produces
``recall education``            Artificial Intelligence: the card taken back
``give 2``                      Soft Power: pollution given
``contribute 10``               $ pledged to another's Cleaning the Planet / Humanitarian Aid
``buy 3 fossil``                a transaction (also ``sell 3 military``)
``no-trade``                    no (further) transaction
``price fossil up``             Speculation: move a price cube (``up``/``down``)
``offer military square``       alliance step: offer an alliance (``economic`` too)
``leave economic``              alliance step: leave your alliance of that type
``exclude military square``     alliance step: propose to exclude an ally
``accept`` / ``refuse``         answer an offer or an exclusion; ``refuse`` also
                                answers an ally asking for help
``pay 1``                       the part of the 2 $ alliance fee the offerer pays
``ask``                         ask your allies for help (a shortage, a war)
``aid 3``                       give an ally who asked 3 (of what it asked for)
``break`` / ``stay``            after a refusal: break the alliance or keep it
``fund education``              ask your economic allies to pay for a card
``target star``                 solo mode: a card targets the star nation
==============================  ================================================

Card ids are the cards' names in lower case with hyphens; resources are
``renewable``, ``industrial``, ``military``, ``fossil``; nations are
``circle``, ``square``, ``triangle``, ``diamond``, ``pentagon``, ``hexagon``
by seat. Parsing checks the form, not legality (``apply`` does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from limitgames.core.errors import NotationError
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.data import CLASSES, DECKS, PLANTS, RESOURCES

if TYPE_CHECKING:
    from limitgames.world.state import WorldAction, WorldState

_CARD_VERBS = ("keep", "discard", "play", "withdraw", "recall", "fund")
_INT_VERBS = ("spend", "give", "contribute", "pay", "aid")
_BARE = ("pass", "resist", "yield", "no-trade", "accept", "refuse", "ask", "break", "stay")
_KINDS = ("military", "economic")
_PLANT_VERBS = ("plant", "gain", "produce")
VERBS: tuple[str, ...] = (
    "deck",
    *_CARD_VERBS,
    *_INT_VERBS,
    *_BARE,
    *_PLANT_VERBS,
    "raise",
    "lower",
    "target",
    "take",
    "buy",
    "sell",
    "price",
    "offer",
    "leave",
    "exclude",
)

ARGUMENT_WORDS: tuple[str, ...] = (
    N_("class"),
    N_("deck"),
    N_("direction"),
    N_("nation"),
    N_("plant"),
    N_("resource"),
    N_("resource to take"),
    N_("type of alliance"),
)
"""What an argument of the notation names, for the one-line error of a wrong one."""


def action_to_string(state: WorldState, action: WorldAction) -> str:
    """The notation of ``action`` (a tuple ``(verb, *args)``)."""
    return " ".join(str(x) for x in action)


def parse_action(state: WorldState, text: str) -> WorldAction:
    """Read an action. Raises :class:`NotationError` with the expected form."""
    from limitgames.world.state import NATION_NAMES

    words = text.strip().lower().split()
    if not words:
        raise NotationError(text, _("empty; write a verb such as 'play education' or 'pass'"))
    verb, args = words[0], words[1:]

    def need(count: int, form: str) -> None:
        if len(args) != count:
            raise NotationError(text, _("write '%(form)s'") % {"form": form})

    def number(word: str) -> int:
        if not word.isdigit():
            raise NotationError(text, _("%(word)r is not a whole number") % {"word": word})
        return int(word)

    def one_of(word: str, allowed: tuple[str, ...] | list[str] | Any, what: str) -> str:
        if word not in allowed:
            raise NotationError(
                text,
                _("%(word)r is not a %(what)s (%(allowed)s)")
                % {"word": word, "what": _(what), "allowed": ", ".join(allowed)},
            )
        return word

    if verb in _BARE:
        need(0, verb)
        return (verb,)
    if verb == "deck":
        need(1, "deck society|military|production")
        return (verb, one_of(args[0], DECKS, "deck"))
    if verb in _CARD_VERBS:
        need(1, f"{verb} CARD")
        if args[0] not in state.data.cards:
            raise NotationError(
                text, _("%(word)r is not a card id (e.g. public-expenditure)") % {"word": args[0]}
            )
        return (verb, args[0])
    if verb in _INT_VERBS:
        need(1, f"{verb} N")
        return (verb, number(args[0]))
    if verb in ("raise", "lower"):
        need(1, f"{verb} A|B|C|D|E")
        return (verb, one_of(args[0].upper(), tuple(CLASSES), "class"))
    if verb in _PLANT_VERBS:
        need(1, f"{verb} renewable|industrial|military")
        return (verb, one_of(args[0], PLANTS, "plant"))
    if verb == "target":
        need(1, "target NATION")
        names = ("star",) if state.solo else NATION_NAMES[: state.n]
        return (verb, one_of(args[0], names, "nation"))
    if verb == "leave":
        need(1, "leave military|economic")
        return (verb, one_of(args[0], _KINDS, "type of alliance"))
    if verb in ("offer", "exclude"):
        need(2, f"{verb} military|economic NATION")
        return (
            verb,
            one_of(args[0], _KINDS, "type of alliance"),
            one_of(args[1], NATION_NAMES[: state.n], "nation"),
        )
    if verb == "take":
        need(1, "take fossil|renewable|industrial|military")
        return (verb, one_of(args[0], RESOURCES, "resource to take"))
    if verb in ("buy", "sell"):
        need(2, f"{verb} N RESOURCE")
        return (verb, number(args[0]), one_of(args[1], RESOURCES, "resource"))
    if verb == "price":
        need(2, "price RESOURCE up|down")
        return (
            verb,
            one_of(args[0], RESOURCES, "resource"),
            one_of(args[1], ("up", "down"), "direction"),
        )
    raise NotationError(
        text,
        _("unknown verb %(verb)r (known: %(verbs)s)") % {"verb": verb, "verbs": ", ".join(VERBS)},
    )
