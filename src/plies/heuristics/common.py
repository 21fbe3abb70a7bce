"""Building blocks shared by the evaluations of the disc-flipping games (Othello, HexThello).

Both keep their discs as Python-int bitboards ``black`` and ``white``.
"""

from __future__ import annotations

from plies.games.hexthello import HexThelloState
from plies.games.othello import OthelloState


def sides(state: OthelloState | HexThelloState, player: int) -> tuple[int, int]:
    """(``player``'s discs, the opponent's discs)."""
    return (state.black, state.white) if player == 0 else (state.white, state.black)


def table_sum(table: tuple[int, ...], b: int) -> int:
    """Sum of ``table[square]`` over the set bits of ``b``."""
    total = 0
    while b:
        low = b & -b
        total += table[low.bit_length() - 1]
        b ^= low
    return total


def disc_difference(state: OthelloState | HexThelloState, player: int) -> float:
    """My discs minus the opponent's (the baseline of OpenSpiel and of the HexThello course)."""
    me, op = sides(state, player)
    return me.bit_count() - op.bit_count()
