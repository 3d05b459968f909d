"""The alliance step and the effects of alliances (seed 004, "3 Alliance (optional)", pp 21-22).

Played when the variant parameter ``alliances`` is on (``auto``: for 4-6 nations). Each
nation has a military and an economic alliance token; a token lies next to its board
(negotiation side up) or in a group in the centre (an alliance). ``state.alliances[kind]``
holds the groups (lists of seats); ``state.agreement[kind]`` the seats whose token of that
kind lies agreement side up (turned over to the negotiation side when the step ends).

The step (in turn order, once each; choice ``alliance``):

- ``offer KIND NATION``: both tokens of that kind negotiation side up; the nation answers
  (``accept`` / ``refuse``); if either is already in an alliance of that kind, every other
  member of those alliances answers too; if all accept, the offerer decides how much of the
  2 $ fee it pays (``pay N``; the other nation pays the rest, to the World Bank) and the groups
  merge, every member's token agreement side up. If all nations are then in one military
  alliance, demilitarization happens (once per game).
- ``leave KIND``; ``exclude KIND NATION`` (every other member answers); a group left with one
  token is given back to its owner.
- ``pass`` (do nothing).

Effects (choices ``ask``, ``aid``, ``break``): before a shortage of military (military
alliance) or of the resources of the reading ``economic_help`` (economic alliance), the nation
may ``ask`` its allies; when targeted by a card that may be resisted it may ``ask`` its military
allies for military; and on its decide-policy turn it may ``fund CARD``: ask its economic
allies to pay all or part of a card's $ cost. Each ally holding some of what is asked answers
``aid N`` or ``refuse``; after a refusal the nation that asked may ``break`` the alliance (every
member, itself included, receives 1 disruption and takes its token back) or ``stay``.
"""

from __future__ import annotations

from limitgames.core import AmountForm
from limitgames.translation import N_, Phrase, joined
from limitgames.translation import gettext as _
from limitgames.world.allies import allies, group_of, help_kind, helpers, holding
from limitgames.world.data import PLANTS
from limitgames.world.market import bounded_amounts
from limitgames.world.nation import INDUSTRIAL, MILITARY, Nation
from limitgames.world.state import (
    ACCEPT,
    ALLIANCE_KINDS,
    FORMS,
    NATION_NAMES,
    OPTIONS,
    RESOLVE,
    STAGE_HANDLERS,
    Choice,
    WorldAction,
    WorldState,
)
from limitgames.world.tracks import sol_choice


def _move(giver: Nation, taker: Nation, resource: str, k: int) -> None:
    if resource == "money":
        giver.money -= k
        taker.money += k
    elif resource == "fossil":
        giver.fossil -= k
        taker.fossil += k
    else:
        i = PLANTS.index(resource)
        giver.stock[i] -= k
        taker.stock[i] += k


# --- the alliance step -------------------------------------------------------------------
def alliance_step(state: WorldState) -> bool:
    """Step 3 of the international phase: the alliance step (or, in solo mode, an event card)."""
    if state.solo:
        from limitgames.world.solo import event_step

        return event_step(state)
    if not state.alliances_on:
        return True
    if state.cursor == 0:
        state.cursor = 1
        state.alliance_turn = 0
        state.note(None, N_("Alliance step"))
    if state.alliance_turn < state.n:
        seat = state.turn_order()[state.alliance_turn]
        state.alliance_turn += 1
        state.push(Choice("alliance", seat, ()))
        return False
    if any(state.agreement.values()):
        state.note(None, N_("Every alliance token turns to its negotiation side"))
    state.agreement = {k: [] for k in ALLIANCE_KINDS}
    return True


ALLIANCE_WORDS: dict[str, str] = {
    "military": N_("military alliance"),
    "economic": N_("economic alliance"),
}
"""Each type of alliance token in the log's words (translated where the log is read)."""


def locked(state: WorldState, kind: str, seat: int) -> bool:
    """Whether ``seat`` may not leave or exclude in its alliance of ``kind`` this generation:
    under the reading ``alliance_lock = "all"``, when its token lies agreement side up."""
    return state.data.readings["alliance_lock"] == "all" and seat in state.agreement[kind]


def _alliance_options(s: WorldState, c: Choice) -> list[WorldAction]:
    seat = c.seat
    out: list[WorldAction] = [("pass",)]
    fee = s.data.alliances["fee"]
    for kind in ALLIANCE_KINDS:
        mine = group_of(s, kind, seat) or []
        if seat not in s.agreement[kind]:
            for t in s.turn_order():
                if t == seat or t in mine or t in s.agreement[kind]:
                    continue
                if s.nations[seat].money + s.nations[t].money < fee:
                    continue
                out.append(("offer", kind, NATION_NAMES[t]))
        if mine and not locked(s, kind, seat):
            out.append(("leave", kind))
            out += [("exclude", kind, NATION_NAMES[t]) for t in allies(s, kind, seat)]
    return out


