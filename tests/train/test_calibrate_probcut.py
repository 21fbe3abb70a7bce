"""``plies train calibrate`` (odd and even depths agree) and ``plies train probcut`` (the selective search's
statistics), on small runs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.cli import main
from plies.engine import patterns as pt
from plies.engine import probcut as pc
from plies.engine.weights import load_weights, weights_meta
from plies.train.calibrate import anchor, phase_shift, solve_shift


def test_the_shift_solves_a_known_swing() -> None:
    """Swings made by a known tempo c(k) = 2 for k >= 10 (0 below) are solved back to it."""
    rng = np.random.default_rng(1)
    true = np.where(np.arange(61) >= 10, 2.0, 0.0)
    e = rng.integers(16, 60, 4000)
    d = rng.integers(4, 12, 4000)
    s = true[e - d - 1] + true[e - d] + rng.normal(0, 0.5, 4000)
    c = solve_shift(e, d, s, smooth=1.0)
    assert np.abs(c[14:50] - 2.0).max() < 0.3 and abs(c[0]) < 0.01
    assert phase_shift(c, 12)[2] == pytest.approx(2.0, abs=0.3)


def test_anchor_sets_the_leaning_between_odd_and_even_empties() -> None:
    """Game results that favour the side to move at odd empties by 3 discs more than the weights say: the anchor
    moves the parity weight by 3 and the bias by -1.5 (every c(k) + c(k + 1) kept), and the two parities are then
    predicted alike."""
    from .conftest import random_positions

    states = [s for s in random_positions(3000, 5) if not s.is_over()]
    own = np.array([s.own_opp()[0] for s in states], dtype=np.uint64)
    opp = np.array([s.own_opp()[1] for s in states], dtype=np.uint64)
    W = load_weights()
    empties = 64 - pt._popcount(own | opp).astype(np.int64)
    rng = np.random.default_rng(2)
    result = pt.evaluate_many(own, opp, W) + np.where(empties % 2 == 1, 3.0, 0.0) + rng.normal(0, 0.1, len(own))
    anchored, change = anchor(W, own, opp, result)
    bias, parity = pt.DENSE_BASE + pt.DENSE.index("bias"), pt.DENSE_BASE + pt.DENSE.index("parity")
    phases = np.unique(np.asarray(pt.phase_of(empties, W.shape[0])))
    assert np.allclose(change[phases], 3.0, atol=0.05)
    assert np.allclose(2 * anchored[:, bias] + anchored[:, parity], 2 * W[:, bias] + W[:, parity], atol=1e-4)
    residual = result - pt.evaluate_many(own, opp, anchored)
    odd = empties % 2 == 1
    assert abs(residual[odd].mean() - residual[~odd].mean()) < 0.05


def test_calibrate_removes_the_swing(tmp_path, capsys) -> None:
    out = tmp_path / "w.npz"
    assert main(["train", "calibrate", "--out", str(out), "--positions", "40", "--depth", "7", "--rounds", "1"]) == 0
    text = capsys.readouterr().out
    assert "swing after" in text and "calibrated weights written" in text
    meta = weights_meta(out)
    cal = meta["calibration"]
    before = load_weights()
    after = load_weights(out)
    assert after.shape == before.shape and not np.array_equal(after, before)
    swing_after = np.array([x for x in cal["swing_after"] if x is not None])
    assert np.abs(swing_after).mean() < 1.5  # was several discs for the shipped weights' midgame phases
    # an existing OUT is kept unless --force
    assert main(["train", "calibrate", "--out", str(out), "--positions", "40", "--depth", "7"]) != 0
    assert "--force" in capsys.readouterr().err


def test_probcut_statistics_from_a_small_run(tmp_path, capsys) -> None:
    out, samples = tmp_path / "pc.json", tmp_path / "pc.npz"
    argv = ["train", "probcut", "--out", str(out), "--positions", "60", "--depth", "6", "--exact-from", "16",
            "--exact-to", "14", "--samples", str(samples)]
    assert main(argv) == 0
    stats = pc.load_statistics(out)
    assert set(range(3, 7)) <= set(stats.pairs) and np.all(np.isfinite(stats.table))
    assert json.loads(out.read_text())["meta"]["positions"] == 60
    # a second run reuses the samples (no search) and fits the same statistics
    again = tmp_path / "pc2.json"
    assert main([*argv[:3], str(again), *argv[4:]]) == 0
    assert np.allclose(pc.load_statistics(again).table, stats.table)
    # samples of other settings are refused with one line
    assert main([*argv[:3], str(tmp_path / "x.json"), "--positions", "80", *argv[6:]]) != 0
    assert "other settings" in capsys.readouterr().err
