"""The world game's redraw at the terminal: one screen a player can read at a glance.

One redraw (:func:`render`) fits in :data:`SCREEN_LINES` lines at 4 nations and 100
columns: the stage and generation, the world's tracks (market, reserves, World Bank,
crises), every nation board in a few rows (yours marked), your hand by card id (the
playable ones in green), the last lines of the log and the decision asked. The full
tables are behind the commands ``world``, ``nations``, ``hand`` and ``log``
(:class:`limitgames.cli.world_play.WorldInput`).

:func:`summary_lines` tells a nation what happened since its last decision when phases
were resolved in between (the rest of a generation after its last decision): each phase
resolved and the other nations' public decisions in it, from the engine's events
(:mod:`limitgames.world.events`) and as the nation may see them. Nothing here decides a
rule; the words come from :mod:`limitgames.world.words`. What the redraw and the full tables
(:mod:`limitgames.cli.world_view`) both use lives here: what each choice asks
(:data:`CHOICE_WORDS`), the scores and the result at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from limitgames.core import State
from limitgames.core.events import Event, visible
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.world.events import Decided, Noted
from limitgames.world.words import nation_name, sentence, stage_sentence
from limitgames.world.words import render as render_line

SCREEN_LINES = 40
"""At most this many lines per redraw at 4 nations and 100 columns (tested)."""
LAST_SHOWN = 4
"""How many of the latest log lines the redraw shows (``log`` shows them all)."""
SUMMARY_LINES = 18
"""At most this many lines of a summary (``log`` has the rest)."""
PHASE_MARK = "== "
"""How the engine's log opens a phase (``"== Social phase of generation 1"``)."""

COMMANDS_HINT = N_("More: world, nations, hand, log, card CARD, preview ACTION, help")
"""The line under the redraw naming the commands that show what it leaves out."""


CHOICE_WORDS: dict[str, str] = {
    "deck": N_("choose a deck to draw from (deck society|military|production)"),
    "keep": N_("keep a drawn card (keep CARD)"),
    "discard": N_("discard down to your hand limit (discard CARD)"),
    "policy": N_("play a card, withdraw a permanent card, or pass (play CARD / pass)"),
    "raise": N_("choose the class that gains 1 standard of living (raise A..E)"),
    "lower": N_("choose the class that loses 1 standard of living (lower A..E)"),
    "plant": N_("choose a production plant (plant renewable|industrial|military)"),
    "upgrade": N_("choose the plant to improve (plant ...)"),
    "target": N_("choose the target nation (target NAME)"),
    "spend": N_("choose how much military to spend (spend N)"),
    "resist": N_("resist by spending as much military, or yield (resist / yield)"),
    "take": N_("choose what to take (take fossil|renewable|industrial)"),
    "gain": N_("choose the resource gained (gain ...)"),
    "produce": N_("choose the plant that produces again (produce industrial|military)"),
    "recall": N_("choose the instant card to take back (recall CARD)"),
    "give": N_("choose how much pollution to give (give N)"),
    "contribute": N_("pledge money to another nation's card (contribute N)"),
    "trade": N_("make a transaction (buy N RESOURCE / sell N RESOURCE / no-trade)"),
    "price": N_("move a price cube (price RESOURCE up|down)"),
    "alliance": N_(
        "offer, leave or exclude in an alliance, or do nothing "
        "(offer military|economic NATION / leave KIND / exclude KIND NATION / pass)"
    ),
    "answer": N_("answer the proposal (accept / refuse)"),
    "fee": N_("choose your part of the 2 $ alliance fee (pay N)"),
    "ask": N_("ask your allies for help, or not (ask / pass)"),
    "aid": N_("give your ally some of what it asks, or refuse (aid N / refuse)"),
    "break": N_("break the alliance after the refusal, or keep it (break / stay)"),
}
"""What each kind of choice asks, for people."""


