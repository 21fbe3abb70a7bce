"""Depth-limited search: negamax principal-variation search with a transposition table (compiled:
``src/plies/csrc/midgame.c``).

Values are float64 from the side to move's view, in evaluation units; a finished game is worth
``±(WIN + disc difference)`` exactly as ``plies.game.terminal_value`` says, and a pass is a ply (as in the
textbook search), so with the same evaluation and depth the value equals ``plies.search.alphabeta``'s.
Move order: the hash move, then fastest-first (fewest replies for the opponent) plus square quality.
The search stops within a node when ``ctl[STOP]`` becomes non-zero (the clock's watchdog or ``Engine.stop``);
it runs without the GIL, so another thread can set it.
"""

# ruff: noqa: E741  (P and O, the discs of the player to move and of the opponent, as in Edax)

from __future__ import annotations

import signal
import threading

import numpy as np

from plies.core import lib
from plies.engine.hashtable import TableArrays

WIN = 1_000_000.0
PASS = -1
MAX_PLY = 128

# ctl: [0] nodes, [1] stop flag (set from Python), [2] the endgame's probcut confidence, [3] spare
NODES, STOP = 0, 1


_INTERRUPTED: list[np.ndarray] = []  # the control words Ctrl-C stops, innermost search last (main thread only)


def hook_interrupt(ctl: np.ndarray) -> bool:
    """While a search runs on Python's main thread, Ctrl-C (SIGINT) also sets the stop flag of ``ctl``, so that
    the compiled search stops at once and KeyboardInterrupt follows (Python's own handler waits for the search to
    return).  Only under Python's default handler (one of the program's own may not mean "stop"), and a search
    started inside another's takes over until ``unhook_interrupt``.  False when not hooked."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if not _INTERRUPTED and signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    if not lib.interrupt_stops(ctl):
        if _INTERRUPTED:  # the outer search keeps its hook
            lib.interrupt_stops(_INTERRUPTED[-1])
        return False
    _INTERRUPTED.append(ctl)
    return True


def unhook_interrupt() -> None:
    """End the innermost ``hook_interrupt``: Ctrl-C stops the search around it again, or is Python's alone."""
    _INTERRUPTED.pop()
    lib.interrupt_stops(_INTERRUPTED[-1] if _INTERRUPTED else None)


def search_root(P: int, O: int, depth: int, alpha: float, beta: float, root_moves: np.ndarray, multipv: int,
                values: np.ndarray, flags: np.ndarray, root_pv: np.ndarray, root_pv_len: np.ndarray,
                tt: TableArrays, eval_id: int, W: np.ndarray, ctl: np.ndarray, threads: int = 1,
                mpc: np.ndarray | None = None, confidence: float = 0.0) -> int:
    """Search the root moves in the given order; returns how many were completed before a stop.

    ``values[i]`` is the value of ``root_moves[i]``; ``flags[i]`` 0 = exact, 1 = upper bound (not among the
    best ``multipv``), 2 = lower bound (fail high of the aspiration window).  ``root_pv[i]`` its variation.
    ``threads`` > 1 searches in parallel (``csrc/parallel.c``): the same values, the nodes of all threads.
    ``mpc`` (``plies.engine.probcut.Statistics.table``) makes the search selective: multi-ProbCut at
    ``confidence`` standard deviations; None searches every move to the full depth.
    """
    return int(lib.mid_search_root(int(P), int(O), int(depth), float(alpha), float(beta), root_moves, int(multipv),
                                   values, flags, root_pv, root_pv_len, tt, int(eval_id), W, ctl, int(threads),
                                   mpc, float(confidence)))
