"""Drawing Poyé's LIMIT (``world``) as HTML for one seat.

:func:`knowledge` gathers, from the state, what the page shows beyond the
observation, all of it what the seat may know at a table: its log channel
(``observe.log``), the game material (card texts, the price track), and, only
when the seat itself decides, the previews of its options and of its playable
cards (made on a re-deal of everything it cannot see, ``cli.world_view.Preview``)
and the context of its own decision. At the end every board is public, and the
scorecards are added (rulebook p23, ``scoring.scorecards``).

:func:`draw` lays the table out as the printed game does: one nation board per
nation (population, the standard of living of classes A-E, the production plants
with their values and the stock beside them, fossil, money, territory, pollution,
disruption, social unrest, cards), the prompt of the current step with its
choices, the hand as cards with their text and what each would do now, and the
log grouped by generation and phase. :func:`side` draws the world beside it:
marketplace, reserves, the LIMIT box, the generation track with its crisis tiles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from limitgames.core import LimitGamesError, State
from limitgames.translation import gettext as _
from limitgames.translation import using
from limitgames.web.views import environment
from limitgames.world.words import STAGE_WORDS, nation_name, render


def N_(message: str) -> str:
    """Mark ``message`` for translation; it is translated where it is shown (``_(text)``)."""
    return message


SHAPES: dict[str, str] = {
    "circle": "●",
    "square": "■",
    "triangle": "▲",
    "diamond": "◆",
    "pentagon": "⬟",
    "hexagon": "⬢",
    "star": "★",
}
"""Each nation's shape, as on its board and card backs (rulebook p13)."""


CHOICES: dict[str, tuple[str, str]] = {
    "deck": (
        N_(
            "Choose the deck you draw from; you keep some of the cards drawn and the others go "
            "to the bottom of that deck."
        ),
        N_("No cost."),
    ),
    "keep": (
        N_("Keep one of the cards you drew; those you do not keep go to the bottom of their deck."),
        N_("No cost."),
    ),
    "discard": (
        N_(
            "Your hand is above your political action capacity: put a card of your choice at the "
            "bottom of its deck."
        ),
        N_("The card leaves your hand."),
    ),
    "policy": (
        N_(
            "Play a card from your hand (at most 2 in a turn), withdraw a permanent card, or pass. "
            "Passing is final unless another nation targets you with a card."
        ),
        N_("Each card's cost is printed on it; a card is playable only if you can pay all of it."),
    ),
    "raise": (
        N_(
            "Choose the social class that gains 1 standard of living (the classes stay in order, "
            "A the highest)."
        ),
        N_("Nothing more to pay."),
    ),
    "lower": (
        N_(
            "Choose the social class that loses 1 standard of living (the classes stay in order, "
            "A the highest)."
        ),
        N_("That class loses 1 standard of living."),
    ),
    "plant": (
        N_("Choose the production plant that moves one level."),
        N_("The chosen plant's level changes as shown on each choice."),
    ),
    "upgrade": (
        N_("Choose the production plant the card raises."),
        N_("You pay $ equal to the chosen plant's current value."),
    ),
    "target": (
        N_("Choose the nation the card targets."),
        N_("The card's cost, as printed on it."),
    ),
    "spend": (
        N_(
            "Choose how much military you spend on the attack (at least the card's minimum); the "
            "target must spend as much to resist."
        ),
        N_("The military you spend leaves your stock."),
    ),
    "resist": (
        N_(
            "You are attacked: resist by spending as much military as the attacker (your allies "
            "may help), or yield and suffer the card's effect."
        ),
        N_("Resisting costs as much military as the attacker spent."),
    ),
    "take": (N_("Choose what you take from the nation that yielded."), N_("No cost.")),
    "gain": (N_("Choose the resource you gain."), N_("Nothing more to pay.")),
    "produce": (
        N_("Choose the plant that produces once more."),
        N_("Fossil and pollution as in the production step."),
    ),
    "recall": (
        N_("Choose the instant card you take back to your hand."),
        N_("Nothing more to pay."),
    ),
    "give": (
        N_("Choose how much of your pollution you give to the target."),
        N_("Nothing more to pay."),
    ),
    "contribute": (
        N_(
            "Another nation plays a card others may help pay for: choose how much money you pledge."
        ),
        N_("The money you pledge leaves your treasury."),
    ),
    "trade": (
        N_("Make a transaction at the marketplace (buy or sell one resource), or none."),
        N_(
            "Buying costs the price per unit, selling brings it; then the price moves one "
            "position, up after a purchase and down after a sale."
        ),
    ),
    "price": (
        N_("Move one price cube one position on the marketplace."),
        N_("Nothing more to pay."),
    ),
    "alliance": (
        N_("Offer an alliance, leave or exclude from one, or do nothing this turn."),
        N_("A new alliance costs a 2 $ fee, shared as the two nations choose."),
    ),
    "answer": (N_("Answer the proposal made to you."), N_("Answering costs nothing.")),
    "fee": (
        N_("Choose your part of the 2 $ alliance fee."),
        N_("The part you pay leaves your treasury."),
    ),
    "ask": (
        N_("You are short: ask your allies for help, or not."),
        N_("Asking costs nothing; your allies may refuse."),
    ),
    "aid": (
        N_("An ally asks for help: give some of what it asks, or refuse."),
        N_("What you give leaves your stock."),
    ),
    "break": (
        N_("An ally refused to help: break the alliance, or keep it."),
        N_("No cost."),
    ),
}
"""What each kind of choice does and what it costs, in the rulebook's words."""