SCORE_PARTS: tuple[str, ...] = (
    N_("happiness"),
    N_("financial"),
    N_("territory"),
    N_("military"),
    N_("impact"),
    N_("total"),
)
"""The parts of a nation's score (rulebook p23), as ``score_details`` names them."""


def card_effect(permanent: bool) -> str:
    """A card's effect kind in words: ``permanent`` or ``instant`` (rulebook p8)."""
    return _("permanent") if permanent else _("instant")


def scores_table(obs: dict[str, Any]) -> Table:
    """The final scores by part."""
    table = Table(title=_("Scores"), title_justify="left")
    table.add_column(_("nation"))
    for part in SCORE_PARTS:
        table.add_column(_(part), justify="right")
    for view, d in zip(obs["nations"], obs.get("score_details", []), strict=False):
        table.add_row(
            nation_name(view["name"]),
            *[
                str(d[p])
                for p in ("happiness", "financial", "territory", "military", "impact", "total")
            ],
        )
    return table


def result_text(state: State) -> str:
    """Why the game ended, who won and the scores, in the session's language
    (:func:`limitgames.world.words.outcome_sentence`)."""
    from limitgames.world.words import outcome_sentence

    outcome = state.outcome()
    if outcome is None:
        return _("The game is not finished.")
    return outcome_sentence(outcome)


def _log(state: State, seat: int | None) -> list[str]:
    from limitgames.world.observe import log
    from limitgames.world.state import WorldState

    assert isinstance(state, WorldState)
    return log(state, seat)


