"""Textbook search, game-agnostic: minimax and alpha-beta that read like the documents' pseudocode, and Monte
Carlo tree search (UCT) as aima-python writes it."""

from __future__ import annotations

from plies.search.alphabeta import alphabeta
from plies.search.mcts import mcts
from plies.search.minimax import minimax
from plies.search.perft import divide, fast_perft, perft
from plies.search.result import SearchResult, Stats
from plies.search.trace import RecordingTracer, Tracer

__all__ = [
    "RecordingTracer", "SearchResult", "Stats", "Tracer", "alphabeta", "divide", "fast_perft", "mcts", "minimax",
    "perft",
]
