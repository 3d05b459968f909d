"""Who plays each seat at the terminal and what people call them.

A seat is a person (``human``, ``human:NAME``) or a computer (a level or an agent spec,
see ``limit agents``); :func:`parse_seats` reads the ``--seat`` options, :func:`name_seats`
gives each seat the name people read, and :func:`phrase` / :func:`says` make sentences
about a seat agree with "You" (the one person at the screen) or a third person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from limitgames.agents import Agent, is_level, level_spec, make_agent
from limitgames.translation import N_, gettext


@dataclass
class Seat:
    """Who plays a seat: a person (``agent is None``) or an agent.

    ``label`` is what the record keeps (``human``, ``human:Ann``, an agent
    spec); ``name`` is what people read (``You``, ``Ann``, ``Barbara``, ``red``).
    """

    label: str
    agent: Agent | None = None
    name: str = ""
    level: str = ""
    """The level a computer seat was given (easy...expert), ``""`` for an agent spec."""

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.agent is None

    @property
    def given_name(self) -> str:
        """The name typed after ``human:``, or ``""``."""
        head, _, rest = self.label.partition(":")
        return rest.strip() if head.strip().lower() == "human" else ""


def is_human_spec(spec: str) -> bool:
    """Whether ``spec`` names a person (``human`` or ``human:NAME``)."""
    return spec.partition(":")[0].strip().lower() == "human"


def parse_seats(
    specs: Sequence[str],
    players: int,
    default: str = "random",
    seed: int | None = None,
    game_id: str | None = None,
) -> list[Seat]:
    """Seats from ``--seat`` options; missing seats get ``default``.

    ``human`` / ``human:NAME`` is a person; a level (easy...expert) becomes
    its agent for ``game_id``; anything else is an agent spec.

    Raises:
        AgentSpecError: for an unknown agent, level or option.
        ValueError: for more seats than players.
    """
    if len(specs) > players:
        raise ValueError(
            gettext("%(count)d --seat options for %(players)d players")
            % {"count": len(specs), "players": players}
        )
    seats: list[Seat] = []
    for i, spec in enumerate([*specs, *[default] * (players - len(specs))]):
        spec = spec.strip()
        if is_human_spec(spec):
            name = spec.partition(":")[2].strip()
            seats.append(Seat(f"human:{name}" if name else "human"))
            continue
        level = ""
        if game_id is not None and is_level(spec):
            level = spec.lower()
            spec = level_spec(game_id, spec)
        seed_i = None if seed is None else seed * 7919 + i
        seats.append(Seat(spec, make_agent(spec, seed_i, game=game_id), level=level))
    return seats


def name_seats(seats: list[Seat], table_names: Sequence[str], computer_names: bool) -> None:
    """Give every seat the name people read.

    A person is called by the name they gave, or ``You`` when they are the
    only person at the table. Computers keep the table's name for the seat
    (a colour, a nation, or in cards the rulebook's players). In games whose
    seats are colours or nations (``computer_names`` false), a named person
    reads ``Ann (red)``. Two seats of one name get their seat number.
    """
    people = sum(1 for s in seats if s.is_human)
    for i, seat in enumerate(seats):
        given = seat.given_name
        if seat.is_human and (given or people == 1):
            own = given or you()
            seat.name = own if computer_names or is_you(own) else f"{own} ({table_names[i]})"
        else:
            seat.name = table_names[i]
    lowered = [s.name.lower() for s in seats]
    for i, seat in enumerate(seats):
        if lowered.count(seat.name.lower()) > 1:
            seat.name = f"{seat.name} {i + 1}"


def you() -> str:
    """The name of the one person at the screen (``You``), in the session's language."""
    return gettext("You")


def is_you(name: str) -> bool:
    """Whether ``name`` is the person at the screen (``You``, in any of the languages)."""
    return name in ("You", you())


def phrase(who: str, second_person: str, third_person: str, **values: Any) -> str:
    """A sentence about ``who``: ``second_person`` (already translated) when ``who`` is the
    person at the screen, else ``third_person`` with ``%(player)s`` for ``who``.

    Both are whole sentences so that each language conjugates its own verbs.
    """
    words = second_person if is_you(who) else third_person
    return words % {"player": who, **values}


def says(who: str, verb: str) -> str:
    """``who`` and ``verb`` in agreement: ``"Barbara plays"``, but ``"You play"``.

    ``verb`` is given in the third person singular (``plays``, ``passes``, ``has``, ``is``).
    """
    if not is_you(who):
        return f"{who} {verb}"
    irregular = {"has": "have", "is": "are", "was": "were"}
    if verb in irregular:
        plain = irregular[verb]
    elif verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        plain = verb[:-2]
    elif verb.endswith("ies"):
        plain = verb[:-3] + "y"
    elif verb.endswith("s"):
        plain = verb[:-1]
    else:
        plain = verb
    return f"You {plain}"


LEVEL_WORDS: dict[str, str] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "random": N_("random moves"),
}
"""How a computer's strength reads on screen (translated when shown)."""


def strength(seat: Seat) -> str:
    """A computer seat's strength as a person reads it: its level (``medium``), ``random
    moves`` for the random agent, else the agent spec the person typed."""
    key = seat.level or seat.label
    return gettext(LEVEL_WORDS[key]) if key in LEVEL_WORDS else seat.label


def seats_line(seats: Sequence[Seat], table_names: Sequence[str] | None = None) -> str:
    """Who plays, in words: ``"Seats: You; Barbara (computer: medium)."``, or with the
    seats' colours or nations (``table_names``): ``"Seats: red: you; blue: computer (medium)."``.

    A computer is named by its level, not by the agent behind it (:func:`strength`).
    """
    parts = []
    for i, seat in enumerate(seats):
        if table_names is None:
            parts.append(
                seat.name
                if seat.is_human
                else gettext("%(player)s (computer: %(level)s)")
                % {"player": seat.name, "level": strength(seat)}
            )
            continue
        if seat.is_human:
            who = gettext("you") if is_you(seat.name) else (seat.given_name or gettext("a person"))
        else:
            who = gettext("computer (%(level)s)") % {"level": strength(seat)}
        parts.append(f"{table_names[i]}: {who}")
    return gettext("Seats: %(seats)s.") % {"seats": "; ".join(parts)}
