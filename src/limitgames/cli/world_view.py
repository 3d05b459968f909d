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

from limitgames.core import Action, State

STAGE_WORDS: dict[str, str] = {
    "technology": "Political phase: 1 technological advancement",
    "new_policy": "Political phase: 2 new policy",
    "hand_limit": "Political phase: 3 political action capacity",
    "decide_policy": "Political phase: 4 decide policy",
    "social_start": "Social phase",
    "supply": "Social phase: 1 supply",
    "conserve": "Social phase: 2 conserving renewable resources",
    "consumption": "Social phase: 3 consumption of industrial resources",
    "population_growth": "Social phase: 4 population growth",
    "lower_mortality": "Social phase: 5 lower mortality rate",
    "lower_birth_rate": "Social phase: 6 lower birth rate",
    "economic_growth": "Social phase: 7 economic growth",
    "taxation": "Social phase: 8 taxation",
    "production": "Social phase: 9 production",
    "public_order": "Social phase: 10 public order",
    "class_struggle": "Social phase: 11 class struggle",
    "cold_war": "International phase: 1 cold war",
    "financial_crisis": "International phase: 2 global crises (financial)",
    "environmental_crisis": "International phase: 2 global crises (environmental)",
    "military_crisis": "International phase: 2 global crises (military)",
    "alliance": "International phase: 3 alliance (solo: an event card)",
    "end_generation": "International phase: 4 end of generation",
    "stress_start": "Stress test",
    "stress_supply": "Stress test: supply",
    "stress_consumption": "Stress test: consumption",
    "stress_production": "Stress test: production",
    "scoring": "Scoring",
}
"""Each stage in the rulebook's words."""

CHOICE_WORDS: dict[str, str] = {
    "deck": "choose a deck to draw from (deck society|military|production)",
    "keep": "keep a drawn card (keep CARD)",
    "discard": "discard down to your hand limit (discard CARD)",
    "policy": "play a card, withdraw a permanent card, or pass (play CARD / pass)",
    "raise": "choose the class that gains 1 standard of living (raise A..E)",
    "lower": "choose the class that loses 1 standard of living (lower A..E)",
    "plant": "choose a production plant (plant renewable|industrial|military)",
    "upgrade": "choose the plant to improve (plant ...)",
    "target": "choose the target nation (target NAME)",
    "spend": "choose how much military to spend (spend N)",
    "resist": "resist by spending as much military, or yield (resist / yield)",
    "take": "choose what to take (take fossil|renewable|industrial)",
    "gain": "choose the resource gained (gain ...)",
    "produce": "choose the plant that produces again (produce industrial|military)",
    "recall": "choose the instant card to take back (recall CARD)",
    "give": "choose how much pollution to give (give N)",
    "contribute": "pledge money to another nation's card (contribute N)",
    "trade": "make a transaction (buy N RESOURCE / sell N RESOURCE / no-trade)",
    "price": "move a price cube (price RESOURCE up|down)",
    "alliance": "offer, leave or exclude in an alliance, or do nothing "
    "(offer military|economic NATION / leave KIND / exclude KIND NATION / pass)",
    "answer": "answer the proposal (accept / refuse)",
    "fee": "choose your part of the 2 $ alliance fee (pay N)",
    "ask": "ask your allies for help, or not (ask / pass)",
    "aid": "give your ally some of what it asks, or refuse (aid N / refuse)",
    "break": "break the alliance after the refusal, or keep it (break / stay)",
}
"""What each kind of choice asks, for people."""

LOG_SHOWN = 60
"""At most this many log lines are drawn (the current and the previous phase)."""
PHASE_MARK = "== "


def _cards(state: State) -> Any:
    return state.data.cards  # type: ignore[attr-defined]


