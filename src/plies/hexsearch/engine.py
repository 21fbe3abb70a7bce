"""The fast HexThello searcher: iterative deepening over the compiled PVS kernel (C, see
``plies.hexsearch.kernels``) on one thread or several, at a depth or under a clock, with the learned
evaluation (``plies.hexsearch.learned``) or the classic one, and document 004's own fixed-depth search (for the
course-style opponent), both on ``HexThelloState``.  Under a clock an iteration starts only when it is likely
to finish, and a timer stops the search (``HexEngine.stop``) near the end of the time; an unfinished
iteration is dropped.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from plies.game import PASS, WIN, PliesError
from plies.games.hexthello import HexThelloState
from plies.hexsearch import kernels as k
from plies.hexsearch import learned
from plies.search.result import SearchResult, Stats

MAX_DEPTH = 64
MIN_TIMED_DEPTH = 4
"""Under a clock the engine still finishes this depth (a few thousand nodes), so it never walks into a
short wipe-out because the machine was busy."""
CLOCK_SHARE = 0.9
"""Under a clock of S seconds the search is stopped after CLOCK_SHARE * S."""
EVALUATIONS = {"learned": k.LEARNED, "classic": k.CLASSIC}
"""The engine's evaluations by name (``learned`` is the default)."""
MAX_THREADS = 256


@dataclass
class EngineReport:
    """One finished search: best move (a ``HexThelloState`` move), value for the side to move, depth reached,
    nodes, seconds, and whether the value is an exact game result."""

    move: int
    value: int
    depth: int
    nodes: int
    seconds: float
    exact: bool

    def to_result(self, name: str) -> SearchResult:
        stats = Stats(nodes=self.nodes, depth=self.depth, seconds=self.seconds)
        return SearchResult(self.value, self.move, [self.move], stats, name, "hexengine", self.exact)


def _board(state: HexThelloState) -> tuple[NDArray[np.int8], int]:
    return k.to_padded(state.black, state.white, state.holes), (k.BLACK if state.to_move == 0 else k.WHITE)


