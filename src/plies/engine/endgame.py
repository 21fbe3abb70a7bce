"""Compiled exact endgame solver: the final disc difference under perfect play (or just win/draw/loss).

Three layers, as in strong solvers: with many empties, principal-variation search with the transposition
table, enhanced transposition cut-offs and stability cut-offs (and probcut in a selective search), moves
ordered hash move first, then by a shallow search with the learned evaluation (15+ empties; the midgame
presearch's move where the solver has none yet), fastest first (fewest opponent replies), the mover's
stable discs at the corners, corners and quadrant parity; from ``MID_EMPTIES`` empties down, the same without
the table; from ``SHALLOW_EMPTIES`` down, no move generation at all: the empty squares are tried in parity
order (odd quadrants first), and the last four empties have their own written-out code (the last one only
counts flips, with one table look-up per line through the square, and the opponent's only when they can change
the result).  Values are int64 from the side to move's view, empty squares going to the winner.

A selective search (``ctl[SELECT]`` > 0) also cuts a node off when a shallow search with the learned
evaluation predicts, with that confidence, that the exact value falls outside the window (Buro's probcut).
Its values are estimates; ``Engine`` runs one before a long exact solve only to fill the table with best
moves (and the root with a move order), as Edax does: its entries are tagged so an exact search takes their
moves but never their bounds.

The kernels are compiled without numba's reference counting (``_nrt=False``): every array they touch belongs
to an ``Engine`` that outlives the call, and none of them allocates, so the atomic count updates numba adds
for each array argument, tuple unpacking and row view were pure cost (7-15% of the solver's profile samples).
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from numba import njit

from plies.engine.bitboard import (
    ANTI_MASK,
    CORNERS,
    DIAG_MASK,
    FILE_A,
    FLIPPED,
    GATHER_BYTES,
    GATHER_FILE,
    ONE,
    OUTFLANK,
    ZERO,
    flips,
    get_moves,
    lowest_index,
    popcount,
)
from plies.engine.eval import evaluate_default, stable_discs
from plies.engine.hashtable import probe, store
from plies.engine.midgame import LIST_SLOTS, SQUARE_VALUE, _kth_best
from plies.engine.rawmem import add_at, load_at, store_at
from plies.train.patterns import evaluate_patterns

PASS = -1
NONE = -100          # below any score
SHALLOW_EMPTIES = 6  # <= this: parity order, no move generation
MID_EMPTIES = 10     # <= this: no transposition table
ETC_EMPTIES = 14     # >= this: enhanced transposition cut-offs
# Move ordering with many empties adds the (learned) evaluation of the position a move leads to:
SORT_SEARCH2_EMPTIES = 21  # >= this: searched two plies
SORT_SEARCH_EMPTIES = 18   # >= this: searched one ply
SORT_EVAL_EMPTIES = 15     # >= this: evaluated statically
ORDER_LEARNED_SCALE = 5.0  # learned evaluation (discs) to default-evaluation units, for ordering
NODES, STOP, SELECT = 0, 1, 2  # ctl slots: node count, stop flag, probcut confidence (t x 100; 0 = exact)
SELECTIVE_TAG = 64     # table depth of a selective result: 64 + empties (an exact search never takes its bounds)
PROBCUT_EMPTIES = 14   # >= this: probcut in a selective search

QUADRANTS = np.array([0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
                     dtype=np.uint64)


# Stability cut-off is tried only when alpha is high enough for it to have a chance (by empties).
STABILITY_THRESHOLD = np.array([99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38,
                                40, 42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62]
                               + [64] * 30, dtype=np.int64)


# probcut: the depth of the shallow search at each number of empties, and the spread (discs) assumed for the
# exact score around its value (the learned evaluation predicts the final disc difference)
PC_DEPTH = np.array([max(2, 2 * ((e - 10) // 4)) for e in range(65)], dtype=np.int64)
PC_SIGMA = 5.0


@njit(cache=True, _nrt=False, inline="always")
def _final(P, O):  # type: ignore[no-untyped-def]
    p = np.int64(popcount(P))
    o = np.int64(popcount(O))
    d = p - o
    e = 64 - p - o
    if d > 0:
        return d + e
    if d < 0:
        return d - e
    return d


def _last_flip_table() -> np.ndarray:
    """LINE_FLIPS[pos, bits]: discs turned on a line of 8 by a move at ``pos`` when ``bits`` are the mover's and
    every other square is the opponent's."""
    line = np.zeros((8, 256), dtype=np.int64)
    for pos in range(8):
        for bits in range(256):
            if not bits >> pos & 1:
                opponent = 0xFF & ~bits & ~(1 << pos)
                line[pos, bits] = bin(FLIPPED[pos, OUTFLANK[pos, opponent >> 1 & 63] & bits]).count("1")
    return line


