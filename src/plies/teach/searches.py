"""Two textbook variants of alpha-beta for the studies, written in the style of ``plies.search``.

* ``id_tt_alphabeta``: iterative deepening with a transposition table (document 002's "transposition
  tables"): each iteration stores, per position, the value and whether it is exact or a bound, and the best
  move, which the next iteration searches first.  Entries are reused only at the same remaining depth, so the
  value is exactly depth-limited minimax's.
* ``quiescent_alphabeta``: alpha-beta whose horizon is not a wall: at the depth limit, if the side to move can
  play a "noisy" move (``noisy(state, move)``, e.g. take a corner), those moves are searched a little further
  (a quiescence search, document 000's remedy for the horizon effect); the side to move may also "stand pat"
  on the static value.

Both are game-agnostic (states must be hashable) and count nodes like ``plies.search``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from plies.heuristics import Evaluation
from plies.search import SearchResult, Stats

EXACT, LOWER, UPPER = 0, 1, 2


def id_tt_alphabeta(state: Any, depth: int, evaluate: Evaluation) -> SearchResult:
    """Iterative deepening 1..depth with a transposition table; stats count the nodes of all iterations."""
    stats = Stats(depth=depth)
    max_player = state.to_move
    table: dict[Any, tuple[int, float, int, Any]] = {}       # state -> (depth, value, flag, best move)

    def value(node: Any, d: int, alpha: float, beta: float) -> tuple[float, list[Any]]:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            return node.utility(max_player), []
        if d == 0:
            stats.leaves += 1
            return evaluate(node, max_player), []
        hint = None
        entry = table.get(node)
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth == d and (e_flag == EXACT or (e_flag == LOWER and e_value >= beta)
                                 or (e_flag == UPPER and e_value <= alpha)):
                return e_value, [hint] if hint is not None else []
        moves = node.legal_moves()
        if hint in moves:                                     # the previous iteration's best move first
            moves.remove(hint)
            moves.insert(0, hint)
        alpha0, beta0 = alpha, beta
        pv: list[Any] = []
        if node.to_move == max_player:
            best = -math.inf
            for move in moves:
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if best >= beta:
                    stats.beta_cutoffs += 1
                    break
                alpha = max(alpha, best)
        else:
            best = math.inf
            for move in moves:
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if best <= alpha:
                    stats.alpha_cutoffs += 1
                    break
                beta = min(beta, best)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
        table[node] = (d, best, flag, pv[0] if pv else None)
        return best, pv

    t0 = time.perf_counter()
    v: float = 0.0
    pv: list[Any] = []
    for d in range(1, depth + 1):
        v, pv = value(state, d, -math.inf, math.inf)
    stats.seconds = time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "id+tt", getattr(evaluate, "name", ""))


Noisy = Callable[[Any, Any], bool]


def quiescent_alphabeta(state: Any, depth: int, evaluate: Evaluation, noisy: Noisy, extension: int = 2
                        ) -> SearchResult:
    """Alpha-beta to ``depth``, then up to ``extension`` more plies of noisy moves only (stand pat allowed)."""
    stats = Stats(depth=depth)
    max_player = state.to_move

    def quiet(node: Any, e: int, alpha: float, beta: float) -> float:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            return node.utility(max_player)
        stand = evaluate(node, max_player)
        loud = [m for m in node.legal_moves() if noisy(node, m)] if e > 0 else []
        if not loud:
            stats.leaves += 1
            return stand
        best = stand                                          # the side to move may decline the noisy moves
        for move in loud:
            v = quiet(node.play(move), e - 1, alpha, beta)
            if node.to_move == max_player:
                best = max(best, v)
                if best >= beta:
                    break
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                if best <= alpha:
                    break
                beta = min(beta, best)
        return best

    def value(node: Any, d: int, alpha: float, beta: float) -> tuple[float, list[Any]]:
        if d == 0:
            return quiet(node, extension, alpha, beta), []
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            return node.utility(max_player), []
        pv: list[Any] = []
        if node.to_move == max_player:
            best = -math.inf
            for move in node.legal_moves():
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if best >= beta:
                    stats.beta_cutoffs += 1
                    break
                alpha = max(alpha, best)
        else:
            best = math.inf
            for move in node.legal_moves():
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if best <= alpha:
                    stats.alpha_cutoffs += 1
                    break
                beta = min(beta, best)
        return best, pv

    t0 = time.perf_counter()
    v, pv = value(state, depth, -math.inf, math.inf)
    stats.seconds = time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "alphabeta+quiescence", getattr(evaluate, "name", ""))


Threat = Callable[[Any], bool]


def extended_alphabeta(state: Any, depth: int, evaluate: Evaluation, threat: Threat, extension: int = 2
                       ) -> SearchResult:
    """Alpha-beta to ``depth``; a horizon node where ``threat(node)`` holds (e.g. a corner is available to
    either side) is searched ``extension`` plies further, full width, once per line (a singular-extension-like
    remedy for the horizon effect)."""
    stats = Stats(depth=depth)
    max_player = state.to_move

    def value(node: Any, d: int, extended: bool, alpha: float, beta: float) -> tuple[float, list[Any]]:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            return node.utility(max_player), []
        if d == 0:
            if extended or not threat(node):
                stats.leaves += 1
                return evaluate(node, max_player), []
            d, extended = extension, True                     # look past the horizon, once on this line
        pv: list[Any] = []
        if node.to_move == max_player:
            best = -math.inf
            for move in node.legal_moves():
                v, line = value(node.play(move), d - 1, extended, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if best >= beta:
                    stats.beta_cutoffs += 1
                    break
                alpha = max(alpha, best)
        else:
            best = math.inf
            for move in node.legal_moves():
                v, line = value(node.play(move), d - 1, extended, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if best <= alpha:
                    stats.alpha_cutoffs += 1
                    break
                beta = min(beta, best)
        return best, pv

    t0 = time.perf_counter()
    v, pv = value(state, depth, False, -math.inf, math.inf)
    stats.seconds = time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "alphabeta+extension", getattr(evaluate, "name", ""))
