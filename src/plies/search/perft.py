"""Perft: the number of leaves ``depth`` plies below a position, the standard check of move generation.

A forced pass counts as a ply; a game that ends before ``depth`` is one leaf.
"""

from __future__ import annotations

from plies.game import PASS, Move, State
from plies.games.othello import OthelloState, bits, flips, legal_mask


def perft(state: State, depth: int) -> int:
    """Leaf count by the game-agnostic State API (any game)."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(m), depth - 1) for m in moves)


def perft_othello(own: int, opp: int, n: int, depth: int, passed: bool = False) -> int:
    """Othello perft on raw bitboards (no State objects): the pure-Python rules' fastest path."""
    if depth == 0:
        return 1
    moves = legal_mask(own, opp, n)
    if not moves:
        if passed:
            return 1                     # neither side can move: the game is over
        if not legal_mask(opp, own, n):
            return 1
        return perft_othello(opp, own, n, depth - 1, True)
    if depth == 1:
        return moves.bit_count()
    total = 0
    for sq in bits(moves):
        f = flips(own, opp, sq, n)
        total += perft_othello(opp & ~f, own | f | (1 << sq), n, depth - 1)
    return total


def fast_perft(state: State, depth: int) -> int:
    """Perft by the fastest pure-Python path available for the game."""
    if isinstance(state, OthelloState):
        own, opp = state.own_opp()
        return perft_othello(own, opp, state.n, depth)
    return perft(state, depth)


def divide(state: State, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: [(move, leaves below it)]."""
    if depth == 0 or state.is_over():
        return []
    return [(m, fast_perft(state.play(m), depth - 1)) for m in state.legal_moves()]


__all__ = ["PASS", "divide", "fast_perft", "perft", "perft_othello"]