LINE_FLIPS = _last_flip_table()
S56 = np.uint64(56)


@njit(cache=True, _nrt=False, inline="always")
def last_flip_count(P, sq):  # type: ignore[no-untyped-def]
    """Discs turned over by P playing ``sq`` when every other square is full (the opponent owns the rest):
    four table look-ups, one per line through ``sq``."""
    r = sq >> 3
    c = sq & 7
    n = LINE_FLIPS[c, (P >> (r * 8)) & np.uint64(0xFF)]
    n += LINE_FLIPS[r, (((P >> c) & FILE_A) * GATHER_FILE) >> S56]
    n += LINE_FLIPS[c, ((P & DIAG_MASK[sq]) * GATHER_BYTES) >> S56]
    n += LINE_FLIPS[c, ((P & ANTI_MASK[sq]) * GATHER_BYTES) >> S56]
    return n


@njit(cache=True, _nrt=False, inline="always")
def solve_1(P, sq, O, alpha):  # type: ignore[no-untyped-def]
    """Score with one empty square ``sq`` (P to move), exact unless it is at most ``alpha``: when P cannot play
    ``sq``, the opponent's flips only lower the score, so they are not counted if the score without them
    already fails low (Edax's lazy last move)."""
    p = np.int64(popcount(P))
    n = last_flip_count(P, sq)
    if n:
        return 2 * (p + n + 1) - 64
    d = 2 * p - 63
    d = d + 1 if d > 0 else d - 1  # the score if nobody can play sq: an upper bound when only the opponent can
    if d <= alpha:
        return d
    n = last_flip_count(O, sq)
    if n:
        return 2 * (p - n) - 64
    return d


@njit(cache=True, _nrt=False, inline="always")
def _stability_cut(P, O, alpha, empties):  # type: ignore[no-untyped-def]
    """The upper bound 64 - 2 x (the opponent's stable discs) when it is at most ``alpha`` (a cut-off), else NONE;
    only tried when alpha is high enough for the count to be worth it (``STABILITY_THRESHOLD``, 4+ empties)."""
    # stable discs are at most all the opponent's: when even those could not cut, skip the count
    if alpha >= STABILITY_THRESHOLD[empties] and 64 - 2 * np.int64(popcount(O)) <= alpha:
        bound = 64 - 2 * np.int64(popcount(stable_discs(O, P)))
        if bound <= alpha:
            return bound
    return NONE


@njit(cache=True, _nrt=False)
def solve_2(P, O, alpha, beta, x1, x2, passed, nodes):  # type: ignore[no-untyped-def]
    """Exact-within-window score with two empties ``x1``, ``x2`` (``nodes``: the address of the node counter)."""
    best = NONE
    n = 1
    f = flips(P, O, x1)
    if f:
        n += 1
        best = -solve_1(O ^ f, x2, P ^ f ^ (ONE << x1), -beta)
        if best >= beta:
            add_at(nodes, NODES, n)
            return best
    f = flips(P, O, x2)
    if f:
        n += 1
        v = -solve_1(O ^ f, x1, P ^ f ^ (ONE << x2), -beta)
        if v > best:
            best = v
    add_at(nodes, NODES, n)
    if best == NONE:
        if passed:
            return _final(P, O)
        return -solve_2(O, P, -beta, -alpha, x1, x2, np.int64(1), nodes)
    return best


@njit(cache=True, _nrt=False, inline="always")
def _parity_mask(E):  # type: ignore[no-untyped-def]
    odd = ZERO
    for q in range(4):
        if popcount(E & QUADRANTS[q]) & ONE:
            odd |= QUADRANTS[q]
    return odd


@njit(cache=True, _nrt=False, inline="always")
def _quadrant(sq):  # type: ignore[no-untyped-def]
    """Quadrant of a square, as in ``QUADRANTS`` (row half x 2 + column half)."""
    return (sq >> 5) * 2 + ((sq >> 2) & 1)


