"""The opening book as players see it: the book's moves of an 8x8 Othello position with their values (in discs,
from the side to move's view), and whether a game's move followed the book (the review says "book")."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, TypedDict

from plies.game import Move, State
from plies.games.othello import OthelloState

if TYPE_CHECKING:
    from plies.engine.book import Book


class BookMove(TypedDict):
    """One of the book's moves: its name, its index and its value in discs for the side to move."""

    move: str
    index: Move
    value: float


_BOOK: list[Book] = []
_LOCK = threading.Lock()


def _book() -> Book | None:
    """The shipped opening book, read once; None where it cannot be read."""
    with _LOCK:
        if not _BOOK:
            try:
                from plies.engine.book import load_book

                _BOOK.append(load_book())
            except Exception:  # the book is optional: without it no move is a book move
                return None
        return _BOOK[0]


def book_moves(state: State) -> list[BookMove]:
    """The opening book's moves of ``state`` (8x8 Othello), best first, values in discs from the side to move's
    view; [] out of book, at the end of a game, or in another game."""
    if not isinstance(state, OthelloState) or state.n != 8 or state.is_over():
        return []
    book = _book()
    if book is None:
        return []
    return [{"move": state.move_str(m), "index": m, "value": round(float(v), 2) + 0.0} for m, v in book.lookup(state)]


def in_book(state: State, move: Move) -> bool:
    """Whether ``move`` is one of the opening book's moves of ``state``."""
    return any(b["index"] == move for b in book_moves(state))


__all__ = ["BookMove", "book_moves", "in_book"]
