"""Compiled depth-limited search: negamax principal-variation search with a transposition table.

Values are float64 from the side to move's view, in evaluation units; a finished game is worth
``±(WIN + disc difference)`` exactly as ``plies.game.terminal_value`` says, and a pass is a ply (as in the
textbook search), so with the same evaluation and depth the value equals ``plies.search.alphabeta``'s.
Move order: the hash move, then fastest-first (fewest replies for the opponent) plus square quality.
The search stops within a node when ``ctl[1]`` becomes non-zero (the clock's watchdog or ``Engine.stop``).
``W`` is the learned evaluation's weight array (``eval.weights_for``), passed down to ``evaluate``.
As in ``endgame``, the kernels run without numba's reference counting (``_nrt=False``; they allocate nothing):
the counts on the table and buffer arrays passed down every node took about half the search's time.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from numba import njit

from plies.engine.bitboard import CORNERS, ONE, final_score, flips, get_moves, lowest_index, popcount
from plies.engine.eval import LEARNED, evaluate
from plies.engine.hashtable import probe, store

WIN = 1_000_000.0
INF = np.inf
PASS = -1
MAX_PLY = 128

# Square quality for move ordering: corners first, then A/B-squares and edges, C and X squares last.
SQUARE_VALUE = np.array([
    18, 4, 16, 12, 12, 16, 4, 18,
    4, 2, 6, 8, 8, 6, 2, 4,
    16, 6, 14, 10, 10, 14, 6, 16,
    12, 8, 10, 0, 0, 10, 8, 12,
    12, 8, 10, 0, 0, 10, 8, 12,
    16, 6, 14, 10, 10, 14, 6, 16,
    4, 2, 6, 8, 8, 6, 2, 4,
    18, 4, 16, 12, 12, 16, 4, 18,
], dtype=np.int64)

# ctl: [0] nodes, [1] stop flag (set from Python), [2] the endgame's probcut confidence, [3] spare
NODES, STOP = 0, 1


LIST_SLOTS = 48  # int64 slots of one move list of the endgame solver's search_mid: 16 (square, key, flips)


class Buffers:
    """Per-search scratch arrays (principal variation table, move lists by ply): no allocation in the search."""

    def __init__(self) -> None:
        self.pv = np.zeros((MAX_PLY + 1, MAX_PLY + 1), dtype=np.int8)
        self.pv_len = np.zeros(MAX_PLY + 2, dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 1, 64), dtype=np.int64)
        self.keys = np.zeros((MAX_PLY + 1, 64), dtype=np.int64)
        self.flips = np.zeros((MAX_PLY + 1, 64), dtype=np.uint64)
        self.lists = np.zeros(65 * LIST_SLOTS, dtype=np.int64)  # the solver's move lists by empties (by address)

    def arrays(self) -> tuple:
        return (self.pv, self.pv_len, self.moves, self.keys, self.flips, self.lists)


@njit(cache=True, inline="always")
def terminal(P, O):  # type: ignore[no-untyped-def]
    """Search value of a finished game for the side to move (``plies.game.terminal_value``)."""
    s = final_score(P, O)
    if s > 0:
        return WIN + s
    if s < 0:
        return -WIN + s
    return 0.0


@njit(cache=True, inline="always")
def _null_window(eval_id):  # type: ignore[no-untyped-def]
    """Width of the null windows: one unit for the integer-valued evaluations, 1/16 disc for ``learned``
    (real-valued, in discs), so that a null window stays narrow and most values fail low or high at once."""
    if eval_id == LEARNED:
        return 0.0625
    return 1.0


@njit(cache=True, inline="always")
def _copy_pv(pv, pv_len, ply, move):  # type: ignore[no-untyped-def]
    n = pv_len[ply + 1]
    pv[ply, 0] = move
    for k in range(n):
        pv[ply, k + 1] = pv[ply + 1, k]
    pv_len[ply] = n + 1


@njit(cache=True, _nrt=False)
def _frontier(P, O, moves, alpha, beta, ply, eval_id, W, ctl, pv, pv_len):  # type: ignore[no-untyped-def]
    """A node one ply above the horizon: its children are evaluated in place (no call, no table), which is
    where most of the nodes are; same values as searching them with ``pvs`` at depth 0."""
    best = -INF
    m = moves
    while m:
        sq = lowest_index(m)
        m &= m - ONE
        f = flips(P, O, sq)
        cp = O ^ f
        co = P ^ f ^ (ONE << sq)
        ctl[NODES] += 1
        if get_moves(cp, co) == 0 and get_moves(co, cp) == 0:
            v = -terminal(cp, co)
        else:
            v = -evaluate(cp, co, eval_id, W)
        if v > best:
            best = v
            if v > alpha:
                pv[ply, 0] = sq
                pv_len[ply] = 1
                if v >= beta:
                    return v
                alpha = v
    return best


@njit(cache=True, _nrt=False)
def pvs(P, O, depth, alpha, beta, ply, tt, eval_id, W, ctl, bufs):  # type: ignore[no-untyped-def]
    """Negamax PVS value of (P, O) searched ``depth`` plies, fail-soft, window (alpha, beta)."""
    pv, pv_len, mbuf, kbuf, fbuf, _ = bufs
    ctl[NODES] += 1
    pv_len[ply] = 0
    if ctl[STOP] != 0:
        return 0.0
    moves = get_moves(P, O)
    if moves == 0:
        if get_moves(O, P) == 0:
            return terminal(P, O)
        if depth == 0:
            return evaluate(P, O, eval_id, W)
        v = -pvs(O, P, depth - 1, -beta, -alpha, ply + 1, tt, eval_id, W, ctl, bufs)
        _copy_pv(pv, pv_len, ply, PASS)
        return v
    if depth == 0 or ply >= MAX_PLY:
        return evaluate(P, O, eval_id, W)
    if depth == 1:
        return _frontier(P, O, moves, alpha, beta, ply, eval_id, W, ctl, pv, pv_len)

    hash_move = -2
    e = probe(tt, P, O)
    if e >= 0:
        hash_move = tt[5][e]
        if tt[4][e] == depth:  # equal, not deeper: values stay those of a depth-limited search
            lo = tt[2][e]
            up = tt[3][e]
            if lo >= beta:
                return lo
            if up <= alpha:
                return up
            if lo == up:
                pv[ply, 0] = hash_move
                pv_len[ply] = 1
                return lo
            if lo > alpha:
                alpha = lo
            if up < beta:
                beta = up
    a0 = alpha
    b0 = beta

    n = 0
    m = moves
    while m:
        sq = lowest_index(m)
        m &= m - ONE
        f = flips(P, O, sq)
        mbuf[ply, n] = sq
        fbuf[ply, n] = f
        if sq == hash_move:
            key = np.int64(1 << 30)
        elif depth >= 2:
            np_ = P ^ f ^ (ONE << sq)
            no = O ^ f
            reply = get_moves(no, np_)
            key = SQUARE_VALUE[sq] - 16 * np.int64(popcount(reply)) - 24 * np.int64(popcount(reply & CORNERS))
        else:
            key = SQUARE_VALUE[sq]
        kbuf[ply, n] = key
        n += 1

    best = -INF
    best_move = -2
    for i in range(n):
        # lazy selection sort: the best remaining move to slot i
        b = i
        for j in range(i + 1, n):
            if kbuf[ply, j] > kbuf[ply, b]:
                b = j
        if b != i:
            t = mbuf[ply, i]
            mbuf[ply, i] = mbuf[ply, b]
            mbuf[ply, b] = t
            tk = kbuf[ply, i]
            kbuf[ply, i] = kbuf[ply, b]
            kbuf[ply, b] = tk
            tf = fbuf[ply, i]
            fbuf[ply, i] = fbuf[ply, b]
            fbuf[ply, b] = tf
        sq = mbuf[ply, i]
        f = fbuf[ply, i]
        cp = O ^ f
        co = P ^ f ^ (ONE << sq)
        if i == 0:
            v = -pvs(cp, co, depth - 1, -beta, -alpha, ply + 1, tt, eval_id, W, ctl, bufs)
        else:
            v = -pvs(cp, co, depth - 1, -alpha - _null_window(eval_id), -alpha, ply + 1, tt, eval_id, W, ctl, bufs)
            if alpha < v < beta and ctl[STOP] == 0:
                v = -pvs(cp, co, depth - 1, -beta, -alpha, ply + 1, tt, eval_id, W, ctl, bufs)
        if ctl[STOP] != 0:
            return 0.0
        if v > best:
            best = v
            best_move = sq
            if v > alpha:
                _copy_pv(pv, pv_len, ply, sq)
                if v >= beta:
                    break
                alpha = v
    store(tt, P, O, depth, a0, b0, best, best_move)
    return best


@njit(cache=True, _nrt=False)
def _kth_best(values, flags, count, k):  # type: ignore[no-untyped-def]
    """The k-th largest value among the first ``count`` entries that are not upper bounds (-inf if fewer):
    the value with fewer than k others above it and at least k counting its equals (no scratch array)."""
    for i in range(count):
        if flags[i] == 1:
            continue
        v = values[i]
        above = 0
        equal = 0
        for j in range(count):
            if flags[j] != 1:
                if values[j] > v:
                    above += 1
                elif values[j] == v:
                    equal += 1
        if above < k <= above + equal:
            return v
    return -INF


@njit(cache=True, nogil=True, _nrt=False)
def search_root(P, O, depth, alpha, beta, root_moves, multipv, values, flags, root_pv, root_pv_len,
                tt, eval_id, W, ctl, bufs):  # type: ignore[no-untyped-def]
    """Search the root moves in the given order; returns how many were completed before a stop.

    ``values[i]`` is the value of ``root_moves[i]``; ``flags[i]`` 0 = exact, 1 = upper bound (not among the
    best ``multipv``), 2 = lower bound (fail high of the aspiration window).  ``root_pv[i]`` its variation.
    """
    pv, pv_len, _, _, _, _ = bufs
    ROOT_PLY = np.int64(1)
    ctl[NODES] += 1
    n = root_moves.shape[0]
    for i in range(n):
        sq = root_moves[i]
        if sq == PASS:
            cp = O
            co = P
        else:
            f = flips(P, O, sq)
            cp = O ^ f
            co = P ^ f ^ (ONE << sq)
        a = alpha
        if i >= multipv:
            kth = _kth_best(values, flags, i, multipv)
            if kth > a:
                a = kth
        if i == 0 or a == -INF:
            v = -pvs(cp, co, depth - 1, -beta, -a, ROOT_PLY, tt, eval_id, W, ctl, bufs)
        else:
            v = -pvs(cp, co, depth - 1, -a - _null_window(eval_id), -a, ROOT_PLY, tt, eval_id, W, ctl, bufs)
            if a < v < beta and ctl[STOP] == 0:
                v = -pvs(cp, co, depth - 1, -beta, -a, ROOT_PLY, tt, eval_id, W, ctl, bufs)
        if ctl[STOP] != 0:
            return i
        values[i] = v
        if v <= a:
            flags[i] = 1
        elif v >= beta:
            flags[i] = 2
        else:
            flags[i] = 0
        root_pv[i, 0] = sq
        k = pv_len[1]
        for j in range(k):
            root_pv[i, j + 1] = pv[1, j]
        root_pv_len[i] = k + 1
        if v >= beta and multipv == 1:
            return i + 1
    return n
