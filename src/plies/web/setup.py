"""Reading a set-up: a transcript whose moves become the game's history, or a board (from the board editor or
pasted) with the side to move.  Errors name the bad move and its place ("move 5 (c9): c9 is off the board").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from plies.game import Move, ParseError, PliesError, State
from plies.games import TYPES, start_position, type_of
from plies.games.record import Game


def start_for(game: str, size: int | None = None) -> State:
    """The start position of ``game`` on the board of ``size`` (one of its ``sizes``; None: the usual board)."""
    start = start_position(game.strip().lower())
    if size is None:
        return start
    t = type_of(start)
    if t is None or not t.sizes:
        sized = [x.title for x in TYPES.values() if x.sizes]
        raise PliesError(f"only {' and '.join(sized)} {'has' if len(sized) == 1 else 'have'} board sizes; "
                         f"{game} has one board")
    if size == t.board_size(start):
        return start
    return start_position(f"{t.name}{size}")


def _cells(start: State) -> int:
    """How many characters a board of this game has before the side to move (0: boards not accepted)."""
    t = type_of(start)
    return t.cells(start) if t is not None else 0


def _symbols(start: State) -> tuple[str, str]:
    """How a board text writes the two sides (``X``/``O``, Connect Four's ``R``/``Y``)."""
    sym = getattr(start, "symbols", ("X", "O"))
    return str(sym[0]), str(sym[1])


def _board_chars(start: State) -> re.Pattern[str]:
    """The characters a board text of ``start``'s game may hold: X/O (Othello's ``*``, ``B``/``W`` too), ``-`` or
    ``.`` for an empty cell, ``#`` for a hole, and the game's own side letters (Connect Four's ``R``/``Y``)."""
    extra = "".join(re.escape(c) for c in "".join(_symbols(start)) if c.upper() not in "XOBW")
    extra += extra.lower()
    return re.compile(f"[XxOo0*.\\-_BW#{extra}]+")


def looks_like_board(start: State, text: str) -> bool:
    compact = "".join(text.split())
    n = _cells(start)
    return bool(n) and len(compact) == n + 1 and bool(_board_chars(start).fullmatch(compact))


def read_board(start: State, text: str) -> State:
    """A board of ``start``'s game: its cells (X/O/-) in the game's order, then the side to move (X or O)."""
    compact = "".join(text.split())
    t = type_of(start)
    if t is None:
        raise ParseError(f"{start.game} positions are not set up from a board")
    n = t.cells(start)
    first, second = _symbols(start)
    if len(compact) != n + 1:
        raise ParseError(f"{t.a_noun()} board is {n} cells then the side to move ({first} or {second}), not "
                         f"{len(compact)} characters")
    side = compact[-1]
    sides = "XxOo0*BW" + "".join(c + c.lower() for c in (first, second))
    if side not in sides:
        raise ParseError(f"the last character says who moves: {first} or {second}, not {side!r}")
    chars = _board_chars(start)
    bad = next((c for c in compact[:-1] if not chars.fullmatch(c)), None)
    if bad is not None:
        raise ParseError(f"a board cell is {first}, {second} or -, not {bad!r}")
    return t.parse(compact)


def read_setup(game: str, size: int | None, text: str | None,
               then: Sequence[str] | None = None) -> tuple[State, list[Move]]:
    """(start position, moves) of a set-up: nothing (the game's start), a board with the side to move, or a
    transcript whose moves are kept; ``then``: moves played after it (one per item)."""
    start, moves = _read_setup(game, size, text)
    played = Game(start, moves)
    for k, name in enumerate(then or (), len(moves) + 1):
        try:
            played.play(name)
        except PliesError as e:
            raise ParseError(f"move {k} ({name}): {e}") from None
    return start, played.moves


def _read_setup(game: str, size: int | None, text: str | None) -> tuple[State, list[Move]]:
    start = start_for(game, size)
    if not text or not text.strip():
        return start, []
    compact = "".join(text.split())
    t = type_of(start)
    chars = _board_chars(start)
    if t is not None and size is None:  # a board of another size says which
        for other in (t.start(n, "standard") for n in t.sizes):
            if len(compact) == t.cells(other) + 1 and chars.fullmatch(compact):
                start = other
    if looks_like_board(start, text) or (_cells(start) and len(compact) == _cells(start) + 1
                                         and chars.fullmatch(compact[:-1])):
        return read_board(start, text), []  # (a board whose last letter is not a side is refused there)
    if _cells(start) and len(text.strip()) >= 20 and "#" not in compact and chars.fullmatch(compact):
        read_board(start, text)  # a board of the wrong length: say so rather than read it as moves
    moves = Game.from_transcript(t, text, start).moves
    if not moves:
        raise ParseError("no moves in the transcript")
    return start, moves


__all__ = ["looks_like_board", "read_board", "read_setup", "start_for"]
