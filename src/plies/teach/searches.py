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
from typing import Generic

from plies.game import Move
from plies.heuristics import Evaluation
from plies.search import SearchResult, Stats, Tracer
from plies.search.trace import N

EXACT, LOWER, UPPER = 0, 1, 2
FLAG_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}

Table = dict[N, tuple[int, float, int, Move | None]]
"""state -> (remaining depth, value, EXACT/LOWER/UPPER, best move)."""

Child = Callable[[N, float, float], tuple[float, list[Move]]]
"""How a search values a child inside the window (alpha, beta): its value and line."""


class _Walk(Generic[N]):
    """What the searches here share: the root's side, the counts and the tracer; a leaf, a cut-off, and
    alpha-beta's loop over a node's children."""

    def __init__(self, state: N, stats: Stats, tracer: Tracer[N] | None) -> None:
        self.max_player, self.stats, self.tracer = state.to_move, stats, tracer

    def leaf(self, node: N, v: float) -> float:
        """Count and trace ``node`` as a leaf of value ``v``."""
        self.stats.leaves += 1
        if self.tracer:
            self.tracer.leaf(node, v)
        return v

    def cutoff(self, node: N, maximizing: bool, best: float, alpha: float, beta: float, skipped: list[Move]) -> None:
        """Count and trace a cut-off at ``node``: β at MAX, α at MIN."""
        if maximizing:
            self.stats.beta_cutoffs += 1
        else:
            self.stats.alpha_cutoffs += 1
        if self.tracer:
            self.tracer.cutoff(node, "beta" if maximizing else "alpha", best, alpha, beta, skipped)

    def inner(self, node: N, moves: list[Move], alpha: float, beta: float, child: Child[N]) -> tuple[float, list[Move]]:
        """Alpha-beta at ``node``, traced: the best of ``child(node.play(move), alpha, beta)`` over ``moves`` for
        MAX (or MIN) and its line, the window narrowing as it goes, until a cut-off."""
        if self.tracer:
            self.tracer.enter(node, alpha, beta)
        maximizing = node.to_move == self.max_player
        best = -math.inf if maximizing else math.inf
        pv: list[Move] = []
        for i, move in enumerate(moves):
            v, line = child(node.play(move), alpha, beta)
            if (v > best) if maximizing else (v < best):
                best, pv = v, [move, *line]
            if (best >= beta) if maximizing else (best <= alpha):
                self.cutoff(node, maximizing, best, alpha, beta, moves[i + 1:])
                break
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
        if self.tracer:
            self.tracer.exit(node, best)
        return best, pv

    def run(self, root: Callable[[], tuple[float, list[Move]]], algorithm: str, evaluate: Evaluation) -> SearchResult:
        """``root()`` (the root's value and line), timed into the counts, as a result."""
        t0 = time.perf_counter()
        v, pv = root()
        self.stats.seconds += time.perf_counter() - t0
        return SearchResult(v, pv[0] if pv else None, pv, self.stats, algorithm, getattr(evaluate, "name", ""))


def tt_alphabeta(state: N, depth: int, evaluate: Evaluation, table: Table[N], stats: Stats | None = None,
                 tracer: Tracer[N] | None = None) -> SearchResult:
    """One iteration: alpha-beta to ``depth`` that reads and fills ``table`` (a value stored at the same
    remaining depth answers at once when it is exact, or a bound outside the window; a stored best move is
    searched first)."""
    walk = _Walk(state, stats if stats is not None else Stats(depth=depth), tracer)
    max_player = state.to_move

    def value(node: N, d: int, alpha: float, beta: float) -> tuple[float, list[Move]]:
        walk.stats.nodes += 1
        if node.is_over():
            return walk.leaf(node, node.utility(max_player)), []
        if d == 0:
            return walk.leaf(node, evaluate(node, max_player)), []
        hint = None
        entry = table.get(node)
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth == d and (e_flag == EXACT or (e_flag == LOWER and e_value >= beta)
                                 or (e_flag == UPPER and e_value <= alpha)):
                if tracer:
                    tracer.table(node, e_value, FLAG_NAMES[e_flag])
                return e_value, [hint] if hint is not None else []
        moves = node.legal_moves()
        if hint in moves:                                     # the previous iteration's best move first
            moves.remove(hint)
            moves.insert(0, hint)
        best, pv = walk.inner(node, moves, alpha, beta, lambda child, a, b: value(child, d - 1, a, b))
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        table[node] = (d, best, flag, pv[0] if pv else None)
        return best, pv

    return walk.run(lambda: value(state, depth, -math.inf, math.inf), "id+tt", evaluate)


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
    walk = _Walk(state, Stats(depth=depth), tracer)
    max_player = state.to_move

    def quiet(node: N, e: int, alpha: float, beta: float) -> float:
        walk.stats.nodes += 1
        if node.is_over():
            return walk.leaf(node, node.utility(max_player))
        stand = evaluate(node, max_player)
        loud = [m for m in node.legal_moves() if noisy(node, m)] if e > 0 else []
        if not loud:                                          # a quiet position: its value is the static one
            return walk.leaf(node, stand)
        if tracer:
            tracer.enter(node, alpha, beta)
            tracer.stand(node, stand)
        best = stand                                          # stand pat: the side to move may decline them
        maximizing = node.to_move == max_player
        for i in range(len(loud) + 1):                        # before each noisy move, and after the last
            if (best >= beta) if maximizing else (best <= alpha):    # the window has closed: a cut-off
                walk.cutoff(node, maximizing, best, alpha, beta, loud[i:])
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
        walk.stats.nodes += 1
        if node.is_over():
            return walk.leaf(node, node.utility(max_player)), []
        return walk.inner(node, node.legal_moves(), alpha, beta, lambda child, a, b: value(child, d - 1, a, b))

    return walk.run(lambda: value(state, depth, -math.inf, math.inf), "alphabeta+quiescence", evaluate)


Threat = Callable[[N], bool]


def extended_alphabeta(state: N, depth: int, evaluate: Evaluation, threat: Threat[N], extension: int = 2,
                       tracer: Tracer[N] | None = None) -> SearchResult:
    """Alpha-beta to ``depth``; a horizon node where ``threat(node)`` holds (e.g. a corner is available to
    either side) is searched ``extension`` plies further, full width, once per line (a singular-extension-like
    remedy for the horizon effect)."""
    walk = _Walk(state, Stats(depth=depth), tracer)
    max_player = state.to_move

    def value(node: N, d: int, extended: bool, alpha: float, beta: float) -> tuple[float, list[Move]]:
        walk.stats.nodes += 1
        if node.is_over():
            return walk.leaf(node, node.utility(max_player)), []
        if d == 0:
            if extended or not threat(node):
                return walk.leaf(node, evaluate(node, max_player)), []
            d, extended = extension, True                     # look past the horizon, once on this line
        return walk.inner(node, node.legal_moves(), alpha, beta,
                          lambda child, a, b: value(child, d - 1, extended, a, b))

    return walk.run(lambda: value(state, depth, False, -math.inf, math.inf), "alphabeta+extension", evaluate)
