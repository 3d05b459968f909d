"""Drawing Poyé's LIMIT (``world``) in the terminal with Rich.

Everything here reads the engine's observation (and the card data for the
words on the cards); it never decides a rule. A preview of an action is made
by applying it to a clone and showing what changed.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from limitgames.cli.world_screen import (
    CHOICE_WORDS,
    SCORE_PARTS,
    card_effect,
    result_text,
    scores_table,
)
from limitgames.core import Action, State
from limitgames.translation import N_, using
from limitgames.translation import gettext as _
from limitgames.world.words import nation_name

LOG_SHOWN = 60
"""At most this many log lines are drawn (the current and the previous phase)."""
PHASE_MARK = "== "


def _cards(state: State) -> Any:
    return state.data.cards  # type: ignore[attr-defined]


CARD_WORDS: tuple[str, ...] = (N_("starter"), N_("technology"), N_("deck"))
"""A card's kind (``data.toml``: in the starting hand, a technology card, in a deck)."""


def _at(value: Any, position: Any) -> str:
    """``5 (pos 3)``: a track's value beside its position."""
    return _("%(value)s (pos %(position)s)") % {"value": value, "position": position}


def nations_table(obs: dict[str, Any], seat: int | None) -> Table:
    """The nation boards side by side: one column per nation."""
    table = Table(
        title=_("Generation %(generation)s — nations") % {"generation": obs["generation"]},
        title_justify="left",
        show_lines=False,
    )
    table.add_column("")
    for view in obs["nations"]:
        label = nation_name(view["name"]) + (" " + _("(you)") if view["seat"] == seat else "")
        if view["name"] == obs["leader"]:
            label += " ★"
        table.add_column(label, justify="right")
    rows: list[tuple[str, Any]] = [
        (N_("population"), lambda v: _at(v["population"]["value"], v["population"]["position"])),
        (
            N_("renewable plant"),
            lambda v: _at(
                f"+{v['plants']['renewable']['value']}", v["plants"]["renewable"]["position"]
            ),
        ),
        (
            N_("industrial plant"),
            lambda v: _at(
                f"+{v['plants']['industrial']['value']}", v["plants"]["industrial"]["position"]
            ),
        ),
        (
            N_("military plant"),
            lambda v: _at(
                f"+{v['plants']['military']['value']}", v["plants"]["military"]["position"]
            ),
        ),
        (N_("renewable"), lambda v: str(v["stock"]["renewable"])),
        (N_("industrial"), lambda v: str(v["stock"]["industrial"])),
        (N_("military"), lambda v: str(v["stock"]["military"])),
        (N_("fossil"), lambda v: str(v["fossil"])),
        (N_("money $"), lambda v: str(v["money"])),
        (N_("territory"), lambda v: str(v["territory"])),
        (N_("standard of living A-E"), lambda v: " ".join(str(v["sol"][c]) for c in "ABCDE")),
        (N_("demographic shift zone"), lambda v: str(v["shift_zone"])),
        (N_("social unrest (1-11)"), _unrest),
        (N_("pollution"), lambda v: str(v["pollution"])),
        (N_("disruption"), lambda v: str(v["disruption"])),
        (N_("cards in hand"), lambda v: str(v["hand_count"])),
        (
            N_("decks S/M/P"),
            lambda v: "/".join(
                str(v["deck_counts"][d]) for d in ("society", "military", "production")
            ),
        ),
        (N_("permanent cards"), lambda v: ", ".join(v["permanent"]) or "-"),
        (N_("played this generation"), lambda v: ", ".join(v["played"]) or "-"),
        (N_("passed"), lambda v: _("yes") if v["passed"] else ""),
    ]
    for name, cell in rows:
        table.add_row(_(name), *[cell(v) for v in obs["nations"]])
    return table


def _unrest(view: dict[str, Any]) -> str:
    u = view["unrest"]
    mood = _("uprising") if u >= 10 else _("boom") if u <= 2 else _("growth")
    return f"{u} ({mood})"


