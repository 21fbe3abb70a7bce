"""``plies train compare`` and the ``learned:`` players search with the engine: with any weights array its
value is the textbook alpha-beta's with the same (learned) evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from plies.engine import patterns as pt
from plies.game import PASS
from plies.players import parse_player
from plies.search import alphabeta
from plies.train.compare import compare, engine_players
from plies.train.fit import save_weights

from .conftest import random_positions


def test_learned_engine_with_a_weights_array_equals_textbook_alphabeta() -> None:
    w = np.random.default_rng(7).normal(size=(4, pt.N_PARAMS)).astype(np.float32)

    def h(state, player):  # type: ignore[no-untyped-def]
        own, opp = state.own_opp()
        v = pt.evaluate_python(own, opp, w)
        return v if state.to_move == player else -v

    learned, _ = engine_players(w, 1)
    engine = learned.engine  # type: ignore[attr-defined]
    for i, state in enumerate(random_positions(25, seed=11)):
        if state.empties() < 4:
            continue
        depth = 1 + i % 3
        engine.clear()
        ref = alphabeta(state, depth, h).value
        got = engine.search(state, depth=depth).value
        assert np.isclose(got, ref, rtol=1e-9, atol=1e-6), (state.to_text(), depth)


def test_players_choose_legal_moves(tmp_path) -> None:
    w = np.zeros((2, pt.N_PARAMS), dtype=np.float32)
    path = tmp_path / "w.npz"
    save_weights(path, w)
    players = [*engine_players(w, 2), *engine_players(str(path), 2),
               parse_player(f"learned:depth=2,weights={path}"), parse_player("learned:depth=2,eval=handmade")]
    assert players[1].engine.evaluation == "handmade"  # type: ignore[attr-defined]
    for state in random_positions(20, seed=4):
        for player in players:
            move = player.choose(state)
            assert move in state.legal_moves() or (move == PASS and state.legal_moves() == [PASS])


def test_compare_plays_paired_games() -> None:
    res = compare(None, 1, 1, opening_plies=4, seed=2)
    assert res.games == 2 and res.wins + res.draws + res.losses == 2
    assert 0.0 <= res.score <= 1.0


def test_learned_spec_rejects_a_bad_weights_file(tmp_path) -> None:
    from plies.game import PliesError

    with pytest.raises(PliesError):
        parse_player(f"learned:depth=2,weights={tmp_path / 'missing.npz'}")