class HexEngine:
    """Keeps its transposition and history tables between moves of a game (``new_game`` clears them).

    ``evaluation``: ``learned`` (default; ``weights`` names another weights file of ``plies train hexthello``)
    or ``classic``.  ``threads`` > 1 searches in parallel (on at most the machine's cores): the same values at a
    fixed depth, more depth in a given time.  ``stop()``, from any thread, ends the running search with its last
    finished depth."""

    def __init__(self, table_bits: int = k.TT_BITS, *, evaluation: str = "learned", weights: str | Path | None = None,
                 threads: int = 1) -> None:
        if evaluation not in EVALUATIONS:
            raise PliesError(f"unknown HexThello evaluation {evaluation!r} (use {' or '.join(EVALUATIONS)})")
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= MAX_THREADS:
            raise PliesError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
        if weights is not None and evaluation != "learned":
            raise PliesError("a weights file is for the learned evaluation")
        if not isinstance(table_bits, int) or not 1 <= table_bits <= 30:
            raise PliesError(f"table_bits must be 1..30, not {table_bits!r}")
        self.table_bits = table_bits
        self.evaluation = evaluation
        self.eval_id = EVALUATIONS[evaluation]
        self.threads = threads
        self._weights = learned.load_expanded(weights) if weights is not None else None  # a bad file fails here
        self.ctl = np.zeros(4, dtype=np.int64)
        self._free = np.zeros(4, dtype=np.int64)  # the control words of the depths a clock never stops
        self.new_game()

    @property
    def weights(self) -> np.ndarray | None:
        """The learned evaluation's expanded weights (None for the classic evaluation)."""
        if self.eval_id != k.LEARNED:
            return None
        if self._weights is None:
            self._weights = learned.shipped()
        return self._weights

    def new_game(self) -> None:
        self.tables = k.new_tables(self.table_bits)

    def stop(self) -> None:
        """Ask the running search to stop now; it returns the result of its last finished depth."""
        self.ctl[k.STOP] = 1

    def search(self, state: HexThelloState, depth: int | None = None, seconds: float | None = None) -> EngineReport:
        """Best move at a fixed ``depth`` or within about ``seconds`` (at least depth 1 is always finished)."""
        if depth is None and seconds is None:
            raise PliesError("give the engine a depth or a time")
        moves = state.legal_moves()
        if not moves:
            raise PliesError("the game is over: no move to search")
        if moves == [PASS]:
            return EngineReport(PASS, 0, 0, 1, 0.0, False)
        from plies.engine.api import usable_threads

        # no more threads than cores: on 2 cores 16 threads took 0.84-1.70 s to depth 11 from the start, 2 threads
        # 0.56-0.63 s
        threads = usable_threads(self.threads)
        board, me = _board(state)
        weights = self.weights
        tt_key, tt_val, tt_depth, tt_flag, tt_move, history = self.tables
        history //= 4  # age the history of the previous move
        t0 = time.perf_counter()
        max_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
        empties = state.empties()
        best_p, best_v, reached, total = -1, 0, 0, 0
        last_iter = 0.0
        self.ctl[:] = 0
        timer = None
        if seconds is not None:
            timer = threading.Timer(CLOCK_SHARE * seconds, self.stop)
            timer.daemon = True
            timer.start()
        try:
            for d in range(1, max_depth + 1):
                ctl = self.ctl
                if d == 1 or (seconds is not None and d <= MIN_TIMED_DEPTH):
                    ctl = self._free  # depth 1 always finishes, and under a clock MIN_TIMED_DEPTH
                elif seconds is not None:
                    left = CLOCK_SHARE * seconds - (time.perf_counter() - t0)
                    if left <= 0 or last_iter * 3 > left:
                        break
                ti = time.perf_counter()
                p, v, nodes, aborted = k.root_search(board, me, d, tt_key, tt_val, tt_depth, tt_flag, tt_move,
                                                     history, 1 << 62, best_p, ctl, self.eval_id, weights, threads)
                last_iter = time.perf_counter() - ti
                total += int(nodes)
                if aborted:
                    break
                best_p, best_v, reached = int(p), int(v), d
                if abs(best_v) >= k.WIN or d > empties + 2:
                    break
        finally:
            if timer is not None:
                timer.cancel()
        exact = abs(best_v) >= k.WIN or reached > empties + 2
        value = best_v
        if abs(best_v) >= k.WIN:  # the kernel's WIN is the core's WIN: keep the margin
            value = (WIN + (best_v - k.WIN)) if best_v > 0 else (-WIN + (best_v + k.WIN))
        return EngineReport(k.to_move_index(best_p), value, reached, total, time.perf_counter() - t0, exact)


def doc004_move(state: HexThelloState, depth: int, prune: bool = True) -> tuple[int, int, int]:
    """Document 004's agent: (move, value, nodes) of its minimax/alpha-beta at ``depth`` plies, evaluation
    10*discs + 5*mobility + 3*stability, the last of equally good root moves (its ``>=``)."""
    moves = state.legal_moves()
    if not moves:
        raise PliesError("the game is over: no move to search")
    if moves == [PASS]:
        return PASS, 0, 1
    board, me = _board(state)
    p, v, nodes = k.doc004_root(board, me, depth, prune)
    return k.to_move_index(int(p)), int(v), int(nodes)


def doc004_value(state: HexThelloState, depth: int, prune: bool = True) -> int:
    """Document 004's search value of ``state`` from the side to move's view (alpha-beta when ``prune``)."""
    board, me = _board(state)
    return int(k.doc004_search(board, me, depth, -k.INF, k.INF, me, prune)[0])


def compiled_perft(state: HexThelloState, depth: int) -> int:
    """Perft by the compiled array generator (a second, independent move generator)."""
    board, me = _board(state)
    return int(k.perft(board, me, depth))
