"""Compiled 8x8 bitboard kernels: legal moves, flips, popcount, mobility (numba, ``cache=True``).

A position is ``(P, O)``: two ``uint64`` masks, the discs of the side to move and of its opponent.  Square
``sq`` is bit ``sq`` with a1 = 0, h1 = 7, a2 = 8 ... h8 = 63 (the same numbering as ``plies.games.othello``).
Move generation and flips fill runs of opponent discs in the 8 directions, 4 at a time in a vector
(``plies.engine.simd``); scalar references check them: shifts for the moves, and for flips the 4 lines through
the square gathered into bytes (tables ``OUTFLANK`` and ``FLIPPED``, which also give the last-move counts).
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from plies.engine.simd import flips_vec, moves_vec

U64 = np.uint64
FULL = U64(0xFFFFFFFFFFFFFFFF)
INNER_COLS = U64(0x7E7E7E7E7E7E7E7E)   # files b..g: an opponent run along a row or diagonal lies there
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


# --- line tables ----------------------------------------------------------------------------------------------


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
    """Bitmask of the legal moves of the side owning ``P`` (uint64 in, uint64 out): the 4 line directions in
    one vector (``simd.moves_vec``)."""
    return moves_vec(P, O)


@njit(cache=True)
def get_moves_by_shifts(P, O):  # type: ignore[no-untyped-def]
    """``get_moves`` one direction at a time in scalar code: the reference the vector version is tested on."""
    M = O & INNER_COLS
    moves = _dir_moves(P, M, _S1, _S2)
    moves |= _dir_moves(P, O, _S8, _S16)
    moves |= _dir_moves(P, M, _S7, _S14)
    moves |= _dir_moves(P, M, _S9, _S18)
    return moves & ~(P | O)


def _line_tables() -> tuple[np.ndarray, ...]:
    """Tables for flips by lines (the "kindergarten" method): OUTFLANK[pos, o6] are the squares of a line of 8
    that would close a run of opponent discs (``o6``: the opponent's 6 inner squares) from ``pos``;
    FLIPPED[pos, ends] the squares between ``pos`` and those ends; DIAG_MASK / ANTI_MASK[sq] the diagonal and
    anti-diagonal through ``sq``; FILE_SPREAD[b] bit k of ``b`` to row k of file a."""
    outflank = np.zeros((8, 64), np.uint8)
    flipped = np.zeros((8, 256), np.uint8)
    for pos in range(8):
        for o6 in range(64):
            opp = o6 << 1
            if opp >> pos & 1:
                continue
            for step in (1, -1):
                k = pos + step
                if not (0 <= k < 8 and opp >> k & 1):
                    continue
                while 0 <= k < 8 and opp >> k & 1:
                    k += step
                if 0 <= k < 8:
                    outflank[pos, o6] |= 1 << k
        for ends in range(256):
            for k in range(8):
                if ends >> k & 1:
                    for j in range(min(k, pos) + 1, max(k, pos)):
                        flipped[pos, ends] |= 1 << j
    diag = np.zeros(64, dtype=np.uint64)
    anti = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for k in range(64):
            if k // 8 - k % 8 == r - c:
                diag[sq] |= np.uint64(1 << k)
            if k // 8 + k % 8 == r + c:
                anti[sq] |= np.uint64(1 << k)
    spread = np.array([sum(1 << (8 * k) for k in range(8) if b >> k & 1) for b in range(256)], dtype=np.uint64)
    return outflank, flipped, diag, anti, spread


OUTFLANK, FLIPPED, DIAG_MASK, ANTI_MASK, FILE_SPREAD = _line_tables()
FILE_A = U64(0x0101010101010101)
GATHER_FILE = U64(0x0102040810204080)  # file a's bits (8 apart) to one byte, row k to bit k
GATHER_BYTES = U64(0x0101010101010101)  # one square per column (a diagonal) to one byte, column c to bit c
_S56 = U64(56)
_S63 = U64(63)
_FF = U64(0xFF)


@njit(cache=True, inline="always")
def _line_flips(pos, p8, o8):  # type: ignore[no-untyped-def]
    """Squares of a line of 8 flipped by a disc at ``pos`` (``p8``, ``o8``: the two sides' discs on it)."""
    return U64(FLIPPED[pos, OUTFLANK[pos, (o8 >> _S1) & _S63] & p8])


@njit(cache=True)
def flips(P, O, sq):  # type: ignore[no-untyped-def]
    """Opponent discs turned over by a disc of ``P`` on empty square ``sq`` (0: the move is illegal): the 8
    directions as 4 vector lanes (``simd.flips_vec``)."""
    return flips_vec(P, O, sq)


@njit(cache=True)
def flips_by_lines(P, O, sq):  # type: ignore[no-untyped-def]
    """``flips`` by table look-ups (the reference the vector version is tested on; its tables also give the
    endgame's last-move counts).  Each of the 4 lines through ``sq`` is gathered into a byte, looked up, and
    scattered back, without branches."""
    r = sq >> 3
    c = sq & 7
    row = U64(r * 8)
    f = _line_flips(c, (P >> row) & _FF, (O >> row) & _FF) << row
    col = U64(c)
    p8 = (((P >> col) & FILE_A) * GATHER_FILE) >> _S56
    o8 = (((O >> col) & FILE_A) * GATHER_FILE) >> _S56
    f |= FILE_SPREAD[_line_flips(r, p8, o8)] << col
    m = DIAG_MASK[sq]
    f |= (_line_flips(c, ((P & m) * GATHER_BYTES) >> _S56, ((O & m) * GATHER_BYTES) >> _S56) * GATHER_BYTES) & m
    m = ANTI_MASK[sq]
    f |= (_line_flips(c, ((P & m) * GATHER_BYTES) >> _S56, ((O & m) * GATHER_BYTES) >> _S56) * GATHER_BYTES) & m
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