def _alliance_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    verb = action[0]
    seat = c.seat
    if verb == "pass":
        s.note(seat, N_("Alliance step: does nothing"))
        return
    kind = action[1]
    if verb == "leave":
        s.note(seat, N_("leaves its %(alliance)s"), alliance=ALLIANCE_WORDS[kind])
        _take_back(s, kind, seat)
        return
    other = NATION_NAMES.index(action[2])
    if verb == "exclude":
        s.note(
            seat,
            N_("proposes to exclude %(nation)s from its %(alliance)s"),
            nation=action[2],
            alliance=ALLIANCE_WORDS[kind],
        )
        _ask_next(
            s, ("exclude", kind, seat, other), tuple(x for x in allies(s, kind, seat) if x != other)
        )
        return
    if kind == "economic":
        s.note(seat, N_("offers %(nation)s an economic alliance"), nation=action[2])
    else:
        s.note(seat, N_("offers %(nation)s a military alliance"), nation=action[2])
    voters = [other] + [
        x
        for x in s.turn_order()
        if x not in (seat, other)
        and x in ((group_of(s, kind, seat) or []) + (group_of(s, kind, other) or []))
    ]
    _ask_next(s, ("offer", kind, seat, other), tuple(voters))


def _ask_next(s: WorldState, proposal: tuple[str, str, int, int], voters: tuple[int, ...]) -> None:
    """The next member answers ``proposal``; when all have accepted, it takes effect."""
    if voters:
        s.push(Choice("answer", voters[0], (proposal, voters[1:])))
        return
    verb, kind, seat, other = proposal
    if verb == "exclude":
        s.note(other, N_("is excluded from the %(alliance)s"), alliance=ALLIANCE_WORDS[kind])
        _take_back(s, kind, other)
        return
    s.push(Choice("fee", seat, (kind, other)))


def _answer_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("accept",), ("refuse",)]


def _answer_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    proposal, rest = c.args
    offer = proposal[0] == "offer"
    if action[0] == "refuse":
        s.note(
            c.seat,
            N_("refuses the offer: no effect") if offer else N_("refuses the exclusion: no effect"),
        )
        return
    s.note(c.seat, N_("accepts the offer") if offer else N_("accepts the exclusion"))
    _ask_next(s, proposal, rest)


def _fee_range(s: WorldState, c: Choice) -> tuple[int, int]:
    fee = s.data.alliances["fee"]
    other = c.args[1]
    lo = max(0, fee - s.nations[other].money)
    return lo, min(fee, s.nations[c.seat].money)


def _fee_options(s: WorldState, c: Choice) -> list[WorldAction]:
    lo, hi = _fee_range(s, c)
    return [("pay", k) for k in range(lo, hi + 1)]


def _fee_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    kind, other = c.args
    fee = s.data.alliances["fee"]
    mine, theirs = action[1], fee - action[1]
    s.nations[c.seat].money -= mine
    s.nations[other].money -= theirs
    s.world_bank += fee
    a = group_of(s, kind, c.seat) or [c.seat]
    b = group_of(s, kind, other) or [other]
    s.alliances[kind] = [g for g in s.alliances[kind] if g is not a and g is not b]
    merged = sorted(set(a) | set(b))
    s.alliances[kind].append(merged)
    s.agreement[kind] = sorted(set(s.agreement[kind]) | set(merged))
    names = joined(", ", [Phrase(NATION_NAMES[x]) for x in merged])  # each name translated
    s.note(
        c.seat,
        N_(
            "%(alliance)s confirmed (%(mine)d $ + %(other)s %(theirs)d $ to the World Bank): %(names)s"
        ),
        alliance=ALLIANCE_WORDS[kind],
        mine=mine,
        other=NATION_NAMES[other],
        theirs=theirs,
        names=names,
    )
    if kind == "military" and len(merged) == s.n and not s.demilitarized:
        demilitarize(s)


def _take_back(s: WorldState, kind: str, seat: int) -> None:
    """``seat``'s token of ``kind`` back next to its board, negotiation side up; a group left
    with one token is given back too."""
    group = group_of(s, kind, seat)
    if group is None:
        return
    group.remove(seat)
    if seat in s.agreement[kind]:
        s.agreement[kind].remove(seat)
    if len(group) == 1:
        last = group[0]
        s.alliances[kind].remove(group)
        if last in s.agreement[kind]:
            s.agreement[kind].remove(last)
        s.note(
            last,
            N_("takes back its %(alliance)s token (the only one left)"),
            alliance=ALLIANCE_WORDS[kind],
        )


