"""The HexThello engine's learned evaluation: its features, its symmetry, its weights files and their training."""

from __future__ import annotations

import numpy as np
import pytest

from plies.cli import main
from plies.game import PASS, ParseError, PliesError
from plies.games.hexthello import HexThelloState, flips, index
from plies.hexsearch import HexEngine, learned
from plies.hexsearch import kernels as k
from plies.players import parse_player
from plies.players.hexthello import HexEnginePlayer
from plies.train import hexthello as tr

from .test_hex_search import random_positions


def _boards(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    states = random_positions(n, seed=seed, plies=(0, 140))
    boards = np.array([k.to_padded(s.black, s.white, s.holes) for s in states])
    mes = np.array([k.BLACK if s.to_move == 0 else k.WHITE for s in states], dtype=np.int8)
    return boards, mes


def _numpy_value(feat: np.ndarray, edge: np.ndarray, phase: int, w: np.ndarray, guard: int) -> int:
    row = w[phase].astype(np.int64)
    return int(feat.astype(np.int64) @ row[:k.N_FEAT] + row[k.N_FEAT + edge].sum()) + guard


def test_learned_value_is_the_features_dot_the_weights() -> None:
    rng = np.random.default_rng(3)
    w = learned.expand(rng.normal(0, 1, (k.PHASES, learned.N_PARAMS)))
    boards, mes = _boards(30, seed=2)
    phase, feat, edge, over = k.features(boards, mes)
    assert len(set(phase.tolist())) > 3 and not over.any()
    for i in range(len(mes)):
        guard = k.wipeout_guard(boards[i], int(mes[i]))
        assert k.eval_learned(boards[i], int(mes[i]), w) == _numpy_value(feat[i], edge[i], int(phase[i]), w, guard)
    shipped = HexEngine().weights
    assert shipped is not None and shipped.shape == (k.PHASES, k.ROW) and shipped.any()
    i = 7
    guard = k.wipeout_guard(boards[i], int(mes[i]))
    assert k.eval_learned(boards[i], int(mes[i]), shipped) == _numpy_value(feat[i], edge[i], int(phase[i]), shipped,
                                                                            guard)


def test_features_count_what_they_say() -> None:
    s = HexThelloState.start()
    board = k.to_padded(s.black, s.white)
    phase, feat, edge, over = k.features(board[None], np.array([k.BLACK], np.int8))
    f = feat[0]
    assert phase[0] == min(k.PHASES - 1, s.empties() // k.PHASE_WIDTH) and over[0] == 0
    assert f[0] == 1 and f[1] == len(s.legal_moves()) and f[5] == s.empties() % 2
    assert f[6] == (10 - 3) ** 2 and f[7] == (10 - 4) ** 2  # black has 3 discs, white 4
    n = len(k.DENSE)
    assert f[n:n + k.MAX_CLASSES].sum() == 3 and f[n + k.MAX_CLASSES:].sum() == 4
    assert (edge == 0).all()  # empty edges


def _guard_of(discs: int) -> int:
    return max(0, k.GUARD_DISCS - discs) ** 2


def _greedy_guard(s: HexThelloState) -> int:
    """The guard by its definition, from the bitboards: the opponent's discs after the side to move's greediest
    move, the side to move's as they are."""
    own, opp = s.own_opp()
    cap = max((flips(own, opp, m).bit_count() for m in s.legal_moves() if m != PASS), default=0)
    return k.GUARD * (_guard_of(opp.bit_count() - cap) - _guard_of(own.bit_count()))


def test_wipeout_guard_counts_the_opponent_after_the_greediest_move() -> None:
    start = HexThelloState.start()
    # black (3 discs) to move; its greediest move flips 2 of white's 4, which leaves white 2
    assert _greedy_guard(start) == k.GUARD * ((10 - 2) ** 2 - (10 - 3) ** 2)
    thin = HexThelloState.from_transcript("57 59 69 79 5a 47 37 75 85 95 84 58 49 39 3a 3b 2b 5b 5c 93 6a 4a 7a 2a "
                                          "29 1c 0d 38 3c 6b 6c 8a 9a 88 96 48 94 1b 0c 66 65 a3 a2 92 b2 74 91 28 "
                                          "73 19 09 83 97 4b 18 89 82 72 71 a5 b4 c3 d2")
    assert thin.counts() == (67, 3) and thin.to_move == 1  # white, to move, keeps 3 discs: its guard is 49 units
    states = random_positions(60, seed=9, plies=(0, 150)) + [start, thin, thin.with_side(0)]
    seen = set()
    for s in states:
        board = k.to_padded(s.black, s.white, s.holes)
        me = k.BLACK if s.to_move == 0 else k.WHITE
        guard = k.wipeout_guard(board, me)
        assert guard == _greedy_guard(s), s.to_text()
        seen.add((guard > 0) - (guard < 0))
    assert seen == {-1, 0, 1}
    board = k.to_padded(thin.black, thin.white)
    assert k.wipeout_guard(board, k.WHITE) == -k.GUARD * 49  # black keeps plenty whatever white flips
    assert k.wipeout_guard(board, k.BLACK) > 0  # black to move: white keeps even fewer after black's capture


def _symmetric(board: np.ndarray, sym: int) -> np.ndarray:
    out = np.full(k.N, k.WALL, dtype=np.int8)
    for p in k.CELLS:
        i, j = divmod(int(p), k.W)
        x, y, z = k._symmetries(k._cube(i - 1, j - 1))[sym]
        out[k._cell(x, y, z)] = board[p]
    return out


def test_learned_value_is_the_same_on_every_symmetric_board() -> None:
    rng = np.random.default_rng(4)
    w = learned.expand(rng.normal(0, 1, (k.PHASES, learned.N_PARAMS)))
    boards, mes = _boards(12, seed=8)
    for board, me in zip(boards, mes, strict=True):
        v = k.eval_learned(board, int(me), w)
        for sym in range(12):
            other = _symmetric(board, sym)
            assert sorted(other[k.CELLS].tolist()) == sorted(board[k.CELLS].tolist())
            assert k.eval_learned(other, int(me), w) == v
            assert k.eval_engine(other, int(me)) == k.eval_engine(board, int(me))


def test_finished_games_score_exactly() -> None:
    s = HexThelloState(sum(1 << index(7, j) for j in (3, 4, 5)), 0, 1)  # white has no discs: over
    board = k.to_padded(s.black, s.white)
    assert k.eval_learned(board, k.BLACK, HexEngine().weights) == k.WIN + 3
    assert k.eval_learned(board, k.WHITE, HexEngine().weights) == -k.WIN - 3


def test_weights_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(1)
    w = rng.normal(0, 1, (k.PHASES, learned.N_PARAMS)).astype(np.float32)
    path = tmp_path / "w.npz"
    learned.save_weights(path, w, {"note": "test"})
    assert np.array_equal(learned.load_weights(path), w)
    assert learned.weights_meta(path)["note"] == "test"
    assert np.array_equal(HexEngine(weights=path).weights, learned.expand(w))
    with pytest.raises(PliesError):
        learned.save_weights(tmp_path / "bad.npz", w[:, :10], {})
    with pytest.raises(PliesError):
        learned.load_weights(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(PliesError):
        HexEngine(weights=tmp_path / "junk.npz")
    with pytest.raises(PliesError):
        HexEngine(evaluation="classic", weights=path)
    with pytest.raises(PliesError):
        HexEngine(evaluation="fancy")
    with pytest.raises(ValueError):
        k.eval_learned(k.to_padded(0, 0), k.BLACK, np.zeros((2, 3), np.int32))


def test_features_reject_bad_input() -> None:
    boards, mes = _boards(2, seed=1)
    with pytest.raises(ValueError):
        k.features(boards, np.array([1, 3], np.int8))
    bad = boards.copy()
    bad[1, 0] = k.EMPTY  # a hole in the wall
    with pytest.raises(ValueError):
        k.features(bad, mes)
    with pytest.raises(ValueError):
        k.features(boards[:, :100], mes)


def test_player_options() -> None:
    s = HexThelloState.start()
    p = parse_player("hexengine:depth=2,eval=classic,threads=2", "hexthello")
    assert isinstance(p, HexEnginePlayer) and p.engine.evaluation == "classic" and p.engine.threads == 2
    assert p.name == "hexengine:depth=2,eval=classic,threads=2" and p.choose(s) in s.legal_moves()
    q = parse_player("hexengine:time=0.05", "hexthello")
    assert isinstance(q, HexEnginePlayer) and q.engine.evaluation == "learned" and q.engine.threads >= 1
    for bad in ("hexengine:eval=fancy", "hexengine:threads=0", "hexengine:threads=x", "hexengine:colour=red"):
        with pytest.raises(ParseError):
            parse_player(bad, "hexthello")
    with pytest.raises(PliesError):
        parse_player("hexengine:weights=/no/such/file.npz", "hexthello")


def test_player_threads_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLIES_ENGINE_THREADS", "1")
    assert HexEnginePlayer(depth=2).engine.threads == 1
    monkeypatch.setenv("PLIES_ENGINE_THREADS", "3")
    assert HexEnginePlayer(depth=2).engine.threads == 3
    assert HexEnginePlayer(depth=2, threads=2).engine.threads == 2


def test_selfplay_is_reproducible_and_fits() -> None:
    cfg = tr.SelfPlay(games=3, seed=5, depth=1)
    one = tr.generate(cfg, workers=1)
    two = tr.generate(cfg, workers=2)
    for key in ("boards", "sides", "labels", "game"):
        assert np.array_equal(one[key], two[key])
    assert set(one["game"].tolist()) == {0, 1, 2}
    # a label is the final disc difference from the side to move's view
    last = one["game"] == 0
    assert np.ptp(one["labels"][last] * np.where(one["sides"][last] == k.BLACK, 1, -1)) == 0
    weights, reports = tr.fit(one, holdout=0.0, iterations=50)
    assert weights.shape == (k.PHASES, learned.N_PARAMS) and np.isfinite(weights).all()
    fitted = [r for r in reports if r.train]
    assert fitted and all(r.mae_train <= r.mae_mean + 1e-6 or r.mae_mean == 0 for r in fitted)
    with pytest.raises(PliesError):
        tr.generate(tr.SelfPlay(games=0))


def test_train_commands(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "d.npz"
    out = tmp_path / "w.npz"
    assert main(["train", "hexthello-data", "--games", "2", "--depth", "1", "--out", str(data)]) == 0
    assert main(["train", "hexthello-fit", str(data), "--out", str(out), "--holdout", "0.5"]) == 0
    assert "held-out MAE" in capsys.readouterr().out
    assert learned.load_weights(out).shape == (k.PHASES, learned.N_PARAMS)
    assert main(["train", "hexthello-data", "--games", "2", "--random-plies", "x", "--out", str(data)]) != 0
    (tmp_path / "junk.npz").write_bytes(b"junk")
    assert main(["train", "hexthello-fit", str(tmp_path / "junk.npz"), "--out", str(out)]) != 0
    assert "Traceback" not in capsys.readouterr().err
