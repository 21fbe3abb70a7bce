"""plies: two-player games of skill — textbook searches to read and count, a fast Othello engine, ways to play."""

from __future__ import annotations

from plies.game import PASS, WIN, IllegalMoveError, Outcome, ParseError, PliesError, State
from plies.games import OthelloState, TicTacToeState, TreeState, parse_position, start_position
from plies.games.record import Game
from plies.search import SearchResult, Stats, alphabeta, minimax, perft

Othello = OthelloState
TicTacToe = TicTacToeState

__version__ = "0.1.0"

__all__ = [
    "PASS", "WIN", "Game", "IllegalMoveError", "Othello", "OthelloState", "Outcome", "ParseError", "PliesError",
    "SearchResult", "State", "Stats", "TicTacToe", "TicTacToeState", "TreeState", "alphabeta", "minimax",
    "parse_position", "perft", "start_position",
]
