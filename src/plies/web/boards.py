"""How the page draws each game: board shape and the contents of every cell, read through the State API.

A board adapter turns a State into ``layout`` (square grid or hexagon, which cells exist, coordinate labels)
and ``cells`` (one ``"X"``/``"O"``/``""`` per cell index, where the index is the game's own move number; ``"#"``
is a HexThello hole, a cell taken off the board).
New games plug in with ``register_adapter``; a game without an adapter falls back to its ``to_text()``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plies.game import State
from plies.games.othello import OthelloState


@dataclass(frozen=True)
class BoardAdapter:
    """Layout and cell contents of one game's board for the browser."""

    layout: Callable[[State], dict[str, Any]]
    cells: Callable[[State], list[str]]


ADAPTERS: dict[str, BoardAdapter] = {}


def register_adapter(game: str, adapter: BoardAdapter) -> None:
    """Teach the page to draw ``game`` (HexThello and future games register here)."""
    ADAPTERS[game] = adapter


def _files(n: int) -> list[str]:
    return [chr(97 + c) for c in range(n)]


def _square_layout(n: int) -> dict[str, Any]:
    return {"kind": "square", "rows": n, "cols": n, "files": _files(n), "ranks": [str(r + 1) for r in range(n)]}


def _othello_cells(state: Any) -> list[str]:
    out = []
    for i in range(state.n * state.n):
        bit = 1 << i
        out.append("X" if state.black & bit else "O" if state.white & bit else "")
    return out


def _ttt_cells(state: Any) -> list[str]:
    return ["X" if state.x >> i & 1 else "O" if state.o >> i & 1 else "" for i in range(9)]


def _othello_layout(state: State) -> dict[str, Any]:
    return _square_layout(state.n if isinstance(state, OthelloState) else 8)


register_adapter("othello", BoardAdapter(_othello_layout, _othello_cells))
register_adapter("tictactoe", BoardAdapter(lambda s: _square_layout(3), _ttt_cells))


def hex_layout(size: int = 15, radius: int = 7) -> dict[str, Any]:
    """A hexagon stored in a ``size`` x ``size`` array (document 004): cell (i, j) exists iff
    ``radius <= i + j <= 3 * radius``; index = i * size + j."""
    on = [i * size + j for i in range(size) for j in range(size) if radius <= i + j <= 3 * radius]
    return {"kind": "hex", "rows": size, "cols": size, "cells_on_board": on, "files": _files(size),
            "ranks": [str(r + 1) for r in range(size)]}


def _generic_cells(state: State) -> list[str]:
    """Cells read from ``to_text()`` (its first token; X/O/* are discs, anything else is empty)."""
    board = state.to_text().split()[0]
    return ["X" if ch in "X*xB" else "O" if ch in "OoW0" else "" for ch in board]


def adapter_for(state: State) -> BoardAdapter:
    """The adapter of ``state``'s game; unknown games get a square board read from ``to_text()``."""
    found = ADAPTERS.get(state.game)
    if found is not None:
        return found

    def layout(s: State) -> dict[str, Any]:
        cells = len(_generic_cells(s))
        n = max(1, round(cells ** 0.5))
        return _square_layout(n)

    return BoardAdapter(layout, _generic_cells)


def counts(cells: list[str]) -> dict[str, int]:
    """Discs (marks) of each side on the board."""
    return {"X": cells.count("X"), "O": cells.count("O")}


def changed(before: list[str], after: list[str]) -> list[int]:
    """Cells that turned from one colour to the other (the discs a move flipped)."""
    return [i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a and b and a != b]


def _register_hexthello() -> None:
    """Draw HexThello as a hexagon.  Importing its rules registers the game with ``plies.games``, importing its
    evaluations lets the computer play it with the named heuristics."""
    import plies.heuristics.hexthello  # noqa: F401
    from plies.games.hexthello import CELLS, SIZE, HexThelloState

    def cells(state: State) -> list[str]:
        if isinstance(state, HexThelloState):
            black, white, holes = state.black, state.white, state.holes  # holes: cells off the board ("#")
            return ["X" if black >> i & 1 else "O" if white >> i & 1 else "#" if holes >> i & 1 else ""
                    for i in range(CELLS)]
        return _generic_cells(state)

    register_adapter("hexthello", BoardAdapter(lambda s: hex_layout(SIZE), cells))


_register_hexthello()

__all__ = ["ADAPTERS", "BoardAdapter", "adapter_for", "changed", "counts", "hex_layout", "register_adapter"]
