"""The shipped weights and book load, make sense, and drive the players."""

from __future__ import annotations

import numpy as np
import pytest

from plies.engine import patterns as pt
from plies.engine.weights import load_weights, weights_meta
from plies.game import WIN, ParseError
from plies.games import OthelloState
from plies.heuristics import get as get_heuristic
from plies.players import parse_player
from plies.search import alphabeta
from plies.train.book import load_book
from plies.train.players import BookPlayer, LearnedPlayer

from .conftest import random_positions


def test_shipped_weights_load() -> None:
    w = load_weights()
    assert w.ndim == 2 and w.shape[1] == pt.N_PARAMS and w.dtype == np.float32
    assert np.isfinite(w).all() and np.abs(w).max() > 0
    meta = weights_meta()
    assert meta["phases"] == w.shape[0] and meta["positions"] > 0


def test_shipped_weights_predict_endgame_results() -> None:
    w = load_weights()
    h = get_heuristic("othello", "discs")
    pred, truth = [], []
    for state in random_positions(400, seed=21):
        if not 4 <= state.empties() <= 7:
            continue
        v = alphabeta(state, 2 * state.empties() + 2, h).value
        truth.append(v - WIN if v >= WIN else v + WIN if v <= -WIN else v)
        own, opp = state.own_opp()
        pred.append(pt.evaluate_patterns(np.uint64(own), np.uint64(opp), w))
    assert len(truth) >= 20
    assert np.corrcoef(pred, truth)[0, 1] > 0.6


def test_shipped_book_lines_are_legal() -> None:
    book = load_book()
    assert len(book) > 50
    state = OthelloState.start()
    for _ in range(6):
        moves = book.lookup(state)
        if not moves:
            break
        assert all(m in state.legal_moves() for m, _ in moves)
        assert [v for _, v in moves] == sorted((v for _, v in moves), reverse=True)
        state = state.play(moves[0][0])
    else:
        return
    assert state.to_move in (0, 1)


def test_players_with_the_shipped_files() -> None:
    start = OthelloState.start()
    player = BookPlayer(LearnedPlayer(depth=2))
    assert player.choose(start) in start.legal_moves() and player.in_book == 1
    learned = LearnedPlayer(depth=2)
    for state in random_positions(10, seed=3):
        assert learned.choose(state) in state.legal_moves()


def test_learned_player_spec() -> None:
    player = parse_player("learned:depth=2,book=on")
    start = OthelloState.start()
    assert player.choose(start) in start.legal_moves()
    assert parse_player("learned:depth=2,eval=default").choose(start) in start.legal_moves()
    for bad in ("learned:depth=x", "learned:eval=nope", "learned:colour=red", "learned:book=maybe"):
        with pytest.raises(ParseError):
            parse_player(bad)
