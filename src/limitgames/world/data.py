"""The game data of Poyé's LIMIT: loading ``data.toml``, user overrides, validation.

Every number the engine uses lives in ``data.toml`` (shipped in the package)
as ``{ value = ..., source = ... }`` with the sources :data:`SOURCES`; the
``[readings]`` section holds how the engine reads each rule whose icons the
text lost, as named choices (``choices``, and ``why`` in one line; a list reading such as
``military_operation_takes`` is checked item by item), each read by the engine. A user's
TOML file may override any value by the same key path (a bare value or a
``{ value = ... }`` table); unknown keys, values of the wrong shape and
readings outside their choices are refused with a one-line
:class:`~limitgames.core.errors.VariantError`.

The data is read once per distinct file (at import for the default data,
at variant resolution for a user's file), never during play.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from limitgames.core.errors import VariantError
from limitgames.translation import N_
from limitgames.world.words import joined, phrase

RESOURCES: tuple[str, ...] = ("renewable", "industrial", "military", "fossil")
"""The marketplace's resources, in the order of its price and stock lists."""
PLANTS: tuple[str, ...] = ("renewable", "industrial", "military")
"""The three production plants of a nation board, in board order."""
DECKS: tuple[str, ...] = ("society", "military", "production")
"""The three decks of politics cards (``military`` is the military-and-economy deck)."""
CLASSES: str = "ABCDE"
"""The five social classes, highest first."""

SOURCES: tuple[str, ...] = ("rulebook", "rulebook-example", "reconstructed", "decision")
"""Where a value comes from: printed; fixed by a worked example; rebuilt where the text lost an
icon or a table; the project's choice where the text is silent."""
_CARD_TEXT_FIELDS = ("name", "cost", "text", "quote")
_ENTRY_FIELDS = {"value", "source", "why", "choices"}
_CARD_FIXED_FIELDS = ("deck", "kind", "effect")


@dataclass(frozen=True)
class Card:
    """One politics card (the same 37 cards for every nation).

    Attributes:
        id: kebab-case id used in notation (``public-expenditure``).
        name: printed name. deck: ``society``/``military``/``production``.
        kind: ``starter``, ``technology`` or ``deck``.
        permanent: ``True`` for a permanent-effect card, ``False`` for instant.
        cost, text, quote: words for people.
        params: the card's numbers (see ``data.toml``).
    """

    id: str
    name: str
    deck: str
    kind: str
    permanent: bool
    cost: str
    text: str
    quote: str
    params: Mapping[str, Any]

    def p(self, key: str) -> int:
        """The integer parameter ``key``."""
        return int(self.params[key])


