"""How the page draws a game: the board's shape and every cell's contents, read from the game's ``GameType``.

``layout(state)`` is the board's shape (square grid or hexagon, which cells exist, coordinate labels, how pieces
and the board look); ``cells(state)`` one ``"X"``/``"O"``/``""`` per cell (``"#"``: a cell taken off the board),
``"X"`` the first player's piece whatever it looks like; ``legal(state)`` the cells a click plays, with the move's
name.  A game without a type (a plug-in's quick registration) is drawn from its ``to_text()`` as a square board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.game import BoardView, Move, State
from plies.games import type_of

if TYPE_CHECKING:
    from plies.web.views import Layout, Legal

SYMBOLS = {0: "X", 1: "O", None: "", BoardView.HOLE: "#"}


def view(state: State) -> BoardView:
    """The game's own board view, or a square one read from ``to_text()`` for a game without a type."""
    t = type_of(state)
    if t is not None:
        return t.view(state)
    board = state.to_text().split()[0]
    cells = tuple(0 if ch in "X*xB" else 1 if ch in "OoW0" else None for ch in board)
    n = max(1, round(len(cells) ** 0.5))
    clicks = {m: m for m in state.legal_moves() if isinstance(m, int) and 0 <= m < len(cells)}
    return BoardView("square", n, n, cells, clicks, tuple(chr(97 + c) for c in range(n)),
                     tuple(str(r + 1) for r in range(n)))


def layout(state: State) -> Layout:
    """The board's shape and looks, as the page reads them."""
    v = view(state)
    out: Layout = {"kind": v.shape, "rows": v.rows, "cols": v.cols, "files": list(v.files), "ranks": list(v.ranks),
                   "pieces": list(v.pieces), "surface": v.surface, "stars": [list(s) for s in v.stars]}
    if v.on_board is not None:
        out["cells_on_board"] = list(v.on_board)
    return out


def cells(state: State) -> list[str]:
    """Each cell's contents: ``X`` (the first player's), ``O``, ``""`` (empty), ``#`` (off the board)."""
    return [SYMBOLS.get(c, "") for c in view(state).cells]


def legal(state: State) -> list[Legal]:
    """The cells a click plays a move on, with the move's name (passes are not clicked)."""
    if state.is_over():
        return []
    return [{"index": cell, "move": state.move_str(m)} for cell, m in view(state).clicks.items()]


def highlight(state: State) -> list[int]:
    """Cells to mark (a winning line)."""
    return list(view(state).highlight)


def cell_of(before: State, move: Move) -> int | None:
    """The cell ``move`` was played on from ``before`` (None for a pass)."""
    return view(before).cell_of(move)


def counts(cells: list[str]) -> dict[str, int]:
    """Discs (marks) of each side on the board."""
    return {"X": cells.count("X"), "O": cells.count("O")}


def changed(before: list[str], after: list[str]) -> list[int]:
    """Cells that turned from one colour to the other (the discs a move flipped)."""
    return [i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a and b and a != b]


__all__ = ["cell_of", "cells", "changed", "counts", "highlight", "layout", "legal", "view"]