def world_table(obs: dict[str, Any]) -> Table:
    """The marketplace, reserves, World Bank, LIMIT box and crisis track."""
    table = Table(title=_("The world"), title_justify="left")
    table.add_column("")
    for name in ("renewable", "industrial", "military", "fossil"):
        table.add_column(_(name), justify="right")
    market = obs["market"]
    table.add_row(
        _("market price $"), *[_at(market[r]["price"], market[r]["position"]) for r in market]
    )
    table.add_row(_("market stock"), *[str(market[r]["stock"]) for r in market])
    crises = []
    for g, tiles in enumerate(obs["crises"], start=1):
        crises.append(f"{g}:" + ("+".join(t[:3] for t in tiles) if tiles else "-"))
    summary = Table.grid(padding=(0, 2))
    summary.add_row(
        _("World Bank %(money)s $") % {"money": obs["world_bank"]},
        _("pollution reserve %(count)s") % {"count": obs["pollution_reserve"]},
        _("disruption reserve %(count)s") % {"count": obs["disruption_reserve"]},
        _("colonization: %(territory)s territory, %(fossil)s fossil") % obs["colonization"],
    )
    summary.add_row(
        _("generation %(generation)s of 7") % {"generation": obs["generation"]},
        _("crises %(tiles)s") % {"tiles": " ".join(crises)},
        _("total crises %(count)s (the game ends at 4)")
        % {"count": sum(len(t) for t in obs["crises"])},
        "",
    )
    alliances = obs.get("alliances")
    if alliances is not None:
        groups = [
            f"{_(kind)}: "
            + (
                "; ".join(", ".join(nation_name(n) for n in g) for g in alliances[kind])
                or _("none")
            )
            for kind in ("military", "economic")
        ]
        demil = _("demilitarized") if obs.get("demilitarized") else ""
        summary.add_row(_("alliances"), *groups, demil)
    star = obs.get("star")
    if star is not None:
        v = star["values"]
        summary.add_row(
            _("star nation"),
            _(
                "population %(population)s, class C %(sol_c)s, military %(military)s, "
                "industrial %(industrial)s"
            )
            % v,
            _(
                "%(money)s $, %(fossil)s fossil, %(territory)s territory, "
                "%(pollution)s pollution, %(disruption)s disruption"
            )
            % star,
            _("events: %(count)s in the pile") % {"count": obs["events"]["draw_pile"]},
        )
    outer = Table.grid()
    outer.add_row(table)
    outer.add_row(summary)
    return outer


def hand_table(state: State, obs: dict[str, Any], seat: int) -> Table:
    """The seat's hand, each card with its cost and effect, and whether it can be played now."""
    cards = _cards(state)
    playable = set()
    if not state.is_terminal() and state.current_player() == seat:
        playable = {a[1] for a in state.legal_actions() if isinstance(a, tuple) and a[0] == "play"}
    table = Table(title=_("Your hand"), title_justify="left", show_lines=True)
    table.add_column(_("card"))
    table.add_column(_("deck"))
    table.add_column(_("kind"))
    table.add_column(_("cost"))
    table.add_column(_("effect"))
    table.add_column(_("if played now"))
    for cid in obs.get("hand", []):
        card = cards[cid]
        name = Text(cid, style="bold green" if cid in playable else "")
        now = card_preview(state, seat, cid) if cid in playable else _("cannot be played now")
        table.add_row(
            name,
            _(card.deck),
            card_effect(card.permanent),
            _(card.cost),
            _(card.text),
            now,
        )
    return table


def _log(state: State, seat: int | None) -> list[str]:
    """The log channel of a world game as ``seat`` may read it."""
    from limitgames.world.observe import log
    from limitgames.world.state import WorldState

    assert isinstance(state, WorldState)
    return log(state, seat)


def render(console: Console, state: State, seat: int | None) -> None:
    """Draw the game as ``seat`` sees it (``None``: spectator): the one-screen redraw of
    :func:`limitgames.cli.world_screen.render` (the full tables: :func:`render_full`)."""
    from limitgames.cli.world_screen import render as redraw

    redraw(console, state, seat)


__all__ = [
    "CHOICE_WORDS",
    "SCORE_PARTS",
    "Preview",
    "card_effect",
    "card_preview",
    "hand_table",
    "nations_table",
    "preview_lines",
    "recent_log",
    "render",
    "render_full",
    "result_text",
    "scores_table",
    "world_table",
]


def render_full(console: Console, state: State, seat: int | None) -> None:
    """Every table at once, as ``seat`` sees it: the world, the nation boards with every field,
    the hand with each card's cost, effect and preview, and the log of the last two phases."""
    obs = state.observation(seat)
    console.print(world_table(obs))
    console.print(nations_table(obs, seat))
    if seat is not None:
        console.print(hand_table(state, obs, seat))
    log = recent_log(_log(state, seat))
    if log:
        console.print(
            Panel(
                Group(*[Text(line) for line in log]), title=_("What happened"), title_align="left"
            )
        )


def recent_log(lines: list[str]) -> list[str]:
    """The log of the previous and the current phase (the lines from the second-last phase mark)."""
    marks = [i for i, line in enumerate(lines) if line.startswith(PHASE_MARK)]
    start = marks[-2] if len(marks) >= 2 else 0
    return lines[max(start, len(lines) - LOG_SHOWN) :]