class WorldData:
    """The resolved data of one game: typed attributes over the TOML tables.

    Attributes mirror ``data.toml``; lists indexed by a track position are
    0-based here (``level_values[pos - 1]``).
    """

    def __init__(self, raw: dict[str, Any], origin: str) -> None:
        self.raw = raw
        self.origin = origin
        self.money: str = "crises"
        """The variant parameter ``money``: ``crises`` or ``fixed`` (see :func:`variant_data`)."""
        v = _values(raw)
        t, m, s, n = v["tracks"], v["market"], v["setup"], v["nation"]
        self.level_values: list[int] = list(t["level_values"])
        self.population_positions: int = t["population_positions"]
        self.production_positions: int = t["production_positions"]
        self.demographic_index: list[int] = list(t["demographic_index"])
        self.fossil_cost: list[int] = list(t["fossil_cost"])
        self.pollution: list[int] = list(t["pollution"])
        self.unrest_positions: int = t["unrest_positions"]
        self.unrest_start: int = t["unrest_start"]
        self.uprising_from: int = t["uprising_from"]
        self.boom_up_to: int = t["boom_up_to"]
        self.sol_max: int = t["sol_max"]
        self.demographic_shift_at: int = t["demographic_shift_at"]
        self.prices: list[int] = list(m["prices"])
        self.market_start_positions: list[int] = list(m["start_positions"])
        self.market_start_stock: list[int] = list(m["start_stock"])
        self.setup: dict[str, int] = dict(s)
        self.nation: dict[str, Any] = dict(n)
        self.political: dict[str, Any] = dict(v["political"])
        self.social: dict[str, Any] = dict(v["social"])
        self.international: dict[str, int] = dict(v["international"])
        self.end: dict[str, int] = dict(v["end"])
        self.scoring: dict[str, Any] = dict(v["scoring"])
        self.readings: dict[str, Any] = dict(v["readings"])
        self.alliances: dict[str, int] = dict(v["alliances"])
        self.solo: dict[str, Any] = dict(v["solo"])
        self.solo_events: dict[str, list[tuple[str, int]]] = {
            name: event_steps(name, text) for name, text in v["solo_events"].items()
        }
        self.military_operation_takes: list[tuple[str, int]] = [
            _take_rule(r) for r in self.readings["military_operation_takes"]
        ]
        self.economic_growth: list[list[tuple[tuple[str, ...], int]]] = [
            [_growth_rule(rule) for rule in column] for column in self.social["economic_growth"]
        ]
        self.uprising: list[tuple[str, int]] = [_uprising_rule(r) for r in self.social["uprising"]]
        self.cards: dict[str, Card] = {}
        for cid, c in raw["cards"].items():
            params = {
                k: (p["value"] if isinstance(p, dict) else p)
                for k, p in c.get("params", {}).items()
            }
            self.cards[cid] = Card(
                id=cid,
                name=c["name"],
                deck=c["deck"],
                kind=c["kind"],
                permanent=c["effect"] == "permanent",
                cost=c["cost"],
                text=c["text"],
                quote=c.get("quote", ""),
                params=params,
            )
        self._check()

    def level(self, position: int) -> int:
        """The value of a level-track position (1-9); 0 below position 1, the top value above 9."""
        if position < 1:
            return 0
        return self.level_values[min(position, len(self.level_values)) - 1]

    def _check(self) -> None:
        if len(self.level_values) != 9 or len(self.demographic_index) != 9:
            raise VariantError("tracks.level_values and tracks.demographic_index need 9 numbers")
        if not 1 <= self.production_positions <= 8:
            raise VariantError("tracks.production_positions must be 1..8")
        for key in ("fossil_cost", "pollution"):
            if len(getattr(self, key)) != self.production_positions:
                raise VariantError(f"tracks.{key} needs one number per production position")
        if len(self.prices) != 7:
            raise VariantError("market.prices needs 7 numbers")
        for key in ("start_positions", "start_stock"):
            if len(self.raw["market"][key]["value"]) != 4:
                raise VariantError(
                    f"market.{key} needs 4 numbers (renewable, industrial, military, fossil)"
                )
        for name, column in self.political.items():
            if len(column) != 4:
                raise VariantError(f"political.{name} needs 4 columns")
        for card in self.political["technology"]:
            if card and card not in self.cards:
                raise VariantError(f"political.technology: unknown card {card!r}")

        def within(path: str, value: int, lo: int, hi: int) -> None:
            if not lo <= value <= hi:
                raise VariantError(f"{path} must be {lo}..{hi}, not {value}")

        within("tracks.unrest_start", self.unrest_start, 1, self.unrest_positions)
        within("tracks.uprising_from", self.uprising_from, 1, self.unrest_positions)
        within("tracks.boom_up_to", self.boom_up_to, 0, self.uprising_from - 1)
        within("tracks.sol_max", self.sol_max, 1, 4)
        within("nation.population", self.nation["population"], 1, 9)
        within("nation.sol", self.nation["sol"], 1, self.sol_max)
        for i, pos in enumerate(self.nation["production"]):
            within(f"nation.production[{i}]", pos, 1, self.production_positions)
        for i, pos in enumerate(self.market_start_positions):
            within(f"market.start_positions[{i}]", pos, 1, 7)
        if any(p < 1 for p in self.prices):
            raise VariantError("market.prices must all be at least 1 $")
        if any(v < 0 for v in self.fossil_cost + self.pollution):
            raise VariantError("tracks.fossil_cost and tracks.pollution must not be negative")
        bad = [c for c in self.scoring["sol_classes"] if c not in CLASSES]
        if bad:
            raise VariantError(f"scoring.sol_classes: {bad[0]!r} is not a class A-E")
        for key, entry in self.raw["readings"].items():
            allowed = entry.get("choices")
            if allowed is None and not isinstance(entry["value"], list):
                raise VariantError(f"readings.{key}: a reading names its choices")
            if allowed is not None and entry["value"] not in allowed:
                raise VariantError(
                    f"readings.{key}: {entry['value']!r} is not one of {', '.join(allowed)}"
                )
        if len(self.solo_events) != 8:
            raise VariantError(
                f"solo_events: the star box holds 8 event cards, not {len(self.solo_events)}"
            )
        for key in ("population", "sol_c", "military", "industrial"):
            if len(self.solo[key]) != 7:
                raise VariantError(f"solo.{key} needs one value per generation (7)")
        for value in self.solo["population"] + self.solo["industrial"]:
            if value not in self.level_values:
                raise VariantError(f"solo: {value} is not a value of the level tracks")
        bad_help = [r for r in self.readings["economic_help"] if r not in RESOURCES]
        if bad_help:
            raise VariantError(f"readings.economic_help: {bad_help[0]!r} is not a resource")
        if len(self.cards) != 37:
            raise VariantError(f"the data must hold the 37 politics cards, not {len(self.cards)}")


