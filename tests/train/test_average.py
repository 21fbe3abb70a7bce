"""plies train average: the mean of weights files values every position at the mean of their values."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.cli import main
from plies.engine import patterns as pt
from plies.engine.probcut import weights_digest
from plies.engine.weights import DEFAULT_WEIGHTS, load_weights, weights_meta
from plies.game import PliesError
from plies.train.average import average_weights
from plies.train.fit import save_weights

from .conftest import random_positions


@pytest.fixture
def three(tmp_path) -> list[str]:
    """The shipped weights and two others (scaled and shifted copies, with their own metadata)."""
    w = load_weights()
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    save_weights(a, w * np.float32(0.5), {"positions": 10, "held_out_mae": [1.0, 3.0], "data": ["/x/y/d1.jsonl"]})
    save_weights(b, w + np.float32(0.25), {"positions": 20})
    return [str(DEFAULT_WEIGHTS), str(a), str(b)]


def test_the_mean_evaluates_to_the_mean_of_the_values(three) -> None:
    mean, meta = average_weights(three)
    ws = [load_weights(p) for p in three]
    assert mean.dtype == np.float32 and mean.shape == ws[0].shape
    assert np.allclose(mean, (ws[0] + ws[1] + ws[2]) / 3, atol=1e-6)
    for state in random_positions(60, seed=5):
        own, opp = state.own_opp()
        values = [pt.evaluate_patterns(np.uint64(own), np.uint64(opp), w) for w in ws]
        got = pt.evaluate_patterns(np.uint64(own), np.uint64(opp), mean)
        assert got == pytest.approx(sum(values) / 3, abs=1e-3)
    assert [p["sha256"] for p in meta["average_of"]] == [weights_digest(p) for p in three]
    assert meta["average_of"][1]["held_out_mae"] == [1.0, 3.0]
    assert meta["average_of"][1]["data"] == ["d1.jsonl"] and meta["average_of"][2]["data"] is None
    assert meta["positions"] == weights_meta()["positions"] + 30
    again, _ = average_weights(three)
    assert np.array_equal(again, mean)  # the same bits every run (the statistics name the file's digest)


def test_average_command(tmp_path, three, capsys) -> None:
    out = tmp_path / "mean.npz"
    assert main(["train", "average", *three, "--out", str(out)]) == 0
    assert "the mean of 3 weights files" in capsys.readouterr().out
    assert np.array_equal(load_weights(out), average_weights(three)[0])
    meta = weights_meta(out)
    assert meta["phases"] == 12 and len(meta["average_of"]) == 3 and meta["positions"] > 0
    assert json.loads(json.dumps(meta)) == meta
    # an existing OUT, an input as OUT, one file, other phases: one error line each, nothing overwritten
    before = out.read_bytes()
    assert main(["train", "average", *three, "--out", str(out)]) == 2
    assert "exists" in capsys.readouterr().err
    assert main(["train", "average", *three, "--out", three[1]]) == 2
    assert "input" in capsys.readouterr().err
    assert main(["train", "average", three[1], "--out", str(tmp_path / "one.npz")]) == 2
    assert "two or more" in capsys.readouterr().err
    six = tmp_path / "six.npz"
    save_weights(six, load_weights()[:6], {})
    assert main(["train", "average", three[1], str(six), "--out", str(tmp_path / "x.npz")]) == 2
    err = capsys.readouterr().err
    assert "different numbers of phases" in err and err.count("\n") == 1
    assert out.read_bytes() == before and not (tmp_path / "x.npz").exists()
    with pytest.raises(PliesError, match="two or more"):
        average_weights([])
