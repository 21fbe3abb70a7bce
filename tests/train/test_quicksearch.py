"""The compiled measuring search equals the textbook alpha-beta with the same (learned) evaluation."""

from __future__ import annotations

import numpy as np

from plies.game import PASS
from plies.search import alphabeta
from plies.train import patterns as pt
from plies.train.quicksearch import HANDMADE, LEARNED, QuickSearchPlayer, negamax

from .conftest import random_positions


def test_learned_search_value_equals_textbook_alphabeta() -> None:
    w = np.random.default_rng(7).normal(size=(4, pt.N_PARAMS)).astype(np.float32)

    def h(state, player):  # type: ignore[no-untyped-def]
        own, opp = state.own_opp()
        v = pt.evaluate_python(own, opp, w)
        return v if state.to_move == player else -v

    for state in random_positions(25, seed=11):
        own, opp = state.own_opp()
        for depth in (1, 2, 3):
            ref = alphabeta(state, depth, h).value
            got = negamax(np.uint64(own), np.uint64(opp), depth, -np.inf, np.inf, LEARNED, w)
            assert np.isclose(got, ref, rtol=1e-9, atol=1e-6), (state.to_text(), depth)


def test_players_choose_legal_moves() -> None:
    w = np.zeros((2, pt.N_PARAMS), dtype=np.float32)
    learned = QuickSearchPlayer(2, "learned", w)
    handmade = QuickSearchPlayer(2, "default")
    assert handmade.mode == HANDMADE
    for state in random_positions(20, seed=4):
        for player in (learned, handmade):
            move = player.choose(state)
            assert move in state.legal_moves() or (move == PASS and state.legal_moves() == [PASS])
