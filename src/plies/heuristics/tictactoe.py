"""Tic-tac-toe evaluations: document 002's line count and document 003's win/loss/draw."""

from __future__ import annotations

from plies.games.tictactoe import TicTacToeState
from plies.heuristics import Heuristic, register
from plies.i18n import N_


def open_lines(state: TicTacToeState, player: int) -> float:
    """Document 002: 3*X2 + X1 - (3*O2 + O1), Xn = lines with n X's and no O (for X; negated for O)."""
    x2, x1 = state.line_counts(0)
    o2, o1 = state.line_counts(1)
    v = 3 * x2 + x1 - (3 * o2 + o1)
    return v if player == 0 else -v


def win_loss(state: TicTacToeState, player: int) -> float:
    """Document 003: +1 if the player has won, -1 if lost, 0 otherwise (draw or still going)."""
    s = state.score()
    return s if player == 0 else -s


register(Heuristic("open-lines", "tictactoe", open_lines,
                   N_("3*X2 + X1 - (3*O2 + O1): lines still open for each side (document 002)"), ("doc002", "lines")),
         default=True)
register(Heuristic("win-loss", "tictactoe", win_loss,
                   N_("+1 win, -1 loss, 0 otherwise: only finished games count (document 003)"), ("doc003",),
                   bound=1))
