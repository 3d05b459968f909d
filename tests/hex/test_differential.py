"""Differential tests: the real engine against the naive reference (``tests/hex/reference.py``).

Only the engine's public API is used (``get_game("hex")``, states' ``legal_actions``,
``action_to_string``, ``apply``, ``observation``, ``frame.cell``...). At every decision the two
must agree on the legal set; then one seeded-random action is played on both and the resulting
positions (tiles with colours and pawn owners, to_move, step, turn, quiet_turns), the captured
pawns and the result must agree. (Once the game is over only tiles, pawns, step and the result
are compared: what ``turn`` and ``quiet_turns`` read after the end is not a rule.)

A disagreement fails with the position JSON, the differing actions in the engine's notation and
the history of the game.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limitgames.core import get_game
from tests.deadlines import scaled
from tests.hex.reference import COLOURS, Cell, RefState, components, neighbours

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("hex")

CONFIGS = [(edition, players) for edition in ("nestorgames", "2008") for players in (2, 3)]


# ---------------------------------------------------------------------------------------------
# Translating between the engine's notation and the reference's cell tuples
# ---------------------------------------------------------------------------------------------
_MOVE = re.compile(r"^\s*([a-z]+\d+)\s*-\s*([a-z]+\d+)\s*$")
_MARKED = re.compile(r"^\s*([x+@])\s*([a-z]+\d+)\s*$")


def ref_action(state: Any, text: str) -> tuple:
    """The reference's tuple for the engine's action string (``c4-e5``, ``x d4``, ``+d4``, ``@d4``)."""
    t = text.strip().lower()
    m = _MOVE.match(t)
    if m:
        return ("move", state.frame.cell(m.group(1)), state.frame.cell(m.group(2)))
    m = _MARKED.match(t)
    if not m:
        raise AssertionError(f"engine action {text!r} is in no known notation")
    kind = {"x": "remove", "+": "tile", "@": "ball"}[m.group(1)]
    return (kind, state.frame.cell(m.group(2)))


def action_text(state: Any, action: tuple) -> str:
    """A reference action in the engine's notation (for messages)."""
    name = state.frame.name
    if action[0] == "move":
        return f"{name(action[1])}-{name(action[2])}"
    mark = {"remove": "x ", "tile": "+", "ball": "@"}[action[0]]
    return f"{mark}{name(action[1])}"


def engine_view(state: Any) -> dict[str, Any]:
    """The engine's position in the reference's :meth:`RefState.comparable` shape."""
    obs = state.observation()
    over = state.is_terminal()
    return {
        "tiles": {(t["q"], t["r"]): (t["colour"], t["pawn"]) for t in obs["tiles"]},
        "to_move": None if over else state.current_player(),
        "step": obs["step"],
        "turn": obs["turn"],
        "quiet_turns": obs["quiet_turns"],
        "result": [float(x) for x in state.returns()] if over else None,
    }


def ref_from_engine(state: Any) -> RefState:
    """The reference at the engine's position (its observation is a position JSON)."""
    obs = dict(state.observation())
    colours = obs.get("seat_colours")
    seats = obs.get("seats")  # today's observation names each seat's colour under "seats"
    if (
        colours is None
        and isinstance(seats, list)
        and sorted(seats) == sorted(COLOURS[obs["edition"]][: obs["players"]])
    ):
        colours = seats
    if colours is not None:
        obs["seat_colours"] = colours
    return RefState.from_position(obs)


def _pawns(view: dict[str, Any]) -> dict[Cell, int]:
    return {c: p for c, (_, p) in view["tiles"].items() if p is not None}


# ---------------------------------------------------------------------------------------------
# One differential game
# ---------------------------------------------------------------------------------------------
@dataclass
class Disagreement:
    """The first point where the engine and the reference part ways."""

    label: str
    what: str
    position: dict[str, Any]
    history: list[str]
    details: dict[str, Any] = field(default_factory=dict)

    def report(self) -> str:
        lines = [f"{self.label}: {self.what}"]
        for key, value in self.details.items():
            lines.append(f"  {key}: {value}")
        lines.append(f"  history ({len(self.history)} decisions): {' '.join(self.history) or '-'}")
        lines.append(f"  position: {json.dumps(self.position)}")
        return "\n".join(lines)


