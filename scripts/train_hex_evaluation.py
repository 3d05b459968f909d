"""Fit the hex evaluation from games: a logistic regression of the result on position features.

Usage::

    .venv/bin/python scripts/train_hex_evaluation.py                 # writes the shipped weights
    .venv/bin/python scripts/train_hex_evaluation.py --games 400 --out /tmp/w.json

Games: 2 players, size 8, nestorgames, seeded layouts of the game's default law
(``--layout grown``; ``uniform`` for the other), both seats played by the
greedy agent on the hand-tuned evaluation (``heuristic:epsilon=0.15,eval=hand``:
a whole turn deep, 15% of the decisions at random, so positions vary; not on the
learned one, so the data do not depend on the weights this script writes). Every decision
point of every game is a sample; its label is the game's result for seat 0
(1 win, 0.5 draw, 0 loss). Features are those of
:func:`limitgames.agents.hex_evaluation.feature_vector` (differences between the
seat and its opponent, read from the engine's compiled feature call).

The fit is Newton's method on the log-likelihood with a small L2 penalty,
on a seeded 80/20 split; the held-out log-loss and accuracy are written with
the weights, beside those of the hand-tuned evaluation it replaces.
Deterministic: the same arguments give the same file.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from limitgames.agents import make_agent
from limitgames.agents.hex_evaluation import FEATURE_NAMES, WEIGHTS_FILE, feature_vector, hand_value
from limitgames.core import get_game
from limitgames.hex.layout import LAWS

POLICY = "heuristic:epsilon=0.15,eval=hand"


def _play(job: tuple[int, str]) -> tuple[list[list[float]], list[float], float]:
    """One game's samples: features for seat 0, the hand evaluation for seat 0, and the result."""
    seed, law = job
    state = get_game("hex").new_initial_state(seed=seed, size=8, colours="fixed", layout=law)
    agents = [make_agent(POLICY, seed * 2 + k) for k in range(2)]
    rows: list[list[float]] = []
    hand: list[float] = []
    while not state.is_terminal():
        rows.append(feature_vector(state, 0))
        hand.append(hand_value(state)[0])
        state.apply(agents[state.current_player()].choose(state))
    result = (state.returns()[0] + 1.0) / 2.0
    return rows, hand, result


def fit(
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], l2: float = 1e-3, steps: int = 50
) -> np.ndarray[Any, Any]:
    """Logistic regression without intercept (the features are antisymmetric between seats)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def accuracy(p: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> float:
    decided = y != 0.5
    return float(np.mean((p[decided] > 0.5) == (y[decided] > 0.5)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--layout", choices=LAWS, default="grown", help="the layout law")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seeds = [args.seed * 1_000_000 + i for i in range(args.games)]
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        games = pool.map(_play, [(seed, args.layout) for seed in seeds], chunksize=8)
    order = list(range(len(games)))
    random.Random(args.seed).shuffle(order)
    cut = int(0.8 * len(order))
    parts = []
    for chosen in (order[:cut], order[cut:]):
        x = np.array([row for g in chosen for row in games[g][0]], dtype=np.float64)
        hand = np.array([h for g in chosen for h in games[g][1]], dtype=np.float64)
        y = np.array([games[g][2] for g in chosen for _ in games[g][0]], dtype=np.float64)
        parts.append((x, hand, y))
    (x_train, _, y_train), (x_test, hand_test, y_test) = parts
    w = fit(x_train, y_train)
    p_test = 1.0 / (1.0 + np.exp(-x_test @ w))
    p_hand = (np.clip(hand_test, -0.999, 0.999) + 1.0) / 2.0
    report = {
        "model": "logistic regression of the result for a seat on feature_vector(state, seat)",
        "features": list(FEATURE_NAMES),
        "weights": [round(float(v), 6) for v in w],
        "data": f"{args.games} games of {POLICY} against itself, 2 players, size 8, "
        f"{args.layout} layouts, seed {args.seed}; "
        f"{len(y_train)} training and {len(y_test)} held-out positions (split by game)",
        "held_out": {
            "log_loss": round(log_loss(p_test, y_test), 4),
            "accuracy": round(accuracy(p_test, y_test), 4),
            "hand_tuned_log_loss": round(log_loss(p_hand, y_test), 4),
            "hand_tuned_accuracy": round(accuracy(p_hand, y_test), 4),
        },
        "command": "python scripts/train_hex_evaluation.py "
        + " ".join(
            f"--{k} {v}"
            for k, v in (("games", args.games), ("seed", args.seed), ("layout", args.layout))
        ),
    }
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(
        json.dumps(report["held_out"]),
        f"weights -> {args.out} ({time.perf_counter() - started:.0f} s)",
    )
    assert all(math.isfinite(v) for v in report["weights"])  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