def card_preview(state: State, seat: int, card: str) -> str:
    """What playing ``card`` now would change, in a few words (own board first, then others)."""
    try:
        preview = Preview.of(state, ("play", card))
    except Exception:
        return ""
    hand_words = [_(words) for words in _HAND_WORDS]
    parts = [
        text if who is None or who == "you" else f"{who} {text}"
        for who, text in preview.changes
        if not any(words in text for words in hand_words)
    ]
    parts += [line for line in preview.then if "(policy)" not in line and line != _(STEP_ENDS)]
    if not preview.changes:  # the step ended: the card's own log lines
        me = state.seat_names()[seat]
        with using("en"):  # which lines say the card was played: the engine's own words
            english = Preview.of(state, ("play", card)).log
        parts = [
            line.removeprefix(f"{me}: ")
            for line, said in zip(preview.log, english, strict=False)
            if not said.removeprefix(f"{me}: ").startswith(("plays ", "passes"))
        ]
    return "; ".join(parts)


STEP_ENDS = N_("then the step ends and play goes on to the next phase")
"""A preview's last line when the action ends the step."""

PREVIEW_SEED = 0
"""The seed of the re-deal a preview is made on (fixed: a preview depends only on what the seat
knows, never on the cards it cannot see)."""
_HAND_WORDS = (
    N_("played this generation"),
    N_("permanent cards"),
    N_("cards in hand"),
    N_("cards in the"),
)
"""Changes a card's one-line preview leaves out (the card leaving the hand says them)."""

_NATION_WORDS: dict[str, str] = {
    "population.value": N_("population"),
    "plants.renewable.value": N_("renewable plant produces"),
    "plants.industrial.value": N_("industrial plant produces"),
    "plants.military.value": N_("military plant produces"),
    "stock.renewable": N_("renewable resources"),
    "stock.industrial": N_("industrial resources"),
    "stock.military": N_("military resources"),
    "fossil": N_("fossil resources"),
    "money": N_("money $"),
    "territory": N_("territory"),
    "pollution": N_("pollution"),
    "disruption": N_("disruption"),
    "shift_zone": N_("demographic shift zone"),
    "shift_tiles": N_("demographic shift tiles on the board"),
    "unrest": N_("social unrest"),
    "hand_by_deck.society": N_("society cards in hand"),
    "hand_by_deck.military": N_("military-and-economy cards in hand"),
    "hand_by_deck.production": N_("production cards in hand"),
    "deck_counts.society": N_("cards in the society deck"),
    "deck_counts.military": N_("cards in the military-and-economy deck"),
    "deck_counts.production": N_("cards in the production deck"),
    "permanent": N_("permanent cards"),
    "played": N_("played this generation"),
    "technology": N_("technology cards received"),
    **{f"sol.{c}": N_("class %(cls)s standard of living") for c in "ABCDE"},
}
"""Each field of a nation board (``observe.nation_view``) in the game's words; the others
(positions beside their values, whether it passed) are not shown in a preview."""


def _nation_words(key: str) -> str:
    """A field of a nation board in the current language (``_NATION_WORDS``)."""
    if key.startswith("sol."):
        return _(_NATION_WORDS[key]) % {"cls": key[-1]}
    return _(_NATION_WORDS[key])


LIMIT_BOX_WORDS: dict[str, str] = {
    "money": N_("money"),
    "fossil": N_("fossil"),
    "territory": N_("territory"),
    "shift": N_("shift"),
    "disruption": N_("disruption"),
    "pollution": N_("pollution"),
}
"""What the LIMIT box holds (``observe``'s ``limit_box`` keys) in the game's words."""


def _world_words(key: str) -> str | None:
    fixed = {
        "world_bank": N_("World Bank $"),
        "pollution_reserve": N_("pollution reserve"),
        "disruption_reserve": N_("disruption reserve"),
        "colonization.territory": N_("colonization reserve territory"),
        "colonization.fossil": N_("colonization reserve fossil"),
    }
    if key in fixed:
        return _(fixed[key])
    if key.startswith("limit_box."):
        what = key.split(".", 1)[1]
        return _("LIMIT box %(what)s") % {"what": _(LIMIT_BOX_WORDS.get(what, what))}
    if key.startswith("market."):
        _prefix, resource, field = key.split(".")
        words = {
            "price": N_("%(resource)s price $"),
            "stock": N_("marketplace %(resource)s stock"),
            "position": N_("%(resource)s price cube position"),
        }[field]
        return _(words) % {"resource": _(resource)}
    return None


def _change(words: str, old: str, new: str) -> str:
    """``money 12 -> 7 $``: the words, the values, then the unit if the words end with one."""
    if words.endswith(" $"):
        return f"{words[:-2]} {old} -> {new} $"
    return f"{words} {old} -> {new}"


def _shown(value: Any, state: State) -> str:
    if isinstance(value, list):
        cards = _cards(state)
        names = [_(cards[v].name) if v in cards else str(v) for v in value]
        return ", ".join(names) or _("none")
    return str(value)