def _diff_views(ref: dict[str, Any], eng: dict[str, Any], frame: Any) -> dict[str, Any]:
    keys = ["tiles", "step", "result"]
    if ref["result"] is None and eng["result"] is None:
        keys += ["to_move", "turn", "quiet_turns"]
    diff: dict[str, Any] = {}
    for key in keys:
        if ref[key] == eng[key]:
            continue
        if key == "tiles":
            cells = set(ref["tiles"]) | set(eng["tiles"])
            diff["tiles (reference vs engine)"] = {
                frame.name(c): (ref["tiles"].get(c, "no tile"), eng["tiles"].get(c, "no tile"))
                for c in sorted(cells)
                if ref["tiles"].get(c) != eng["tiles"].get(c)
            }
        else:
            diff[f"{key} (reference vs engine)"] = (ref[key], eng[key])
    return diff


def differential_game(
    state: Any,
    rng: random.Random,
    label: str,
    max_decisions: int = 10_000,
    ref: RefState | None = None,
) -> Disagreement | None:
    """Play ``state`` (an engine state) to the end (or ``max_decisions``) with seeded-random
    actions, checking the reference at every decision. The first disagreement, or None.

    ``ref`` is the reference at the same position (default: read from the engine's observation,
    which is right for a fresh game; a loaded position must give the reference the position
    itself, since the engine has already settled it)."""
    history: list[str] = []
    if ref is None:
        ref = ref_from_engine(state)
    start = _diff_views(ref.comparable(), engine_view(state), state.frame)
    if start:
        start["engine observation"] = json.dumps(state.observation())
        return Disagreement(
            label, "the settled start positions differ", ref.to_position(), history, start
        )
    for _ in range(max_decisions):
        if state.is_terminal() or ref.result is not None:
            if state.is_terminal() != (ref.result is not None):
                return Disagreement(
                    label,
                    "one side says the game is over, the other does not",
                    ref.to_position(),
                    history,
                    {"engine over": state.is_terminal(), "reference result": ref.result},
                )
            return None
        engine_actions = {
            ref_action(state, state.action_to_string(a)): a for a in state.legal_actions()
        }
        ref_actions = ref.legal_actions()
        if set(engine_actions) != ref_actions:
            return Disagreement(
                label,
                f"legal sets differ at step {ref.step!r} (seat {ref.to_move} to move)",
                ref.to_position(),
                history,
                {
                    "only the engine allows": sorted(
                        action_text(state, a) for a in set(engine_actions) - ref_actions
                    ),
                    "only the reference allows": sorted(
                        action_text(state, a) for a in ref_actions - set(engine_actions)
                    ),
                },
            )
        before = ref.to_position()
        chosen = rng.choice(sorted(engine_actions))
        text = state.action_to_string(engine_actions[chosen])
        pawns_before = _pawns(engine_view(state))
        state.apply(engine_actions[chosen])
        ref = ref.apply(chosen)
        history.append(text)
        eng_view, ref_view = engine_view(state), ref.comparable()
        moved_from = {chosen[1]} if chosen[0] == "move" else set()
        eng_captured = set(pawns_before) - set(_pawns(eng_view)) - moved_from
        ref_captured = set(pawns_before) - set(_pawns(ref_view)) - moved_from
        diff = _diff_views(ref_view, eng_view, state.frame)
        if eng_captured != ref_captured:
            diff["captured (reference vs engine)"] = (
                sorted(state.frame.name(c) for c in ref_captured),
                sorted(state.frame.name(c) for c in eng_captured),
            )
        if diff:
            return Disagreement(label, f"the positions after {text} differ", before, history, diff)
    return None