DECK_WORDS: dict[str, str] = {
    "society": N_("society"),
    "military": N_("military and economy"),
    "production": N_("production"),
}
UNREST_MOODS: tuple[tuple[int, int, str], ...] = (
    (1, 2, N_("boom")),
    (3, 9, N_("growth")),
    (10, 11, N_("uprising")),
)
"""The social unrest track's zones (positions 1-11, ``rules/world.md``)."""

DEFAULT_END: dict[str, int] = {"generations": 7, "crises": 4}
"""When the game ends (rulebook p23), unless the game's data says otherwise (``[end]``)."""

PREVIEWED_OPTIONS = 40
UNPREVIEWED = ("keep", "discard", "recall")
"""Options shown with their card's text instead of a preview (the card only changes hands)."""
"""At most this many options get a preview of what they would do (the others a label only)."""


def unrest_mood(position: int) -> str:
    """The zone of a social unrest position: ``boom`` (1-2), ``growth`` (3-9), ``uprising``."""
    for low, high, mood in UNREST_MOODS:
        if low <= position <= high:
            return _(mood)
    return ""


# --- what the page knows beyond the observation --------------------------------------------
def knowledge(state: State, seat: int | None) -> dict[str, Any]:
    """What :func:`draw` needs besides ``state.observation(seat)``, all of it what ``seat`` may
    know at a table (see the module docstring). ``seat`` ``None``: a spectator.

    Returns ``{"log": [line], "cards": {id: Card}, "prices": [int], "end": {"generations",
    "crises"} (when the game ends), "previews": {card: words},
    "options": [option dict], "forms": [form dict], "context": str, "scorecards": [...],
    "result": why the game ended and who won (:func:`limitgames.world.words.outcome_sentence`)}``.
    """
    from limitgames.world.observe import log
    from limitgames.world.state import WorldState

    assert isinstance(state, WorldState)
    data = state.data
    found: dict[str, Any] = {
        "log": log(state, seat),
        "log_english": _english_log(state, seat),
        "cards": data.cards,
        "prices": list(data.prices),
        "end": {"generations": int(data.end["generations"]), "crises": int(data.end["crises"])},
        "previews": {},
        "options": [],
        "forms": [],
        "context": "",
        "scorecards": None,
        "result": "",
    }
    if seat is not None and not state.is_terminal() and state.current_player() == seat:
        found.update(_decision(state, seat))  # only the deciding seat's own options
    if state.is_terminal():
        from limitgames.world.scoring import scorecards
        from limitgames.world.words import outcome_sentence

        outcome = state.outcome()
        found["result"] = outcome_sentence(outcome) if outcome is not None else ""

        found["scorecards"] = [
            {
                "name": name,
                "lines": [
                    {**line._asdict(), "reckoning": render(line.reckoning)} for line in lines
                ],
                "total": total,
            }
            for name, lines, total in scorecards(state)
        ]
    return found


