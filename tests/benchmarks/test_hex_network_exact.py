"""The counting of ``benchmarks/hex_network_exact.py`` (the network against the exact solver) on
hand-made cases, and its judging of a few real positions (not the bars themselves)."""

from __future__ import annotations

from pathlib import Path

import benchmarks.hex_network_exact as bench
import pytest
from benchmarks.hex_network_exact import Judged, sample_positions, sign_right, tally, top_move_right

from limitgames.agents.hex_network import HexNetwork


def _j(
    value: float, exact: float, policy: tuple[float, ...], children: tuple[float, ...]
) -> Judged:
    return Judged(3, "random", value, exact, policy, children)


def test_signs_top_moves_and_draws_are_counted_as_the_docstring_says() -> None:
    # a won position (+1) seen as won (0.4 > 0), its top move (0.7) reaches the win: both right
    a = _j(0.4, 1.0, (0.2, 0.7, 0.1), (-1.0, 1.0, 0.0))
    # a lost position seen as won: sign wrong; every move loses, so the top move is right
    # (it reaches -1, the position's value) and the position is trivial
    b = _j(0.2, -1.0, (0.5, 0.5), (-1.0, -1.0))
    # value exactly 0 on a decided position: wrong; top move (first of the tie 0.5, 0.5) draws
    # where a win was there: wrong
    c = _j(0.0, 1.0, (0.5, 0.5), (0.0, 1.0))
    # a drawn position with |v| = 0.1 < 0.3: in the band; top move 0.6 reaches the draw
    d = _j(-0.1, 0.0, (0.4, 0.6), (-1.0, 0.0))
    # a drawn position with |v| = 0.5: outside the band; top move loses: wrong
    e = _j(0.5, 0.0, (0.9, 0.1), (-1.0, 0.0))
    assert sign_right(0.4, 1.0) and not sign_right(0.2, -1.0) and not sign_right(0.0, 1.0)
    assert top_move_right(a.policy, a.child_exact, a.exact)
    assert not top_move_right(c.policy, c.child_exact, c.exact)
    figures = tally([a, b, c, d, e], draw_band=0.3)
    assert figures["positions"] == 5
    assert (figures["decided"], figures["drawn"]) == (3, 2)
    assert figures["sign_right"] == 1 and figures["sign_share"] == round(1 / 3, 4)
    assert figures["draws_in_band"] == 1 and figures["draw_band_share"] == 0.5
    assert figures["all_share"] == 0.4  # (1 sign + 1 band) of 5
    assert figures["top_right"] == 3 and figures["top_share"] == 0.6  # a, b, d
    # b is trivial (every move loses); of a, c, d, e the right ones are a and d
    assert figures["non_trivial"] == 4 and figures["non_trivial_top_share"] == 0.5
    assert tally([])["sign_share"] is None


@pytest.mark.slow
def test_judged_positions_agree_with_minimax_over_their_children() -> None:
    """Each judged position's exact value for the mover is the best of its children's (two
    players: the mover picks), its policy is a distribution over those children, and the
    sample alternates its two sources."""
    judged = sample_positions(HexNetwork.random(1), 6, seed=4, sizes=[2, 3], nodes=200_000)
    assert len(judged) == 6
    assert [j.source for j in judged] == ["random", "self-play"] * 3
    for j in judged:
        assert j.exact == max(j.child_exact)
        assert len(j.policy) == len(j.child_exact) >= 2
        assert abs(sum(j.policy) - 1.0) < 1e-5
        assert -1.0 <= j.value <= 1.0
        assert 0 <= j.decisions < 6 * j.size  # the game is cut before 6 * size decisions


@pytest.mark.slow
def test_positions_of_the_training_run_are_left_out() -> None:
    """Sample, then sample again from the same seed with two of those positions excluded: the
    same first game is drawn, so the second sample meets them and must pass them by."""
    network = HexNetwork.random(1)
    first = sample_positions(network, 4, seed=4, sizes=[2], nodes=200_000)
    assert len({j.key for j in first}) == 4 and all(j.key for j in first)
    excluded = {first[0].key, first[1].key}
    again = sample_positions(network, 4, seed=4, sizes=[2], nodes=200_000, exclude=excluded)
    assert len({j.key for j in again}) == 4
    assert not excluded & {j.key for j in again}


def test_a_weights_file_is_checked_and_a_bad_one_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--weights FILE`` checks a network a run wrote but did not ship; a file that is not a
    network is refused with its name, before any position is solved."""
    path = tmp_path / "generation-01.npz"
    HexNetwork.random(1, width=8, rounds=1, hidden=8, policy=8).save(path)
    bench.main(["--weights", str(path), "--positions", "4", "--sizes", "2"])
    out = capsys.readouterr().out
    assert f"network {path}" in out and "all {" in out
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a network")
    with pytest.raises(SystemExit):
        bench.main(["--weights", str(bad), "--positions", "4", "--sizes", "2"])
    assert str(bad) in capsys.readouterr().err
