"""8x8 bitboards of the compiled core (``src/plies/csrc/bitboard.h``): legal moves, flips, counts.

A position is ``(P, O)``: two 64-bit masks, the discs of the side to move and of its opponent.  Square ``sq``
is bit ``sq`` with a1 = 0, h1 = 7, a2 = 8 ... h8 = 63 (the same numbering as ``plies.games.othello``).  Moves
and flips fill runs of opponent discs in the 8 directions, the 4 line directions as the lanes of one vector
(AVX2 where the CPU has it); scalar references (shifts one direction at a time, and table look-ups by lines)
check them.  These are the functions the rules, the engine and the pattern code share.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.core import lib

if TYPE_CHECKING:
    from plies.games.othello import OthelloState

CORNERS = 0x8100000000000081

get_moves = lib.get_moves
"""get_moves(P, O): bitmask of the legal moves of the side owning ``P``."""
get_moves_by_shifts = lib.get_moves_by_shifts
"""get_moves_by_shifts(P, O): ``get_moves`` one direction at a time in scalar code (the reference)."""
flips = lib.flips
"""flips(P, O, sq): opponent discs turned over by a disc of ``P`` on ``sq`` (0: illegal or occupied)."""
flips_by_lines = lib.flips_by_lines
"""flips_by_lines(P, O, sq): ``flips`` by table look-ups, one per line through ``sq`` (the reference)."""
potential_moves = lib.potential_moves
"""potential_moves(P, O): empty squares next to an opponent disc (potential mobility)."""
final_score = lib.final_score
"""final_score(P, O): exact disc difference for ``P`` of a finished game, empty squares to the winner."""


def popcount(x: int) -> int:
    """Number of set bits."""
    return int(x).bit_count()


def position(state: OthelloState) -> tuple[int, int]:
    """(P, O) of an 8x8 ``OthelloState``: side to move first, as Python ints."""
    own, opp = state.own_opp()
    return int(own), int(opp)