def _english_log(state: Any, seat: int | None) -> list[str]:
    """The log ``seat`` may read, in English: :func:`log_groups` reads its structure from it."""
    from limitgames.world.observe import log

    with using("en"):
        return log(state, seat)


def _decision(state: Any, seat: int) -> dict[str, Any]:
    """The options, amount forms, card previews and context of ``seat``'s own decision."""
    from limitgames.cli.world_view import Preview, card_preview

    cards = state.data.cards
    me = state.seat_names()[seat]
    legal = state.legal_actions()
    forms = state.action_forms()
    form_verbs = {f.verb for f in forms}
    options: list[dict[str, Any]] = []
    for action in legal:
        notation = state.action_to_string(action)
        if notation.split()[0] in form_verbs:
            continue  # a number input covers the whole range
        words = ""
        if len(options) < PREVIEWED_OPTIONS and action[0] not in UNPREVIEWED:
            try:
                if action[0] == "play":
                    words = card_preview(state, seat, action[1])
                else:
                    words = preview_words(Preview.of(state, action), me)
            except LimitGamesError:
                words = ""
        option = {"action": notation, "label": option_label(notation, cards), "preview": words}
        if action[0] in ("keep", "recall", "withdraw") and action[1] in cards:
            option["card"] = cards[action[1]]
        options.append(option)
    shown_forms = []
    for form in forms:
        sample = form.action(form.minimum)
        try:
            words = preview_words(Preview.of(state, sample), me)
        except LimitGamesError:
            words = ""
        shown_forms.append(
            {
                **form.describe(),
                "label": form_label(form.notation),
                "example": form.notation.replace("N", str(form.minimum)),
                "preview": words,
            }
        )
    previews = {
        o["action"].split()[1]: o["preview"] for o in options if o["action"].startswith("play ")
    }
    return {
        "options": options,
        "forms": shown_forms,
        "previews": previews,
        "context": choice_context(state, seat),
    }


def preview_words(preview: Any, me: str) -> str:
    """A preview (``cli.world_view.Preview``) in one line for ``me``: what it logs (without
    my own name), what changes (``square: money 5 -> 3 $``; mine without a name), what next."""
    parts = [line.removeprefix(f"{me}: ") for line in preview.log]
    parts += [text if who in (None, "you") else f"{who}: {text}" for who, text in preview.changes]
    return "; ".join(parts + list(preview.then))


def choice_context(state: Any, seat: int) -> str:
    """Why ``seat`` decides now, from its own pending choice (which card, which shortage, how
    many more): what the seat was told at the table. ``""`` when there is nothing to add."""
    from limitgames.world.state import NATION_NAMES

    top = state.pending[-1]
    if top.seat != seat:
        return ""
    cards = state.data.cards
    args = tuple(top.args)

    def card_name(value: Any) -> str:
        return _(str(cards[value].name)) if isinstance(value, str) and value in cards else ""

    def nation(value: Any) -> str:
        if isinstance(value, int) and 0 <= value < len(NATION_NAMES):
            return NATION_NAMES[value]
        return _("the star nation") if value == -1 else ""

    kind = top.kind
    if kind == "keep" and len(args) == 3:
        deck, drawn, keep = args
        return _("You drew %(drawn)d cards from the %(deck)s deck; keep %(keep)d more.") % {
            "drawn": len(drawn),
            "deck": _(DECK_WORDS.get(str(deck), str(deck))),
            "keep": keep,
        }
    if kind == "discard" and args:
        return _("%(count)d more card(s) to put back.") % {"count": int(args[0])}
    if kind == "policy" and args:
        return _("Cards played this turn: %(count)d of 2.") % {"count": int(args[0])}
    if kind in ("raise", "lower") and len(args) == 3:
        return _("%(why)s: %(count)d more class change(s) to choose.") % {
            "why": args[2],
            "count": int(args[0]),
        }
    if kind == "plant" and len(args) == 5:
        return _("%(why)s: the chosen plant moves %(delta)+d level; %(count)d more to choose.") % {
            "why": args[4],
            "delta": int(args[2]),
            "count": int(args[0]),
        }
    if kind in ("upgrade", "target", "spend") and args and card_name(args[0]):
        return _("For %(card)s.") % {"card": card_name(args[0])}
    if kind == "resist" and len(args) >= 3:
        return _("%(nation)s plays %(card)s with %(amount)d military against you.") % {
            "nation": nation(args[1]),
            "card": card_name(args[0]),
            "amount": int(args[2]),
        }
    if kind in ("take", "give") and args:
        return _("The other nation: %(nation)s.") % {"nation": nation(args[0])}
    if kind == "contribute" and len(args) >= 2:
        return _("%(nation)s plays %(card)s.") % {
            "nation": nation(args[1]),
            "card": card_name(args[0]),
        }
    if kind == "trade" and args:
        return _("%(count)d transaction(s) left.") % {"count": int(args[0])}
    if kind == "ask" and len(args) >= 2:
        return _("You lack %(missing)d %(resource)s.") % {
            "missing": int(args[1]),
            "resource": _(str(args[0])),
        }
    if kind == "aid" and args and isinstance(args[0], tuple) and len(args[0]) >= 4:
        request = args[0]
        return _("%(nation)s asks for %(amount)d %(what)s.") % {
            "nation": nation(request[0]),
            "amount": int(request[3]),
            "what": _(str(request[2])),
        }
    return ""