def seeded_game(
    edition: str, players: int, size: int, seed: int, must_remove: str = "literal"
) -> Disagreement | None:
    """One seeded-random game from the engine's own start (seeded layout / empty table); the
    layout law alternates with the seed (the uniform law's thin shapes freeze and split more)."""
    law = ("uniform", "grown")[seed % 2]
    state = GAME.new_initial_state(
        seed=seed, edition=edition, players=players, size=size, layout=law, must_remove=must_remove
    )
    label = f"{edition} {players}p size {size} seed {seed} must_remove={must_remove}"
    return differential_game(state, random.Random(seed * 7919 + players), label)


def summarise(found: list[Disagreement], total: int) -> str:
    head = f"{len(found)} of {total} games disagree with the reference"
    return head + "\n\n" + "\n\n".join(d.report() for d in found[:3])


# ---------------------------------------------------------------------------------------------
# Fast: seeded random games
# ---------------------------------------------------------------------------------------------
FAST_GAMES = 54  # per edition and player count: sizes 2..10, six times over


@pytest.mark.parametrize(("edition", "players"), CONFIGS, ids=[f"{e}-{p}p" for e, p in CONFIGS])
def test_seeded_games_agree(edition: str, players: int) -> None:
    found = []
    for seed in range(FAST_GAMES):
        d = seeded_game(edition, players, 2 + seed % 9, seed)
        if d is not None:
            found.append(d)
    assert not found, summarise(found, FAST_GAMES)


@pytest.mark.parametrize("players", [2, 3])
def test_seeded_games_agree_in_the_continuing_reading(players: int) -> None:
    """The variant must_remove=continuing (nestorgames), on the same seeds."""
    found = []
    for seed in range(FAST_GAMES):
        d = seeded_game("nestorgames", players, 2 + seed % 9, seed, "continuing")
        if d is not None:
            found.append(d)
    assert not found, summarise(found, FAST_GAMES)


# ---------------------------------------------------------------------------------------------
# Fast: hypothesis-built positions
# ---------------------------------------------------------------------------------------------
def _engine_accepts_seat_colours() -> bool:
    pos = {
        "game": "hex",
        "edition": "nestorgames",
        "players": 2,
        "size": 8,
        "step": "move",
        "seat_colours": ["blue", "red"],
        "tiles": [
            {"q": 0, "r": 0, "colour": "red", "pawn": 0},
            {"q": 1, "r": 0, "colour": "blue", "pawn": None},
            {"q": 2, "r": 0, "colour": "red", "pawn": 1},
        ],
    }
    try:
        GAME.state_from_position(pos)
    except Exception:
        return False
    return True


SEAT_COLOURS = _engine_accepts_seat_colours()


@st.composite
def tile_sets(draw: st.DrawFn, low: int = 3, high: int = 18) -> list[Cell]:
    """A connected set of cells, grown from (0, 0) by random touching cells; sometimes with a few
    cells taken out again (holes, thin necks) while it stays connected."""
    count = draw(st.integers(low, high))
    cells = [(0, 0)]
    taken = {(0, 0)}
    while len(cells) < count:
        frontier = sorted({n for c in cells for n in neighbours(c)} - taken)
        cell = draw(st.sampled_from(frontier))
        cells.append(cell)
        taken.add(cell)
    for _ in range(draw(st.integers(0, 3))):
        if len(cells) <= low:
            break
        cell = draw(st.sampled_from(cells))
        rest = [c for c in cells if c != cell]
        if len(components(rest)) == 1:
            cells = rest
    return cells


