"""Exact endgame solver: the final disc difference under perfect play (or just win/draw/loss) (compiled:
``src/plies/csrc/endgame.c``).

Three layers, as in strong solvers: with many empties, principal-variation search with the transposition table,
enhanced transposition cut-offs and stability cut-offs (and probcut in a selective search), moves ordered hash move
first, then by a shallow search with the learned evaluation (15+ empties; the midgame presearch's move where the
solver has none yet), fastest first (fewest opponent replies), the mover's stable discs at the corners, corners and
quadrant parity; from ``MID_EMPTIES`` empties down, fastest first without the shared table or the evaluation
(from ``REPLY_ORDER_EMPTIES`` by the replies, the square and parity alone), bounds and best moves kept in each
thread's own small table (from ``MID_TT_EMPTIES``: exact values never go stale; from ``MID_ETC_EMPTIES`` its
bounds of the children cut off as ETC does with the shared table); from ``SHALLOW_EMPTIES`` down, no
move ordering: the legal moves in parity order (odd quadrants first), and the last four empties have their own
written-out code (the last one only counts flips, with
one table look-up per line through the square, and the opponent's only when they can change the result). Values are
ints from the side to move's view, empty squares going to the winner.

A selective search (``ctl[SELECT]`` > 0) also cuts a node off when a shallow search with the learned
evaluation predicts, with that confidence, that the exact value falls outside the window (Buro's probcut).
Its values are estimates; ``Engine`` runs one before a long exact solve only to fill the table with best
moves (and the root with a move order), as Edax does: its entries are tagged so an exact search takes their
moves but never their bounds.

The solver runs without the GIL, so another thread can set ``ctl[STOP]``.  ``tt`` and ``mtt`` are
``HashTable.arrays()`` of the endgame table and of the midgame table (whose best moves order the solver's
first nodes); ``W`` the learned weights that order moves (``eval.weights_for(LEARNED)``), or ``NO_WEIGHTS``
for the hand-made evaluation (and no probcut).
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import numpy as np

from plies.core import lib
from plies.engine.hashtable import TableArrays

PASS = -1
NONE = -100          # below any score
SHALLOW_EMPTIES = 5  # <= this: parity order, no move ordering
MID_EMPTIES = 10     # <= this: no shared table, ETC or evaluation in the move order
MID_TT_EMPTIES = 6   # >= this (up to MID_EMPTIES): the thread's own table of exact bounds
MID_ETC_EMPTIES = 9  # >= this (and the node above MID_EMPTIES): ETC by the thread's own table
REPLY_ORDER_EMPTIES = 7  # <= this: ordered by the replies, the square and parity alone
ETC_EMPTIES = 12     # >= this: enhanced transposition cut-offs (by the shared table)
# Move ordering with many empties adds the (learned) evaluation of the position a move leads to:
SORT_SEARCH2_EMPTIES = 21  # >= this: searched two plies
SORT_SEARCH_EMPTIES = 18   # >= this: searched one ply
SORT_EVAL_EMPTIES = 15     # >= this: evaluated statically
ORDER_LEARNED_SCALE = 5.0  # learned evaluation (discs) to default-evaluation units, for ordering
NODES, STOP, SELECT = 0, 1, 2  # ctl slots: node count, stop flag, probcut confidence (t x 100; 0 = exact)
SELECTIVE_TAG = 64     # table depth of a selective result: 64 + empties (an exact search never takes its bounds)
PROBCUT_EMPTIES = 14   # >= this: probcut in a selective search
PC_SIGMA = 5.0         # probcut without statistics: spread (discs) of the exact score around the shallow value
# (these mirror the constants of endgame.c, which is what runs)


def solve_root(P: int, O: int, alpha: int, beta: int, root_moves: np.ndarray, multipv: int, values: np.ndarray,
               flags: np.ndarray, root_pv: np.ndarray, root_pv_len: np.ndarray, tt: TableArrays, ctl: np.ndarray,
               W: np.ndarray, mtt: TableArrays, threads: int = 1, mpc: np.ndarray | None = None) -> int:
    """Exact values of the root moves in order, as ``midgame.search_root``; returns how many were completed
    before a stop.  ``values[i]`` (float64) the value of ``root_moves[i]`` (int64), ``flags[i]`` 0 exact,
    1 upper bound (not among the best ``multipv``), 2 lower bound (fail high); ``root_pv[i]`` (int8 rows) its
    variation, ``root_pv_len[i]`` its length.  ``threads`` > 1 searches in parallel (``csrc/parallel.c``): the
    same values, the nodes of all threads.  ``mpc`` (``plies.engine.probcut.Statistics.table``): the exact
    row a selective search (``ctl[SELECT]`` > 0) predicts the score with; None: the shallow value itself with
    spread ``PC_SIGMA``."""
    return int(lib.end_solve_root(int(P), int(O), int(alpha), int(beta), root_moves, int(multipv), values, flags,
                                  root_pv, root_pv_len, tt, ctl, W, mtt, int(threads), mpc))


def solve(P: int, O: int, alpha: int, beta: int, ctl: np.ndarray, tt: TableArrays, W: np.ndarray,
          mtt: TableArrays, mpc: np.ndarray | None = None) -> int:
    """Score of (P, O) within (alpha, beta), fail-soft, by the layer that fits its number of empties."""
    return int(lib.end_solve(int(P), int(O), int(alpha), int(beta), ctl, tt, W, mtt, mpc))


def shallow_value(P: int, O: int, depth: int, W: np.ndarray) -> float:
    """The value of the selective solver's shallow search (probcut's estimate of the exact score): alpha-beta
    to ``depth`` with the learned evaluation (expanded weights ``W``), passes not counted as plies."""
    return float(lib.end_shallow_value(int(P), int(O), int(depth), W))


def last_flip_count(P: int, sq: int) -> int:
    """Discs turned over by P playing ``sq`` when every other square is full (the opponent owns the rest):
    four table look-ups, one per line through ``sq``."""
    return int(lib.end_last_flip_count(int(P), int(sq)))


def _corner_stable(P: int) -> int:
    """P's corners and P's edge squares next to its corners (stable: a cheap count for move ordering)."""
    return int(lib.end_corner_stable(int(P)))


__all__ = ["NODES", "PASS", "SELECT", "STOP", "last_flip_count", "solve", "solve_root"]
