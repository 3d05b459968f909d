"""The world game's words in any language: log lines that keep their template and values.

The engine writes its log in English (the rulebook's words, seed 004). Each line with
values is a :class:`Phrase`: a ``str`` whose value is the English line, byte for byte,
that also remembers its gettext template (``"sells %(count)d %(goods)s"``) and values,
so that :func:`render` can draw it again in the reader's language
(:data:`limitgames.translation.current_language`) when the log is read. String values
are game words (resources, plants, classes, decks, alliance kinds, card names) and are
translated too; numbers and nation names are not. A plain ``str`` line is translated as
a whole. Nothing here changes a rule or what a seat may see: the log keeps its lines and
their privacy, only the words change. (:class:`Phrase` and :func:`render` live in
:mod:`limitgames.translation`, which the server's own messages use too.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from limitgames.core.events import Event, Outcome, Termination, visible
from limitgames.core.outcome import result_in_words
from limitgames.translation import N_, Phrase, elide, gettext, joined, phrase, render
from limitgames.world.events import Noted

GAME_WORDS: tuple[str, ...] = (
    # resources and plants (data.RESOURCES, data.PLANTS)
    N_("renewable"),
    N_("industrial"),
    N_("military"),
    N_("fossil"),
    # decks (data.DECKS) and alliance kinds (state.ALLIANCE_KINDS)
    N_("society"),
    N_("production"),
    N_("economic"),
    # transactions and price moves
    N_("buy"),
    N_("sell"),
    N_("up"),
    N_("down"),
)
"""The game's words that come into log lines as values, marked for the catalogue."""

STAGE_WORDS: dict[str, tuple[str, str]] = {
    "technology": (N_("Political phase"), N_("step 1: technological advancement")),
    "new_policy": (N_("Political phase"), N_("step 2: new policy")),
    "hand_limit": (N_("Political phase"), N_("step 3: political action capacity")),
    "decide_policy": (N_("Political phase"), N_("step 4: decide policy")),
    "social_start": (N_("Social phase"), N_("start")),
    "supply": (N_("Social phase"), N_("step 1: supply")),
    "conserve": (N_("Social phase"), N_("step 2: conserving renewable resources")),
    "consumption": (N_("Social phase"), N_("step 3: consumption of industrial resources")),
    "population_growth": (N_("Social phase"), N_("step 4: population growth")),
    "lower_mortality": (N_("Social phase"), N_("step 5: lower mortality rate")),
    "lower_birth_rate": (N_("Social phase"), N_("step 6: lower birth rate")),
    "economic_growth": (N_("Social phase"), N_("step 7: economic growth")),
    "taxation": (N_("Social phase"), N_("step 8: taxation")),
    "production": (N_("Social phase"), N_("step 9: production")),
    "public_order": (N_("Social phase"), N_("step 10: public order")),
    "class_struggle": (N_("Social phase"), N_("step 11: class struggle")),
    "cold_war": (N_("International phase"), N_("step 1: cold war")),
    "financial_crisis": (N_("International phase"), N_("step 2: global crises (financial)")),
    "environmental_crisis": (
        N_("International phase"),
        N_("step 2: global crises (environmental)"),
    ),
    "military_crisis": (N_("International phase"), N_("step 2: global crises (military)")),
    "alliance": (N_("International phase"), N_("step 3: alliance")),
    "end_generation": (N_("International phase"), N_("step 4: end of generation")),
    "stress_start": (N_("Stress test"), N_("start")),
    "stress_supply": (N_("Stress test"), N_("supply")),
    "stress_consumption": (N_("Stress test"), N_("consumption")),
    "stress_production": (N_("Stress test"), N_("production")),
    "scoring": (N_("Scoring"), N_("the game is over")),
}
"""Each stage (``state.STAGES``, the stress test, ``scoring``) as the rulebook names it: its
phase and its step (pp 11-23), marked for the catalogue; the terminal and the browser both
name the stage from here (:func:`stage_sentence`)."""


def stage_sentence(stage: str) -> str:
    """A stage in the current language, phase then step (``"Political phase: step 2: new
    policy"``); a stage this table does not know comes back as it is."""
    if stage not in STAGE_WORDS:
        return stage
    phase, step = STAGE_WORDS[stage]
    return gettext("%(phase)s: %(step)s") % {"phase": gettext(phase), "step": gettext(step)}


NATIONS: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon")
"""The nations by seat (each nation board has its own shape): ``state.NATION_NAMES``."""

NATION_WORDS: dict[str, str] = {
    "circle": N_("circle"),
    "square": N_("square"),
    "triangle": N_("triangle"),
    "diamond": N_("diamond"),
    "pentagon": N_("pentagon"),
    "hexagon": N_("hexagon"),
    "star": N_("star"),
}
"""The nations' names (each nation board has its shape; ``star``: solo mode's star nation),
marked for the catalogue; they come into log lines as values and are translated there too."""


def nation_name(name: str) -> str:
    """A nation's name (``"circle"``) in the current language; another name (a person's)
    comes back as it is."""
    return gettext(NATION_WORDS[name]) if name in NATION_WORDS else name


def _nation(seat: int | None, names: Sequence[str] | None) -> str:
    if seat is None:
        return ""
    if names is not None and 0 <= seat < len(names):
        return nation_name(names[seat])
    return nation_name(NATIONS[seat]) if 0 <= seat < len(NATIONS) else str(seat)