@st.composite
def movement_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A loaded movement-phase position: random shape, random pawns (groups without freedom
    included), step move or remove, turns inside and outside the equaliser, quiet_turns near
    the stalemate limit."""
    edition = draw(st.sampled_from(["nestorgames", "2008"]))
    players = draw(st.sampled_from([2, 3]))
    cells = draw(tile_sets(3, draw(st.sampled_from([6, 10, 18]))))
    density = draw(st.sampled_from([0.25, 0.45, 0.65]))
    seats = list(range(players))
    owners: dict[Cell, int | None] = {}
    for cell in cells:
        owners[cell] = draw(st.sampled_from(seats)) if draw(st.floats(0, 1)) < density else None
    present = {p for p in owners.values() if p is not None}
    if len(present) < 2:  # at least two seats with pawns, and at least one empty tile
        owners[cells[0]], owners[cells[-1]] = 0, 1
    if all(p is not None for p in owners.values()):
        owners[cells[len(cells) // 2]] = None
        if len({p for p in owners.values() if p is not None}) < 2:
            owners[cells[0]], owners[cells[-1]] = 0, 1
    step = draw(st.sampled_from(["move", "remove"]))
    present = sorted({p for p in owners.values() if p is not None})
    to_move = draw(st.sampled_from(seats if step == "move" else present))
    palette = ["red", "blue", "yellow", "black"]
    pos: dict[str, Any] = {
        "game": "hex",
        "edition": edition,
        "size": 8,
        "players": players,
        "tiles": [
            {
                "q": q,
                "r": r,
                "colour": None if edition == "2008" else draw(st.sampled_from(palette)),
                "pawn": owners[(q, r)],
            }
            for q, r in cells
        ],
        "to_move": to_move,
        "step": step,
        "turn": draw(st.integers(1, players + 2)),
        "quiet_turns": draw(st.integers(0, players)),
    }
    if SEAT_COLOURS and draw(st.booleans()):
        pos["seat_colours"] = draw(st.permutations(list(COLOURS[edition][:players])))
    pos["must_remove"] = draw(st.sampled_from(["literal", "continuing"]))
    return pos


def _position_game(pos: dict[str, Any], seed: int, plies: int) -> Disagreement | None:
    try:
        state = GAME.state_from_position(pos)
    except Exception as exc:  # a well-formed position: the engine must load it
        return Disagreement(
            "position", f"the engine refuses a well-formed position: {exc}", pos, []
        )
    return differential_game(
        state, random.Random(seed), "position", max_decisions=plies, ref=RefState.from_position(pos)
    )


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(movement_positions(), st.integers(0, 2**16))
def test_loaded_positions_agree(pos: dict[str, Any], seed: int) -> None:
    d = _position_game(pos, seed, plies=6)
    assert d is None, d.report()


@st.composite
def tiny_positions(draw: st.DrawFn) -> dict[str, Any]:
    """Tiny boards (3-6 tiles) crowded with pawns, where few removals exist, so "must, if
    possible", its fall-back and the skipped steps decide most turns."""
    edition = draw(st.sampled_from(["nestorgames", "2008"]))
    players = draw(st.sampled_from([2, 3]))
    cells = draw(tile_sets(3, 6))
    owners = {c: draw(st.sampled_from([None, None, *range(players)])) for c in cells}
    if len({p for p in owners.values() if p is not None}) < 2:
        owners[cells[0]], owners[cells[-1]] = 0, 1
    return {
        "game": "hex",
        "edition": edition,
        "size": 8,
        "players": players,
        "tiles": [
            {
                "q": q,
                "r": r,
                "colour": None if edition == "2008" else "black",
                "pawn": owners[(q, r)],
            }
            for q, r in cells
        ],
        "to_move": draw(st.sampled_from(sorted({p for p in owners.values() if p is not None}))),
        "step": "move",
        "turn": draw(st.integers(1, 4)),
        "quiet_turns": 0,
        "must_remove": draw(st.sampled_from(["literal", "continuing"])),
    }


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tiny_positions(), st.integers(0, 2**16))
def test_tiny_boards_played_to_the_end(pos: dict[str, Any], seed: int) -> None:
    d = _position_game(pos, seed, plies=60)
    assert d is None, d.report()


