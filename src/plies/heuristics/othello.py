"""Othello evaluations from the source documents, plus the classic weighted-squares table.

Each is ``h(state, player)`` from ``player``'s point of view and zero-sum.  Square tables are built per board
size by ``tables(n)`` so the compiled engine can evaluate with exactly the same numbers.
"""

from __future__ import annotations

from functools import cache

from plies.games.othello import OthelloState, rules_for, square_weights
from plies.heuristics import Heuristic, register
from plies.heuristics.common import sides, table_sum
from plies.i18n import N_


def _ring(r: int, c: int, n: int) -> int:
    return min(r, c, n - 1 - r, n - 1 - c)


@cache
def tables(n: int) -> dict[str, tuple[int, ...]]:
    """Per-square weight tables for an n x n board, index = row * n + col.

    ``weighted``: classic table (corner 100, C-square -20, A-square 10, B-square 5, X-square -50, inner ring -2,
    centre -1).  ``stability``: document 004's table adapted to the square board (corner 10, edge 5, X-square
    -10, inner ring -5, interior 3, centre 2x2 0).
    """
    stability = []
    for r in range(n):
        for c in range(n):
            ring = _ring(r, c, n)
            corner = r in (0, n - 1) and c in (0, n - 1)
            xsq = ring == 1 and r in (1, n - 2) and c in (1, n - 2)
            if ring == 0:
                stability.append(10 if corner else 5)
            elif ring == 1:
                stability.append(-10 if xsq else -5)
            else:
                stability.append(0 if ring == n // 2 - 1 else 3)
    corner_mask = sum(1 << (r * n + c) for r in (0, n - 1) for c in (0, n - 1))
    return {"weighted": square_weights(n), "stability": tuple(stability), "corners": (corner_mask,)}


@cache
def masks(n: int) -> dict[str, int]:
    """Bitmasks: corners, edges (corners excluded), and for each corner its two orthogonal edge neighbours."""
    corners = edges = 0
    for r in range(n):
        for c in range(n):
            bit = 1 << (r * n + c)
            if r in (0, n - 1) and c in (0, n - 1):
                corners |= bit
            elif r in (0, n - 1) or c in (0, n - 1):
                edges |= bit
    return {"corners": corners, "edges": edges}


def corner_neighbours(n: int) -> list[tuple[int, int]]:
    """(corner bit, mask of its two orthogonal edge neighbours) for the four corners."""
    out = []
    for r, c in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
        dr = 1 if r == 0 else -1
        dc = 1 if c == 0 else -1
        out.append((1 << (r * n + c), (1 << ((r + dr) * n + c)) | (1 << (r * n + c + dc))))
    return out


def discs(state: OthelloState, player: int) -> float:
    """My discs minus the opponent's (the baseline of OpenSpiel and of the HexThello course)."""
    d = state.black.bit_count() - state.white.bit_count()
    return d if player == 0 else -d


def _ratio(a: int, b: int) -> float:
    return 100.0 * (a - b) / (a + b) if a + b else 0.0


def parity_mobility_corners(state: OthelloState, player: int) -> float:
    """Document 000: 100*(me-op)/(me+op) for discs, for legal moves, and for corners, summed."""
    me, op = sides(state, player)
    n = state.n
    corners = masks(n)["corners"]
    parity = _ratio(me.bit_count(), op.bit_count())
    legal = rules_for(n).legal
    mobility = _ratio(legal(me, op).bit_count(), legal(op, me).bit_count())
    corner = _ratio((me & corners).bit_count(), (op & corners).bit_count())
    return parity + mobility + corner


def _doc001_side(me: int, op: int, n: int) -> int:
    m = masks(n)
    value = 1000 * (me & m["corners"]).bit_count()
    guarded = 0
    for corner, neighbours in corner_neighbours(n):
        if me & corner:
            guarded |= neighbours
    value += 800 * (me & guarded).bit_count()
    value += 500 * (me & m["edges"] & ~guarded).bit_count()
    value += 50 * (me & ~m["edges"] & ~m["corners"]).bit_count()
    legal = rules_for(n).legal
    my_moves = legal(me, op).bit_count()
    their_moves = legal(op, me).bit_count()
    value -= 100 * their_moves
    if my_moves and not their_moves:
        value += 700
    return value


def corner_edge_blocking(state: OthelloState, player: int) -> float:
    """Document 001: corners 1000, edges beside an owned corner 800, blocking the opponent 700, edges 500,
    each opponent move -100, other squares 50; my total minus the opponent's."""
    me, op = sides(state, player)
    return _doc001_side(me, op, state.n) - _doc001_side(op, me, state.n)


def disc_mobility_stability(state: OthelloState, player: int) -> float:
    """Document 004: 10 * disc difference + 5 * mobility difference + 3 * stability-table difference."""
    me, op = sides(state, player)
    n = state.n
    table = tables(n)["stability"]
    d = me.bit_count() - op.bit_count()
    legal = rules_for(n).legal
    mob = legal(me, op).bit_count() - legal(op, me).bit_count()
    stab = table_sum(table, me) - table_sum(table, op)
    return 10 * d + 5 * mob + 3 * stab


def weighted_squares(state: OthelloState, player: int) -> float:
    """Classic square table: corners 100, X-squares -50, C-squares -20 ... summed over my discs minus the other's."""
    me, op = sides(state, player)
    table = tables(state.n)["weighted"]
    return table_sum(table, me) - table_sum(table, op)


register(Heuristic("discs", "othello", discs, N_("my discs minus the opponent's"), ("disc-difference",)))
register(Heuristic("parity-mobility-corners", "othello", parity_mobility_corners,
                   N_("disc, move and corner balance, each as 100*(me-op)/(me+op) (document 000)"), ("doc000",)))
register(Heuristic("corner-edge-blocking", "othello", corner_edge_blocking,
                   N_("corners 1000, guarded edges 800, blocking 700, edges 500, opponent moves -100 (document 001)"),
                   ("doc001",)))
register(Heuristic("disc-mobility-stability", "othello", disc_mobility_stability,
                   N_("10*discs + 5*mobility + 3*stability table (document 004)"), ("doc004",)))
register(Heuristic("weighted-squares", "othello", weighted_squares,
                   N_("classic square table: corners +100, X-squares -50, C-squares -20"), ("squares",)),
         default=True)
