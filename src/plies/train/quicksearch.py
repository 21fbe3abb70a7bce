# ruff: noqa: E741  (P/O: the side to move and its opponent, as in the engine)
"""A small compiled alpha-beta over bitboards whose evaluation can be the learned patterns or the engine's
hand-made default: the same search for both, so a match at equal depth compares the evaluations alone.

It is a measuring tool and a stand-in player until the engine takes the learned weights (no transposition
table, no iterative deepening; mobility move ordering near the root).  Values: side to move's view; finished
games are ``±1e6 + disc difference``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from plies.engine.eval import evaluate_default
from plies.game import PASS, PliesError, State
from plies.players import Player
from plies.train.patterns import N_PARAMS, evaluate_patterns, expand_weights, moves_nb, popcount_nb

LEARNED, HANDMADE = 0, 1
EVALS = {"learned": LEARNED, "default": HANDMADE, "handmade": HANDMADE}
_WIN = 1e6
_ONE = np.uint64(1)
_DIRS = np.array([1, -1, 8, -8, 9, -9, 7, -7], dtype=np.int64)
_DC = np.array([1, -1, 0, 0, 1, -1, -1, 1], dtype=np.int64)


@njit(cache=True)
def flips_nb(P, O, sq):  # type: ignore[no-untyped-def]
    """Discs of O turned by a disc of P on ``sq`` (0 if none)."""
    out = np.uint64(0)
    r0 = sq // 8
    c0 = sq % 8
    for k in range(8):
        dr = (_DIRS[k] - _DC[k]) // 8
        dc = _DC[k]
        r = r0 + dr
        c = c0 + dc
        line = np.uint64(0)
        while 0 <= r < 8 and 0 <= c < 8:
            b = _ONE << np.uint64(r * 8 + c)
            if O & b:
                line |= b
            elif P & b:
                out |= line
                break
            else:
                break
            r += dr
            c += dc
    return out


@njit(cache=True)
def _final(P, O):  # type: ignore[no-untyped-def]
    p = np.float64(popcount_nb(P))
    o = np.float64(popcount_nb(O))
    d = p - o
    e = 64.0 - p - o
    if d > 0:
        return _WIN + d + e
    if d < 0:
        return -_WIN + d - e
    return 0.0


@njit(cache=True)
def _evaluate(P, O, mode, W):  # type: ignore[no-untyped-def]
    if mode == 0:
        return evaluate_patterns(P, O, W)
    return np.float64(evaluate_default(P, O))


@njit(cache=True)
def negamax(P, O, depth, alpha, beta, mode, W):  # type: ignore[no-untyped-def]
    """Alpha-beta value of (P to move, O) searched ``depth`` plies (a pass is a ply, as in ``plies.search``)."""
    moves = moves_nb(P, O)
    if moves == 0 and moves_nb(O, P) == 0:
        return _final(P, O)
    if depth == 0:
        return _evaluate(P, O, mode, W)
    if moves == 0:
        return -negamax(O, P, depth - 1, -beta, -alpha, mode, W)
    sqs = np.empty(32, dtype=np.int64)
    keys = np.empty(32, dtype=np.int64)
    n = 0
    m = moves
    while m:
        low = m & (~m + _ONE)
        sq = np.int64(popcount_nb(low - _ONE))
        m ^= low
        sqs[n] = sq
        if depth >= 3:
            f = flips_nb(P, O, sq)
            keys[n] = np.int64(popcount_nb(moves_nb(O & ~f, P | f | low)))
        else:
            keys[n] = 0
        n += 1
    if depth >= 3:
        order = np.argsort(keys[:n], kind="mergesort")
    else:
        order = np.arange(n)
    best = -np.inf
    for i in range(n):
        sq = sqs[order[i]]
        b = _ONE << np.uint64(sq)
        f = flips_nb(P, O, sq)
        v = -negamax(O & ~f, P | f | b, depth - 1, -beta, -max(alpha, best), mode, W)
        if v > best:
            best = v
            if best >= beta:
                return best
    return best


@njit(cache=True)
def root(P, O, depth, mode, W):  # type: ignore[no-untyped-def]
    """(best square, value) at ``depth``; square -1 when P must pass."""
    moves = moves_nb(P, O)
    best_sq = -1
    best = -np.inf
    m = moves
    while m:
        low = m & (~m + _ONE)
        sq = np.int64(popcount_nb(low - _ONE))
        m ^= low
        f = flips_nb(P, O, sq)
        v = -negamax(O & ~f, P | f | low, depth - 1, -np.inf, -best, mode, W)
        if v > best or best_sq < 0:
            best = v
            best_sq = sq
    return best_sq, best


class QuickSearchPlayer(Player):
    """Alpha-beta at a fixed depth with the learned or the hand-made evaluation (8x8 Othello)."""

    def __init__(self, depth: int = 4, evaluation: str = "learned", weights: np.ndarray | None = None,
                 book: Any = None) -> None:
        if evaluation not in EVALS:
            raise PliesError(f"unknown evaluation {evaluation!r}; choose from: {', '.join(EVALS)}")
        self.depth = depth
        self.mode = EVALS[evaluation]
        if weights is None:
            from plies.train.fit import load_weights

            weights = load_weights() if self.mode == LEARNED else np.zeros((1, 1), dtype=np.float32)
        if self.mode == LEARNED and weights.shape[1] == N_PARAMS:
            weights = expand_weights(weights)  # same values, faster lookups
        self.weights = weights
        self.book = book
        self.name = f"quick:depth={depth},eval={evaluation}" + (",book" if book is not None else "")

    def choose(self, state: State) -> int:
        moves = state.legal_moves()
        if moves == [PASS]:
            return PASS
        if self.book is not None:
            m = self.book.choose(state)
            if m is not None:
                return m
        own, opp = state.own_opp()  # type: ignore[attr-defined]
        sq, _ = root(np.uint64(own), np.uint64(opp), self.depth, self.mode, self.weights)
        return int(sq)
