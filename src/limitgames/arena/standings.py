"""Tournament standings: wins, draws and losses, scores with confidence intervals, ratings.

A seat *wins* a game when its return is strictly the highest, *draws* when it
shares the highest return, and *loses* otherwise. Its score counts a win 1,
a draw 1/2 and a loss 0; an agent's score is the mean over the seats it took,
with a 95% Wilson score interval.

Ratings:

- **openskill** (Weng and Lin 2011, Plackett-Luce model): every game updates
  the ratings in game order, with the seats ranked by their returns. Shown
  are ``mu``, ``sigma`` and the ordinal ``mu - 3 sigma``.
- **Elo**: the maximum-likelihood Bradley-Terry strengths from every pair of
  seats held by different agents (a draw counts half a win each way), with
  one virtual draw against an average player as a prior so that an agent that
  won every game still has a finite rating; shown on the Elo scale
  (``400 log10``), the mean of the agents set to 1500. The fit does not depend
  on the order the games finished in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from limitgames.arena.match import GameOutcome

Z95 = 1.959963984540054


def seat_results(returns: Sequence[float]) -> list[str]:
    """Per seat ``"win"``, ``"draw"`` or ``"loss"`` (see the module docstring)."""
    best = max(returns)
    top = sum(1 for r in returns if r == best)
    return ["loss" if r != best else "win" if top == 1 else "draw" for r in returns]


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (score + z * z / (2 * n)) / denominator
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, result: str) -> None:
        """Count one ``"win"``, ``"draw"`` or ``"loss"``."""
        if result == "win":
            self.wins += 1
        elif result == "draw":
            self.draws += 1
        else:
            self.losses += 1

    @property
    def games(self) -> int:
        """The number of results counted."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games, or 0 with no games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class Standing:
    """One agent's line of the results table."""

    agent: int
    spec: str
    total: Tally = field(default_factory=Tally)
    per_seat: list[Tally] = field(default_factory=list)
    elo: float = 1500.0
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the score."""
        return wilson_interval(self.total.score, self.total.games)

    @property
    def ordinal(self) -> float:
        """The openskill ordinal ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: counts, score and interval, ratings, per-seat counts."""
        low, high = self.interval
        return {
            "agent": self.agent,
            "spec": self.spec,
            "games": self.total.games,
            "wins": self.total.wins,
            "draws": self.total.draws,
            "losses": self.total.losses,
            "score": round(self.total.score, 4),
            "score_ci95": [round(low, 4), round(high, 4)],
            "elo": round(self.elo, 1),
            "openskill": {
                "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3),
                "ordinal": round(self.ordinal, 3),
            },
            "per_seat": [
                {"seat": s, "wins": t.wins, "draws": t.draws, "losses": t.losses}
                for s, t in enumerate(self.per_seat)
            ],
        }


def compute_standings(
    specs: Sequence[str], seats: int, outcomes: Sequence[GameOutcome]
) -> list[Standing]:
    """The standings of ``specs`` (in the run's order) after ``outcomes`` (any order)."""
    ordered = sorted(outcomes, key=lambda o: o.index)
    standings = [
        Standing(agent=i, spec=spec, per_seat=[Tally() for _ in range(seats)])
        for i, spec in enumerate(specs)
    ]
    for outcome in ordered:
        for seat, result in enumerate(seat_results(outcome.returns)):
            agent = outcome.seating[seat]
            standings[agent].total.add(result)
            standings[agent].per_seat[seat].add(result)
    for standing, elo in zip(standings, elo_ratings(len(specs), ordered), strict=True):
        standing.elo = elo
    for standing, (mu, sigma) in zip(
        standings, openskill_ratings(len(specs), ordered), strict=True
    ):
        standing.mu, standing.sigma = mu, sigma
    return standings


def pairwise_scores(agents: int, outcomes: Sequence[GameOutcome]) -> list[list[float]]:
    """``scores[i][j]``: points agent ``i`` took from agent ``j`` over all pairs of seats."""
    scores = [[0.0] * agents for _ in range(agents)]
    for outcome in outcomes:
        seating, returns = outcome.seating, outcome.returns
        for a in range(len(seating)):
            for b in range(len(seating)):
                i, j = seating[a], seating[b]
                if i == j:
                    continue
                if returns[a] > returns[b]:
                    scores[i][j] += 1.0
                elif returns[a] == returns[b]:
                    scores[i][j] += 0.5
    return scores


def elo_ratings(agents: int, outcomes: Sequence[GameOutcome], iterations: int = 500) -> list[float]:
    """Maximum-likelihood Bradley-Terry ratings on the Elo scale, mean 1500 (see the module docstring).

    Solved by Hunter's (2004) minorisation-maximisation iteration.
    """
    if agents == 1:
        return [1500.0]
    scores = pairwise_scores(agents, outcomes)
    strength = [1.0] * agents
    for _ in range(iterations):
        updated = []
        for i in range(agents):
            # one virtual draw against a player of strength 1 (the prior)
            wins = sum(scores[i]) + 0.5
            denominator = 1.0 / (strength[i] + 1.0)
            for j in range(agents):
                if j != i:
                    games = scores[i][j] + scores[j][i]
                    if games:
                        denominator += games / (strength[i] + strength[j])
            updated.append(wins / denominator)
        strength = updated
    logs = [400.0 * math.log10(s) for s in strength]
    mean = sum(logs) / agents
    return [1500.0 + x - mean for x in logs]


def openskill_ratings(agents: int, outcomes: Sequence[GameOutcome]) -> list[tuple[float, float]]:
    """``(mu, sigma)`` per agent after rating every game in order with openskill's Plackett-Luce."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(agents)]
    for outcome in outcomes:
        teams = [[ratings[agent]] for agent in outcome.seating]
        ranks = [-r for r in outcome.returns]
        updated = model.rate(teams, ranks=ranks)
        fresh: dict[int, list[tuple[float, float]]] = {}
        for agent, (rating,) in zip(outcome.seating, updated, strict=True):
            fresh.setdefault(agent, []).append((rating.mu, rating.sigma))
        for agent, values in fresh.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            ratings[agent] = model.rating(mu=mu, sigma=sigma, name=str(agent))
    return [(r.mu, r.sigma) for r in ratings]