VERB_LABELS: dict[str, str] = {
    "play": N_("Play %(x)s"),
    "withdraw": N_("Withdraw %(x)s"),
    "keep": N_("Keep %(x)s"),
    "discard": N_("Put back %(x)s"),
    "recall": N_("Take back %(x)s"),
    "fund": N_("Ask allies to fund %(x)s"),
    "deck": N_("Draw from the %(x)s deck"),
    "raise": N_("Raise class %(x)s"),
    "lower": N_("Lower class %(x)s"),
    "plant": N_("%(x)s plant"),
    "target": N_("Target %(x)s"),
    "spend": N_("Spend %(x)s military"),
    "take": N_("Take %(x)s"),
    "gain": N_("Gain %(x)s"),
    "produce": N_("Produce %(x)s"),
    "give": N_("Give %(x)s pollution"),
    "contribute": N_("Pledge %(x)s $"),
    "pay": N_("Pay %(x)s $"),
    "aid": N_("Give %(x)s"),
    "leave": N_("Leave the %(x)s alliance"),
}
BARE_LABELS: dict[str, str] = {
    "pass": N_("Pass"),
    "resist": N_("Resist"),
    "yield": N_("Yield"),
    "no-trade": N_("No transaction"),
    "accept": N_("Accept"),
    "refuse": N_("Refuse"),
    "ask": N_("Ask your allies for help"),
    "break": N_("Break the alliance"),
    "stay": N_("Keep the alliance"),
}


def option_label(notation: str, cards: Mapping[str, Any]) -> str:
    """An option in words: ``play education`` -> ``Play Education``, ``pass`` -> ``Pass``."""
    words = notation.split()
    verb = words[0]
    if len(words) == 1:
        return _(BARE_LABELS.get(verb, verb))
    rest = " ".join(words[1:])
    if verb in ("play", "withdraw", "keep", "discard", "recall", "fund") and rest in cards:
        rest = _(str(cards[rest].name))
    elif verb == "deck":
        rest = _(DECK_WORDS.get(rest, rest))
    elif verb in ("plant", "gain", "produce", "take", "leave"):
        rest = _(rest)
    if verb in ("buy", "sell") and len(words) == 3:
        return (_("Buy %(n)s %(r)s") if verb == "buy" else _("Sell %(n)s %(r)s")) % {
            "n": words[1],
            "r": _(words[2]),
        }
    if verb == "price" and len(words) == 3:
        return (_("%(r)s price up") if words[2] == "up" else _("%(r)s price down")) % {
            "r": _(words[1]).capitalize()
        }
    if verb in ("offer", "exclude") and len(words) == 3:
        text = (
            _("Offer a %(kind)s alliance to %(n)s")
            if verb == "offer"
            else _("Exclude %(n)s from the %(kind)s alliance")
        )
        return text % {"kind": _(words[1]), "n": nation_name(words[2])}
    template = VERB_LABELS.get(verb)
    if template is None:
        return notation
    label = _(template) % {"x": rest}
    return label[:1].upper() + label[1:]


