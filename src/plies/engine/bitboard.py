"""Compiled 8x8 bitboard kernels: legal moves, flips, popcount, mobility (numba, ``cache=True``).

A position is ``(P, O)``: two ``uint64`` masks, the discs of the side to move and of its opponent.  Square
``sq`` is bit ``sq`` with a1 = 0, h1 = 7, a2 = 8 ... h8 = 63 (the same numbering as ``plies.games.othello``).
Move generation shifts the whole board in the 8 directions (parallel prefix, 6 steps in 4 shifts); flips
look along the 8 rays of the square and find the first non-opponent disc with a bit scan, without branches.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

U64 = np.uint64
FULL = U64(0xFFFFFFFFFFFFFFFF)
INNER_COLS = U64(0x7E7E7E7E7E7E7E7E)   # files b..g: an opponent run along a row or diagonal lies there
HIGH_BIT = U64(0x8000000000000000)
ONE = U64(1)
ZERO = U64(0)
CORNERS = U64(0x8100000000000081)
NOT_COL_A = U64(0xFEFEFEFEFEFEFEFE)
NOT_COL_H = U64(0x7F7F7F7F7F7F7F7F)

_S1 = U64(1)
_S7 = U64(7)
_S8 = U64(8)
_S9 = U64(9)
_S14 = U64(14)
_S16 = U64(16)
_S18 = U64(18)
_S2 = U64(2)

# --- bit intrinsics (LLVM ctpop / cttz / ctlz: one instruction each on x86-64) ------------------------------


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of a uint64."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_index(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit (count trailing zeros); 64 for 0."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def leading_zeros(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of leading zero bits; 64 for 0."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


# --- rays ---------------------------------------------------------------------------------------------------


def _build_rays() -> tuple[np.ndarray, np.ndarray]:
    """RAYS_UP[d, sq] / RAYS_DOWN[d, sq]: squares seen from ``sq`` in the 4 directions of growing / shrinking
    bit index (E, S, SE, SW and W, N, NW, NE), the square itself excluded."""
    up = np.zeros((4, 64), dtype=np.uint64)
    down = np.zeros((4, 64), dtype=np.uint64)
    dirs_up = ((0, 1), (1, 0), (1, 1), (1, -1))
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        for k, (dr, dc) in enumerate(dirs_up):
            for sign, table in ((1, up), (-1, down)):
                r, c, m = r0 + sign * dr, c0 + sign * dc, 0
                while 0 <= r < 8 and 0 <= c < 8:
                    m |= 1 << (r * 8 + c)
                    r, c = r + sign * dr, c + sign * dc
                table[k, sq] = np.uint64(m)
    return up, down


RAYS_UP, RAYS_DOWN = _build_rays()
SQUARE_BIT = np.array([1 << i for i in range(64)], dtype=np.uint64)


# --- kernels ------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _dir_moves(P, M, d, d2):  # type: ignore[no-untyped-def]
    fl = M & (P << d)
    fr = M & (P >> d)
    fl |= M & (fl << d)
    fr |= M & (fr >> d)
    pl = M & (M << d)
    pr = pl >> d
    fl |= pl & (fl << d2)
    fr |= pr & (fr >> d2)
    fl |= pl & (fl << d2)
    fr |= pr & (fr >> d2)
    return (fl << d) | (fr >> d)


@njit(cache=True)
def get_moves(P, O):  # type: ignore[no-untyped-def]
    """Bitmask of the legal moves of the side owning ``P`` (uint64 in, uint64 out)."""
    M = O & INNER_COLS
    moves = _dir_moves(P, M, _S1, _S2)
    moves |= _dir_moves(P, O, _S8, _S16)
    moves |= _dir_moves(P, M, _S7, _S14)
    moves |= _dir_moves(P, M, _S9, _S18)
    return moves & ~(P | O)


@njit(cache=True)
def flips(P, O, sq):  # type: ignore[no-untyped-def]
    """Opponent discs turned over by a disc of ``P`` on empty square ``sq`` (0: the move is illegal).
    Branch-free: each ray's run is masked in or out, as a mispredicted branch per ray cost more than the walk."""
    f = ZERO
    notO = ~O
    for d in range(4):
        ray = RAYS_UP[d, sq]
        x = ray & notO
        lb = x & (~x + ONE)  # first square that is not the opponent's, going up
        f |= ray & (lb - ONE) & (ZERO - U64((lb & P) != ZERO))
        ray = RAYS_DOWN[d, sq]
        hb = HIGH_BIT >> leading_zeros((ray & notO) | ONE)  # first such square going down
        f |= ray & ~(hb | (hb - ONE)) & (ZERO - U64((hb & P & ray) != ZERO))
    return f


@njit(cache=True)
def count_moves(P, O):  # type: ignore[no-untyped-def]
    """Mobility: the number of legal moves of ``P``."""
    return popcount(get_moves(P, O))


@njit(cache=True)
def potential_moves(P, O):  # type: ignore[no-untyped-def]
    """Empty squares next to an opponent disc (potential mobility, frontier of ``O``)."""
    n = ((O << _S1) & NOT_COL_A) | ((O >> _S1) & NOT_COL_H) | (O << _S8) | (O >> _S8)
    n |= ((O << _S9) & NOT_COL_A) | ((O >> _S9) & NOT_COL_H) | ((O << _S7) & NOT_COL_H) | ((O >> _S7) & NOT_COL_A)
    return n & ~(P | O)


@njit(cache=True)
def final_score(P, O):  # type: ignore[no-untyped-def]
    """Exact disc difference for ``P`` of a finished game, empty squares to the winner (int64)."""
    p = np.int64(popcount(P))
    o = np.int64(popcount(O))
    e = 64 - p - o
    d = p - o
    if d > 0:
        d += e
    elif d < 0:
        d -= e
    return d


def to_u64(x: int) -> np.uint64:
    """A Python int bitboard as numpy uint64."""
    return np.uint64(x & 0xFFFFFFFFFFFFFFFF)


def position(state: object) -> tuple[np.uint64, np.uint64]:
    """(P, O) of an 8x8 ``OthelloState``: side to move first."""
    own, opp = state.own_opp()  # type: ignore[attr-defined]
    return to_u64(own), to_u64(opp)
