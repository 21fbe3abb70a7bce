"""The selective midgame search (multi-ProbCut): its statistics file, and what selectivity may and may not change."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plies.engine import Engine
from plies.engine import probcut as pc
from plies.engine.api import PROBCUT
from plies.game import PliesError
from plies.games.othello import OthelloState
from plies.search import alphabeta

from .conftest import positions_with_empties, random_positions


def test_shipped_statistics_load_and_are_sane() -> None:
    stats = pc.shipped()
    t = stats.table
    assert t.shape == (pc.CELLS,) and np.all(np.isfinite(t))
    cells = t.reshape(pc.EMPTIES, pc.DEPTHS, pc.COLUMNS)
    for depth in range(3, 30):
        for empties in range(depth, 61):
            shallow, slope, _, sigma = cells[empties, depth, :4]
            assert shallow == pc.shallow_depth(depth) and 0 < shallow < depth
            assert 0.5 <= slope <= 2.0 and pc.MIN_SIGMA <= sigma < 20
    assert all(cells[e, d, 0] == 0 for e in range(10) for d in range(e + 1, pc.EXACT))  # no cut past the end
    assert stats.meta["weights_sha256"] == pc.weights_digest(pc.DATA_DIR / "weights.npz")


def test_shallow_depths_keep_the_parity() -> None:
    for d in range(3, 40):
        s = pc.shallow_depth(d)
        assert 0 < s < d and (d - s) % 2 == 0


@pytest.mark.parametrize("text, message", [
    ("", "not JSON"),
    ("[1, 2]", "not a plies probcut statistics file"),
    ('{"format": "plies-probcut", "version": 99}', "format version 99"),
    ('{"format": "plies-probcut", "version": 1, "pairs": 3, "static": []}', "no list of pairs"),
    ('{"format": "plies-probcut", "version": 1, "pairs": [{"depth": 70}], "static": []}', "depth must be"),
    ('{"format": "plies-probcut", "version": 1, "pairs": [{"depth": 5, "shallow": 3, "empties": [10, 50],'
     ' "slope": {"coefficients": [1]}, "offset": {"coefficients": ["x"]}, "sigma": {"coefficients": [3]}}],'
     ' "static": []}', "finite numbers"),
])
def test_a_corrupt_statistics_file_is_one_clear_error(tmp_path, text: str, message: str) -> None:
    f = tmp_path / "stats.json"
    f.write_text(text)
    with pytest.raises(PliesError, match=message):
        pc.load_statistics(f)
    with pytest.raises(PliesError, match=message):
        Engine(statistics=str(f))
    with pytest.raises(PliesError, match="no probcut statistics file"):
        pc.load_statistics(tmp_path / "missing.json")


def test_statistics_round_trip(tmp_path) -> None:
    stats = pc.shipped()
    f = tmp_path / "copy.json"
    stats.write(f)
    again = pc.load_statistics(f)
    assert np.allclose(again.table, stats.table, atol=1e-4)
    data = json.loads(f.read_text())
    assert data["format"] == pc.FORMAT and data["pairs"]


def test_without_selectivity_values_are_the_textbook_ones() -> None:
    """probcut=None: fixed-depth values equal plain alpha-beta with the same evaluation (nothing selective)."""
    from plies.heuristics import get

    h = get("othello", "learned")
    e = Engine(hash_mb=8, probcut=None)
    for s in random_positions(51, 6, lo=10, hi=40):
        for depth in (3, 4):
            assert e.search(s, depth=depth).value == pytest.approx(alphabeta(s, depth, h).value, abs=1e-4)


def test_selective_search_is_cheaper_and_close() -> None:
    """The selective search (the default) reaches the same depth with fewer nodes, and its values stay close
    to the full-width ones (a few discs: what the statistics' sigma allows)."""
    full, sel = Engine(hash_mb=16, probcut=None), Engine(hash_mb=16)
    assert sel.probcut == PROBCUT and full.probcut is None
    nodes_full = nodes_sel = 0
    diffs = []
    for s in random_positions(52, 6, lo=12, hi=30):
        full.clear()
        sel.clear()
        a, b = full.search(s, depth=9), sel.search(s, depth=9)
        nodes_full += a.stats.nodes
        nodes_sel += b.stats.nodes
        diffs.append(abs(float(a.value) - float(b.value)))
        assert b.move in s.legal_moves() and b.selectivity is not None and a.selectivity is None
    assert nodes_sel < 0.7 * nodes_full
    assert np.mean(diffs) < 3.0


def test_exact_scores_stay_exact_with_selectivity() -> None:
    """Selectivity is a midgame matter: an exact solve gives the same score and a perfect line either way."""
    for s in positions_with_empties(53, 3, 16):
        a = Engine(hash_mb=8, probcut=None).search(s, exact=True)
        b = Engine(hash_mb=8).search(s, exact=True)
        assert a.value == b.value and a.exact and b.exact


def test_engine_options(tmp_path) -> None:
    from plies.players import parse_player

    p = parse_player("engine:depth=4,probcut=off", "othello")
    assert p.engine.probcut is None and "probcut=off" in p.name
    p = parse_player("engine:depth=4,probcut=2", "othello")
    assert p.engine.probcut == 2.0
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(PliesError, match="not a plies probcut statistics file"):
        parse_player(f"engine:depth=4,stats={bad}", "othello")
    with pytest.raises(PliesError, match="probcut"):
        Engine(probcut=-1)
    # other evaluations have no statistics: every move to the full depth
    assert Engine(evaluation="handmade").probcut is None
    assert OthelloState.start().legal_moves()


def test_statistics_of_other_weights_are_refused(tmp_path) -> None:
    """A statistics file measured with other weights than the engine's is one clear error (its cuts would prune
    with another evaluation's error model); the matching pair, and a file that names no weights, load."""
    from plies.engine.weights import DEFAULT_WEIGHTS, load_weights
    from plies.players import parse_player

    other = tmp_path / "other.npz"
    np.savez_compressed(other, weights=load_weights() * np.float32(1.01), meta=json.dumps({}))
    shipped = tmp_path / "shipped.json"
    pc.shipped().write(shipped)
    assert pc.shipped().meta["weights_sha256"] == pc.weights_digest(DEFAULT_WEIGHTS)
    Engine(statistics=str(shipped))  # the shipped weights: they match
    with pytest.raises(PliesError, match="measured with other weights") as e:
        Engine(weights=str(other), statistics=str(shipped))
    assert "\n" not in str(e.value) and pc.weights_digest(other) in str(e.value)
    with pytest.raises(PliesError, match="measured with other weights"):
        parse_player(f"engine:depth=4,weights={other},stats={shipped}", "othello")
    data = json.loads(shipped.read_text())
    data["meta"]["weights_sha256"] = pc.weights_digest(other)
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(data))
    assert Engine(weights=str(other), statistics=str(mine)).statistics_file == str(mine)
    with pytest.raises(PliesError, match="measured with other weights"):
        Engine(statistics=str(mine))  # the shipped weights, statistics of the other ones
    del data["meta"]["weights_sha256"]
    mine.write_text(json.dumps(data))
    Engine(weights=str(other), statistics=str(mine))  # names no weights: taken as given
