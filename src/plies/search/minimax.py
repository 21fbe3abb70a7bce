"""Minimax, as documents 000 and 003 write it: depth-first, values filled in from the leaves upward.

The player to move at the root is MAX; the value of a node is from MAX's point of view.  A finished game is
worth its exact result (``state.utility``); a node at the depth limit is worth ``evaluate(state, MAX)``.
"""

from __future__ import annotations

import math
import time

from plies.game import Move
from plies.heuristics import Evaluation
from plies.search.result import SearchResult, Stats
from plies.search.trace import N, Tracer


def minimax(state: N, depth: int, evaluate: Evaluation, tracer: Tracer[N] | None = None) -> SearchResult:
    """Search ``depth`` plies below ``state`` with plain minimax; returns value, best move, PV and counts."""
    stats = Stats(depth=depth)
    max_player = state.to_move
    name = getattr(evaluate, "name", "")
    evaluate = getattr(evaluate, "function", evaluate)  # a named Heuristic: call its function directly

    def value(node: N, d: int) -> tuple[float, list[Move]]:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            v = node.utility(max_player)
            if tracer:
                tracer.leaf(node, v)
            return v, []
        if d == 0:
            stats.leaves += 1
            v = evaluate(node, max_player)
            if tracer:
                tracer.leaf(node, v)
            return v, []
        if tracer:
            tracer.enter(node, -math.inf, math.inf)
        if node.to_move == max_player:          # MAX: the largest child value
            best, pv = -math.inf, list[Move]()
            for move in node.legal_moves():
                v, line = value(node.play(move), d - 1)
                if v > best:
                    best, pv = v, [move, *line]
        else:                                   # MIN: the smallest child value
            best, pv = math.inf, []
            for move in node.legal_moves():
                v, line = value(node.play(move), d - 1)
                if v < best:
                    best, pv = v, [move, *line]
        if tracer:
            tracer.exit(node, best)
        return best, pv

    t0 = time.perf_counter()
    v, pv = value(state, depth)
    stats.seconds = time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "minimax", name)
