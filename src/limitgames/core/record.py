"""The JSON game record: write, read, replay and verify.

One format for every game (see ``DESIGN.md``, "Records")::

    {
      "format": "limitgames-record",
      "version": 1,
      "game": "hex",
      "rules_version": "hex-1",
      "variant": {"edition": "nestorgames", "players": 2, "size": 8},
      "seed": 1234,
      "seats": ["human:ann", "random"],
      "start": null,
      "chance": [{"kind": "layout", "value": [...]}],
      "actions": [
        "a1-b2",
        "x c3"
      ],
      "result": [1.0, -1.0],
      "outcome": {"termination": "last_with_pawns", "returns": [1.0, -1.0], "winners": [0], "by": null},
      "meta": {"date": "2026-11-22T03:00:00Z"}
    }

- ``start`` is a position (the game's position JSON) when the game did not
  begin at a generated initial state; then ``chance`` may be empty.
- ``chance`` lists the chance outcomes in the order drawn; replay hands them
  back, so a record replays exactly even if the code draws differently.
- ``actions`` are in the game's notation, one per line in the file.
- ``result`` is ``returns()`` at the end, or ``null`` for an unfinished game.
- ``outcome`` (left out when unknown) is why and how the game ended
  (:class:`~limitgames.core.events.Outcome`, ``State.outcome()``): with a ``result``,
  replay checks that the game ends the same way when the rules ended it, with the same
  ``scores``, ``by`` and every fact of ``details`` the record states (a world game's
  scorecards), and names the file line of the first that differs (a record cut
  short, ``result`` null, is an unfinished game and its outcome is not read). A game
  ended at the table (resignation, agreed draw, time-out: ``limit serve``) replays to a
  position the rules had not ended, and its ``result`` is the outcome's returns.

Errors name where the record is wrong: the file line for JSON syntax and for
actions, the field otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from limitgames.core.chance import Chance
from limitgames.core.errors import (
    IllegalActionError,
    LimitGamesError,
    NotationError,
    RecordError,
)
from limitgames.core.events import Outcome
from limitgames.core.protocol import State
from limitgames.core.registry import get_game

scanstring: Any = json.decoder.scanstring  # type: ignore[attr-defined]

FORMAT = "limitgames-record"
VERSION = 1


@dataclass
class GameRecord:
    """A game as played: enough to replay it exactly.

    Attributes:
        game: the game id.
        variant: the resolved variant parameters.
        seats: who played each seat (``"human:NAME"`` or an agent spec).
        actions: the actions in notation.
        chance: the chance outcomes in order.
        seed: the chance seed (informative; replay uses ``chance``).
        start: a starting position, or ``None`` for the initial state.
        result: the returns at the end, or ``None`` if unfinished.
        outcome: why and how the game ended (``Outcome.to_json()``), or ``None``.
        rules_version: the engine's rules version when it was played.
        meta: free-form details (date, event, time control...).
    """

    game: str
    variant: dict[str, Any]
    seats: list[str]
    actions: list[str] = field(default_factory=list)
    chance: list[dict[str, Any]] = field(default_factory=list)
    seed: int | None = None
    start: dict[str, Any] | None = None
    result: list[float] | None = None
    outcome: dict[str, Any] | None = None
    rules_version: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    action_lines: list[int] | None = field(default=None, compare=False, repr=False)
    outcome_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    # --- making one -------------------------------------------------------
    @classmethod
    def of_state(
        cls,
        state: State,
        seats: Sequence[str] | None = None,
        seed: int | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """The record of ``state``'s game so far (replaying it gives ``state`` back).

        The notation of each action is taken in the position it was played in,
        by re-playing the history from the start.
        """
        game = get_game(state.game_id)
        start = state.start_position()
        replica = _initial_state(game.info.id, state.variant, start, state.chance_outcomes(), seed)
        actions: list[str] = []
        for action in state.history():
            actions.append(replica.action_to_string(action))
            replica.apply(action)
        return cls(
            game=game.info.id,
            variant=dict(state.variant),
            seats=list(seats) if seats is not None else state.seat_names(),
            actions=actions,
            chance=[dict(c) for c in state.chance_outcomes()],
            seed=seed,
            start=start,
            result=state.returns() if state.is_terminal() else None,
            outcome=outcome_json(state),
            rules_version=game.info.rules_version,
            meta={"date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), **(meta or {})},
        )

    # --- JSON ---------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "variant": self.variant,
            "seed": self.seed,
            "seats": self.seats,
            "start": self.start,
            "chance": self.chance,
            "actions": self.actions,
            "result": self.result,
            "meta": self.meta,
        }
        if self.outcome is not None:
            data["outcome"] = self.outcome
        return data

    def dumps(self) -> str:
        """The record as text: indented JSON with one action per line."""
        data = self.to_json()
        actions = data.pop("actions")
        body = json.dumps(data, indent=1, ensure_ascii=False)
        lines = ",\n".join("  " + json.dumps(a, ensure_ascii=False) for a in actions)
        inner = f' "actions": [\n{lines}\n ]' if actions else ' "actions": []'
        return body[:-2] + ",\n" + inner + "\n}\n"

    def write(self, path: str | Path) -> Path:
        """Write the record to ``path`` (parents created); return the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.dumps(), encoding="utf-8")
        return target

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from decoded JSON. Raises :class:`RecordError` naming the bad field."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(
                f"not a limitgames record (format {data.get('format')!r})", "field 'format'"
            )
        version = data.get("version", VERSION)
        if not isinstance(version, int) or version > VERSION:
            raise RecordError(f"unsupported record version {version!r}", "field 'version'")

        def need(key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
            if key not in data:
                if default is ...:
                    raise RecordError("missing", f"field {key!r}")
                return default
            value = data[key]
            if not isinstance(value, kind):
                raise RecordError(f"has the wrong type ({type(value).__name__})", f"field {key!r}")
            return value

        game = need("game", str)
        variant = need("variant", dict, {})
        seats = need("seats", list, [])
        actions = need("actions", list, [])
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise RecordError("an action must be a string", f"action {i + 1}")
        chance = need("chance", list, [])
        for i, c in enumerate(chance):
            if not isinstance(c, dict) or "kind" not in c or "value" not in c:
                raise RecordError('a chance outcome is {"kind": ..., "value": ...}', f"chance {i}")
        seed = need("seed", (int, type(None)), None)
        start = need("start", (dict, type(None)), None)
        result = need("result", (list, type(None)), None)
        meta = need("meta", dict, {})
        outcome = need("outcome", (dict, type(None)), None)
        if outcome is not None:
            try:
                Outcome.from_json(outcome)
            except (ValueError, TypeError) as exc:
                raise RecordError(str(exc), "field 'outcome'") from None
        return cls(
            game=game,
            variant=variant,
            seats=[str(s) for s in seats],
            actions=list(actions),
            chance=chance,
            seed=seed,
            start=start,
            result=[float(x) for x in result] if result is not None else None,
            outcome=outcome,
            rules_version=str(data.get("rules_version", "")),
            meta=meta,
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Read a record from text. Raises :class:`RecordError` with the line of a JSON error."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(exc.msg, f"line {exc.lineno} column {exc.colno}") from None
        except RecursionError:  # Python's parser recurses once per level of nesting
            raise RecordError("JSON nested too deeply") from None
        record = cls.from_json(data)
        record.action_lines = _action_lines(text)
        record.outcome_lines = _value_lines(text, "outcome")
        return record

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        """Read a record file. Raises :class:`RecordError` (also for an unreadable file)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read the file: {exc}") from None
        return cls.loads(text)

    # --- replay -------------------------------------------------------------
    def where(self, index: int) -> str:
        """How to name action ``index`` (0-based) in an error: number, text and file line."""
        text = self.actions[index] if index < len(self.actions) else "?"
        line = ""
        if self.action_lines is not None and index < len(self.action_lines):
            line = f", line {self.action_lines[index]}"
        return f"action {index + 1} ({text}{line})"

    def replay(self, verify_result: bool = True) -> State:
        """Re-play the record and return the final state, checking every action.

        A record made under older rules (``rules_version``) is accepted when
        it is still legal under today's; otherwise the error says so, and
        names the first offending action and the rule it breaks.

        Raises:
            RecordError: at the first action that cannot be read or is illegal
                (naming it and the reason), if the variant or chance outcomes do
                not fit the game, or if ``result`` differs from the replayed one.
        """
        try:
            return self._replay(verify_result)
        except RecordError as exc:
            stale = self.rules_note()
            if stale:
                raise RecordError(
                    f"{stale}, and it no longer replays: {exc.reason}", exc.where
                ) from None
            raise

    def positions(self) -> Iterator[tuple[State, str | None]]:
        """Each position of the game with the action played from it: ``(state, action text)``
        before every action, then ``(final state, None)``. The states are copies, so a caller
        may keep or search them. Actions are checked as :meth:`replay` checks them.

        Raises:
            RecordError: as :meth:`replay`, at the first action that cannot be played.
        """
        state = _initial_state(self.game, self.variant, self.start, self.chance, self.seed)
        for index, text in enumerate(self.actions):
            yield state.clone(), text
            try:
                state.apply_string(text)
            except (NotationError, IllegalActionError) as exc:
                raise RecordError(exc.reason, self.where(index)) from None
        yield state.clone(), None

    def rules_note(self) -> str:
        """``""`` if the record was made under the game's current rules (or says nothing of
        them); otherwise a sentence saying under which rules it was made.

        Every game's :class:`~limitgames.core.GameInfo` carries a ``rules_version``
        (``"hex-2"``) that an engine bumps whenever its rules change what is legal.
        """
        try:
            current = get_game(self.game).info.rules_version
        except LimitGamesError:
            return ""
        if not self.rules_version or not current or self.rules_version == current:
            return ""
        return (
            f"this record was made under the rules {self.rules_version!r}, not today's {current!r}"
        )

    def _replay(self, verify_result: bool) -> State:
        state = _initial_state(self.game, self.variant, self.start, self.chance, self.seed)
        for index, text in enumerate(self.actions):
            if state.is_terminal():
                raise RecordError("the game was already over", self.where(index))
            try:
                state.apply_string(text)
            except NotationError as exc:
                raise RecordError(exc.reason, self.where(index)) from None
            except IllegalActionError as exc:
                raise RecordError(exc.reason, self.where(index)) from None
        if verify_result and self.result is not None and self._ended_at_table():
            self._verify_table_ending(state)
            return state
        if verify_result and self.result is not None:
            if not state.is_terminal():
                raise RecordError(
                    "the record states a result but the game is not over", "field 'result'"
                )
            if [round(x, 9) for x in state.returns()] != [round(x, 9) for x in self.result]:
                raise RecordError(
                    f"the record says {self.result} but the game ends {state.returns()}",
                    "field 'result'",
                )
        if verify_result and self.result is not None and self.outcome is not None:
            self._verify_outcome(state)  # the outcome goes with the result (none: unfinished)
        return state

    def _ended_at_table(self) -> bool:
        """Whether the record's ``outcome`` is an ending decided at the table (a resignation,
        an agreed draw, a time-out, abandonment), not by the rules."""
        if self.outcome is None:
            return False
        return not Outcome.from_json(self.outcome).termination.decided_by_rules

    def _verify_table_ending(self, state: State) -> None:
        """A game ended at the table: the rules had not ended it, and the result is the
        outcome's returns. Raises :class:`RecordError` naming the field."""
        assert self.outcome is not None and self.result is not None
        stated = Outcome.from_json(self.outcome)
        if state.is_terminal():
            raise RecordError(
                f"the record says the game ended by {stated.termination.value}, but the rules "
                "had already ended it",
                "field 'outcome'",
            )
        if [round(x, 9) for x in stated.returns] != [round(x, 9) for x in self.result]:
            raise RecordError(
                f"the record says {self.result} but its outcome says {list(stated.returns)}",
                "field 'result'",
            )

    def _verify_outcome(self, state: State) -> None:
        """The replayed game ends as the record's ``outcome`` says, when the rules ended it
        (an ending decided at the table, a resignation say, is not the engine's to check).
        Raises :class:`RecordError` naming the field."""
        assert self.outcome is not None
        stated = Outcome.from_json(self.outcome)
        if not stated.termination.decided_by_rules:
            return
        ended = outcome_json(state)
        if ended is None:
            if state.is_terminal():
                return  # the engine does not say why its games end
            raise RecordError(
                "the record states an outcome but the game is not over", "field 'outcome'"
            )
        found = Outcome.from_json(ended)
        if (found.termination, found.winners) != (stated.termination, stated.winners):
            raise RecordError(
                f"the record says the game ended by {stated.termination.value} with winners "
                f"{list(stated.winners)}, but it ends by {found.termination.value} with winners "
                f"{list(found.winners)}",
                "field 'outcome'",
            )
        self._verify_results(ended)

    def _verify_results(self, ended: dict[str, Any]) -> None:
        """The replayed game's final results are the record's: every score (``scores``),
        ``by`` when stated, and each fact of ``details`` the record states (a world game's
        scorecards, generation and crises; a cards game's points and rounds). A record made
        before a detail was kept does not state it and is not refused for it.
        Raises :class:`RecordError` naming the field and the file line of the first value
        that differs."""
        assert self.outcome is not None
        found = json.loads(json.dumps(ended))  # tuples as lists, as the record holds them
        for key in ("scores", "by", "details"):
            if key not in self.outcome or (key == "by" and self.outcome[key] is None):
                continue
            stated = self.outcome[key]
            if key == "details" and isinstance(stated, dict):
                given = found.get(key) or {}
                differs = None
                for name in stated:
                    differs = _first_difference(stated[name], given.get(name), f"details.{name}")
                    if differs is not None:
                        break
            else:
                differs = _first_difference(stated, found.get(key), key)
            if differs is None:
                continue
            path, said, replayed = differs
            line = self.outcome_lines.get(path)
            raise RecordError(
                f"the record says {path} is {said!r} but the replayed game gives {replayed!r}",
                f"field 'outcome', line {line}" if line else "field 'outcome'",
            )


