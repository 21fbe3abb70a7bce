"""Compiled move generation for 8x8 Othello, used by ``OthelloState`` when the board is 8x8.

The same rules as the pure-Python functions in ``plies.games.othello`` (which stay the reference and serve the
other board sizes), from the compiled core's one move generator (``plies.engine.bitboard``): square ``sq`` is
bit ``sq``, a1 = 0 ... h8 = 63.  ``play8`` does a whole move in one call (the disc flips and the next player's
legal squares), since each call from Python costs far more than the bit work inside it.
"""

from __future__ import annotations

from plies.core import lib

legal_mask8 = lib.legal_mask8
"""legal_mask8(own, opp): bitmask of the squares where the side owning ``own`` may play."""
flips8 = lib.flips
"""flips8(own, opp, sq): bitmask of the opponent discs that a disc placed on ``sq`` turns over (0 if none)."""
play8 = lib.play8
"""play8(own, opp, sq): (own after, opp after, the opponent's legal squares after), or (0, 0, 0) when the move
is illegal (off the board, occupied, or flipping nothing)."""
