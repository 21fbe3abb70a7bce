"""Names of the well-known Othello openings: a table written by hand (the names players use, each with the moves
that reach it from the start, Black's first move f5), and the name of a game's positions.

A position is named when it is a named line's position or one of its mirror images (the other first moves d3,
c4 and e6 mirror f5), whatever the order of the moves that reached it; a game is in the last named position it
went through.  Only 8x8 Othello has names; other games and boards have none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from plies.game import State

OTHELLO: tuple[tuple[str, str], ...] = (
    # the three answers to f5
    ("f5d6", "Perpendicular"),
    ("f5f4", "Parallel"),
    ("f5f6", "Diagonal"),
    # perpendicular openings
    ("f5d6c3d3c4", "Tiger"),
    ("f5d6c3d3c4b3", "Aubrey"),
    ("f5d6c3d3c4f4c5b3c2", "Rose-Bill"),
    ("f5d6c3d3c4f4c5b3c2e3", "Nicolet"),
    ("f5d6c3d3c4f4c5b3c2b4", "Central Rose-Bill"),
    ("f5d6c3d3c4f4c5b3c2e6", "Tamenori"),
    ("f5d6c3d3c4f4c5b4b5c6f3e6e3", "Ishii"),
    ("f5d6c3d3c4f4c5b4b5c6f3e6e3g6f6g5d7g3", "Mainline Tiger"),
    ("f5d6c3d3c4f4e3", "Brightwell"),
    ("f5d6c3d3c4f4e6", "Leader's Tiger"),
    ("f5d6c3d3c4f4f6", "Stephenson"),
    ("f5d6c3d3c4f4f6b4", "Kung"),
    ("f5d6c3d3c4f4f6g5", "No-Kung"),
    ("f5d6c3g5", "Ganglion"),
    ("f5d6c4d3c5", "Cat"),
    ("f5d6c4d3e6", "Italian"),
    ("f5d6c4g5", "No-Cat"),
    ("f5d6c4g5c6", "Swallow"),
    ("f5d6c5f4d3", "Horse"),
    ("f5d6c5f4e3c6d3f3", "Ralle"),
    ("f5d6c5f4e3c6d3f6e6d7", "Rose"),
    ("f5d6c5f4e3c6d3f6e6d7e7", "Greenberg"),
    ("f5d6c5f4e3c6d3f6e6d7g3c4", "Rose-Birth"),
    ("f5d6c5f4e3c6d3f6e6d7g4", "Flat"),
    ("f5d6c5f4e3c6d3f6e6d7g4c4", "Rotating Flat"),
    ("f5d6c5f4e3c6d7", "Bhagat"),
    ("f5d6c5f4e3c6e6", "Inoue"),
    ("f5d6c5f4e3c6e6f6", "Iago"),
    ("f5d6c5f4e3c6f3", "Shaman"),
    ("f5d6c5f4e3d3", "Mimura"),
    # diagonal openings
    ("f5f6c4f4", "Semi-Wing"),
    ("f5f6d3f4", "Wing"),
    ("f5f6e6d6c3", "Buffalo"),
    ("f5f6e6d6c3d3", "Hokuriku Buffalo"),
    ("f5f6e6d6c3f4c6d3e3d2", "Tanida Buffalo"),
    ("f5f6e6d6c3g4c6", "Maruoka Buffalo"),
    ("f5f6e6d6c5", "Cow"),
    ("f5f6e6d6c5e3d3", "Rose-v-Toth"),
    ("f5f6e6d6c5e3d3c4c3", "Landau"),
    ("f5f6e6d6c5e3d3c4c6b5", "Maruoka"),
    ("f5f6e6d6c5e3d3g5", "Tanida"),
    ("f5f6e6d6c5e3d3g5d7", "Aircraft"),
    ("f5f6e6d6c5e3d3g5e2b5", "Sailboat"),
    ("f5f6e6d6c5e3e7", "Bat"),
    ("f5f6e6d6c5f4", "Chimney"),
    ("f5f6e6d6c7c6d7", "Hamilton"),
    ("f5f6e6d6c7f4", "Lollipop"),
    ("f5f6e6d6d7", "Raccoon Dog"),
    ("f5f6e6d6e7", "Heath"),
    ("f5f6e6d6e7f4", "Heath-Chimney"),
    ("f5f6e6d6e7g5c5", "Heath-Bat"),
    ("f5f6e6d6e7g5g4", "Iwasaki"),
    ("f5f6e6d6f7", "Snake"),
    ("f5f6e6d6f7e3d7e7c6c5d3", "Pyramid"),
    ("f5f6e6d6g7", "X-square"),
)
"""(moves from the 8x8 start, name): the well-known Othello openings, as players name them."""

_SIZE = 8
NAMED = {("othello", _SIZE): OTHELLO}
"""The games and boards with named openings."""


@dataclass(frozen=True)
class Opening:
    """A named opening a game went through: its name, the ply that reached it and the line that names it."""

    name: str
    ply: int
    line: str


def _mirrors(board: str) -> list[str]:
    """An 8x8 board's 64 cells (row-major from a1) as they are and in the three mirror images that keep the start
    position: the two diagonals and the half turn (f5's images d3, c4 and e6)."""
    n = _SIZE
    maps = (lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (n - 1 - r, n - 1 - c),
            lambda r, c: (n - 1 - c, n - 1 - r))
    out = []
    for f in maps:
        cells = [""] * (n * n)
        for i, ch in enumerate(board):
            r, c = f(*divmod(i, n))
            cells[r * n + c] = ch
        out.append("".join(cells))
    return out


def _key(state: State) -> str | None:
    """A position's board and side to move as text (``to_text``), when its game and board have named openings."""
    from plies.games import type_of

    t = type_of(state)
    if t is None or (t.name, t.board_size(state)) not in NAMED:
        return None
    return state.to_text()


@cache
def _table() -> dict[str, tuple[str, str]]:
    """Every named position, in all its mirror images: board text and side -> (name, line)."""
    from plies.games import TYPES
    from plies.games.record import Game

    table: dict[str, tuple[str, str]] = {}
    for (game, size), lines in NAMED.items():
        t = TYPES[game]
        for line, name in lines:
            board, _, side = Game.from_transcript(t, line, t.start(size, "standard")).state.to_text().partition(" ")
            for image in _mirrors(board):
                table.setdefault(f"{image} {side}", (name, line))
    return table


def position_name(state: State) -> str | None:
    """The name of this very position (a named line's, or a mirror image's), or None."""
    key = _key(state)
    found = _table().get(key) if key is not None else None
    return found[0] if found else None


def openings(states: Sequence[State]) -> list[Opening]:
    """The named positions a game went through (``states``: the start, then the position after each move)."""
    out: list[Opening] = []
    for ply, state in enumerate(states):
        key = _key(state)
        found = _table().get(key) if key is not None else None
        if found is not None:
            out.append(Opening(found[0], ply, found[1]))
    return out


def opening(states: Sequence[State]) -> Opening | None:
    """The last named position the game went through: the opening it is in, or None."""
    named = openings(states)
    return named[-1] if named else None


__all__ = ["NAMED", "OTHELLO", "Opening", "opening", "openings", "position_name"]