@njit(cache=True, _nrt=False, inline="always")
def _try_3(P, O, alpha, beta, sq, y, z, nodes):  # type: ignore[no-untyped-def]
    """-(value after P plays ``sq``, the two other empties ``y`` < ``z`` left), NONE when ``sq`` is illegal."""
    f = flips(P, O, sq)
    if not f:
        return NONE
    return -solve_2(O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, y, z, np.int64(0), nodes)


@njit(cache=True, _nrt=False)
def solve_3(P, O, alpha, beta, x1, x2, x3, passed, nodes):  # type: ignore[no-untyped-def]
    """Exact-within-window score with three empties ``x1`` < ``x2`` < ``x3``, written out (no loop, no scan of
    the board): a square alone in its quadrant first, as the parity order of ``search_shallow``."""
    add_at(nodes, NODES, 1)
    q1 = _quadrant(x1)
    q2 = _quadrant(x2)
    q3 = _quadrant(x3)
    # play order a, b, c: the odd-quadrant squares first, each group by index
    a, b, c = x1, x2, x3
    if q1 == q2 and q1 != q3:
        a, b, c = x3, x1, x2
    elif q1 == q3 and q1 != q2:
        a, b, c = x2, x1, x3
    best = _try_3(P, O, alpha, beta, a, min(b, c), max(b, c), nodes)
    if best >= beta:
        return best
    if best > alpha:
        alpha = best
    v = _try_3(P, O, alpha, beta, b, min(a, c), max(a, c), nodes)
    if v > best:
        best = v
        if v >= beta:
            return v
        if v > alpha:
            alpha = v
    v = _try_3(P, O, alpha, beta, c, min(a, b), max(a, b), nodes)
    if v > best:
        best = v
    if best == NONE:
        if passed:
            return _final(P, O)
        return -solve_3(O, P, -beta, -alpha, x1, x2, x3, np.int64(1), nodes)
    return best


@njit(cache=True, _nrt=False, inline="always")
def _rest_3(x1, x2, x3, x4, sq):  # type: ignore[no-untyped-def]
    """The three of ``x1`` < ``x2`` < ``x3`` < ``x4`` other than ``sq``, in index order."""
    if sq == x1:
        return x2, x3, x4
    if sq == x2:
        return x1, x3, x4
    if sq == x3:
        return x1, x2, x4
    return x1, x2, x3


@njit(cache=True, _nrt=False, inline="always")
def _try_4(P, O, alpha, beta, sq, x1, x2, x3, x4, nodes):  # type: ignore[no-untyped-def]
    """-(value after P plays ``sq``, one of the four empties), NONE when ``sq`` is illegal."""
    f = flips(P, O, sq)
    if not f:
        return NONE
    y1, y2, y3 = _rest_3(x1, x2, x3, x4, sq)
    return -solve_3(O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, y1, y2, y3, np.int64(0), nodes)


@njit(cache=True, _nrt=False)
def solve_4(P, O, alpha, beta, x1, x2, x3, x4, passed, nodes):  # type: ignore[no-untyped-def]
    """Exact-within-window score with four empties ``x1`` < ``x2`` < ``x3`` < ``x4``, no board scan: stability
    cut-off, then the squares in ``search_shallow``'s parity order (odd quadrants first, each group by index),
    the parity found from the four squares' quadrants once, before the tries."""
    add_at(nodes, NODES, 1)
    bound = _stability_cut(P, O, alpha, np.int64(4))
    if bound != NONE:
        return bound
    q1 = _quadrant(x1)
    q2 = _quadrant(x2)
    q3 = _quadrant(x3)
    q4 = _quadrant(x4)
    # Odd quadrants first: with quadrant sizes 1+1+1+1 or 3+1 every square is in an odd one, with 2+2 or 4 none,
    # so index order; only with 2+1+1 (one equal pair among the six) do the two single squares go first.
    a, b, c, d = x1, x2, x3, x4
    if (q1 == q2) + (q1 == q3) + (q1 == q4) + (q2 == q3) + (q2 == q4) + (q3 == q4) == 1:
        if q1 == q2:
            a, b, c, d = x3, x4, x1, x2
        elif q1 == q3:
            a, b, c, d = x2, x4, x1, x3
        elif q1 == q4:
            a, b, c, d = x2, x3, x1, x4
        elif q2 == q3:
            a, b, c, d = x1, x4, x2, x3
        elif q2 == q4:
            a, b, c, d = x1, x3, x2, x4
        # else q3 == q4: the single squares x1, x2 already come first
    best = NONE
    for sq in (a, b, c, d):  # as fast as the four tries written out (measured)
        v = _try_4(P, O, alpha, beta, sq, x1, x2, x3, x4, nodes)
        if v > best:
            best = v
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
    if best == NONE:
        if passed:
            return _final(P, O)
        return -solve_4(O, P, -beta, -alpha, x1, x2, x3, x4, np.int64(1), nodes)
    return best