def line_sentence(seat: int | None, text: str, names: Sequence[str] | None = None) -> str:
    """A log line in the current language, after its nation's name (``"Kreis: spielt
    Bildung"``); a line about the whole table has no name before it."""
    if seat is None:
        return elide(render(text), _all_names(names))
    line = gettext("%(nation)s: %(line)s") % {"nation": _nation(seat, names), "line": render(text)}
    return elide(line, _all_names(names))


def _all_names(names: Sequence[str] | None) -> list[str]:
    """Every name a line may hold, in the current language (for French elision: *d'hexagone*)."""
    return [nation_name(n) for n in (*NATION_WORDS, *(names or ()))]


def sentence(event: Event, names: Sequence[str] | None = None) -> str | None:
    """One event of LIMIT as a sentence in the current language, or ``None`` for an event
    told by the log lines that follow it (a decision, :class:`~limitgames.world.events.Decided`).

    Args:
        event: an event of :mod:`limitgames.world.events`.
        names: the seats' names (default: the nations' names).
    """
    if isinstance(event, Noted):
        return line_sentence(event.seat, event.text, names)
    return None


def tell(
    events: Iterable[Event], viewer: int | None, names: Sequence[str] | None = None
) -> list[str]:
    """The sentences ``viewer`` (a seat, or ``None`` for a spectator) may read, in order:
    only the events visible to it (:func:`limitgames.core.events.visible`); a secret
    choice's line shown to everyone when its step closes is not told again to the nation
    that wrote it (it read it then)."""
    lines: list[str] = []
    for event in visible(events, viewer):
        if _seen_before(event, viewer):
            continue
        text = sentence(event, names)
        if text is not None:
            lines.append(text)
    return lines


def _seen_before(event: Event, viewer: int | None) -> bool:
    return (
        isinstance(event, Noted) and event.revealed and viewer is not None and event.seat == viewer
    )


_REASONS: dict[Termination, str] = {
    Termination.SEVENTH_GENERATION: N_(
        "The seventh generation is over; after the stress test, the nations are scored."
    ),
    Termination.FOURTH_CRISIS: N_(
        "The fourth crisis tile was placed in generation %(generation)d; after the stress "
        "test, the nations are scored."
    ),
    Termination.SCORED_EARLY: N_(
        "The position was stress tested and scored in generation %(generation)d."
    ),
}


def outcome_sentence(outcome: Outcome, names: Sequence[str] | None = None) -> str:
    """Why the game ended, who won and every score, in the current language:
    ``"The seventh generation is over; ... circle wins with 33 victory points (scores:
    circle 33, square 8)"``. Solo mode: the verdict on the one nation's score.

    Args:
        outcome: a finished game's outcome (``WorldState.outcome()``).
        names: the seats' names (default: the nations' names).
    """
    count = len(outcome.returns)
    who = (
        [_nation(s, names) for s in range(count)]
        if names is not None
        else [nation_name(NATIONS[s]) for s in range(count)]
    )
    details: dict[str, Any] = dict(outcome.details)
    template = _REASONS.get(outcome.termination)
    reason = gettext(template) % {"generation": details.get("generation", 0)} if template else ""
    scores = [int(s) for s in outcome.scores] if outcome.scores is not None else None
    if scores is None:
        return f"{reason} {result_in_words(who, outcome.returns)}".strip()
    table = ", ".join(f"{who[s]} {x}" for s, x in enumerate(scores))
    if details.get("solo"):
        head = (
            gettext("%(nation)s played a very good game with %(score)d victory points")
            if outcome.winners
            else gettext("%(nation)s scored %(score)d victory points, not a very good game")
        ) % {"nation": who[0], "score": scores[0]}
        return f"{reason} {head}".strip()
    if len(outcome.winners) == 1:
        head = gettext("%(nation)s wins with %(score)d victory points") % {
            "nation": who[outcome.winners[0]],
            "score": scores[outcome.winners[0]],
        }
    elif outcome.winners:
        together = gettext("%(first)s and %(second)s") % {
            "first": ", ".join(who[s] for s in outcome.winners[:-1]),
            "second": who[outcome.winners[-1]],
        }
        head = gettext("%(nations)s share the win with %(score)d victory points") % {
            "nations": together,
            "score": scores[outcome.winners[0]],
        }
    else:
        head = result_in_words(who, outcome.returns)
    result = gettext("%(result)s (scores: %(scores)s)") % {"result": head, "scores": table}
    return elide(f"{reason} {result}".strip(), who)


def scorecard_sentences(outcome: Outcome, names: Sequence[str] | None = None) -> list[str]:
    """Each nation's scorecard in one line of the current language (``"circle: happiness 6
    + money 9 + territory 25 + military 0 + impact -7 = 33"``), from ``details["scorecards"]``."""
    cards = list(dict(outcome.details).get("scorecards") or [])
    lines = []
    for seat, card in enumerate(cards):
        line = phrase(
            N_(
                "Score: happiness %(happiness)s + money %(financial)s + territory %(territory)s + "
                "military %(military)s + impact %(impact)s = %(total)s"
            ),
            **{
                key: card[key]
                for key in ("happiness", "financial", "territory", "military", "impact", "total")
            },
        )
        lines.append(line_sentence(seat, line, names))
    return lines


__all__ = [
    "GAME_WORDS",
    "NATIONS",
    "NATION_WORDS",
    "STAGE_WORDS",
    "Phrase",
    "joined",
    "line_sentence",
    "nation_name",
    "outcome_sentence",
    "phrase",
    "render",
    "scorecard_sentences",
    "sentence",
    "stage_sentence",
    "tell",
]
