"""The fast HexThello searcher: iterative deepening over the compiled PVS kernel (C, see
``plies.hexsearch.kernels``), at a depth or under a clock, and document 004's own fixed-depth search (for the
course-style opponent), both on ``HexThelloState``.  Under a clock each iteration gets a node limit from the
time left and the speed so far; the kernel stops past it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from plies.game import PASS, WIN, PliesError
from plies.games.hexthello import HexThelloState
from plies.hexsearch import kernels as k
from plies.search.result import SearchResult, Stats

MAX_DEPTH = 64
MIN_TIMED_DEPTH = 4
"""Under a clock the engine still finishes this depth (a few thousand nodes), so it never walks into a
short wipe-out because the machine was busy."""


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


def _board(state: HexThelloState) -> tuple[Any, int]:
    return k.to_padded(state.black, state.white, state.holes), (k.BLACK if state.to_move == 0 else k.WHITE)


class HexEngine:
    """Keeps its transposition and history tables between moves of a game (``new_game`` clears them)."""

    def __init__(self, table_bits: int = k.TT_BITS) -> None:
        self.table_bits = table_bits
        self.new_game()

    def new_game(self) -> None:
        self.tables = k.new_tables(self.table_bits)

    def search(self, state: HexThelloState, depth: int | None = None, seconds: float | None = None) -> EngineReport:
        """Best move at a fixed ``depth`` or within about ``seconds`` (at least depth 1 is always finished)."""
        if depth is None and seconds is None:
            raise PliesError("give the engine a depth or a time")
        moves = state.legal_moves()
        if not moves:
            raise PliesError("the game is over: no move to search")
        if moves == [PASS]:
            return EngineReport(PASS, 0, 0, 1, 0.0, False)
        board, me = _board(state)
        tt_key, tt_val, tt_depth, tt_flag, tt_move, history = self.tables
        history //= 4  # age the history of the previous move
        t0 = time.perf_counter()
        max_depth = min(depth or MAX_DEPTH, MAX_DEPTH)
        empties = state.empties()
        best_p, best_v, reached, total = -1, 0, 0, 0
        last_iter = 0.0
        for d in range(1, max_depth + 1):
            limit = 1 << 62
            if seconds is not None and d > MIN_TIMED_DEPTH:
                elapsed = time.perf_counter() - t0
                nps = total / elapsed if elapsed > 0 else 1e6
                left = 0.9 * seconds - elapsed
                if left <= 0 or last_iter * 3 > left:
                    break
                limit = max(1000, int(left * nps * 0.9))
            ti = time.perf_counter()
            p, v, nodes, aborted = k.root_search(board, me, d, tt_key, tt_val, tt_depth, tt_flag, tt_move, history,
                                                 limit, best_p)
            last_iter = time.perf_counter() - ti
            total += int(nodes)
            if aborted:
                break
            best_p, best_v, reached = int(p), int(v), d
            if abs(best_v) >= k.WIN or d > empties + 2:
                break
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