@njit(cache=True, _nrt=False)
def search_shallow(P, O, alpha, beta, empties, passed, nodes):  # type: ignore[no-untyped-def]
    """Alpha-beta over the empty squares in parity order (odd quadrants first), for few empties (``nodes``: the
    address of the node counter, ``ctl.ctypes.data``); four, three and two empties have their own code."""
    E = ~(P | O)
    if empties <= 3:
        x1 = lowest_index(E)
        E &= E - ONE
        x2 = lowest_index(E)
        if empties == 2:
            return solve_2(P, O, alpha, beta, x1, x2, passed, nodes)
        return solve_3(P, O, alpha, beta, x1, x2, lowest_index(E & (E - ONE)), passed, nodes)
    if empties == 4:
        x1 = lowest_index(E)
        E &= E - ONE
        x2 = lowest_index(E)
        E &= E - ONE
        x3 = lowest_index(E)
        return solve_4(P, O, alpha, beta, x1, x2, x3, lowest_index(E & (E - ONE)), passed, nodes)
    add_at(nodes, NODES, 1)
    bound = _stability_cut(P, O, alpha, empties)
    if bound != NONE:
        return bound
    odd = _parity_mask(E)
    best = NONE
    for part in range(2):
        m = E & odd if part == 0 else E & ~odd
        while m:
            sq = lowest_index(m)
            m &= m - ONE
            f = flips(P, O, sq)
            if not f:
                continue
            if empties == 5:
                r = E ^ (ONE << sq)
                x1 = lowest_index(r)
                r &= r - ONE
                x2 = lowest_index(r)
                r &= r - ONE
                x3 = lowest_index(r)
                v = -solve_4(O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, x1, x2, x3, lowest_index(r & (r - ONE)),
                             np.int64(0), nodes)
            else:
                v = -search_shallow(O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, empties - 1, np.int64(0), nodes)
            if v > best:
                best = v
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
    if best == NONE:
        if passed:
            return _final(P, O)
        return -search_shallow(O, P, -beta, -alpha, empties, np.int64(1), nodes)
    return best


ORDER_CORNER_STABLE = 20  # move-ordering bonus per stable disc of the mover at a corner (64 = one reply fewer)
ORDER_PARITY = 16  # move-ordering bonus for a move into an odd quadrant
ORDER_CORNER_REPLY = 64  # move-ordering penalty for each corner the opponent could take next (on top of 64 a reply)


@njit(cache=True, _nrt=False, inline="always")
def _corner_stable(P):  # type: ignore[no-untyped-def]
    """P's corners and P's edge squares next to its corners (stable: a cheap count for move ordering)."""
    c = P & CORNERS
    s = ((c & np.uint64(0x0100000000000001)) << ONE) | ((c & np.uint64(0x8000000000000080)) >> ONE)
    s |= ((c & np.uint64(0x81)) << np.uint64(8)) | ((c & np.uint64(0x8100000000000000)) >> np.uint64(8))
    return (s & P) | c


@njit(cache=True, _nrt=False, inline="always")
def _order_key(P, O, sq, f, odd):  # type: ignore[no-untyped-def]
    """Fastest first: fewer opponent replies (corners count double) is better; then the mover's discs made
    stable at the corners (as Edax), parity and square."""
    np_ = P ^ f ^ (ONE << sq)
    no = O ^ f
    reply = get_moves(no, np_)
    key = -64 * np.int64(popcount(reply)) - ORDER_CORNER_REPLY * np.int64(popcount(reply & CORNERS))
    key += SQUARE_VALUE[sq]
    key += ORDER_CORNER_STABLE * np.int64(popcount(_corner_stable(np_)))
    if odd & (ONE << sq):
        key += ORDER_PARITY
    return key


@njit(cache=True, _nrt=False, inline="always")
def _order_eval(P, O, W):  # type: ignore[no-untyped-def]
    """Evaluation that orders moves, in default-evaluation units (about 10 a disc): the learned pattern
    evaluation when its weights ``W`` are given, else the hand-made default."""
    if W.shape[0] > 1:
        return np.int64(ORDER_LEARNED_SCALE * evaluate_patterns(P, O, W))
    return evaluate_default(P, O)


