"""Alpha-beta, as documents 000, 002 and 003 write it: minimax that skips branches which cannot matter.

α is the best value MAX is already sure of on the path to the root, β the best for MIN.  At a MAX node a
child value >= β ends the node (a β cut-off); at a MIN node a value <= α does (an α cut-off).  With
``pruning=False`` (document 004's switch) it visits exactly the nodes minimax visits.  The result is always
minimax's value; ``order`` may sort the moves first (better order, more cut-offs, same value).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from plies.game import Move
from plies.heuristics import Evaluation
from plies.search.result import SearchResult, Stats
from plies.search.trace import N, Tracer

MoveOrder = Callable[[N, list[Move]], list[Move]]


def alphabeta(
    state: N,
    depth: int,
    evaluate: Evaluation,
    pruning: bool = True,
    order: MoveOrder[N] | None = None,
    tracer: Tracer[N] | None = None,
    alpha: float = -math.inf,
    beta: float = math.inf,
) -> SearchResult:
    """Search ``depth`` plies below ``state`` with alpha-beta; same value and move as minimax."""
    stats = Stats(depth=depth)
    max_player = state.to_move
    eval_name = getattr(evaluate, "name", "")
    evaluate = getattr(evaluate, "function", evaluate)  # a named Heuristic: call its function directly

    def value(node: N, d: int, alpha: float, beta: float) -> tuple[float, Sequence[Move]]:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            v = node.utility(max_player)
            if tracer:
                tracer.leaf(node, v)
            return v, ()
        if d == 0:
            stats.leaves += 1
            v = evaluate(node, max_player)
            if tracer:
                tracer.leaf(node, v)
            return v, ()
        if tracer:
            tracer.enter(node, alpha, beta)
        moves: list[Move] = node.legal_moves()
        if order is not None:
            moves = order(node, moves)
        pv: Sequence[Move] = ()
        if node.to_move == max_player:                      # MAX node
            best = -math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if pruning and best >= beta:                # β cut-off: MIN will never let play reach here
                    stats.beta_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "beta", best, alpha, beta, moves[i + 1:])
                    break
                if best > alpha:
                    alpha = best
        else:                                               # MIN node
            best = math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if pruning and best <= alpha:               # α cut-off: MAX already has something better
                    stats.alpha_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "alpha", best, alpha, beta, moves[i + 1:])
                    break
                if best < beta:
                    beta = best
        if tracer:
            tracer.exit(node, best)
        return best, pv

    t0 = time.perf_counter()
    v, line = value(state, depth, alpha, beta)
    stats.seconds = time.perf_counter() - t0
    pv = list(line)
    algorithm = "alphabeta" if pruning else "alphabeta(pruning off)"
    return SearchResult(v, pv[0] if pv else None, pv, stats, algorithm, eval_name)
