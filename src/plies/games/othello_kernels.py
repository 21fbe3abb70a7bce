"""Compiled (numba) move generation for 8x8 Othello, used by ``OthelloState`` when the board is 8x8.

The same rules as the pure-Python functions in ``plies.games.othello`` (which stay the reference and serve the
other board sizes), on 64-bit masks: square ``sq`` is bit ``sq``, a1 = 0 ... h8 = 63.  Signatures are explicit,
so the kernels compile once (cached on disk) and Python ints go in and come out without conversions.

``play8`` does a whole move in one call (the disc flips and the next player's legal squares), since each call
from Python costs far more than the bit work inside it.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, types, uint64

INNER = np.uint64(0x7E7E7E7E7E7E7E7E)  # files b..g: where a run of discs along a row or diagonal can lie
ZERO = np.uint64(0)
ONE = np.uint64(1)
S1, S7, S8, S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


@njit(uint64(uint64, uint64, uint64, uint64), cache=True)
def _one_direction(own, opp, empty, s):  # type: ignore[no-untyped-def]
    """Moves of ``own`` along one axis (both ways): runs of ``opp`` discs from an own disc ending on an empty."""
    t = opp & (own << s)
    for _ in range(5):
        t |= opp & (t << s)
    moves = empty & (t << s)
    t = opp & (own >> s)
    for _ in range(5):
        t |= opp & (t >> s)
    return moves | (empty & (t >> s))


@njit(uint64(uint64, uint64), cache=True)
def legal_mask8(own, opp):  # type: ignore[no-untyped-def]
    """Bitmask of the squares where the side owning ``own`` may play."""
    empty = ~(own | opp)
    inner = opp & INNER
    moves = _one_direction(own, inner, empty, S1)
    moves |= _one_direction(own, opp, empty, S8)
    moves |= _one_direction(own, inner, empty, S7)
    moves |= _one_direction(own, inner, empty, S9)
    return moves


@njit(uint64(uint64, uint64, int64), cache=True)
def flips8(own, opp, sq):  # type: ignore[no-untyped-def]
    """Bitmask of the opponent discs that a disc placed on ``sq`` turns over (0 if none)."""
    r, c = sq // 8, sq % 8
    total = ZERO
    for dr, dc in DIRECTIONS:
        rr, cc = r + dr, c + dc
        line = ZERO
        while 0 <= rr < 8 and 0 <= cc < 8:
            b = ONE << np.uint64(rr * 8 + cc)
            if opp & b:
                line |= b
            elif own & b:
                total |= line
                break
            else:
                break
            rr += dr
            cc += dc
    return total


@njit(types.UniTuple(uint64, 3)(uint64, uint64, int64), cache=True)
def play8(own, opp, sq):  # type: ignore[no-untyped-def]
    """The side owning ``own`` plays ``sq``: (its discs after, the opponent's discs after, the opponent's legal
    squares after), or (0, 0, 0) when the move is illegal (off the board, occupied, or flipping nothing)."""
    if sq < 0 or sq > 63:
        return ZERO, ZERO, ZERO
    bit = ONE << np.uint64(sq)
    if (own | opp) & bit:
        return ZERO, ZERO, ZERO
    f = flips8(own, opp, sq)
    if f == ZERO:
        return ZERO, ZERO, ZERO
    own |= f | bit
    opp ^= f
    return own, opp, legal_mask8(opp, own)