def rule2_positions(seed: int, wanted: int) -> list[dict[str, Any]]:
    """Small crowded nestorgames positions (seeded) where the two readings of "must, if
    possible" give different legal moves, as the reference decides: a move ends the game and
    no move after which play goes on allows a removal. About one in fifty random ones."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    for _ in range(50_000):
        if len(found) == wanted:
            break
        count = rng.randint(4, 8)
        cells = [(0, 0)]
        while len(cells) < count:
            cells.append(rng.choice(sorted({n for c in cells for n in neighbours(c)} - set(cells))))
        players = rng.choice([2, 3])
        owners = {c: rng.choice([None, None, *range(players)]) for c in cells}
        seats = sorted({p for p in owners.values() if p is not None})
        if len(seats) < 2:
            continue
        pos = {
            "game": "hex",
            "edition": "nestorgames",
            "size": 8,
            "players": players,
            "tiles": [
                {"q": q, "r": r, "colour": "black", "pawn": owners[(q, r)]} for q, r in cells
            ],
            "to_move": rng.choice(seats),
            "step": "move",
            "turn": players + rng.randint(0, 3),
            "quiet_turns": 0,
        }
        literal = RefState.from_position(dict(pos, must_remove="literal"))
        continuing = RefState.from_position(dict(pos, must_remove="continuing"))
        if literal.step == continuing.step == "move" and (
            literal.legal_actions() != continuing.legal_actions()
        ):
            found.append(pos)
    return found


def test_the_readings_of_must_if_possible_agree_where_they_differ() -> None:
    """30 positions where the readings part ways: in each reading the engine's legal set, the
    games played from there and the results agree with the reference's."""
    positions = rule2_positions(1, 30)
    assert len(positions) == 30
    found = []
    for i, pos in enumerate(positions):
        legal = {}
        for reading in ("literal", "continuing"):
            at = dict(pos, must_remove=reading)
            legal[reading] = set(GAME.state_from_position(at).legal_actions())
            d = _position_game(at, i, plies=40)
            if d is not None:
                found.append(d)
        assert legal["literal"] < legal["continuing"], json.dumps(pos)
    assert not found, summarise(found, 2 * len(positions))


# ---------------------------------------------------------------------------------------------
# The no-JIT path, in a subprocess
# ---------------------------------------------------------------------------------------------
_NO_JIT_SCRIPT = """
import sys
from tests.hex.test_differential import seeded_game
bad = [d.report() for d in (seeded_game("nestorgames", 2, 3, 1), seeded_game("2008", 2, 3, 1)) if d]
print("\\n\\n".join(bad))
sys.exit(1 if bad else 0)
"""


def test_one_short_game_without_jit() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), str(ROOT), env.get("PYTHONPATH")) if p
    )
    done = subprocess.run(
        [sys.executable, "-c", _NO_JIT_SCRIPT],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=scaled(300),
    )
    assert done.returncode == 0, done.stdout + done.stderr


# ---------------------------------------------------------------------------------------------
# Slow: 1,000 seeded games per edition and player count
# ---------------------------------------------------------------------------------------------
SLOW_GAMES = 1000
SLOW_CHUNKS = 20
_PER_CHUNK = SLOW_GAMES * len(CONFIGS) // SLOW_CHUNKS


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(SLOW_CHUNKS))
def test_many_seeded_games_agree(chunk: int) -> None:
    """4,000 games: seeds 0..999 for each edition and player count, size 2 + seed % 9. Game
    number g (0..3999) is seed g // 4 of configuration g % 4; chunk k plays the games k, k + 20,
    k + 40... (so one configuration per chunk, every size)."""
    found = []
    games = range(chunk, SLOW_GAMES * len(CONFIGS), SLOW_CHUNKS)
    for number in games:
        edition, players = CONFIGS[number % len(CONFIGS)]
        seed = number // len(CONFIGS)
        d = seeded_game(edition, players, 2 + seed % 9, seed)
        if d is not None:
            found.append(d)
    assert not found, summarise(found, len(games))