def world_lines(obs: dict[str, Any]) -> Table:
    """The world's tracks in three or four short lines: generation and crises, the World
    Bank and the reserves, the marketplace (price $ and stock per resource), the alliances."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    crises = sum(len(tiles) for tiles in obs["crises"])
    grid.add_row(
        _("generation %(generation)s of 7") % {"generation": obs["generation"]}
        + " · "
        + _("crises %(count)s of 4") % {"count": crises}
        + " · "
        + _("World Bank %(money)s $") % {"money": obs["world_bank"]}
        + " · "
        + _("pollution reserve %(count)s") % {"count": obs["pollution_reserve"]}
        + " · "
        + _("disruption reserve %(count)s") % {"count": obs["disruption_reserve"]}
    )
    market = obs["market"]
    prices = "  ".join(
        _("%(resource)s %(price)s $ (%(stock)s)")
        % {"resource": _(r), "price": market[r]["price"], "stock": market[r]["stock"]}
        for r in market
    )
    grid.add_row(_("market price (stock): %(prices)s") % {"prices": prices})
    alliances = obs.get("alliances")
    if alliances is not None and any(alliances[kind] for kind in ("military", "economic")):
        groups = [
            f"{_(kind)}: "
            + "; ".join(", ".join(nation_name(n) for n in g) for g in alliances[kind])
            for kind in ("military", "economic")
            if alliances[kind]
        ]
        grid.add_row(_("alliances") + ": " + "  ".join(groups))
    star = obs.get("star")
    if star is not None:
        v = star["values"]
        grid.add_row(
            _("star nation")
            + ": "
            + _(
                "population %(population)s, class C %(sol_c)s, military %(military)s, "
                "industrial %(industrial)s"
            )
            % v
        )
    return grid


def _plants(view: dict[str, Any]) -> str:
    return " ".join(
        f"+{view['plants'][p]['value']}" for p in ("renewable", "industrial", "military")
    )


def _stock(view: dict[str, Any]) -> str:
    return " ".join(str(view["stock"][r]) for r in ("renewable", "industrial", "military"))


def _cards_row(view: dict[str, Any]) -> str:
    return f"{view['hand_count']} / {len(view['played'])} / {len(view['permanent'])}"


def nations_summary(obs: dict[str, Any], seat: int | None) -> Table:
    """Every nation board in a few rows, one column per nation (``seat``'s marked ``(you)``,
    the leader's ``★``, a nation that passed ``·``); ``nations`` shows every field."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    table.add_column("")
    for view in obs["nations"]:
        label = nation_name(view["name"]) + (" " + _("(you)") if view["seat"] == seat else "")
        if view["name"] == obs["leader"]:
            label += " ★"
        if view["passed"]:
            label += " ·"
        table.add_column(label, justify="right")
    rows: list[tuple[str, Any]] = [
        (N_("population"), lambda v: str(v["population"]["value"])),
        (N_("plants R I M"), _plants),
        (N_("resources R I M"), _stock),
        (N_("fossil"), lambda v: str(v["fossil"])),
        (N_("money $"), lambda v: str(v["money"])),
        (N_("territory"), lambda v: str(v["territory"])),
        (N_("standard of living A-E"), lambda v: " ".join(str(v["sol"][c]) for c in "ABCDE")),
        (N_("social unrest (1-11)"), lambda v: str(v["unrest"])),
        (
            N_("pollution / disruption"),
            lambda v: f"{v['pollution']} / {v['disruption']}",
        ),
        (N_("cards: hand / played / permanent"), _cards_row),
    ]
    for name, cell in rows:
        table.add_row(_(name), *[cell(v) for v in obs["nations"]])
    return table


def hand_line(state: State, obs: dict[str, Any], seat: int) -> Text:
    """``Your hand: education, public-expenditure, ...``: the card ids to type, the ones that
    can be played now in green (``hand`` shows each card's cost, effect and preview)."""
    playable: set[str] = set()
    if not state.is_terminal() and state.current_player() == seat:
        playable = {a[1] for a in state.legal_actions() if isinstance(a, tuple) and a[0] == "play"}
    line = Text(_("Your hand: "), style="bold")
    cards = obs.get("hand", [])
    for i, cid in enumerate(cards):
        if i:
            line.append(", ")
        line.append(cid, style="bold green" if cid in playable else "")
    if not cards:
        line.append(_("none"))
    return line


def last_lines(state: State, seat: int | None, count: int = LAST_SHOWN) -> list[str]:
    """The latest ``count`` lines of the log ``seat`` may read, in its current phase."""
    lines = _log(state, seat)
    marks = [i for i, line in enumerate(lines) if line.startswith(PHASE_MARK)]
    start = marks[-1] if marks else 0
    return lines[max(start, len(lines) - count) :]


def choice_lines(state: State, obs: dict[str, Any]) -> list[Text]:
    """The decision asked: whose it is, what it asks, its options (one line; a quantity by its
    range), and for a card to keep or take back each card's cost and effect on one line."""
    choice = obs.get("choice")
    if not choice:
        return []
    words = _(CHOICE_WORDS.get(choice["kind"], choice["kind"]))
    out = [
        Text.from_markup(
            _("%(nation)s to decide: %(words)s")
            % {"nation": f"[bold]{nation_name(choice['nation'])}[/]", "words": words}
        )
    ]
    if "options" not in choice:
        return out
    if choice["kind"] not in ("keep", "recall"):  # each card's line below starts with it
        out.append(Text(_("Options: ") + "  ".join(choice["options"])))
    forms = state.action_forms()
    if forms:
        ranges = "  ".join(f"{f.notation} (N {f.minimum}-{f.maximum})" for f in forms)
        out.append(Text(_("Any quantity in range: %(ranges)s") % {"ranges": ranges}))
    if choice["kind"] in ("keep", "recall"):
        cards = state.data.cards  # type: ignore[attr-defined]
        for option in choice["options"]:
            card = cards[option.split()[1]]
            said = "  " + _("%(card)s (%(kind)s): cost %(cost)s Effect: %(text)s") % {
                "card": option,
                "kind": card_effect(card.permanent),
                "cost": _(card.cost),
                "text": _(card.text),
            }
            out.append(Text(said, no_wrap=True, overflow="ellipsis"))
    return out


def render(console: Console, state: State, seat: int | None) -> None:
    """Draw the game as ``seat`` sees it (``None``: spectator) in at most :data:`SCREEN_LINES`
    lines at 4 nations and 100 columns; a finished game adds the scores and the result."""
    obs = state.observation(seat)
    console.rule(f"LIMIT — {stage_sentence(obs['stage'])}")
    console.print(world_lines(obs), highlight=False)
    console.print(nations_summary(obs, seat), highlight=False)
    if seat is not None:
        console.print(hand_line(state, obs, seat), highlight=False)
    for line in last_lines(state, seat):
        console.print(Text("» " + line), highlight=False, no_wrap=True, overflow="ellipsis")
    if state.is_terminal():
        console.print(scores_table(obs))
        console.print(result_text(state), highlight=False)
        return
    for text in choice_lines(state, obs):
        console.print(text, highlight=False, no_wrap=text.no_wrap, overflow=text.overflow)
    console.print(Text(_(COMMANDS_HINT), style="dim"), highlight=False)


def summary_lines(
    events: Sequence[Event], viewer: int, names: Sequence[str] | None = None
) -> list[str]:
    """What ``viewer`` may know of ``events`` (the events since its last decision), told as
    the phases resolved and the other nations' public decisions: one line per phase (``"==
    Social phase of generation 1"``), then for each run of decisions of one nation a line of its
    decisions (``"circle: plays Education; passes"``), in the order they were taken. A decision is told by the first log
    line of its nation after it (``Decided`` then ``Noted``); a secret choice revealed when
    its step closes is told by its revealed lines. Only :func:`visible` events are read, so
    no secret of another nation can be told. Empty when no phase was resolved. At most
    :data:`SUMMARY_LINES` lines (the last one then says how many more ``log`` has).

    Args:
        events: the events in order (:meth:`~limitgames.world.game_state.WorldGameState.apply_with_events`).
        viewer: the nation's seat. names: the seats' names (default: the nations' names).
    """
    shown = visible(events, viewer)
    if not any(_is_mark(e) for e in shown):
        return []
    told: list[tuple[int | None, str]] = []  # (seat or None for a phase's line, words)
    waiting: set[int] = set()
    for event in shown:
        if _is_mark(event):
            assert isinstance(event, Noted)
            told.append((None, sentence(event, names) or ""))
            continue
        if isinstance(event, Decided):
            if event.seat != viewer and event.audience is None:
                waiting.add(event.seat)
            continue
        if not isinstance(event, Noted) or event.seat is None or event.seat == viewer:
            continue
        if event.seat in waiting or event.revealed:
            waiting.discard(event.seat)
            told.append((event.seat, render_line(event.text)))
    lines: list[str] = []
    last: int | None = None
    said = ""
    for seat, words in [*told, (None, "")]:
        if seat is not None and seat == last:
            said = _("%(first)s; %(second)s") % {"first": said, "second": words}
            continue
        if last is not None:
            nation = _name(last, names)
            lines.append("  " + _("%(nation)s: %(line)s") % {"nation": nation, "line": said})
        last, said = seat, words
        if seat is None and words:
            lines.append(words)
    if len(lines) > SUMMARY_LINES:
        rest = len(lines) - SUMMARY_LINES + 1
        more = _("... %(count)s more lines: type log") % {"count": rest}
        lines = [*lines[: SUMMARY_LINES - 1], more]
    return lines


def _is_mark(event: Event) -> bool:
    return isinstance(event, Noted) and event.seat is None and event.text.startswith(PHASE_MARK)


def _name(seat: int, names: Sequence[str] | None) -> str:
    from limitgames.world.words import NATIONS

    if names is not None and 0 <= seat < len(names):
        return nation_name(names[seat])
    return nation_name(NATIONS[seat]) if 0 <= seat < len(NATIONS) else str(seat)


def summary_panel(lines: list[str]) -> Panel:
    """The summary (:func:`summary_lines`) in a panel titled "Since your last decision"."""
    return Panel(
        Group(*[Text(line) for line in lines]),
        title=_("Since your last decision"),
        title_align="left",
        box=box.ROUNDED,
    )
