"""The plain-Python ``learned`` heuristic: registered by ``import plies.train``, zero-sum, the reference values."""

from __future__ import annotations

import pytest

import plies.train  # noqa: F401  (registers the heuristic)
from plies.engine.patterns import evaluate_python
from plies.engine.weights import load_weights
from plies.game import ParseError
from plies.games import OthelloState
from plies.heuristics import get, names
from plies.search import alphabeta

from .conftest import random_positions


def test_learned_heuristic_is_registered_and_zero_sum() -> None:
    assert "learned" in names("othello")
    h = get("othello", "learned")
    W = load_weights()
    for s in random_positions(20, seed=7):
        own, opp = (s.black, s.white) if s.to_move == 0 else (s.white, s.black)
        assert h(s, s.to_move) == evaluate_python(own, opp, W)
        assert h(s, 1 - s.to_move) == -h(s, s.to_move)


def test_learned_heuristic_drives_the_textbook_search() -> None:
    r = alphabeta(OthelloState.start(), 2, get("othello", "learned"))
    assert r.move in OthelloState.start().legal_moves()
    assert abs(r.value) < 64


def test_learned_heuristic_refuses_other_boards() -> None:
    with pytest.raises(ParseError):
        get("othello", "learned")(OthelloState.start(6), 0)
