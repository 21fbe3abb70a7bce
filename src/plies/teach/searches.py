"""Textbook variants of alpha-beta for the lessons and studies, written in the style of ``plies.search``.

* ``id_tt_alphabeta``: iterative deepening with a transposition table (document 002's "transposition
  tables"): each iteration (``tt_alphabeta``) stores, per position, the value and whether it is exact or a
  bound, and the best move, which the next iteration searches first.  Entries are reused only at the same
  remaining depth, so the value is exactly depth-limited minimax's.
* ``quiescent_alphabeta``: alpha-beta whose horizon is not a wall: at the depth limit, if the side to move can
  play a "noisy" move (``noisy(state, move)``, e.g. take a corner), those moves are searched a little further
  (a quiescence search, document 000's remedy for the horizon effect); the side to move may also "stand pat"
  on the static value.
* ``extended_alphabeta``: alpha-beta that searches a few plies further where ``threat(state)`` holds at the
  horizon (an extension, the idea behind document 000's "singular extensions").

All are game-agnostic (states must be hashable for the table), count nodes like ``plies.search``, and report
their walk to a ``Tracer`` (``plies.search.trace``) so the lessons can draw it: a table answer is
``tracer.table``, a stand-pat value ``tracer.stand``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from plies.game import Move
from plies.heuristics import Evaluation
from plies.search import SearchResult, Stats, Tracer
from plies.search.trace import N

EXACT, LOWER, UPPER = 0, 1, 2
FLAG_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}

Table = dict[N, tuple[int, float, int, Move | None]]
"""state -> (remaining depth, value, EXACT/LOWER/UPPER, best move)."""


def tt_alphabeta(state: N, depth: int, evaluate: Evaluation, table: Table[N], stats: Stats | None = None,
                 tracer: Tracer[N] | None = None) -> SearchResult:
    """One iteration: alpha-beta to ``depth`` that reads and fills ``table`` (a value stored at the same
    remaining depth answers at once when it is exact, or a bound outside the window; a stored best move is
    searched first)."""
    stats = stats if stats is not None else Stats(depth=depth)
    max_player = state.to_move

    def value(node: N, d: int, alpha: float, beta: float) -> tuple[float, list[Move]]:
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
        hint = None
        entry = table.get(node)
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth == d and (e_flag == EXACT or (e_flag == LOWER and e_value >= beta)
                                 or (e_flag == UPPER and e_value <= alpha)):
                if tracer:
                    tracer.table(node, e_value, FLAG_NAMES[e_flag])
                return e_value, [hint] if hint is not None else []
        if tracer:
            tracer.enter(node, alpha, beta)
        moves = node.legal_moves()
        if hint in moves:                                     # the previous iteration's best move first
            moves.remove(hint)
            moves.insert(0, hint)
        alpha0, beta0 = alpha, beta
        pv: list[Move] = []
        if node.to_move == max_player:
            best = -math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if best >= beta:
                    stats.beta_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "beta", best, alpha, beta, moves[i + 1:])
                    break
                alpha = max(alpha, best)
        else:
            best = math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if best <= alpha:
                    stats.alpha_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "alpha", best, alpha, beta, moves[i + 1:])
                    break
                beta = min(beta, best)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
        table[node] = (d, best, flag, pv[0] if pv else None)
        if tracer:
            tracer.exit(node, best)
        return best, pv

    t0 = time.perf_counter()
    v, pv = value(state, depth, -math.inf, math.inf)
    stats.seconds += time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "id+tt", getattr(evaluate, "name", ""))


def id_tt_alphabeta(state: N, depth: int, evaluate: Evaluation) -> SearchResult:
    """Iterative deepening 1..depth with a transposition table; stats count the nodes of all iterations."""
    stats = Stats(depth=depth)
    table: Table[N] = {}
    result = SearchResult(0.0, None, [], stats, "id+tt", getattr(evaluate, "name", ""))
    for d in range(1, depth + 1):
        result = tt_alphabeta(state, d, evaluate, table, stats)
    result.stats.depth = depth
    return result


Noisy = Callable[[N, Move], bool]


def quiescent_alphabeta(state: N, depth: int, evaluate: Evaluation, noisy: Noisy[N], extension: int = 2,
                        tracer: Tracer[N] | None = None) -> SearchResult:
    """Alpha-beta to ``depth``, then up to ``extension`` more plies of noisy moves only (stand pat allowed)."""
    stats = Stats(depth=depth)
    max_player = state.to_move

    def quiet(node: N, e: int, alpha: float, beta: float) -> float:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            v = node.utility(max_player)
            if tracer:
                tracer.leaf(node, v)
            return v
        stand = evaluate(node, max_player)
        loud = [m for m in node.legal_moves() if noisy(node, m)] if e > 0 else []
        if not loud:                                          # a quiet position: its value is the static one
            stats.leaves += 1
            if tracer:
                tracer.leaf(node, stand)
            return stand
        if tracer:
            tracer.enter(node, alpha, beta)
            tracer.stand(node, stand)
        best = stand                                          # stand pat: the side to move may decline them
        maximizing = node.to_move == max_player
        for i in range(len(loud) + 1):                        # before each noisy move, and after the last
            if (best >= beta) if maximizing else (best <= alpha):    # the window has closed: a cut-off
                if maximizing:
                    stats.beta_cutoffs += 1
                else:
                    stats.alpha_cutoffs += 1
                if tracer:
                    tracer.cutoff(node, "beta" if maximizing else "alpha", best, alpha, beta, loud[i:])
                break
            if i == len(loud):
                break
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            v = quiet(node.play(loud[i]), e - 1, alpha, beta)
            best = max(best, v) if maximizing else min(best, v)
        if tracer:
            tracer.exit(node, best)
        return best

    def value(node: N, d: int, alpha: float, beta: float) -> tuple[float, list[Move]]:
        if d == 0:
            return quiet(node, extension, alpha, beta), []
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            v = node.utility(max_player)
            if tracer:
                tracer.leaf(node, v)
            return v, []
        if tracer:
            tracer.enter(node, alpha, beta)
        moves = node.legal_moves()
        pv: list[Move] = []
        if node.to_move == max_player:
            best = -math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if best >= beta:
                    stats.beta_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "beta", best, alpha, beta, moves[i + 1:])
                    break
                alpha = max(alpha, best)
        else:
            best = math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if best <= alpha:
                    stats.alpha_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "alpha", best, alpha, beta, moves[i + 1:])
                    break
                beta = min(beta, best)
        if tracer:
            tracer.exit(node, best)
        return best, pv

    t0 = time.perf_counter()
    v, pv = value(state, depth, -math.inf, math.inf)
    stats.seconds = time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "alphabeta+quiescence", getattr(evaluate, "name", ""))


Threat = Callable[[N], bool]


def extended_alphabeta(state: N, depth: int, evaluate: Evaluation, threat: Threat[N], extension: int = 2,
                       tracer: Tracer[N] | None = None) -> SearchResult:
    """Alpha-beta to ``depth``; a horizon node where ``threat(node)`` holds (e.g. a corner is available to
    either side) is searched ``extension`` plies further, full width, once per line (a singular-extension-like
    remedy for the horizon effect)."""
    stats = Stats(depth=depth)
    max_player = state.to_move

    def value(node: N, d: int, extended: bool, alpha: float, beta: float) -> tuple[float, list[Move]]:
        stats.nodes += 1
        if node.is_over():
            stats.leaves += 1
            v = node.utility(max_player)
            if tracer:
                tracer.leaf(node, v)
            return v, []
        if d == 0:
            if extended or not threat(node):
                stats.leaves += 1
                v = evaluate(node, max_player)
                if tracer:
                    tracer.leaf(node, v)
                return v, []
            d, extended = extension, True                     # look past the horizon, once on this line
        if tracer:
            tracer.enter(node, alpha, beta)
        moves = node.legal_moves()
        pv: list[Move] = []
        if node.to_move == max_player:
            best = -math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, extended, alpha, beta)
                if v > best:
                    best, pv = v, [move, *line]
                if best >= beta:
                    stats.beta_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "beta", best, alpha, beta, moves[i + 1:])
                    break
                alpha = max(alpha, best)
        else:
            best = math.inf
            for i, move in enumerate(moves):
                v, line = value(node.play(move), d - 1, extended, alpha, beta)
                if v < best:
                    best, pv = v, [move, *line]
                if best <= alpha:
                    stats.alpha_cutoffs += 1
                    if tracer:
                        tracer.cutoff(node, "alpha", best, alpha, beta, moves[i + 1:])
                    break
                beta = min(beta, best)
        if tracer:
            tracer.exit(node, best)
        return best, pv

    t0 = time.perf_counter()
    v, pv = value(state, depth, False, -math.inf, math.inf)
    stats.seconds = time.perf_counter() - t0
    return SearchResult(v, pv[0] if pv else None, pv, stats, "alphabeta+extension", getattr(evaluate, "name", ""))