def nations_table(obs: dict[str, Any], seat: int | None) -> Table:
    """The nation boards side by side: one column per nation."""
    table = Table(
        title=f"Generation {obs['generation']} — nations", title_justify="left", show_lines=False
    )
    table.add_column("")
    for view in obs["nations"]:
        label = view["name"] + (" (you)" if view["seat"] == seat else "")
        if view["name"] == obs["leader"]:
            label += " ★"
        table.add_column(label, justify="right")
    rows: list[tuple[str, Any]] = [
        ("population", lambda v: f"{v['population']['value']} (pos {v['population']['position']})"),
        (
            "renewable plant",
            lambda v: (
                f"+{v['plants']['renewable']['value']} (pos {v['plants']['renewable']['position']})"
            ),
        ),
        (
            "industrial plant",
            lambda v: (
                f"+{v['plants']['industrial']['value']} (pos {v['plants']['industrial']['position']})"
            ),
        ),
        (
            "military plant",
            lambda v: (
                f"+{v['plants']['military']['value']} (pos {v['plants']['military']['position']})"
            ),
        ),
        ("renewable", lambda v: str(v["stock"]["renewable"])),
        ("industrial", lambda v: str(v["stock"]["industrial"])),
        ("military", lambda v: str(v["stock"]["military"])),
        ("fossil", lambda v: str(v["fossil"])),
        ("money $", lambda v: str(v["money"])),
        ("territory", lambda v: str(v["territory"])),
        ("standard of living A-E", lambda v: " ".join(str(v["sol"][c]) for c in "ABCDE")),
        ("demographic shift zone", lambda v: str(v["shift_zone"])),
        ("social unrest (1-11)", _unrest),
        ("pollution", lambda v: str(v["pollution"])),
        ("disruption", lambda v: str(v["disruption"])),
        ("cards in hand", lambda v: str(v["hand_count"])),
        (
            "decks S/M/P",
            lambda v: "/".join(
                str(v["deck_counts"][d]) for d in ("society", "military", "production")
            ),
        ),
        ("permanent cards", lambda v: ", ".join(v["permanent"]) or "-"),
        ("played this generation", lambda v: ", ".join(v["played"]) or "-"),
        ("passed", lambda v: "yes" if v["passed"] else ""),
    ]
    for name, cell in rows:
        table.add_row(name, *[cell(v) for v in obs["nations"]])
    return table


def _unrest(view: dict[str, Any]) -> str:
    u = view["unrest"]
    mood = "uprising" if u >= 10 else "boom" if u <= 2 else "growth"
    return f"{u} ({mood})"