def form_label(notation: str) -> str:
    """A quantity action's label, the amount left out: ``sell N renewable`` -> ``Sell renewable``."""
    words = [w for w in notation.split() if w != "N"]
    verb = words[0]
    fixed = {
        "buy": N_("Buy %(x)s"),
        "sell": N_("Sell %(x)s"),
        "spend": N_("Spend military"),
        "give": N_("Give pollution"),
        "contribute": N_("Pledge $"),
        "pay": N_("Pay $"),
        "aid": N_("Give"),
    }
    template = fixed.get(verb)
    if template is None:
        return notation
    return _(template) % {"x": _(" ".join(words[1:]))} if "%(x)s" in template else _(template)


# --- the log, grouped by generation and phase ---------------------------------------------
_PHASE = re.compile(r"^== (?P<title>.*?)(?: of generation (?P<generation>\d+))?$")


def log_groups(lines: list[str], english: list[str] | None = None) -> list[dict[str, Any]]:
    """The log as generations, each a list of phases, each with its lines.

    A line ``== Political phase of generation 2`` opens a phase of generation 2; the stress
    test and the scoring form the last group (``generation`` ``None``). Lines before the first
    phase mark belong to generation 1. ``lines`` are shown as they are (in the reader's
    language); the structure (phase marks, generations, nations) is read from ``english``, the
    same lines in English (default: ``lines``), so that it does not depend on the language.
    Returns ``[{"generation": int | None, "phases": [{"title": str, "lines": [(nation or "",
    text)]}]}]``.
    """
    groups: list[dict[str, Any]] = []
    english = lines if english is None or len(english) != len(lines) else english

    def phase(title: str, generation: int | None) -> list[tuple[str, str]]:
        if not groups or groups[-1]["generation"] != generation:
            groups.append({"generation": generation, "phases": []})
        lines_of: list[tuple[str, str]] = []
        groups[-1]["phases"].append({"title": title, "lines": lines_of})
        return lines_of

    current: list[tuple[str, str]] | None = None
    for line, said in zip(english, lines, strict=True):
        mark = _PHASE.match(line)
        if mark:
            number = mark.group("generation")
            title = said.removeprefix("== ") if said is not line else mark.group("title")
            current = phase(title, int(number) if number else None)
            continue
        if current is None:
            current = phase(_("Setup"), 1)
        who, sep, _rest = line.partition(": ")
        if sep and who in SHAPES:
            head = _("%(nation)s: %(line)s") % {"nation": nation_name(who), "line": ""}
            current.append((who, said.removeprefix(head) if said.startswith(head) else said))
        else:
            current.append(("", said))
    return groups


# --- drawing --------------------------------------------------------------------------------
def draw(
    observation: dict[str, Any], names: list[str], seat: int | None, **known: Any
) -> tuple[str, str]:
    """The table (board HTML: prompt, nation boards, hand, log) and the world beside it (side
    HTML: marketplace, reserves, generation track, scores) for ``seat``'s observation.

    ``known`` is :func:`knowledge` of the same state and seat (without it, the observation
    alone is drawn: no log, no card texts, no previews).
    """
    cards: Mapping[str, Any] = known.get("cards") or {}
    nations = list(observation.get("nations") or [])
    me = nations[seat]["name"] if seat is not None and 0 <= seat < len(nations) else None
    choice = observation.get("choice") or None
    stage = str(observation.get("stage") or "")
    phase, step = STAGE_WORDS.get(stage, (stage, ""))
    prompt: dict[str, Any] = {"phase": _(phase), "step": _(step) if step else ""}
    if choice:
        does, costs = CHOICES.get(str(choice["kind"]), (str(choice["kind"]), ""))
        prompt.update(
            nation=nation_name(str(choice["nation"])),
            mine=choice["nation"] == me and "options" in choice,
            does=_(does),
            costs=_(costs) if costs else "",
            context=known.get("context", ""),
        )
    hand = []
    previews: dict[str, str] = known.get("previews") or {}
    for cid in observation.get("hand") or []:
        card = cards.get(cid)
        hand.append(
            {
                "id": cid,
                "card": card,
                "playable": cid in previews,
                "preview": previews.get(cid, ""),
            }
        )
    board = environment.get_template("world_table.html.j2").render(
        observation=observation,
        nations=[_nation(view, me, observation, cards) for view in nations],
        shapes=SHAPES,
        prompt=prompt,
        options=known.get("options") or [],
        forms=known.get("forms") or [],
        hand=hand,
        me=me,
        spectator=seat is None,
        deck_words={k: _(v) for k, v in DECK_WORDS.items()},
        log=log_groups(list(known.get("log") or []), known.get("log_english")),
        scorecards=known.get("scorecards"),
        result=known.get("result") or "",
        terminal=observation.get("to_move") is None and "scores" in observation,
        total_crises=sum(len(g) for g in observation.get("crises") or []),
        end=known.get("end") or DEFAULT_END,
        nation=nation_name,
    )
    return board, side(observation, known)


