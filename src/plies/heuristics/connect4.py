"""Connect Four evaluations: open lines weighted by how full they are, the centre, and win/loss/draw only."""

from __future__ import annotations

from plies.games.connect4 import COLUMNS, HEIGHT, ROWS, ConnectFourState
from plies.heuristics import Heuristic, register
from plies.i18n import N_

CENTRE = sum(1 << (HEIGHT * (COLUMNS // 2) + r) for r in range(ROWS))


def open_lines(state: ConnectFourState, player: int) -> float:
    """100 per line of four with three of the player's discs and none of the other's, 10 per such line with two,
    1 per line with one, 3 per disc in the centre column (it belongs to the most lines); the other side's the same
    subtracted."""

    def side(p: int) -> float:
        three, two, one = state.threats(p)
        discs = state.red if p == 0 else state.yellow
        return 100 * three + 10 * two + one + 3 * (discs & CENTRE).bit_count()

    return side(player) - side(1 - player)


def win_loss(state: ConnectFourState, player: int) -> float:
    """+1 if the player has won, -1 if lost, 0 otherwise (draw or still going): only finished games count."""
    s = state.score()
    return s if player == 0 else -s


register(Heuristic("open-lines", "connect4", open_lines,
                   N_("100 x lines of three + 10 x lines of two + lines of one (open: none of the other side's) "
                   "+ 3 x centre discs, the other side's subtracted"), ("lines", "threats")), default=True)
register(Heuristic("win-loss", "connect4", win_loss, N_("+1 win, -1 loss, 0 otherwise: only finished games count")))
