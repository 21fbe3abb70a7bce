"""Compiled perft: leaf count ``depth`` plies below a position (passes are plies; a finished game is a leaf).

Bulk counting: at the last ply the leaves are the popcount of the move mask, so no move is played there.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

from plies.core import lib
from plies.engine.bitboard import position
from plies.game import PliesError
from plies.games.othello import OthelloState


def perft_kernel(P: int, O: int, depth: int) -> int:
    """Leaves below (P, O) at ``depth`` (compiled; runs without the GIL)."""
    return int(lib.perft(int(P), int(O), int(depth)))


def perft(state: object, depth: int) -> int:
    """Perft of an 8x8 ``OthelloState`` with the compiled kernels (equal to ``plies.search.perft``)."""
    if not isinstance(state, OthelloState) or state.n != 8:
        raise PliesError("the compiled engine plays 8x8 Othello only")
    if depth < 0:
        raise PliesError("depth must be at least 0")
    P, O = position(state)
    return perft_kernel(P, O, depth)