def _first_difference(stated: Any, found: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place (``scores[1]``, ``details.scorecards[0].total``) where the JSON value
    ``stated`` and ``found`` differ, with both values there; ``None`` when they are equal
    (numbers compared as numbers: ``26`` equals ``26.0``)."""
    if isinstance(stated, dict) and isinstance(found, dict):
        for key in sorted(set(stated) | set(found), key=str):
            differs = _first_difference(stated.get(key), found.get(key), f"{path}.{key}")
            if differs is not None:
                return differs
        return None
    if isinstance(stated, list) and isinstance(found, list) and len(stated) == len(found):
        for index, (a, b) in enumerate(zip(stated, found, strict=True)):
            differs = _first_difference(a, b, f"{path}[{index}]")
            if differs is not None:
                return differs
        return None
    numbers = (int, float)
    if isinstance(stated, numbers) and isinstance(found, numbers):
        same = isinstance(stated, bool) == isinstance(found, bool) and stated == found
    else:
        same = type(stated) is type(found) and stated == found
    return None if same else (path, stated, found)


def outcome_json(state: State) -> dict[str, Any] | None:
    """``state.outcome()`` as JSON (:meth:`Outcome.to_json`), or ``None`` while the game goes
    on or when the engine does not say why its games end (records, the research adapters)."""
    if not state.is_terminal():
        return None
    try:
        outcome = state.outcome()
    except NotImplementedError:
        return None
    return None if outcome is None else outcome.to_json()


def _initial_state(
    game_id: str,
    variant: Mapping[str, Any],
    start: Mapping[str, Any] | None,
    chance: Sequence[Mapping[str, Any]],
    seed: int | None,
) -> State:
    try:
        game = get_game(game_id)
    except LimitGamesError as exc:
        raise RecordError(str(exc), "field 'game'") from None
    try:
        if start is not None and chance:
            # outcomes drawn after the position (a world game refereed at a real table)
            return game.state_from_position(start, chance=Chance(seed=seed, replay=chance))  # type: ignore[call-arg]
        if start is not None:
            return game.state_from_position(start)
        return game.new_initial_state(chance=Chance(seed=seed, replay=chance), **dict(variant))
    except RecordError:
        raise
    except LimitGamesError as exc:
        raise RecordError(
            str(exc), "field 'start'" if start is not None else "field 'variant'"
        ) from None


def _action_lines(text: str) -> list[int] | None:
    """The 1-based line of each element of the top-level ``"actions"`` array, if it can be found."""
    try:
        decoder = json.JSONDecoder()
        pos = _find_top_level_key(text, "actions", decoder)
        if pos is None:
            return None
        n = len(text)

        def skip(p: int) -> int:
            while p < n and text[p] in " \t\r\n":
                p += 1
            return p

        pos = skip(pos)
        if text[pos] != "[":
            return None
        pos = skip(pos + 1)
        lines: list[int] = []
        while pos < n and text[pos] != "]":
            lines.append(text.count("\n", 0, pos) + 1)
            if text[pos] == '"':
                _, pos = scanstring(text, pos + 1)
            else:
                _, pos = decoder.raw_decode(text, pos)
            pos = skip(pos)
            if pos < n and text[pos] == ",":
                pos = skip(pos + 1)
        return lines
    except (ValueError, IndexError):
        return None


def _value_lines(text: str, key: str) -> dict[str, int]:
    """The 1-based file line of every value inside the top-level ``key`` of the JSON
    ``text``, by path (``scores[0]``, ``details.scorecards[1].total``; the value itself is
    ``""``); empty if it cannot be found."""
    lines: dict[str, int] = {}
    decoder = json.JSONDecoder()
    n = len(text)

    def skip(p: int) -> int:
        while p < n and text[p] in " \t\r\n":
            p += 1
        return p

    def walk(p: int, path: str) -> int:
        """Record the value at ``p`` (and everything in it); return the index after it."""
        p = skip(p)
        lines[path] = text.count("\n", 0, p) + 1
        if text[p] == "{":
            p = skip(p + 1)
            while text[p] != "}":
                name, p = scanstring(text, p + 1)
                p = skip(skip(p) + 1)  # the colon
                p = skip(walk(p, f"{path}.{name}" if path else str(name)))
                if text[p] == ",":
                    p = skip(p + 1)
            return p + 1
        if text[p] == "[":
            p = skip(p + 1)
            index = 0
            while text[p] != "]":
                p = skip(walk(p, f"{path}[{index}]"))
                index += 1
                if text[p] == ",":
                    p = skip(p + 1)
            return p + 1
        _, end = decoder.raw_decode(text, p)
        return int(end)

    try:
        pos = _find_top_level_key(text, key, decoder)
        if pos is None:
            return {}
        walk(pos, "")
    except (ValueError, IndexError):
        return {}
    return lines


def _find_top_level_key(text: str, key: str, decoder: json.JSONDecoder) -> int | None:
    """Index just after ``"key":`` in the top-level object of ``text``."""
    pos = text.index("{") + 1
    n = len(text)
    while pos < n:
        while pos < n and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= n or text[pos] != '"':
            return None
        name, pos = scanstring(text, pos + 1)
        while text[pos] in " \t\r\n":
            pos += 1
        pos += 1  # the colon
        if name == key:
            return int(pos)
        while text[pos] in " \t\r\n":
            pos += 1
        _, pos = decoder.raw_decode(text, pos)
    return None