def world_table(obs: dict[str, Any]) -> Table:
    """The marketplace, reserves, World Bank, LIMIT box and crisis track."""
    table = Table(title="The world", title_justify="left")
    table.add_column("")
    for name in ("renewable", "industrial", "military", "fossil"):
        table.add_column(name, justify="right")
    market = obs["market"]
    table.add_row(
        "market price $", *[f"{market[r]['price']} (pos {market[r]['position']})" for r in market]
    )
    table.add_row("market stock", *[str(market[r]["stock"]) for r in market])
    crises = []
    for g, tiles in enumerate(obs["crises"], start=1):
        crises.append(f"{g}:" + ("+".join(t[:3] for t in tiles) if tiles else "-"))
    summary = Table.grid(padding=(0, 2))
    summary.add_row(
        f"World Bank {obs['world_bank']} $",
        f"pollution reserve {obs['pollution_reserve']}",
        f"disruption reserve {obs['disruption_reserve']}",
        f"colonization: {obs['colonization']['territory']} territory, {obs['colonization']['fossil']} fossil",
    )
    summary.add_row(
        f"generation {obs['generation']} of 7",
        "crises " + " ".join(crises),
        f"total crises {sum(len(t) for t in obs['crises'])} (the game ends at 4)",
        "",
    )
    alliances = obs.get("alliances")
    if alliances is not None:
        groups = [
            f"{kind}: " + ("; ".join(", ".join(g) for g in alliances[kind]) or "none")
            for kind in ("military", "economic")
        ]
        demil = "demilitarized" if obs.get("demilitarized") else ""
        summary.add_row("alliances", *groups, demil)
    star = obs.get("star")
    if star is not None:
        v = star["values"]
        summary.add_row(
            "star nation",
            f"population {v['population']}, class C {v['sol_c']}, military {v['military']}, "
            f"industrial {v['industrial']}",
            f"{star['money']} $, {star['fossil']} fossil, {star['territory']} territory, "
            f"{star['pollution']} pollution, {star['disruption']} disruption",
            f"events: {obs['events']['draw_pile']} in the pile",
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
    table = Table(title="Your hand", title_justify="left", show_lines=True)
    table.add_column("card")
    table.add_column("deck")
    table.add_column("kind")
    table.add_column("cost")
    table.add_column("effect")
    table.add_column("if played now")
    for cid in obs.get("hand", []):
        card = cards[cid]
        name = Text(cid, style="bold green" if cid in playable else "")
        now = card_preview(state, seat, cid) if cid in playable else "cannot be played now"
        table.add_row(
            name, card.deck, "permanent" if card.permanent else "instant", card.cost, card.text, now
        )
    return table


def _log(state: State, seat: int | None) -> list[str]:
    """The log channel of a world game as ``seat`` may read it."""
    from limitgames.world.observe import log
    from limitgames.world.state import WorldState

    assert isinstance(state, WorldState)
    return log(state, seat)


def render(console: Console, state: State, seat: int | None) -> None:
    """Draw the game as ``seat`` sees it (``None``: spectator)."""
    obs = state.observation(seat)
    console.rule(f"LIMIT — {STAGE_WORDS.get(obs['stage'], obs['stage'])}")
    console.print(world_table(obs))
    console.print(nations_table(obs, seat))
    if seat is not None:
        console.print(hand_table(state, obs, seat))
    log = recent_log(_log(state, seat))
    if log:
        console.print(
            Panel(Group(*[Text(line) for line in log]), title="What happened", title_align="left")
        )
    if state.is_terminal():
        console.print(scores_table(obs))
        console.print(result_text(state), highlight=False)
        return
    choice = obs.get("choice")
    if choice:
        words = CHOICE_WORDS.get(choice["kind"], choice["kind"])
        console.print(f"[bold]{choice['nation']}[/] to decide: {words}", highlight=False)
        if "options" in choice:
            console.print("Options: " + "  ".join(choice["options"]), highlight=False)
            forms = state.action_forms()
            if forms:
                ranges = "  ".join(f"{f.notation} (N {f.minimum}-{f.maximum})" for f in forms)
                console.print(f"Any quantity in range: {ranges}", highlight=False)
            if choice["kind"] in ("keep", "recall"):
                cards = _cards(state)
                for option in choice["options"]:
                    card = cards[option.split()[1]]
                    kind = "permanent" if card.permanent else "instant"
                    console.print(
                        f"  {card.id} ({kind}): cost {card.cost} Effect: {card.text}",
                        highlight=False,
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
    parts = [
        text if who is None or who == "you" else f"{who} {text}"
        for who, text in preview.changes
        if not any(words in text for words in _HAND_WORDS)
    ]
    parts += [line for line in preview.then if "(policy)" not in line and "step ends" not in line]
    if not preview.changes:  # the step ended: the card's own log lines
        me = state.seat_names()[seat]
        parts = [line.removeprefix(f"{me}: ") for line in preview.log]
        parts = [p for p in parts if not p.startswith(("plays ", "passes"))]
    return "; ".join(parts)


def scores_table(obs: dict[str, Any]) -> Table:
    """The final scores by part."""
    table = Table(title="Scores", title_justify="left")
    table.add_column("nation")
    for part in ("happiness", "financial", "territory", "military", "impact", "total"):
        table.add_column(part, justify="right")
    for view, d in zip(obs["nations"], obs.get("score_details", []), strict=False):
        table.add_row(
            view["name"],
            *[
                str(d[p])
                for p in ("happiness", "financial", "territory", "military", "impact", "total")
            ],
        )
    return table


def result_text(state: State) -> str:
    """Who won, with the scores."""
    if not state.is_terminal():
        return "The game is not finished."
    scores: list[int] = list(state.scores)  # type: ignore[attr-defined]
    if getattr(state, "solo", False):
        bar = state.data.solo["very_good_score"]  # type: ignore[attr-defined]
        verdict = (
            "a very good game, well done!"
            if scores[0] > bar
            else f"more than {bar} is a very good game"
        )
        return f"Solo: {scores[0]} victory points against the star nation ({verdict})"
    names = state.seat_names()
    best = max(scores)
    winners = [names[i] for i, s in enumerate(scores) if s == best]
    ranking = ", ".join(
        f"{names[i]} {s}" for i, s in sorted(enumerate(scores), key=lambda x: -x[1])
    )
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"{' and '.join(winners)} {verb} with {best} points ({ranking})"


PREVIEW_SEED = 0
"""The seed of the re-deal a preview is made on (fixed: a preview depends only on what the seat
knows, never on the cards it cannot see)."""
_HAND_WORDS = ("played this generation", "permanent cards", "cards in hand", "cards in the")
"""Changes a card's one-line preview leaves out (the card leaving the hand says them)."""

_NATION_WORDS: dict[str, str] = {
    "population.value": "population",
    "plants.renewable.value": "renewable plant produces",
    "plants.industrial.value": "industrial plant produces",
    "plants.military.value": "military plant produces",
    "stock.renewable": "renewable resources",
    "stock.industrial": "industrial resources",
    "stock.military": "military resources",
    "fossil": "fossil resources",
    "money": "money $",
    "territory": "territory",
    "pollution": "pollution",
    "disruption": "disruption",
    "shift_zone": "demographic shift zone",
    "shift_tiles": "demographic shift tiles on the board",
    "unrest": "social unrest",
    "hand_by_deck.society": "society cards in hand",
    "hand_by_deck.military": "military-and-economy cards in hand",
    "hand_by_deck.production": "production cards in hand",
    "deck_counts.society": "cards in the society deck",
    "deck_counts.military": "cards in the military-and-economy deck",
    "deck_counts.production": "cards in the production deck",
    "permanent": "permanent cards",
    "played": "played this generation",
    "technology": "technology cards received",
    **{f"sol.{c}": f"class {c} standard of living" for c in "ABCDE"},
}
"""Each field of a nation board (``observe.nation_view``) in the game's words; the others
(positions beside their values, whether it passed) are not shown in a preview."""


def _world_words(key: str) -> str | None:
    fixed = {
        "world_bank": "World Bank $",
        "pollution_reserve": "pollution reserve",
        "disruption_reserve": "disruption reserve",
        "colonization.territory": "colonization reserve territory",
        "colonization.fossil": "colonization reserve fossil",
    }
    if key in fixed:
        return fixed[key]
    if key.startswith("limit_box."):
        return f"LIMIT box {key.split('.', 1)[1]}"
    if key.startswith("market."):
        _, resource, field = key.split(".")
        return {
            "price": f"{resource} price $",
            "stock": f"marketplace {resource} stock",
            "position": f"{resource} price cube position",
        }[field]
    return None


def _change(words: str, old: str, new: str) -> str:
    """``money 12 -> 7 $``: the words, the values, then the unit if the words end with one."""
    if words.endswith(" $"):
        return f"{words[:-2]} {old} -> {new} $"
    return f"{words} {old} -> {new}"


def _shown(value: Any, state: State) -> str:
    if isinstance(value, list):
        cards = _cards(state)
        names = [cards[v].name if v in cards else str(v) for v in value]
        return ", ".join(names) or "none"
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
            return cls(new_log[:cut], [], ["then the step ends and play goes on to the next phase"])
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
            for key, words in _NATION_WORDS.items():
                if o.get(key) != n.get(key):
                    changes.append(
                        (who, _change(words, _shown(o.get(key), state), _shown(n.get(key), state)))
                    )
        changes.sort(key=lambda c: (c[0] is None, c[0] != "you"))
        then: list[str] = []
        choice = after.get("choice")
        if choice and choice["nation"] == me and revealed:
            words = CHOICE_WORDS.get(choice["kind"], choice["kind"])
            then.append(f"then you see the cards drawn and {words}")
        elif choice and choice["nation"] == me and "options" in choice:
            words = CHOICE_WORDS.get(choice["kind"], choice["kind"]).split(" (")[0]
            forms = twin.action_forms()
            verbs = {f.verb for f in forms}
            options = [f"{f.notation} (N {f.minimum}-{f.maximum})" for f in forms]
            options += [o for o in choice["options"] if o.split()[0] not in verbs]
            then.append(f"then you {words}: " + "  ".join(options))
        elif choice:
            words = CHOICE_WORDS.get(choice["kind"], choice["kind"]).split(" (")[0]
            then.append(f"then {choice['nation']} must {words}")
        return cls(new_log, changes, then)

    def lines(self) -> list[str]:
        """The preview as lines for people."""
        out = [f"log: {line}" for line in self.log]
        for who, text in self.changes:
            out.append(text if who is None else f"{who}: {text}")
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
