"""The results chart (PNG, matplotlib with the Agg backend).

Left: each agent's score with its 95% confidence interval. Right: wins, draws
and losses per agent and seat, stacked.
"""

from __future__ import annotations

from pathlib import Path

from limitgames.arena.standings import Standing


def draw_chart(standings: list[Standing], title: str, path: Path) -> Path:
    """Draw ``standings`` (:func:`limitgames.arena.standings.compute_standings`) under
    ``title`` to ``path`` (PNG); return the path. Needs matplotlib (``limitgames[charts]``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{s.agent + 1}. {s.spec}" for s in standings]
    seats = len(standings[0].per_seat) if standings else 0
    height = max(2.5, 0.6 * len(standings) * max(1, seats) + 1.5)
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, height), constrained_layout=True)
    figure.suptitle(title)

    scores = [s.total.score for s in standings]
    lows = [max(0.0, s.total.score - s.interval[0]) for s in standings]
    highs = [max(0.0, s.interval[1] - s.total.score) for s in standings]
    positions = list(range(len(standings)))[::-1]
    left.barh(positions, scores, xerr=[lows, highs], color="#4c78a8", capsize=4)
    left.set_yticks(
        positions,
        [
            f"{label}\nscore {s.total.score:.2f}, Elo {s.elo:.0f}"
            for label, s in zip(labels, standings, strict=True)
        ],
    )
    left.set_xlim(0, 1)
    left.axvline(0.5, color="grey", linewidth=0.8, linestyle="--")
    left.set_xlabel("score (win 1, draw 1/2) with 95% interval")

    rows = []
    row_labels = []
    for s in standings:
        for seat, tally in enumerate(s.per_seat):
            rows.append(tally)
            row_labels.append(f"{s.agent + 1}. seat {seat}")
    ys = list(range(len(rows)))[::-1]
    wins = [r.wins for r in rows]
    draws = [r.draws for r in rows]
    losses = [r.losses for r in rows]
    right.barh(ys, wins, color="#54a24b", label="wins")
    right.barh(ys, draws, left=wins, color="#bab0ac", label="draws")
    right.barh(
        ys,
        losses,
        left=[w + d for w, d in zip(wins, draws, strict=True)],
        color="#e45756",
        label="losses",
    )
    right.set_yticks(ys, row_labels)
    right.set_xlabel("games")
    right.legend(loc="lower right")
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