@njit(cache=True, _nrt=False)
def _eval_1ply(P, O, W):  # type: ignore[no-untyped-def]
    """A one-ply search with the ordering evaluation (for move ordering with many empties)."""
    moves = get_moves(P, O)
    if moves == 0:
        return -_order_eval(O, P, W)
    best = np.int64(-(1 << 40))
    while moves:
        sq = lowest_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        v = -_order_eval(O ^ f, P ^ f ^ (ONE << sq), W)
        if v > best:
            best = v
    return best


@njit(cache=True, _nrt=False)
def _eval_1ply_min(P, O, W):  # type: ignore[no-untyped-def]
    """A two-ply search with the ordering evaluation, from the opponent's side (for ordering near the root)."""
    moves = get_moves(P, O)
    if moves == 0:
        return _eval_1ply(O, P, W)
    worst = np.int64(1 << 40)
    while moves:
        sq = lowest_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        v = _eval_1ply(O ^ f, P ^ f ^ (ONE << sq), W)
        if v < worst:
            worst = v
    return worst


@njit(cache=True, _nrt=False)
def _shallow_value(P, O, depth, alpha, beta, W, ctl):  # type: ignore[no-untyped-def]
    """Fail-soft alpha-beta to ``depth`` with the learned evaluation (discs): probcut's estimate."""
    ctl[NODES] += 1
    if depth == 0:
        return evaluate_patterns(P, O, W)
    moves = get_moves(P, O)
    if moves == 0:
        if get_moves(O, P) == 0:
            return float(_final(P, O))
        return -_shallow_value(O, P, depth, -beta, -alpha, W, ctl)
    best = -1e9
    while moves:
        sq = lowest_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        v = -_shallow_value(O ^ f, P ^ f ^ (ONE << sq), depth - 1, -beta, -alpha, W, ctl)
        if v > best:
            best = v
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
    return best


@njit(cache=True, _nrt=False)
def _probcut(P, O, alpha, beta, empties, W, ctl):  # type: ignore[no-untyped-def]
    """The bound (beta or alpha) that a shallow search puts the exact value beyond by ``ctl[SELECT] / 100``
    standard deviations, or NONE when it cannot say."""
    margin = ctl[SELECT] * 0.01 * PC_SIGMA
    d = PC_DEPTH[empties]
    if beta < 64:
        b = beta + margin
        if _shallow_value(P, O, d, b - 0.01, b, W, ctl) >= b:
            return beta
    if alpha > -64:
        a = alpha - margin
        if _shallow_value(P, O, d, a, a + 0.01, W, ctl) <= a:
            return alpha
    return NONE


@njit(cache=True, _nrt=False, inline="always")
def _select(mbuf, kbuf, fbuf, row, i, n):  # type: ignore[no-untyped-def]
    b = i
    for j in range(i + 1, n):
        if kbuf[row, j] > kbuf[row, b]:
            b = j
    if b != i:
        t = mbuf[row, i]
        mbuf[row, i] = mbuf[row, b]
        mbuf[row, b] = t
        tk = kbuf[row, i]
        kbuf[row, i] = kbuf[row, b]
        kbuf[row, b] = tk
        tf = fbuf[row, i]
        fbuf[row, i] = fbuf[row, b]
        fbuf[row, b] = tf