class Preview(NamedTuple):
    """What an action would do, as its seat may know it: its log lines, the changes in the
    game's words (``(nation or "you" or None for the world, words)``) and what comes next."""

    log: list[str]
    changes: list[tuple[str | None, str]]
    then: list[str]

    @classmethod
    def of(cls, state: State, action: Action) -> Preview:
        """The preview of ``action`` for the seat to move, made on a re-deal of everything that
        seat cannot see (``determinize``): it never depends on hidden cards or on the hidden
        choices of others. If the action would show the seat cards it has not seen (a draw),
        those are not named. Raises the engine's errors for an illegal action."""
        seat = state.current_player()
        twin = state.determinize(seat, random.Random(PREVIEW_SEED))
        seen = twin.revelations(seat)
        before = twin.observation(seat)
        old_log = len(_log(twin, seat))
        twin.apply(action)
        revealed = twin.revelations(seat) != seen
        new_log = _log(twin, seat)[old_log:]
        if revealed:  # keep only the lines that do not depend on the cards drawn
            other = state.determinize(seat, random.Random(PREVIEW_SEED + 1))
            start = len(_log(other, seat))
            other.apply(action)
            same = set(_log(other, seat)[start:])
            new_log = [line for line in new_log if line in same]
        cut = next((i for i, line in enumerate(new_log) if line.startswith(PHASE_MARK)), None)
        if cut is not None:
            return cls(new_log[:cut], [], [_(STEP_ENDS)])
        after = twin.observation(seat)
        me = before["nations"][seat]["name"]
        changes: list[tuple[str | None, str]] = []
        old: dict[str, Any] = {}
        new: dict[str, Any] = {}
        for key in ("world_bank", "pollution_reserve", "disruption_reserve", "colonization"):
            _flatten(key, before[key], old)
            _flatten(key, after[key], new)
        for key in ("market", "limit_box"):
            _flatten(key, before[key], old)
            _flatten(key, after[key], new)
        for key, value in new.items():
            words = _world_words(key)
            if words is None or old.get(key) == value:
                continue
            if key.endswith(".position") and old.get(key.replace("position", "price")) != new.get(
                key.replace("position", "price")
            ):
                continue  # the price says it
            changes.append((None, _change(words, str(old.get(key)), str(value))))
        for view_before, view_after in zip(before["nations"], after["nations"], strict=True):
            o: dict[str, Any] = {}
            n: dict[str, Any] = {}
            _flatten("", view_before, o)
            _flatten("", view_after, n)
            who = "you" if view_after["name"] == me else view_after["name"]
            for key in _NATION_WORDS:
                if o.get(key) != n.get(key):
                    words = _nation_words(key)
                    changes.append(
                        (who, _change(words, _shown(o.get(key), state), _shown(n.get(key), state)))
                    )
        changes.sort(key=lambda c: (c[0] is None, c[0] != "you"))
        then: list[str] = []
        choice = after.get("choice")
        if choice and choice["nation"] == me and revealed:
            words = _(CHOICE_WORDS.get(choice["kind"], choice["kind"]))
            then.append(_("then you see the cards drawn and %(words)s") % {"words": words})
        elif choice and choice["nation"] == me and "options" in choice:
            words = _(CHOICE_WORDS.get(choice["kind"], choice["kind"])).split(" (")[0]
            forms = twin.action_forms()
            verbs = {f.verb for f in forms}
            options = [f"{f.notation} (N {f.minimum}-{f.maximum})" for f in forms]
            options += [o for o in choice["options"] if o.split()[0] not in verbs]
            then.append(
                _("then you %(words)s: %(options)s")
                % {"words": words, "options": "  ".join(options)}
            )
        elif choice:
            words = _(CHOICE_WORDS.get(choice["kind"], choice["kind"])).split(" (")[0]
            then.append(
                _("then %(nation)s must %(words)s")
                % {"nation": nation_name(choice["nation"]), "words": words}
            )
        return cls(new_log, changes, then)

    def lines(self) -> list[str]:
        """The preview as lines for people."""
        out = [_("log: %(line)s") % {"line": line} for line in self.log]
        for who, text in self.changes:
            out.append(text if who is None else f"{_('you') if who == 'you' else who}: {text}")
        return out + self.then


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out[prefix] = value


def preview_lines(state: State, action: Action) -> list[str]:
    """What ``action`` would do, as lines (see :class:`Preview`): the log it writes, what
    changes in the game's words, and the next decision. ``state`` is not changed. When it ends
    the step and play runs on into the next phase, only the action's own log lines are shown
    (up to the next phase), with a last line saying so. Raises the engine's errors."""
    return Preview.of(state, action).lines()
