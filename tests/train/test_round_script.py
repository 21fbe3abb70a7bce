"""``tools/train_round.sh``: one round of the learned evaluation, and the next round from its results."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from plies.engine.probcut import load_statistics, weights_digest
from plies.engine.weights import DEFAULT_WEIGHTS
from plies.train.backends import engine_available
from plies.train.data import read_header
from plies.train.fit import load_weights

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "train_round.sh"
TINY = {"WORKERS": "1", "DEPTH": "2", "EXACT": "8", "CAL_ARGS": "--positions 20 --depth 6",
        "PC_ARGS": "--positions 40 --depth 4 --exact-from 0"}

pytestmark = pytest.mark.skipif(not engine_available() or shutil.which("bash") is None,
                                reason="needs the compiled engine and bash")


def _round(work: Path, games: int, seed: int, **env: str) -> str:
    beside = Path(sys.executable).with_name("plies")  # the plies of this interpreter's environment
    plies = str(beside) if beside.exists() else shutil.which("plies") or "plies"
    r = subprocess.run(["bash", str(SCRIPT), str(work), str(games), str(seed)], capture_output=True, text=True,
                       env={**os.environ, **TINY, "PLIES": plies, **env}, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


def test_a_round_then_the_next_one_from_its_results(tmp_path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    out = _round(one, 4, 1)
    for name in ("data.jsonl", "fit.npz", "weights.npz", "probcut.json"):
        assert (one / name).is_file(), name
    assert read_header(str(one / "data.jsonl"))["weights"] == weights_digest(DEFAULT_WEIGHTS)
    assert load_weights(str(one / "weights.npz")).shape == load_weights(DEFAULT_WEIGHTS).shape
    assert not np.array_equal(load_weights(str(one / "fit.npz")), load_weights(DEFAULT_WEIGHTS))
    assert load_statistics(str(one / "probcut.json")).meta["weights_sha256"] == weights_digest(one / "weights.npz")
    assert "--sprt" in out and f"weights={one / 'weights.npz'}" in out

    out = _round(two, 4, 2, BASE=str(one / "weights.npz"), BASE_STATS=str(one / "probcut.json"))
    assert read_header(str(two / "data.jsonl"))["weights"] == weights_digest(one / "weights.npz")  # played by round one
    assert f"stats={one / 'probcut.json'}" in out
    again = _round(two, 4, 2, BASE=str(one / "weights.npz"), BASE_STATS=str(one / "probcut.json"))
    assert "0 games played now" in " ".join(again.split())  # done steps are skipped, the self-play resumed


def test_without_arguments_it_prints_its_usage(tmp_path) -> None:
    r = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "WORKDIR GAMES" in r.stdout