EVENT_TERMS: tuple[str, ...] = (
    "money",
    "unrest",
    "sol",
    "pollution",
    "disruption",
    "fossil",
    "renewable",
    "industrial",
    "military",
    "territory",
    "population",
    "plant-renewable",
    "plant-industrial",
    "plant-military",
)
"""What a solo event card's step may change on your nation (``data.toml`` ``[solo_events]``)."""


def event_steps(name: str, text: str) -> list[tuple[str, int]]:
    """The steps of a solo event's effect ``"what:+N; what:-N"`` as ``[(what, N)]``.

    Raises:
        VariantError: naming the event for a step that is not ``what:+N`` with ``what`` one of
            :data:`EVENT_TERMS`.
    """
    steps = []
    for part in str(text).split(";"):
        what, _, number = part.strip().partition(":")
        if what not in EVENT_TERMS or not number.lstrip("+-").isdigit() or not number.strip("+-"):
            raise VariantError(
                f"solo_events.{name}: {part.strip()!r} is not 'what:+N' "
                f"(what one of {', '.join(EVENT_TERMS)})"
            )
        steps.append((what, int(number)))
    return steps


EVENT_WORDS: dict[str, str] = {
    "money": "$",
    "unrest": N_("social unrest"),
    "sol": N_("standard of living"),
    "pollution": N_("pollution"),
    "disruption": N_("disruption"),
    "fossil": N_("fossil"),
    "renewable": N_("renewable"),
    "industrial": N_("industrial"),
    "military": N_("military"),
    "territory": N_("territory"),
    "population": N_("population"),
    "plant-renewable": N_("renewable plant"),
    "plant-industrial": N_("industrial plant"),
    "plant-military": N_("military plant"),
}
"""Each of :data:`EVENT_TERMS` in the log's words."""


def describe_event(steps: list[tuple[str, int]]) -> str:
    """A solo event's effect in words, one line: ``"social unrest +3, pollution +2"`` (a
    :class:`~limitgames.world.words.Phrase`, drawn in the reader's language by the log)."""
    parts: list[str] = []
    for what, k in steps:
        if what.startswith(("plant", "population")):
            parts.append(
                phrase(N_("%(what)s %(count)s level(s)"), what=EVENT_WORDS[what], count=f"{k:+d}")
            )
        else:
            parts.append(phrase(N_("%(what)s %(count)s"), what=EVENT_WORDS[what], count=f"{k:+d}"))
    return joined(", ", parts)


def _growth_rule(text: str) -> tuple[tuple[str, ...], int]:
    plants, _, delta = str(text).partition(":")
    names = tuple(plants.split("|"))
    if not all(p in PLANTS for p in names) or not delta.lstrip("+-").isdigit():
        raise VariantError(f"social.economic_growth: {text!r} is not 'plant[|plant]:+N'")
    return names, int(delta)


def _take_rule(text: str) -> tuple[str, int]:
    resource, _, number = str(text).partition(":")
    if resource not in RESOURCES or not number.isdigit():
        raise VariantError(
            f"readings.military_operation_takes: {text!r} is not 'resource:N' "
            f"(resource one of {', '.join(RESOURCES)})"
        )
    return resource, int(number)


def _uprising_rule(text: str) -> tuple[str, int]:
    kind, _, number = str(text).partition(":")
    if kind not in ("military", "money") or not number.lstrip("+-").isdigit():
        raise VariantError(f"social.uprising: {text!r} is not 'military:OFFSET' or 'money:N'")
    return kind, int(number)