def demilitarize(s: WorldState) -> None:
    """Demilitarization (p22): nations with military production of +5 or more raise industrial
    production 1 level (none at the maximum); then every nation sets its military plant to the
    lowest level, loses all its military, raises 1 standard of living, lowers social unrest 1
    and returns up to 2 disruption tokens."""
    al = s.data.alliances
    s.demilitarized = True
    s.note(None, N_("Every nation is in one military alliance: demilitarization"))
    positions = s.data.production_positions
    order = s.turn_order()
    for seat in order:
        n = s.nations[seat]
        if s.data.level(n.plants[MILITARY]) >= al["demilitarization_military_value"]:
            old = n.plants[INDUSTRIAL]
            n.move_plant(INDUSTRIAL, al["demilitarization_industrial_levels"], positions)
            s.note(
                seat,
                N_("Demilitarization: industrial plant %(old)d -> %(new)d"),
                old=old,
                new=n.plants[INDUSTRIAL],
            )
    for seat in order:
        n = s.nations[seat]
        old_plant, old_stock = n.plants[MILITARY], n.stock[MILITARY]
        n.plants[MILITARY] = 1
        n.stock[MILITARY] = 0
        s.note(
            seat,
            N_("Demilitarization: military plant %(plant)d -> 1, military %(stock)d -> 0"),
            plant=old_plant,
            stock=old_stock,
        )
        s.change_unrest(n, al["demilitarization_unrest"], N_("Demilitarization"))
        back = s.return_disruption(n, al["demilitarization_disruption"])
        if back:
            s.note(
                seat, N_("Demilitarization: %(count)d disruption back to the reserve"), count=back
            )
        sol_choice(s, n, al["demilitarization_sol"], N_("Demilitarization"), deferred=True)
    s.flush_deferred()


# --- asking allies for help -----------------------------------------------------------------


def _ask_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("ask",), ("pass",)]


def _ask_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    resource, missing, then = c.args
    if action[0] == "pass":
        if then is not None:
            s.push(then)
        return
    start_asking(s, c.seat, resource, missing, then)


def start_asking(
    s: WorldState, seat: int, resource: str, missing: int, then: Choice | None, card: str = ""
) -> None:
    """Ask ``seat``'s allies for ``missing`` ``resource`` (for ``card``'s cost if named);
    ``then`` is decided once all have answered."""
    kind = "economic" if resource == "money" else help_kind(s, resource)
    assert kind is not None
    asked = tuple(helpers(s, kind, seat, resource))
    allies_words = N_("economic allies") if kind == "economic" else N_("military allies")
    if card:
        s.note(
            seat,
            N_("asks its %(allies)s for %(missing)d $ for %(card)s"),
            allies=allies_words,
            missing=missing,
            card=s.data.cards[card].name,
        )
    else:
        s.note(
            seat,
            N_("asks its %(allies)s for %(missing)d %(resource)s"),
            allies=allies_words,
            missing=missing,
            resource=resource,
        )
    _next_aid(s, (seat, kind, resource, missing, card, then), asked, (), False)


def _next_aid(
    s: WorldState,
    request: tuple[int, str, str, int, str, Choice | None],
    asked: tuple[int, ...],
    pledges: tuple[tuple[int, int], ...],
    refused: bool,
) -> None:
    seat, kind, resource, missing, card, then = request
    given = sum(k for _, k in pledges)
    if asked and given < missing:
        s.push(Choice("aid", asked[0], (request, asked[1:], pledges, refused)))
        return
    if card:
        n = s.nations[seat]
        if given < missing:
            s.note(
                seat,
                N_("%(card)s: %(given)d $ of %(missing)d $ offered; not played"),
                card=s.data.cards[card].name,
                given=given,
                missing=missing,
            )
        else:
            for x, k in pledges:
                _move(s.nations[x], n, "money", k)
            s.funded.append((seat, card))
            s.policy_plays += 1
            from limitgames.world.card_effects import play

            play(s, n, card)
    else:
        for x, k in pledges:
            _move(s.nations[x], s.nations[seat], resource, k)
        if then is not None:
            s.push(then)
    if refused:  # decided first, "with immediate effect"
        s.push(Choice("break", seat, (kind,)))


def _aid_top(s: WorldState, c: Choice) -> int:
    request, _asked, pledges, _refused = c.args
    resource, missing = request[2], int(request[3])
    left = missing - sum(int(k) for _, k in pledges)
    return max(0, min(left, holding(s.nations[c.seat], resource)))


def _aid_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("aid", k) for k in bounded_amounts(1, _aid_top(s, c))] + [("refuse",)]


