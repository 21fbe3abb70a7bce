"""The fit recovers a known linear model and writes a weights file that loads back."""

from __future__ import annotations

import numpy as np
import pytest

from plies.engine import patterns as pt
from plies.game import PliesError
from plies.train.data import Dataset
from plies.train.fit import fit, load_weights, save_weights, split_games

from .conftest import random_positions


def _synthetic(n_phases: int, seed: int = 0, count: int = 3000) -> tuple[Dataset, np.ndarray]:
    """Positions labelled by a model using only the small diagonal patterns and the dense features."""
    rng = np.random.default_rng(seed)
    states = random_positions(count, seed)
    own = np.array([s.own_opp()[0] for s in states], dtype=np.uint64)
    opp = np.array([s.own_opp()[1] for s in states], dtype=np.uint64)
    true = np.zeros((n_phases, pt.N_PARAMS), dtype=np.float32)
    small = [t for t, (name, _) in enumerate(pt.PATTERNS) if name in ("diag4", "diag5")]
    for t in small:
        a, b = int(pt.TYPE_PARAM_BASE[t]), int(pt.TYPE_PARAM_BASE[t + 1])
        true[:, a:b] = rng.normal(0, 2, size=(n_phases, b - a))
    true[:, pt.DENSE_BASE:] = rng.normal(0, 1, size=(n_phases, len(pt.DENSE)))
    label = pt.evaluate_many(own, opp, true)
    ds = Dataset(own, opp, label, np.zeros(count, dtype=np.int8), np.arange(count))
    return ds, true


def test_fit_recovers_a_known_model() -> None:
    ds, true = _synthetic(2)
    result = fit(ds, n_phases=2, l2=1e-4, holdout=0.2, iterations=2000, only=["diag4", "diag5"])
    for rep in result.phases:
        assert rep.train > 500 and rep.held > 100
        assert rep.train_mae < 0.05
        assert rep.held_mae < 0.1 * rep.baseline_mae
    # predictions of fresh positions match the true model
    fresh = random_positions(200, seed=99)
    own = np.array([s.own_opp()[0] for s in fresh], dtype=np.uint64)
    opp = np.array([s.own_opp()[1] for s in fresh], dtype=np.uint64)
    err = np.abs(pt.evaluate_many(own, opp, result.weights) - pt.evaluate_many(own, opp, true))
    assert np.median(err) < 0.1


def test_all_patterns_still_fit_the_training_set() -> None:
    ds, _ = _synthetic(1, count=800)
    rep = fit(ds, n_phases=1, l2=1e-3, holdout=0.0).phases[0]
    assert rep.held == 0 and rep.train_mae < 0.1


def test_unknown_pattern_is_a_clear_error() -> None:
    ds, _ = _synthetic(1, count=50)
    with pytest.raises(PliesError, match="unknown pattern"):
        fit(ds, n_phases=1, only=["nope"])


def test_noise_is_not_learned_from_labels_without_signal() -> None:
    ds, _ = _synthetic(1, count=1500)
    ds.label = np.random.default_rng(5).normal(0, 10, len(ds))
    result = fit(ds, n_phases=1, l2=50.0, holdout=0.3)
    rep = result.phases[0]
    assert rep.held_mae < 1.3 * rep.baseline_mae  # strong ridge: no worse than predicting the mean by much


def test_weights_file_round_trip(tmp_path) -> None:
    w = np.random.default_rng(2).normal(size=(3, pt.N_PARAMS)).astype(np.float32)
    path = tmp_path / "w.npz"
    save_weights(path, w, {"note": "test"})
    back = load_weights(path)
    assert back.dtype == np.float32 and np.array_equal(back, w)
    bad = tmp_path / "bad.npz"
    np.savez(bad, weights=np.zeros((3, 5), dtype=np.float32))
    with pytest.raises(PliesError):
        load_weights(bad)
    with pytest.raises(PliesError):
        load_weights(tmp_path / "missing.npz")


def test_split_holds_out_whole_games() -> None:
    games = np.repeat(np.arange(100), 5)
    held = split_games(games, 0.2, seed=3)
    assert held.sum() == 100
    for g in range(100):
        assert len(set(held[games == g].tolist())) == 1


def test_workers_fit_the_same_weights() -> None:
    """Phases fitted by two processes side by side are the ones one process fits, and so are their figures."""
    ds, _ = _synthetic(3, count=1500)
    one = fit(ds, n_phases=3, l2=1.0, holdout=0.2, iterations=50, overlap=4)
    two = fit(ds, n_phases=3, l2=1.0, holdout=0.2, iterations=50, overlap=4, workers=2)
    assert np.array_equal(one.weights, two.weights)
    assert [(p.iterations, p.held_mae) for p in one.phases] == [(p.iterations, p.held_mae) for p in two.phases]
    base = one.weights.copy()
    again = fit(ds, n_phases=3, l2=5.0, holdout=0.2, iterations=50, overlap=4, refit=[1], base=base, workers=2)
    assert np.array_equal(again.weights[[0, 2]], base[[0, 2]]) and not np.array_equal(again.weights[1], base[1])


def test_tune_fits_the_change_from_the_base_weights() -> None:
    ds, true = _synthetic(2, seed=3)
    kw = {"n_phases": 2, "holdout": 0.2, "iterations": 300, "only": ["diag4", "diag5"]}
    # labels the base already predicts: nothing to change
    same = fit(ds, l2=10.0, base=true, tune=True, **kw)
    assert np.allclose(same.weights, true, atol=1e-4)
    # from zero weights, tuning is the plain fit
    zero = np.zeros_like(true)
    assert np.allclose(fit(ds, l2=10.0, base=zero, tune=True, **kw).weights, fit(ds, l2=10.0, **kw).weights,
                       atol=1e-4)
    # labels three discs higher: a strong ridge towards the base moves the barely-penalised bias alone, while
    # the same ridge towards 0 cannot recover the patterns
    shifted = Dataset(ds.own, ds.opp, ds.label + 3.0, ds.kind, ds.game)
    tuned = fit(shifted, l2=1e3, base=true, tune=True, **kw)
    plain = fit(shifted, l2=1e3, **kw)
    assert all(p.held_mae < 0.05 for p in tuned.phases)
    assert all(p.held_mae > 10 * max(q.held_mae for q in tuned.phases) for p in plain.phases)
    bias = pt.DENSE_BASE + list(pt.DENSE).index("bias")
    assert np.allclose(tuned.weights[:, bias] - true[:, bias], 3.0, atol=0.2)
    with pytest.raises(PliesError, match="--tune needs --base"):
        fit(ds, tune=True, **kw)