def _values(raw: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{"tracks": {"level_values": [...]}, ...}``: each section's plain values."""
    out: dict[str, dict[str, Any]] = {}
    for section, table in raw.items():
        if section == "cards":
            continue
        out[section] = {k: e["value"] for k, e in table.items()}
    return out


def iter_values(raw: Mapping[str, Any]) -> Iterator[tuple[str, Any, str]]:
    """Every number of the data as ``(key path, value, source)``, in file order."""
    for section, table in raw.items():
        if section == "cards":
            for cid, card in table.items():
                for key, entry in card.get("params", {}).items():
                    yield f"cards.{cid}.params.{key}", entry["value"], entry["source"]
            continue
        for key, entry in table.items():
            yield f"{section}.{key}", entry["value"], entry["source"]


def iter_entries(raw: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every entry of the data as ``(key path, {"value", "source", ["why", "choices"]})``, in
    file order (card parameters as ``cards.ID.params.KEY``)."""
    for section, table in raw.items():
        if section == "cards":
            for cid, card in table.items():
                for key, entry in card.get("params", {}).items():
                    yield f"cards.{cid}.params.{key}", entry
            continue
        for key, entry in table.items():
            yield f"{section}.{key}", entry


def _same_shape(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, list):
        if not isinstance(value, list) or len(value) != len(default):
            return False
        return all(_same_shape(d, x) for d, x in zip(default, value, strict=True))
    return False


def _describe(default: Any) -> str:
    if isinstance(default, list):
        return f"a list of {len(default)} " + (_describe(default[0]) + "s" if default else "items")
    return {bool: "true/false", int: "integer", str: "string"}.get(
        type(default), type(default).__name__
    )


def apply_overrides(raw: dict[str, Any], override: Mapping[str, Any], origin: str) -> None:
    """Overwrite values of ``raw`` (the default data) by ``override``, in place.

    Raises:
        VariantError: naming the key path and the file for an unknown key, a
            fixed field, or a value whose type or length differs from the default.
    """

    def leaf(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) - _ENTRY_FIELDS or "value" not in value:
                return None
            return value["value"]
        return value

    for section, table in override.items():
        if section not in raw:
            raise VariantError(f"{origin}: unknown section [{section}] (known: {', '.join(raw)})")
        if not isinstance(table, dict):
            raise VariantError(f"{origin}: [{section}] must be a table")
        if section == "cards":
            for cid, card in table.items():
                if cid not in raw["cards"]:
                    raise VariantError(f"{origin}: unknown card cards.{cid}")
                if not isinstance(card, dict):
                    raise VariantError(f"{origin}: cards.{cid} must be a table")
                for key, value in card.items():
                    path = f"cards.{cid}.{key}"
                    if key in _CARD_FIXED_FIELDS:
                        raise VariantError(f"{origin}: {path} cannot be changed")
                    if key in _CARD_TEXT_FIELDS:
                        if not isinstance(value, str):
                            raise VariantError(f"{origin}: {path} must be a string")
                        raw["cards"][cid][key] = value
                        continue
                    if key != "params" or not isinstance(value, dict):
                        raise VariantError(f"{origin}: unknown key {path}")
                    params = raw["cards"][cid]["params"]
                    for pk, pv in value.items():
                        if pk not in params:
                            known = ", ".join(params)
                            raise VariantError(
                                f"{origin}: unknown key {path}.{pk} (known: {known})"
                            )
                        _set(params[pk], leaf(pv), f"{path}.{pk}", origin)
            continue
        for key, value in table.items():
            if key not in raw[section]:
                known = ", ".join(raw[section])
                raise VariantError(f"{origin}: unknown key {section}.{key} (known: {known})")
            _set(raw[section][key], leaf(value), f"{section}.{key}", origin)


def _set(entry: dict[str, Any], value: Any, path: str, origin: str) -> None:
    if value is None or not _same_shape(entry["value"], value):
        raise VariantError(f"{origin}: {path} must be {_describe(entry['value'])}, not {value!r}")
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value < 0
        and path.startswith(("setup.", "nation.", "market.", "end."))
    ):
        raise VariantError(f"{origin}: {path} must not be negative")
    entry["value"] = value
    entry["source"] = f"override ({origin})"


def _default_raw() -> dict[str, Any]:
    text = resources.files("limitgames.world").joinpath("data.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_DEFAULT_TEXT_RAW = _default_raw()
DEFAULT_DATA = WorldData(_DEFAULT_TEXT_RAW, "data.toml")
"""The data as shipped."""
_CACHE: dict[str, WorldData] = {}


def fresh_raw() -> dict[str, Any]:
    """A deep copy of the shipped data's tables (safe to modify)."""
    import copy

    return copy.deepcopy(_DEFAULT_TEXT_RAW)


def read_override_file(path: str) -> dict[str, Any]:
    """The parsed TOML of a user's override file. Raises VariantError (unreadable, not TOML)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"data: cannot read {path}: {exc.strerror}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"data: {path} is not valid TOML: {exc}") from None


def load_data(path: str | None) -> WorldData:
    """The data for variant parameter ``data``: the shipped data, or it overridden by ``path``.

    Raises:
        VariantError: the file cannot be read, is not TOML, or overrides badly.
    """
    if not path:
        return DEFAULT_DATA
    if path in _CACHE:
        return _CACHE[path]
    data = data_with_overrides(read_override_file(path), path)
    _CACHE[path] = data
    return data


OVERRIDES_ORIGIN = "the game's overrides"
"""How the embedded overrides are named in messages and sources."""


def parse_overrides(text: str) -> dict[str, Any]:
    """The mapping of variant parameter ``overrides`` (JSON text). Raises VariantError."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise VariantError(f"overrides: not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise VariantError("overrides: a JSON object of sections, as in the data file")
    return value


def _merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and "value" not in value:
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def canonical_overrides(override: Mapping[str, Any]) -> str:
    """The JSON text a record stores for ``override`` (sorted keys, compact)."""
    return json.dumps(override, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=32)
def _data_from_overrides(text: str) -> WorldData:
    return data_with_overrides(parse_overrides(text), OVERRIDES_ORIGIN)


def variant_data(variant: Mapping[str, Any]) -> WorldData:
    """The data of a world variant: the shipped data, with the file of parameter ``data`` (if
    still named) and then the JSON of parameter ``overrides`` applied; with parameter
    ``money="fixed"`` its :attr:`WorldData.money` says so (scoring counts
    ``scoring.fixed_money_value`` points per ``money_unit`` whatever the crises, p23 "About
    the score"). Raises VariantError."""
    path = variant.get("data")
    text = variant.get("overrides")
    if not text:
        data = load_data(path)
    elif not path:
        data = _data_from_overrides(text)
    else:
        merged = _merge(read_override_file(path), parse_overrides(text))
        data = _data_from_overrides(canonical_overrides(merged))
    money = variant.get("money") or "crises"
    if money not in ("crises", "fixed"):
        raise VariantError(f"money: {money!r} is not one of crises, fixed")
    return data if money == "crises" else _with_money(data, money)


_MONEY_CACHE: dict[tuple[int, str], WorldData] = {}


def _with_money(data: WorldData, money: str) -> WorldData:
    """A copy of ``data`` (sharing its tables, which play never changes) whose money counts
    as ``money`` says."""
    key = (id(data), money)
    if key not in _MONEY_CACHE:
        import copy

        other = copy.copy(data)
        other.money = money
        _MONEY_CACHE[key] = other
    return _MONEY_CACHE[key]


def embed_overrides(variant: Mapping[str, Any]) -> dict[str, Any]:
    """``variant`` with the file of parameter ``data`` read into parameter ``overrides`` (the
    file first, the given ``overrides`` on top) and ``data`` dropped, so that a record or a
    position of the game replays without the file. Raises VariantError for a bad file or
    override (checked here, once)."""
    out = dict(variant)
    path = out.get("data")
    text = out.get("overrides")
    merged: dict[str, Any] = read_override_file(path) if path else {}
    if text:
        merged = _merge(merged, parse_overrides(text))
    if path:  # name the file in the messages of a bad override
        data_with_overrides(merged, path)
    out["data"] = None
    out["overrides"] = canonical_overrides(merged) if merged else None
    if out["overrides"]:
        _data_from_overrides(out["overrides"])
    return out


def data_with_overrides(override: Mapping[str, Any], origin: str = "override") -> WorldData:
    """The shipped data with ``override`` (a parsed TOML mapping) applied. Raises VariantError."""
    raw = fresh_raw()
    apply_overrides(raw, override, origin)
    return WorldData(raw, origin)


def reconstructed_values(data: WorldData | None = None) -> list[tuple[str, Any]]:
    """Every value whose source is ``reconstructed``: ``[(key path, value)]``."""
    raw = (data or DEFAULT_DATA).raw
    return [(path, value) for path, value, source in iter_values(raw) if source == "reconstructed"]