@njit(cache=True, _nrt=False)
def search_mid(P, O, alpha, beta, empties, passed, nodes, lists):  # type: ignore[no-untyped-def]
    """Alpha-beta with fastest-first ordering and stability cut-off, no table (medium number of empties).
    ``nodes`` and ``lists`` are addresses (``rawmem``): the node counter, and the scratch of move lists, one
    list of (square, key, flips) triples per number of empties."""
    add_at(nodes, NODES, 1)
    bound = _stability_cut(P, O, alpha, empties)
    if bound != NONE:
        return bound
    moves = get_moves(P, O)
    if moves == 0:
        if passed:
            return _final(P, O)
        if get_moves(O, P) == 0:
            return _final(P, O)
        return -search_mid(O, P, -beta, -alpha, empties, np.int64(1), nodes, lists)
    odd = _parity_mask(~(P | O))
    base = empties * LIST_SLOTS
    end = base
    while moves:
        sq = lowest_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        store_at(lists, end, sq)
        store_at(lists, end + 1, _order_key(P, O, sq, f, odd))
        store_at(lists, end + 2, np.int64(f))
        end += 3
    best = NONE
    for i in range(base, end, 3):
        b = i  # selection: the best remaining key; the triple at i moves to its slot
        kb = load_at(lists, i + 1)
        for j in range(i + 3, end, 3):
            kj = load_at(lists, j + 1)
            if kj > kb:
                b = j
                kb = kj
        sq = load_at(lists, b)
        f = np.uint64(load_at(lists, b + 2))
        if b != i:
            store_at(lists, b, load_at(lists, i))
            store_at(lists, b + 1, load_at(lists, i + 1))
            store_at(lists, b + 2, load_at(lists, i + 2))
        if empties - 1 <= SHALLOW_EMPTIES:
            v = -search_shallow(O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, empties - 1, np.int64(0), nodes)
        else:
            v = -search_mid(O ^ f, P ^ f ^ (ONE << sq), -beta, -alpha, empties - 1, np.int64(0), nodes, lists)
        if v > best:
            best = v
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
    return best


@njit(cache=True, _nrt=False, inline="always")
def _child(P, O, alpha, beta, empties, ply, tt, ctl, bufs, W, mtt):  # type: ignore[no-untyped-def]
    if empties <= MID_EMPTIES:
        if empties <= SHALLOW_EMPTIES:
            return search_shallow(P, O, alpha, beta, empties, np.int64(0), ctl.ctypes.data)
        return search_mid(P, O, alpha, beta, empties, np.int64(0), ctl.ctypes.data, bufs[5].ctypes.data)
    return search_deep(P, O, alpha, beta, empties, np.int64(0), ply, tt, ctl, bufs, W, mtt)


@njit(cache=True, _nrt=False)
def search_deep(P, O, alpha, beta, empties, passed, ply, tt, ctl, bufs, W, mtt):  # type: ignore[no-untyped-def]
    """PVS with transposition table, ETC and stability cut-offs (many empties); probcut when selective."""
    pv, pv_len, mbuf, kbuf, fbuf, _ = bufs
    ctl[NODES] += 1
    pv_len[ply] = 0
    if ctl[STOP] != 0:
        return np.int64(0)
    bound = _stability_cut(P, O, alpha, empties)
    if bound != NONE:
        return bound
    moves = get_moves(P, O)
    if moves == 0:
        if passed or get_moves(O, P) == 0:
            return _final(P, O)
        v = -search_deep(O, P, -beta, -alpha, empties, np.int64(1), ply + 1, tt, ctl, bufs, W, mtt)
        n = pv_len[ply + 1]
        pv[ply, 0] = PASS
        for k in range(n):
            pv[ply, k + 1] = pv[ply + 1, k]
        pv_len[ply] = n + 1
        return v
    tag = empties + SELECTIVE_TAG if ctl[SELECT] else empties  # the table depth of this search's results
    hash_move = -2
    e = probe(tt, P, O)
    if e < 0:  # not solved yet: the best move of the midgame search run before the solve, if it saw the node
        m = probe(mtt, P, O)
        if m >= 0:
            hash_move = mtt[5][m]
    else:
        hash_move = tt[5][e]
        if tt[4][e] == empties or tt[4][e] == tag:  # exact bounds serve every search, selective ones only
            lo = np.int64(tt[2][e]) if tt[2][e] > -1000.0 else NONE
            up = np.int64(tt[3][e]) if tt[3][e] < 1000.0 else -NONE
            if lo >= beta:
                return lo
            if up <= alpha:
                return up
            if lo > alpha:
                alpha = lo
            if up < beta:
                beta = up
            if alpha >= beta:
                return alpha
    if ctl[SELECT] and empties >= PROBCUT_EMPTIES and W.shape[0] > 1:
        v = _probcut(P, O, alpha, beta, empties, W, ctl)
        if v != NONE:
            return v
    a0 = alpha
    b0 = beta
    odd = _parity_mask(~(P | O))
    n = 0
    while moves:
        sq = lowest_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        cp = O ^ f
        co = P ^ f ^ (ONE << sq)
        if empties >= ETC_EMPTIES:
            c = probe(tt, cp, co)
            if c >= 0 and (tt[4][c] == empties - 1 or tt[4][c] == tag - 1) and tt[3][c] < 1000.0:
                v = -np.int64(tt[3][c])
                if v >= beta:
                    store(tt, P, O, tag, a0, b0, float(v), sq)
                    return v
        mbuf[ply, n] = sq
        fbuf[ply, n] = f
        if sq == hash_move:
            kbuf[ply, n] = np.int64(1 << 30)
        elif empties >= SORT_SEARCH2_EMPTIES:
            kbuf[ply, n] = _order_key(P, O, sq, f, odd) + 8 * _eval_1ply_min(cp, co, W)
        elif empties >= SORT_SEARCH_EMPTIES:
            kbuf[ply, n] = _order_key(P, O, sq, f, odd) - 8 * _eval_1ply(cp, co, W)
        elif empties >= SORT_EVAL_EMPTIES:
            kbuf[ply, n] = _order_key(P, O, sq, f, odd) - 8 * _order_eval(cp, co, W)
        else:
            kbuf[ply, n] = _order_key(P, O, sq, f, odd)
        n += 1
    best = NONE
    best_move = -2
    for i in range(n):
        _select(mbuf, kbuf, fbuf, ply, i, n)
        sq = mbuf[ply, i]
        f = fbuf[ply, i]
        cp = O ^ f
        co = P ^ f ^ (ONE << sq)
        if i == 0:
            v = -_child(cp, co, -beta, -alpha, empties - 1, ply + 1, tt, ctl, bufs, W, mtt)
        else:
            v = -_child(cp, co, -alpha - 1, -alpha, empties - 1, ply + 1, tt, ctl, bufs, W, mtt)
            if alpha < v < beta and ctl[STOP] == 0:
                v = -_child(cp, co, -beta, -alpha, empties - 1, ply + 1, tt, ctl, bufs, W, mtt)
        if ctl[STOP] != 0:
            return np.int64(0)
        if v > best:
            best = v
            best_move = sq
            if v > alpha:
                # the variation follows this move even when it cuts off: with a window narrowed by the table
                # a cut-off can be the node's exact value, and an earlier move's variation would be wrong
                m = pv_len[ply + 1] if empties - 1 > MID_EMPTIES else 0
                pv[ply, 0] = sq
                for k in range(m):
                    pv[ply, k + 1] = pv[ply + 1, k]
                pv_len[ply] = m + 1
                if v >= beta:
                    break
                alpha = v
    store(tt, P, O, tag, float(a0), float(b0), float(best), best_move)
    return best


