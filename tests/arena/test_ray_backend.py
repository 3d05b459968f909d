"""The Ray backend on a real local Ray: the same results as the process backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from limitgames.arena import run_tournament
from tests.arena.test_arena import tricks

pytest.importorskip("ray")


def test_ray_and_process_tournaments_agree(tmp_path: Path) -> None:
    process = run_tournament(tricks(tmp_path / "process", games=6), backend="process", workers=2)
    ray = run_tournament(tricks(tmp_path / "ray", games=6), backend="ray", workers=2)
    assert [o.returns for o in ray.outcomes] == [o.returns for o in process.outcomes]
    assert [o.seating for o in ray.outcomes] == [o.seating for o in process.outcomes]
    assert [s.to_json() for s in ray.standings] == [s.to_json() for s in process.standings]
    for outcome in ray.outcomes:
        assert (tmp_path / "ray" / "games" / f"{outcome.index:04d}.json").exists()


def test_an_unreachable_cluster_is_named_at_once() -> None:
    from limitgames.arena import BackendError

    with pytest.raises(BackendError, match=r"cannot reach Ray at 127\.0\.0\.1:1"):
        run_tournament(tricks(games=2), backend="ray", ray_address="127.0.0.1:1")
