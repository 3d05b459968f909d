"""A scripted "careful player" of LIMIT (``world``), written from the rules (rules/world.md),
registered as the agent ``careful`` for tests and ``limit arena --plugin tests.agents.world_careful``.

It reads only its own board and the open market. Its rules, in order: feed the population
(renewable first: a shortage costs a population level, a plant and unrest +3), educate
(raise the lowest class it may, so class struggle A - E stays small), keep unrest down
(Public Expenditure, Investment Policy), keep its pollution under its share of the reserve
(no military plant, no industry past position 3), sell the surplus, buy a shortfall.
"""

from __future__ import annotations

from limitgames.agents.base import Agent, register_agent
from limitgames.core import Action, State

KEEP = ("education", "craftsmanship", "market-access", "public-expenditure", "speculation",
        "investment-policy", "graduate-studies", "industrialization", "urbanization")  # fmt: skip
PLAY = {"craftsmanship", "education", "graduate-studies", "market-access", "speculation"}
CALM = {"public-expenditure", "investment-policy"}


class CarefulPlayer(Agent):
    """The careful player (see the module docstring)."""

    name = "careful"

    def choose(self, state: State) -> Action:
        acts = self.legal_actions_of(state)
        me = state.nations[state.current_player()]  # type: ignore[attr-defined]
        level = state.data.level  # type: ignore[attr-defined]
        need = level(me.population + 1)  # next generation's mouths (population growth)
        food = me.stock[0] + level(me.plants[0])
        kind = state.pending[-1].kind  # type: ignore[attr-defined]
        rank = {c: i for i, c in enumerate(KEEP)}

        def pick(order: list[Action]) -> Action:
            return next((a for a in order if a in acts), acts[self.rng.randrange(len(acts))])

        if kind in ("keep", "discard"):
            ordered = sorted(acts, key=lambda a: rank.get(a[1], len(KEEP)))
            return ordered[0] if kind == "keep" else ordered[-1]
        if kind == "deck":
            return pick([("deck", "production" if food < need else "society")])
        if kind == "policy":
            wanted = [("play", c) for c in sorted(PLAY, key=rank.__getitem__)]
            if me.unrest >= 8:
                wanted = [("play", c) for c in CALM] + wanted
            if food < need and me.plants[0] < me.territory:
                wanted.insert(0, ("play", "industrialization"))
            return pick([*wanted, ("pass",)])
        if kind == "trade":
            spare = me.stock[0] - need
            if food < need:
                return pick([("buy", min(need - food, q), "renewable") for q in range(30, 0, -1)])
            orders = [("sell", q, r) for r in ("military", "renewable") for q in range(30, 0, -1)]
            return pick(
                [a for a in orders if a[2] != "renewable" or a[1] <= spare] + [("no-trade",)]
            )
        if kind in ("plant", "upgrade", "gain", "take"):
            down = kind == "plant" and state.pending[-1].args[2] < 0  # type: ignore[attr-defined]
            order = ["military", "industrial", "renewable", "fossil"]
            return pick([a for r in (order if down else order[::-1]) for a in acts if a[-1] == r])
        if kind == "raise":
            return acts[-1]  # the lowest class the order rule allows
        if kind == "lower":
            return pick([("lower", c) for c in "BDACE"])
        return pick([("refuse",), ("pass",), ("yield",), ("no-trade",), ("stay",)])


register_agent("careful", lambda spec, options, seed: CarefulPlayer(spec, seed),
               "tests: a scripted careful LIMIT player (feed, educate, calm, sell surplus)")  # fmt: skip
