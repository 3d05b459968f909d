"""Gymnasium environments (``pip install 'limitgames[gymnasium]'``; importing this module without
Gymnasium raises :class:`~limitgames.core.errors.MissingExtraError` naming that extra).

Single agent against built-in opponents, registered at import::

    import gymnasium, limitgames.gym
    env = gymnasium.make("limitgames/HexVsMCTS-v0")

=====================================  ======  ==================================================
id                                     game    opponents (agent specs, :mod:`limitgames.agents`)
=====================================  ======  ==================================================
``limitgames/HexVsRandom-v0``          hex     ``random``
``limitgames/HexVsHeuristic-v0``       hex     ``heuristic``
``limitgames/HexVsMCTS-v0``            hex     ``hexmcts:iterations=200``
``limitgames/CardsVsRandom-v0``        cards   ``random`` (4 players)
``limitgames/CardsVsISMCTS-v0``        cards   ``ismcts:iterations=100`` (4 players)
``limitgames/WorldVsRandom-v0``        world   ``random`` (4 players)
``limitgames/WorldVsHeuristic-v0``     world   ``heuristic`` (4 players)
=====================================  ======  ==================================================

``gymnasium.make(id, opponent="mcts:iterations=1000", seat=1, players=3, ...)``
chooses the opponents (an agent spec or a level: easy, medium, hard, expert;
budgets in iterations keep a seeded episode reproducible), your seat and the
game's variant. The observation is ``{"observation": float32[...],
"action_mask": int8[A]}`` (your seat's view; see each engine's
``encoding``), the action a fixed index; the reward is your return when the
game ends (+1 win, 0 shared, -1 loss). An illegal action ends the episode
with reward -1 and ``info["illegal"] = True`` (a policy should sample from
the mask). ``env.unwrapped.action_masks()`` (sb3-contrib's ``MaskablePPO``
convention; reached through Gymnasium's wrappers with
``env.get_wrapper_attr("action_masks")``) returns the same mask as
``bool[A]``.

The batched self-play environment ``limitgames/HexSelfPlay-v0`` (``gymnasium.make_vec``)
is a :class:`gymnasium.vector.VectorEnv` over :class:`limitgames.hex.vector.HexVectorEnv`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from limitgames.core import get_game
from limitgames.core.errors import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as _error:  # name the extra to install, not just the module
    raise missing_extra(_error, ("gymnasium",), "gymnasium", "limitgames.gym") from _error
from limitgames.core.record import outcome_json
from limitgames.hex.encoding import OBSERVATION_SHAPE, unpack_planes
from limitgames.hex.vector import HexVectorEnv


class LimitVsAgentEnv(gymnasium.Env[dict[str, np.ndarray[Any, Any]], np.int64]):
    """You at ``seat`` of ``game_id`` against ``opponent`` agents at the other seats.

    Args:
        game_id: ``hex``, ``cards`` or ``world``.
        opponent: an agent spec (``mcts:iterations=200``) or a level (``hard``).
        seat: your seat (``None``: drawn from the reset seed each episode).
        render_mode: ``None``, ``"rgb_array"`` or ``"ansi"``.
        **variant: the game's variant parameters.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 2}  # noqa: RUF012 - the frameworks read it from the class

    def __init__(
        self,
        game_id: str = "hex",
        opponent: str = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        **variant: Any,
    ) -> None:
        from limitgames.agents.levels import is_level, level_spec

        self.game = get_game(game_id)
        self.variant = self.game.info.resolve_variant(variant)
        self.encoding = self.game.encoding_spec(**self.variant)
        self.opponent_spec = level_spec(game_id, opponent) if is_level(opponent) else opponent
        self.fixed_seat = seat
        self.render_mode = render_mode
        low, high = self.encoding.observation_range
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(
                    low=low, high=high, shape=self.encoding.observation_shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(
                    0, 1, shape=(self.encoding.num_distinct_actions,), dtype=np.int8
                ),
            }
        )
        self.action_space = spaces.Discrete(self.encoding.num_distinct_actions)
        self.state: Any = None
        self.seat = 0 if seat is None else seat
        self.opponents: dict[int, Any] = {}
        self._mask = np.zeros(self.encoding.num_distinct_actions, np.int8)

    def _observation(self) -> dict[str, np.ndarray[Any, Any]]:
        state = self.state
        mine = not state.is_terminal() and state.current_player() == self.seat
        mask = (
            state.legal_action_mask().astype(np.int8)
            if mine
            else np.zeros(self.encoding.num_distinct_actions, np.int8)
        )
        self._mask = mask
        return {"observation": state.observation_tensor(self.seat), "action_mask": mask}

    def action_masks(self) -> np.ndarray[Any, Any]:
        """``bool[num_distinct_actions]``: your legal actions now, as indices (sb3-contrib's
        ``MaskablePPO`` convention); equal to the last observation's ``action_mask`` (all
        ``False`` once the episode has ended).

        Raises:
            RuntimeError: called before :meth:`reset`.
        """
        if self.state is None:
            raise RuntimeError("action_masks() needs a game: call reset() first")
        return self._mask.astype(np.bool_)

    def _play_opponents(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            player = state.current_player()
            action = self.opponents[player].choose(state)
            for agent in self.opponents.values():
                agent.observe(state, action)
            state.apply(action)

    def _result(self) -> tuple[float, bool]:
        if self.state.is_terminal():
            return float(self.state.returns()[self.seat]), True
        return 0.0, False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        from limitgames.agents import make_agent

        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**62)))
        players = self.encoding.players
        self.seat = rng.randrange(players) if self.fixed_seat is None else self.fixed_seat
        self.state = self.game.new_initial_state(seed=rng.getrandbits(63), **self.variant)
        self.opponents = {
            p: make_agent(self.opponent_spec, seed=rng.getrandbits(32), game=self.game.info.id)
            for p in range(players)
            if p != self.seat
        }
        self._play_opponents()
        return self._observation(), {"seat": self.seat}

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool, dict[str, Any]]:
        state = self.state
        try:
            chosen = state.index_to_action(int(action))
            legal = state.is_legal(chosen)
        except ValueError:
            legal = False
        if not legal:
            return self._observation(), -1.0, True, False, {"illegal": True}
        for agent in self.opponents.values():
            agent.observe(state, chosen)
        state.apply(chosen)
        self._play_opponents()
        reward, done = self._result()
        info: dict[str, Any] = {}
        outcome = outcome_json(state) if done else None
        if outcome is not None:  # why it ended: "last_with_pawns", "stalemate"...
            info = {"termination": outcome["termination"], "outcome": outcome}
        return self._observation(), reward, done, False, info

    def render(self) -> Any:
        from limitgames.pettingzoo.render import observation_lines, rgb

        if self.render_mode == "rgb_array":
            return rgb(self.state)
        if self.render_mode == "ansi":
            return "\n".join(observation_lines(self.state))
        return None


