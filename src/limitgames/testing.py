"""A conformance suite that every game passes, and users can run on their variants.

Like ``pgx.api_test``: ``check_game(game, variant, games=20, seed=0)`` plays
random games and checks the protocol's promises at every step:

- ``legal_actions()`` is empty exactly when ``is_terminal()``; the current
  player is a seat while play goes on and ``TERMINAL`` at the end;
- every legal action's notation round-trips through ``parse_action``;
- a clone is independent: playing on it leaves the original unchanged;
- observations are JSON-serialisable for every seat and the spectator;
- ``returns()`` has one number per seat;
- the game's record replays to the same final state.

``check_encodings(game, variant)`` checks what the research frameworks
(OpenSpiel, PettingZoo, Gymnasium) rely on: the fixed action indices
round-trip and the legal-action mask is exactly the legal actions; every
seat's observation tensor has the declared shape, type and range; a
determinization is consistent with the seat's view (same observation,
tensor, information state string and, for the seat to move, the same legal
actions); refused actions leave the state unchanged; equal positions have
equal ``key()``; games end within the declared length, returns within the
declared utility range.

Raises :class:`AssertionError` with the game, seed and step on the first failure.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from limitgames.core import TERMINAL, Game, GameRecord, IllegalActionError, State


def _snapshot(state: State) -> str:
    parts = [
        state.current_player(),
        [state.action_to_string(a) for a in state.legal_actions()],
        state.observation(None),
        state.returns(),
        len(state.history()),
    ]
    return json.dumps(parts, sort_keys=True, default=str)


def check_state_step(state: State, rng: random.Random, where: str) -> None:
    """Check the protocol's promises on one non-terminal or terminal ``state``."""
    actions = state.legal_actions()
    terminal = state.is_terminal()
    assert (not actions) == terminal, (
        f"{where}: legal actions empty={not actions} but terminal={terminal}"
    )
    player = state.current_player()
    if terminal:
        assert player == TERMINAL, f"{where}: terminal state has current player {player}"
    else:
        assert 0 <= player < state.num_players, f"{where}: current player {player} out of range"
    assert len(state.returns()) == state.num_players, f"{where}: returns() has the wrong length"
    for seat in [None, *range(state.num_players)]:
        json.dumps(state.observation(seat))
    assert len(set(actions)) == len(actions), f"{where}: duplicate legal actions"
    for action in actions:
        text = state.action_to_string(action)
        assert state.parse_action(text) == action, f"{where}: notation {text!r} does not round-trip"
        assert state.is_legal(action), f"{where}: {text!r} is listed but is_legal says no"


