"""Compiled perft: leaf count ``depth`` plies below a position (passes are plies; a finished game is a leaf).

Bulk counting: at the last ply the leaves are the popcount of the move mask, so no move is played there.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np
from numba import njit

from plies.engine.bitboard import ONE, flips, get_moves, lowest_index, popcount, position
from plies.game import PliesError


@njit(cache=True, nogil=True)
def perft_kernel(P, O, depth):  # type: ignore[no-untyped-def]
    """Leaves below (P, O) at ``depth`` (int64)."""
    if depth == 0:
        return np.int64(1)
    moves = get_moves(P, O)
    if moves == 0:
        if depth == 1 or get_moves(O, P) == 0:
            return np.int64(1)
        return perft_kernel(O, P, depth - 1)
    if depth == 1:
        return np.int64(popcount(moves))
    total = np.int64(0)
    if depth == 2:
        while moves:
            sq = lowest_index(moves)
            moves &= moves - ONE
            f = flips(P, O, sq)
            m2 = get_moves(O ^ f, P ^ f ^ (ONE << sq))
            total += np.int64(popcount(m2)) if m2 else np.int64(1)
        return total
    while moves:
        sq = lowest_index(moves)
        moves &= moves - ONE
        f = flips(P, O, sq)
        total += perft_kernel(O ^ f, P ^ f ^ (ONE << sq), depth - 1)
    return total


def perft(state: object, depth: int) -> int:
    """Perft of an 8x8 ``OthelloState`` with the compiled kernels (equal to ``plies.search.perft``)."""
    if getattr(state, "n", None) != 8:
        raise PliesError("the compiled engine plays 8x8 Othello only")
    if depth < 0:
        raise PliesError("depth must be at least 0")
    P, O = position(state)
    return int(perft_kernel(P, O, np.int64(depth)))
