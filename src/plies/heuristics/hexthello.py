"""HexThello evaluations: the course's disc difference, mobility, the six corners, edges, and document 004's
disc/mobility/stability sum with its per-cell weight table.

Each is ``h(state, player)`` from ``player``'s view and zero-sum.  The tables are indexed like the course's
15x15 array (``i * 15 + j``) so the compiled searcher (``plies.hexsearch``) evaluates with the same numbers.
"""

from __future__ import annotations

from functools import cache

from plies.games.hexthello import BOARD_MASK, CORNERS, RADIUS, SIZE, HexThelloState, distance, index, legal_mask
from plies.heuristics import Heuristic, register
from plies.heuristics.common import disc_difference, sides, table_sum
from plies.i18n import N_

C, E, M = 10, 5, 3
"""Document 004's weights: corner 10, edge 5, middle 3 (the ring inside the edge is negative)."""


def _ring_corner(i: int, j: int, ring: int) -> bool:
    """True for the six corners of the hexagonal ring at distance ``ring`` from the centre."""
    q, r = j - RADIUS, i - RADIUS
    return sorted((abs(q), abs(r), abs(q + r))) in ([0, ring, ring],)


@cache
def stability_table() -> tuple[int, ...]:
    """Document 004's stability weights on the hexagon, 225 entries (0 off the board).

    Its table is given for the course's array: corners ``c``=10, edges ``e``=5, the ring just inside the edge
    negative (``-c`` at that ring's corners, which open a corner to the opponent, ``-e`` elsewhere), the middle
    rings ``m``=3, and the centre (distance <= 3) 0.
    """
    out = [0] * (SIZE * SIZE)
    for i in range(SIZE):
        for j in range(SIZE):
            if not BOARD_MASK >> index(i, j) & 1:
                continue
            d = distance(i, j)
            if d == RADIUS:
                w = C if (i, j) in CORNERS else E
            elif d == RADIUS - 1:
                w = -C if _ring_corner(i, j, d) else -E
            elif d >= 4:
                w = M
            else:
                w = 0
            out[index(i, j)] = w
    return tuple(out)


CORNER_MASK = sum(1 << index(i, j) for i, j in CORNERS)
EDGE_MASK = sum(1 << index(i, j) for i in range(SIZE) for j in range(SIZE)
                if BOARD_MASK >> index(i, j) & 1 and distance(i, j) == RADIUS) & ~CORNER_MASK
"""The rim cells other than the six corners (36 of them)."""


discs = disc_difference


def mobility(state: HexThelloState, player: int) -> float:
    """My legal moves minus the opponent's."""
    me, op = sides(state, player)
    return legal_mask(me, op, state.holes).bit_count() - legal_mask(op, me, state.holes).bit_count()


def corners(state: HexThelloState, player: int) -> float:
    """My corners minus the opponent's (of the six), times 10, plus the disc difference as a tie-break."""
    me, op = sides(state, player)
    return 10 * ((me & CORNER_MASK).bit_count() - (op & CORNER_MASK).bit_count()) + discs(state, player)


def edges(state: HexThelloState, player: int) -> float:
    """Corners 10 and other rim cells 3 each, mine minus the opponent's, plus the disc difference."""
    me, op = sides(state, player)
    value = 10 * ((me & CORNER_MASK).bit_count() - (op & CORNER_MASK).bit_count())
    value += 3 * ((me & EDGE_MASK).bit_count() - (op & EDGE_MASK).bit_count())
    return value + me.bit_count() - op.bit_count()


def disc_mobility_stability(state: HexThelloState, player: int) -> float:
    """Document 004: 10 * disc difference + 5 * mobility difference + 3 * stability-table difference."""
    me, op = sides(state, player)
    table = stability_table()
    d = me.bit_count() - op.bit_count()
    mob = legal_mask(me, op, state.holes).bit_count() - legal_mask(op, me, state.holes).bit_count()
    stab = table_sum(table, me) - table_sum(table, op)
    return 10 * d + 5 * mob + 3 * stab


register(Heuristic("discs", "hexthello", discs, N_("my discs minus the opponent's (the course's baseline)"),
                   ("disc-difference",)))
register(Heuristic("mobility", "hexthello", mobility, N_("my legal moves minus the opponent's")))
register(Heuristic("corners", "hexthello", corners,
                   N_("10 per corner of the six (mine minus theirs) + disc difference")))
register(Heuristic("edges", "hexthello", edges,
                   N_("corners 10, other rim cells 3 (mine minus theirs) + disc difference")))
register(Heuristic("disc-mobility-stability", "hexthello", disc_mobility_stability,
                   N_("10*discs + 5*mobility + 3*stability table (document 004)"), ("doc004",)), default=True)
