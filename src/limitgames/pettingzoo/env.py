"""One PettingZoo AEC environment class for the three games (``limitgames[pettingzoo]``).

Agents are ``player_0 .. player_{n-1}`` (the game's seats). Each agent's
observation is ``{"observation": float32[...], "action_mask": int8[A]}``:
the seat's observation tensor (only what that seat may know; see each
engine's ``encoding`` module) and, for the agent to act, its legal actions
(zeros for the others, so no agent learns another's options). Actions are
the fixed indices ``0 .. A-1`` of the game's encoding. Rewards are the
game's returns when it ends (+1 win, 0 shared, -1 loss by default), 0
before; every agent terminates together. ``max_cycles`` (optional) truncates
a game after that many decisions. ``hex`` only: ``layouts=K`` draws each
game's layout from the first ``K`` numbered layouts
(:func:`limitgames.hex.encoding.numbered_layout`, generated once and cached)
instead of running the layout chain at every reset. Chance (layouts, shuffles) is seeded by
``reset(seed=...)``. Render mode ``rgb_array`` draws the position
(:mod:`limitgames.pettingzoo.render`), ``ansi`` gives the text.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from limitgames.core import fresh_seed, get_game
from limitgames.core.errors import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _error:  # name the extra to install, not just the module
    raise missing_extra(
        _error, ("gymnasium", "pettingzoo"), "pettingzoo", "limitgames.pettingzoo"
    ) from _error
from limitgames.core.record import outcome_json


class LimitAECEnv(AECEnv):  # type: ignore[misc]
    """A game of ``game_id`` (``hex``, ``cards``, ``world``) as a PettingZoo AEC environment.

    Args:
        game_id: the game. render_mode: ``None``, ``"rgb_array"`` or ``"ansi"``.
        max_cycles: truncate after this many decisions (``None``: play to the end).
        **variant: the game's variant parameters (``players``, ``size``...).

    Raises:
        VariantError: for a bad variant.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - the frameworks read it from the class
        "render_modes": ["rgb_array", "ansi"],
        "name": "limit",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        layouts: int | None = None,
        **variant: Any,
    ) -> None:
        super().__init__()
        if layouts is not None and (
            game_id != "hex" or variant.get("edition", "nestorgames") != "nestorgames"
        ):
            raise ValueError("layouts=K applies to the nestorgames edition of hex only")
        self.layouts = layouts
        self.game = get_game(game_id)
        self.variant = self.game.info.resolve_variant(variant)
        self.spec_ = self.game.encoding_spec(**self.variant)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.metadata = dict(self.metadata, name=f"{game_id}_v0")
        n = self.spec_.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        low, high = self.spec_.observation_range
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=low, high=high, shape=self.spec_.observation_shape, dtype=np.float32
                ),
                "action_mask": spaces.Box(
                    low=0, high=1, shape=(self.spec_.num_distinct_actions,), dtype=np.int8
                ),
            }
        )
        act_space = spaces.Discrete(self.spec_.num_distinct_actions)
        self._observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self._action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._zero_mask = np.zeros(self.spec_.num_distinct_actions, dtype=np.int8)
        self.state: Any = None
        self._cache: dict[str, dict[str, np.ndarray[Any, Any]]] = {}
        self._decisions = 0
        self._starts: dict[tuple[int, int | None], Any] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game_seed = fresh_seed() if seed is None else random.Random(seed).getrandbits(63)
        if self.layouts is not None:
            from limitgames.hex.game import state_from_layout_number

            rng = random.Random(game_seed)
            deal = rng.randrange(len(self.possible_agents) * (len(self.possible_agents) - 1))
            key = (
                rng.randrange(self.layouts),
                None if self.variant["colours"] == "fixed" else deal,
            )
            start = self._starts.get(key)
            if start is None:
                start = self._starts[key] = state_from_layout_number(
                    self.variant, key[0], key[1], game_seed
                )
            self.state = start.clone()
        else:
            self.state = self.game.new_initial_state(seed=game_seed, **self.variant)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._decisions = 0
        self._cache = {}
        self.agent_selection = self.agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        hit = self._cache.get(agent)
        if hit is not None:
            return hit
        seat = self.possible_agents.index(agent)
        state = self.state
        acting = not state.is_terminal() and state.current_player() == seat
        result = {
            "observation": state.observation_tensor(seat),
            "action_mask": state.legal_action_mask().astype(np.int8)
            if acting
            else self._zero_mask.copy(),
        }
        self._cache[agent] = result
        return result

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        state.apply(
            state.index_to_action(int(action))
        )  # ValueError / IllegalActionError: unchanged
        self._cache = {}
        self._decisions += 1
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal():
            returns = state.returns()
            outcome = outcome_json(state)
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
                if outcome is not None:  # why it ended: "last_with_pawns", "stalemate"...
                    self.infos[a] = {"termination": outcome["termination"], "outcome": outcome}
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            if self.max_cycles is not None and self._decisions >= self.max_cycles:
                for a in self.agents:
                    self.truncations[a] = True
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()

    def render(self) -> Any:
        from limitgames.pettingzoo.render import observation_lines, rgb

        if self.render_mode == "rgb_array":
            return rgb(self.state)
        if self.render_mode == "ansi":
            return "\n".join(observation_lines(self.state))
        return None

    def close(self) -> None:
        pass


def make_env(game_id: str, **kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (out-of-range and illegal
    actions are refused by the environment itself: ValueError, IllegalActionError)."""
    return wrappers.OrderEnforcingWrapper(LimitAECEnv(game_id, **kwargs))