def play_random_game(
    game: Game,
    variant: Mapping[str, Any],
    seed: int,
    max_decisions: int = 100_000,
    check_every_step: bool = True,
) -> State:
    """Play one uniformly random game, checking each step; return the final state."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, **dict(variant))
    decisions = 0
    while True:
        where = f"{game.info.id} {dict(variant)} seed {seed} decision {decisions}"
        if check_every_step:
            check_state_step(state, rng, where)
        if state.is_terminal():
            return state
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        if check_every_step and rng.random() < 0.2:
            before = _snapshot(state)
            twin = state.clone()
            twin.apply(action)
            twin.playout(random.Random(seed + decisions))
            assert _snapshot(state) == before, f"{where}: playing on a clone changed the original"
        state.apply(action)
        decisions += 1
        assert decisions <= max_decisions, (
            f"{where}: the game did not end within {max_decisions} decisions"
        )


def positions_along_a_game(
    game_id: str, count: int = 3, seed: int = 3, variant: Mapping[str, Any] | None = None
) -> list[State]:
    """``count`` positions along one seeded random game of ``game_id`` (fewer if it ends first),
    each 1 to 7 random decisions after the one before: positions to try agents on."""
    from limitgames.core import get_game

    rng = random.Random(seed)
    state = get_game(game_id).new_initial_state(seed=seed, **dict(variant or {}))
    found: list[State] = []
    while not state.is_terminal() and len(found) < count:
        found.append(state.clone())
        for _ in range(rng.randrange(1, 8)):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    return found


def check_game(
    game: Game,
    variant: Mapping[str, Any] | None = None,
    games: int = 10,
    seed: int = 0,
) -> None:
    """Run the conformance checks over ``games`` random games of ``variant``; for a game with
    research encodings (``game.encoding_spec``), :func:`check_encodings` on one more game."""
    variant = dict(variant or {})
    for k in range(games):
        final = play_random_game(game, variant, seed + k)
        record = GameRecord.of_state(final, seed=seed + k)
        again = GameRecord.loads(record.dumps()).replay()
        assert _snapshot(again) == _snapshot(final), (
            f"{game.info.id} seed {seed + k}: the record does not replay"
        )
        assert again.returns() == final.returns()
    try:
        game.encoding_spec(**variant)
    except NotImplementedError:
        return
    check_encodings(game, variant, games=1, seed=seed + games)


def check_illegal_is_harmless(state: State, action: Any) -> None:
    """Apply an illegal ``action`` and check the state is unchanged and the error has a reason."""
    before = _snapshot(state)
    try:
        state.apply(action)
    except IllegalActionError as exc:
        assert exc.reason, "an IllegalActionError must give a reason"
    else:  # pragma: no cover - only reached when the check fails
        raise AssertionError(f"{action!r} was accepted")
    assert _snapshot(state) == before, "a refused action changed the state"


def check_encodings(
    game: Game, variant: Mapping[str, Any] | None = None, games: int = 3, seed: int = 0
) -> None:
    """Check the research encodings over ``games`` random games of ``variant`` (see the module docstring)."""
    import numpy as np

    variant = dict(variant or {})
    spec = game.encoding_spec(**variant)
    low, high = spec.observation_range
    perfect = game.info.perfect_information
    for k in range(games):
        rng = random.Random(seed + k)
        state = game.new_initial_state(seed=seed + k, **variant)
        played: list[Any] = []
        while True:
            where = f"{game.info.id} {variant} seed {seed + k} decision {len(played)}"
            assert len(played) <= spec.max_game_length, f"{where}: longer than max_game_length"
            mask = state.legal_action_mask()
            assert mask.shape == (spec.num_distinct_actions,) and mask.dtype == np.bool_, (
                f"{where}: mask shape/type"
            )
            legal = state.legal_actions()
            indices = sorted(state.action_to_index(a) for a in legal)
            assert list(np.flatnonzero(mask)) == indices, (
                f"{where}: the mask is not the legal actions"
            )
            for action in legal:
                assert state.index_to_action(state.action_to_index(action)) == action, (
                    f"{where}: {action!r} round trip"
                )
            for seat in range(state.num_players):
                tensor = state.observation_tensor(seat)
                assert tensor.shape == spec.observation_shape and tensor.dtype == np.float32, (
                    f"{where}: tensor shape"
                )
                assert (
                    np.all(np.isfinite(tensor)) and tensor.min() >= low and tensor.max() <= high
                ), f"{where}: range"
                text = state.information_state_string(seat)
                if not perfect and rng.random() < 0.3:
                    _check_determinization(state, seat, tensor, text, rng, where)
            assert state.clone().key() == state.key(), f"{where}: a clone has another key()"
            if state.is_terminal():
                break
            refused = np.flatnonzero(~mask)
            if len(refused) and rng.random() < 0.2:
                try:
                    wrong = state.index_to_action(int(refused[rng.randrange(len(refused))]))
                except ValueError:
                    wrong = None
                if wrong is not None:
                    check_illegal_is_harmless(state, wrong)
            action = legal[rng.randrange(len(legal))]
            state.apply(action)
            played.append(action)
        returns = state.returns()
        assert all(spec.min_utility <= r <= spec.max_utility for r in returns), (
            f"{where}: returns out of range"
        )
        again = game.new_initial_state(seed=seed + k, **variant)
        for action in played:
            again.apply(action)
        assert again.key() == state.key(), f"{where}: equal positions have different keys"


def _check_determinization(
    state: State, seat: int, tensor: Any, text: str, rng: random.Random, where: str
) -> None:
    import numpy as np

    dealt = state.determinize(seat, random.Random(rng.getrandbits(32)))
    assert json.dumps(dealt.observation(seat), sort_keys=True, default=str) == json.dumps(
        state.observation(seat), sort_keys=True, default=str
    ), f"{where}: a determinization changes seat {seat}'s observation"
    assert np.array_equal(dealt.observation_tensor(seat), tensor), (
        f"{where}: it changes seat {seat}'s tensor"
    )
    assert dealt.information_state_string(seat) == text, (
        f"{where}: it changes seat {seat}'s information state"
    )
    if state.current_player() == seat:
        assert dealt.legal_actions() == state.legal_actions(), (
            f"{where}: it changes seat {seat}'s options"
        )