class HexSelfPlayVectorEnv(VectorEnv):
    """``num_envs`` hex games in self-play as a Gymnasium ``VectorEnv`` (same-step auto-reset).

    Each step plays one action in every game for the player to move: a per-size index
    (``A = T * T + T`` for ``T = 4 * size`` tiles, :mod:`limitgames.hex.encoding`; 1056 at size
    8, 272 at size 4). Observations are
    ``{"observation": float32[B, 34, 64], "action_mask": int8[B, A]}`` from the view of the
    player to move next; ``reward[b]`` is the return of the player who just moved (+1 / 0 / -1
    when its move ended the game, else 0); ``info["rewards"]`` has every player's
    (``float32[B, 3]``), ``info["to_move"]`` the next player, ``info["accepted"]`` whether each
    action was legal (an illegal one leaves its game unchanged). Finished games restart at once
    (``terminated[b]`` is set and the observation is already the new game's).

    As Gymnasium specifies for same-step auto-reset, a step in which games end also returns
    ``info["final_obs"]`` (``object[B]``: for each ended game the observation of its last
    position from the view of the player who made the last move, with an all-zero
    ``action_mask``; ``None`` elsewhere), ``info["final_info"]`` (``{"rewards": float32[B, 3],
    "length": int64[B]}``, the ended games' returns and number of actions, each with its
    ``"_rewards"`` / ``"_length"`` mask) and the masks ``info["_final_obs"]`` and
    ``info["_final_info"]`` (``bool[B]``, the games that ended).

    The compiled step writes the observation and the mask into arrays allocated once
    (:mod:`limitgames.hex.tensors`). With ``copy=True`` (the default, as Gymnasium's
    ``SyncVectorEnv``) ``reset`` and ``step`` return copies; with ``copy=False`` they return those
    arrays themselves, rewritten in place by the next step (the fast path: a learner that copies
    them into its own rollout buffer anyway saves a copy).

    ``reset(seed=s)`` seeds sub-environment ``b`` with ``s + b``; ``reset(seed=[s0, s1, ...])``
    gives each its own seed (``None`` keeps that one's streams). A seed sets the stream that
    draws its layouts from the pool (fixed by the constructor's ``seed``) and, separately, the
    one :meth:`sample_actions` draws from, so sampling never changes later layouts
    (:mod:`limitgames.hex.vector`).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012 - the frameworks read it from the class

    def __init__(
        self,
        num_envs: int = 64,
        players: int = 2,
        size: int = 8,
        layouts: int = 256,
        threads: int | None = None,
        seed: int = 0,
        copy: bool = True,
    ) -> None:
        self.copy = copy
        self.env = HexVectorEnv(
            num_envs,
            players=players,
            size=size,
            layouts=layouts,
            seed=seed,
            threads=threads,
            keep_final=True,
            tensors=True,
        )
        self.num_envs = num_envs
        actions = self.env.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=OBSERVATION_SHAPE, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)

    def _obs(self) -> dict[str, np.ndarray[Any, Any]]:
        if self.copy:
            return {
                "observation": self.env.observation.copy(),
                "action_mask": self.env.action_mask.copy(),
            }
        return {"observation": self.env.observation, "action_mask": self.env.action_mask}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """Start every game afresh (seeds: see the class docstring). Raises ValueError for a list
        of seeds whose length is not ``num_envs``."""
        self.env.reset(seed)
        return self._obs(), {"to_move": self.env.to_move}

    def step(self, actions: Any) -> tuple[Any, np.ndarray[Any, Any], Any, Any, dict[str, Any]]:
        """Play one action per game (see the class docstring). Raises ValueError for a wrong
        shape."""
        mover = self.env.to_move
        result = self.env.step(np.asarray(actions, dtype=np.int64))
        reward = result.rewards[np.arange(self.num_envs), mover].astype(np.float32)
        done = result.done.copy()
        info: dict[str, Any] = {
            "rewards": result.rewards.copy(),
            "to_move": result.to_move,
            "accepted": result.accepted.copy(),
        }
        if done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            no_moves = np.zeros(self.env.num_actions, np.int8)
            for b in np.flatnonzero(done):
                planes = self.env.final_planes(int(b), int(mover[b]))
                final_obs[b] = {"observation": unpack_planes(planes), "action_mask": no_moves}
            info["final_obs"] = final_obs
            info["_final_obs"] = done.copy()
            info["final_info"] = {
                "rewards": np.where(done[:, None], result.rewards, 0.0).astype(np.float32),
                "_rewards": done.copy(),
                "length": np.where(done, self.env.final_lengths, 0),
                "_length": done.copy(),
            }
            info["_final_info"] = done.copy()
        return self._obs(), reward, done, np.zeros(self.num_envs, np.bool_), info

    def sample_actions(self) -> np.ndarray[Any, Any]:
        """``int64[B]``: a uniformly random legal action per game, from the sampling streams
        (never the layout streams)."""
        return self.env.sample_actions()

    def action_masks(self) -> np.ndarray[Any, Any]:
        """``bool[B, A]``: the legal actions of the player to move in each game (the
        observation's ``action_mask``; a new array)."""
        return self.env.action_mask.astype(np.bool_)


_REGISTERED = False


def register_envs() -> None:
    """Register the environments with Gymnasium (done at import; repeated calls do nothing)."""
    global _REGISTERED
    if _REGISTERED:
        return
    table = {
        "HexVsRandom-v0": ("hex", "random", {}),
        "HexVsHeuristic-v0": ("hex", "heuristic", {}),
        "HexVsMCTS-v0": ("hex", "hexmcts:iterations=200", {}),
        "CardsVsRandom-v0": ("cards", "random", {"players": 4}),
        "CardsVsISMCTS-v0": ("cards", "ismcts:iterations=100", {"players": 4}),
        "WorldVsRandom-v0": ("world", "random", {"players": 4}),
        "WorldVsHeuristic-v0": ("world", "heuristic", {"players": 4}),
    }
    for name, (game_id, opponent, variant) in table.items():
        gymnasium.register(
            id=f"limitgames/{name}",
            entry_point="limitgames.gym:LimitVsAgentEnv",
            kwargs={"game_id": game_id, "opponent": opponent, **variant},
        )
    gymnasium.register(
        id="limitgames/HexSelfPlay-v0",
        vector_entry_point="limitgames.gym:HexSelfPlayVectorEnv",
    )
    _REGISTERED = True


register_envs()