def _nation(
    view: dict[str, Any], me: str | None, observation: dict[str, Any], cards: Mapping[str, Any]
) -> dict[str, Any]:
    def named(ids: list[str]) -> list[str]:
        return [_(str(cards[c].name)) if c in cards else c for c in ids]

    return {
        "view": view,
        "me": view["name"] == me,
        "leader": view["name"] == observation.get("leader"),
        "to_move": view["name"] == observation.get("to_move"),
        "shape": SHAPES.get(view["name"], ""),
        "mood": unrest_mood(int(view["unrest"])),
        "permanent": named(list(view.get("permanent") or [])),
        "played": named(list(view.get("played") or [])),
        "technology": named(list(view.get("technology") or [])),
    }


def side(observation: dict[str, Any], known: Mapping[str, Any]) -> str:
    """The world beside the nation boards: marketplace (price track and stock), reserves,
    World Bank, LIMIT box, the generation track with its crisis tiles, alliances, the star
    nation in solo mode, and the final scores."""
    prices: list[int] = list(known.get("prices") or [])
    crises = [list(g) for g in observation.get("crises") or []]
    generation = int(observation.get("generation") or 1)
    end = known.get("end") or DEFAULT_END
    track = [
        {
            "generation": g,
            "year": 1850 + 30 * (g - 1),
            "crises": crises[g - 1] if g - 1 < len(crises) else [],
            "current": g == generation,
            "past": g < generation,
        }
        for g in range(1, int(end["generations"]) + 1)
    ]
    return environment.get_template("world_side.html.j2").render(
        observation=observation,
        prices=prices,
        track=track,
        total_crises=sum(len(t) for t in crises),
        end=end,
        shapes=SHAPES,
        nation=nation_name,
    )


def status(observation: dict[str, Any], names: list[str]) -> str:
    """The step in the rulebook's words and what the nation to move decides."""
    stage = str(observation.get("stage") or "")
    phase, step = STAGE_WORDS.get(stage, (stage, ""))
    where = _("%(phase)s, %(step)s") % {"phase": _(phase), "step": _(step)} if step else _(phase)
    generation = observation.get("generation")
    if isinstance(generation, int):
        where = _("generation %(g)d, %(where)s") % {"g": generation, "where": where}
    return where


# --- the World3 debrief of a finished game ---------------------------------------------------
def debrief(record: Any) -> dict[str, Any]:
    """The World3 debrief of a finished world game's record (``world.debrief``), for a page:
    ``{"rows": [GenerationRow], "account": str, "plots": [{"title", "text", "charts":
    [{"svg", "mapping"}]}], "note": ""}``.

    Each chart is inline SVG drawn by ``web.debrief_svg`` on fixed axes (no plotting library,
    nothing to install). Nothing a client sends names a file here: the record is the stored
    game's.

    Raises:
        RecordError: the record does not replay. ValueError: it completed no generation.
    """
    from limitgames.web.debrief_svg import chart_svg
    from limitgames.world.debrief import debrief_texts, reference_runs, replay_rows, world_account
    from limitgames.world.debrief_charts import axis_tops, debrief_charts

    rows, state = replay_rows(record)
    runs = reference_runs()
    charts = debrief_charts(rows, runs, axis_tops(state))
    plots = [
        {
            "title": plot.title,
            "text": plot.text,
            "charts": [
                {"svg": chart_svg(chart), "mapping": chart.mapping} for chart in charts[plot.name]
            ],
        }
        for plot in debrief_texts(rows, runs)
    ]
    return {"rows": rows, "account": world_account(rows, state), "plots": plots, "note": ""}
