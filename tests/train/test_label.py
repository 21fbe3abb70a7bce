"""``plies train label`` (search labels, Buro's scheme) and ``plies train fit --refit``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.cli import main
from plies.engine import patterns as pt
from plies.engine.weights import load_weights
from plies.game import PASS
from plies.games import OthelloState
from plies.train.backends import engine_available
from plies.train.label import SEARCH_LABEL, disc_value

pytestmark = pytest.mark.skipif(not engine_available(), reason="needs the compiled engine")

SMALL = ["--backend", "python", "--depth", "1", "--exact", "6", "--random-plies", "2-6"]


def _games(path) -> dict[int, dict]:
    with open(path) as f:
        f.readline()
        return {g["i"]: g for g in map(json.loads, f)}


def _one_ply(own: int, opp: int, w: np.ndarray) -> float:
    """Depth-1 value from the pattern evaluation in plain Python: best of minus each child's value."""
    state = OthelloState(own, opp, 0)
    sign = 1.0
    if state.legal_moves() == [PASS]:
        state, sign = state.play(PASS), -1.0
    best = -1e9
    for m in state.legal_moves():
        child = state.play(m)
        o, p = child.own_opp()
        best = max(best, -pt.evaluate_python(o, p, w))
    return sign * best


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("label") / "d.jsonl"
    assert main(["train", "data", "--games", "4", "--out", str(path), *SMALL]) == 0
    return path


def test_positions_in_range_get_the_search_value_others_keep_theirs(data, tmp_path) -> None:
    out = tmp_path / "l.jsonl"
    assert main(["train", "label", str(data), "--out", str(out), "--depth", "1", "--empties", "20-40"]) == 0
    before, after = _games(data), _games(out)
    assert sorted(after) == sorted(before)
    w = load_weights()
    relabelled = 0
    for i, g in before.items():
        assert after[i]["moves"] == g["moves"]
        for (o, p, v, k), (o2, p2, v2, k2) in zip(g["positions"], after[i]["positions"], strict=True):
            assert (o, p) == (o2, p2)
            e = 64 - bin(o | p).count("1")
            if 20 <= e <= 40 and k != 1:
                assert k2 == SEARCH_LABEL
                assert v2 == pytest.approx(_one_ply(o, p, w), abs=0.006)
                relabelled += 1
            else:
                assert (v2, k2) == (v, k)
    assert relabelled > 40
    head, head2 = (json.loads(p.read_text().splitlines()[0]) for p in (data, out))
    assert head2["weights"] == head["weights"]  # the copied search values keep the name of their weights


def test_blend_mixes_old_and_new_labels(data, tmp_path) -> None:
    full, half = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["train", "label", str(data), "--out", str(full), "--depth", "1", "--empties", "30-40"]) == 0
    assert main(["train", "label", str(data), "--out", str(half), "--depth", "1", "--empties", "30-40",
                 "--blend", "0.5"]) == 0
    old, a, b = _games(data), _games(full), _games(half)
    for i in old:
        for x, y, z in zip(old[i]["positions"], a[i]["positions"], b[i]["positions"], strict=True):
            assert z[2] == pytest.approx(0.5 * x[2] + 0.5 * y[2], abs=0.011)


def test_resume_and_workers_give_the_same_file(data, tmp_path, capsys) -> None:
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    args = ["--depth", "2", "--empties", "25-45"]
    assert main(["train", "label", str(data), "--out", str(one), *args]) == 0
    assert main(["train", "label", str(data), "--out", str(two), *args, "--workers", "2"]) == 0
    assert _games(one) == _games(two)
    # a torn last line is dropped and redone on --resume
    text = two.read_text().splitlines()
    two.write_text("\n".join(text[:-1]) + "\n" + text[-1][:40])
    assert main(["train", "label", str(data), "--out", str(two), *args, "--resume"]) == 0
    assert _games(one) == _games(two)
    # without --resume, or with other settings, the file is refused
    assert main(["train", "label", str(data), "--out", str(two), *args]) != 0
    assert main(["train", "label", str(data), "--out", str(two), "--depth", "3", "--resume"]) != 0
    assert main(["train", "label", str(data), "--out", str(data), *args]) != 0
    assert main(["train", "label", str(data), "--out", str(one), "--empties", "x"]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--resume" in err and "LO-HI" in err


def test_refit_changes_only_the_named_phases(data, tmp_path, capsys) -> None:
    base = tmp_path / "base.npz"
    assert main(["train", "fit", str(data), "--out", str(base), "--phases", "4", "--l2", "1"]) == 0
    out = tmp_path / "refit.npz"
    labelled = tmp_path / "l.jsonl"
    assert main(["train", "label", str(data), "--out", str(labelled), "--depth", "1", "--empties", "16-30"]) == 0
    assert main(["train", "fit", str(labelled), "--out", str(out), "--phases", "4", "--l2", "1",
                 "--refit", "2", "--base", str(base)]) == 0
    a, b = load_weights(base), load_weights(out)
    assert np.array_equal(a[[0, 1, 3]], b[[0, 1, 3]])
    assert not np.array_equal(a[2], b[2])
    assert main(["train", "fit", str(data), "--out", str(out), "--refit", "2"]) != 0
    assert main(["train", "fit", str(data), "--out", str(out), "--phases", "4", "--refit", "9",
                 "--base", str(base)]) != 0
    assert main(["train", "fit", str(data), "--out", str(out), "--phases", "3", "--refit", "1",
                 "--base", str(base)]) != 0
    assert "Traceback" not in capsys.readouterr().err


def test_won_and_lost_search_values_become_disc_margins() -> None:
    from plies.game import WIN

    assert disc_value(WIN + 6) == 6 and disc_value(-WIN - 4) == -4 and disc_value(3.5) == 3.5


def test_bad_weights_file_is_refused_before_anything_is_written(data, tmp_path, capsys) -> None:
    out = tmp_path / "l.jsonl"
    assert main(["train", "label", str(data), "--out", str(out), "--weights", str(data)]) != 0
    assert not out.exists()
    err = capsys.readouterr().err
    assert "not a weights file" in err and "Traceback" not in err