@njit(cache=True, _nrt=False)
def solve(P, O, alpha, beta, ctl, tt, bufs, W, mtt):  # type: ignore[no-untyped-def]
    """Score of (P, O) within (alpha, beta), fail-soft, by the layer that fits its number of empties."""
    empties = 64 - np.int64(popcount(P | O))
    if empties <= SHALLOW_EMPTIES:
        if empties == 0:
            return _final(P, O)
        if empties == 1:
            ctl[NODES] += 1
            return solve_1(P, lowest_index(~(P | O)), O, alpha)
        return search_shallow(P, O, alpha, beta, empties, np.int64(0), ctl.ctypes.data)
    if empties <= MID_EMPTIES:
        return search_mid(P, O, alpha, beta, empties, np.int64(0), ctl.ctypes.data, bufs[5].ctypes.data)
    return search_deep(P, O, alpha, beta, empties, np.int64(0), np.int64(1), tt, ctl, bufs, W, mtt)


@njit(cache=True, _nrt=False, nogil=True)
def solve_root(P, O, alpha, beta, root_moves, multipv, values, flags, root_pv, root_pv_len,
               tt, ctl, bufs, W, mtt):  # type: ignore[no-untyped-def]
    """Exact values of the root moves in order, as ``midgame.search_root`` (flags 0 exact, 1 upper, 2 lower)."""
    pv, pv_len, _, _, _, _ = bufs
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
        if i >= multipv:  # later moves only need to beat the multipv-th best value so far
            kth = _kth_best(values, flags, i, multipv)
            if kth > a:
                a = np.int64(kth)
        pv_len[1] = 0
        if i == 0 or a <= NONE:
            v = -solve(cp, co, -beta, -a, ctl, tt, bufs, W, mtt)
        else:
            v = -solve(cp, co, -a - 1, -a, ctl, tt, bufs, W, mtt)
            if a < v < beta and ctl[STOP] == 0:
                v = -solve(cp, co, -beta, -a, ctl, tt, bufs, W, mtt)
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