def _aid_forms(s: WorldState, c: Choice) -> list[AmountForm]:
    top = _aid_top(s, c)
    return [AmountForm("aid", ("aid",), (), 1, top, "aid N")] if top >= 1 else []


def _aid_accept(s: WorldState, c: Choice, action: WorldAction) -> str | None:
    if action == ("refuse",):
        return None
    if len(action) != 2 or action[0] != "aid" or type(action[1]) is not int:
        return _("write 'aid N' or 'refuse'")
    top = _aid_top(s, c)
    if not 1 <= action[1] <= top:
        return _("aid between 1 and %(top)d") % {"top": top} if top else _("you can only refuse")
    return None


def _aid_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    request, asked, pledges, refused = c.args
    resource = request[2]
    if action[0] == "refuse":
        s.note(c.seat, N_("refuses to help %(nation)s"), nation=NATION_NAMES[request[0]])
        _next_aid(s, request, asked, pledges, True)
        return
    if resource == "money":
        s.note(
            c.seat,
            N_("gives %(nation)s %(count)d $"),
            nation=NATION_NAMES[request[0]],
            count=action[1],
        )
    else:
        s.note(
            c.seat,
            N_("gives %(nation)s %(count)d %(resource)s"),
            nation=NATION_NAMES[request[0]],
            count=action[1],
            resource=resource,
        )
    _next_aid(s, request, asked, (*pledges, (c.seat, action[1])), refused)


def _break_options(s: WorldState, c: Choice) -> list[WorldAction]:
    return [("break",), ("stay",)] if group_of(s, c.args[0], c.seat) else []


def _break_resolve(s: WorldState, c: Choice, action: WorldAction) -> None:
    kind = c.args[0]
    if action[0] == "stay":
        s.note(
            c.seat, N_("keeps its %(alliance)s despite the refusal"), alliance=ALLIANCE_WORDS[kind]
        )
        return
    group = group_of(s, kind, c.seat) or []
    k = s.data.alliances["break_disruption"]
    s.note(
        c.seat,
        N_("breaks its %(alliance)s: every member +%(count)d disruption, tokens back"),
        alliance=ALLIANCE_WORDS[kind],
        count=k,
    )
    for seat in [x for x in s.turn_order() if x in group]:
        s.gain_disruption(s.nations[seat], k)
        if seat in s.agreement[kind]:
            s.agreement[kind].remove(seat)
    s.alliances[kind].remove(group)


# --- funding a card (economic alliance) -------------------------------------------------------
def funding_needed(state: WorldState, nation: Nation, card: str) -> int | None:
    """The least $ the economic allies must give so that ``nation`` can play ``card`` it cannot
    play alone (p22: an ally "may pay for all or part of a card with a $ cost"), or ``None``
    (it can already, it was asked for this generation, or all the allies' money would not do)."""
    from limitgames.world.cards import can_play

    if (
        not state.alliances_on
        or card not in nation.hand
        or (nation.seat, card) in state.funded
        or card in ("cleaning-the-planet", "humanitarian-aid")
    ):
        return None
    pool = sum(state.nations[x].money for x in allies(state, "economic", nation.seat))
    if pool <= 0 or can_play(state, nation, card):
        return None

    def playable(extra: int) -> bool:
        nation.money += extra
        try:
            return can_play(state, nation, card)
        finally:
            nation.money -= extra

    if not playable(pool):
        return None
    lo, hi = 1, pool  # the least extra that works (more money never hurts)
    while lo < hi:
        mid = (lo + hi) // 2
        if playable(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def fund_options(state: WorldState, nation: Nation) -> list[WorldAction]:
    """``fund CARD`` for each card of the hand the economic allies could make playable."""
    return [("fund", c) for c in dict.fromkeys(nation.hand) if funding_needed(state, nation, c)]


def fund(state: WorldState, nation: Nation, card: str) -> None:
    """Ask the economic allies to pay the missing part of ``card``'s cost; it is played if they
    give it all (their money goes to the card's payment), else nothing is paid."""
    missing = funding_needed(state, nation, card)
    assert missing is not None
    state.funded.append((nation.seat, card))
    start_asking(state, nation.seat, "money", missing, None, card)


OPTIONS.update(
    {
        "alliance": _alliance_options,
        "answer": _answer_options,
        "fee": _fee_options,
        "ask": _ask_options,
        "aid": _aid_options,
        "break": _break_options,
    }
)
RESOLVE.update(
    {
        "alliance": _alliance_resolve,
        "answer": _answer_resolve,
        "fee": _fee_resolve,
        "ask": _ask_resolve,
        "aid": _aid_resolve,
        "break": _break_resolve,
    }
)
ACCEPT["aid"] = _aid_accept
FORMS["aid"] = _aid_forms
STAGE_HANDLERS["alliance"] = alliance_step
