"""Building the opening book from engine analysis (the book itself and its look-up: ``plies.engine.book``).

``build_book`` walks the tree from the start: at every position the backend values all moves at a fixed depth,
the best ``branch`` moves (those within ``width`` of the best) are expanded until ``plies`` moves deep, and
values are backed up by negamax (a move's value is minus the value of the position it leads to, where that
position is in the book).  Positions are stored once per symmetry class (see ``plies.engine.book``).
"""

from __future__ import annotations

from collections.abc import Callable

from plies.engine.book import DEFAULT_BOOK, Book, canonical, load_book, transform
from plies.games import OthelloState
from plies.train.backends import Backend

__all__ = ["DEFAULT_BOOK", "Book", "build_book", "canonical", "load_book", "transform"]


def build_book(backend: Backend, depth: int, plies: int, branch: int = 2, width: float = float("inf"),
               start: OthelloState | None = None, max_positions: int = 100_000,
               on_position: Callable[[int], None] | None = None) -> Book:
    """Analyse and back up the opening tree (see the module docstring); the book of every analysed position."""
    book = Book(meta={"depth": depth, "plies": plies, "branch": branch, "width": width, "backend": backend.name})
    values: dict[tuple[int, int], float] = {}

    def visit(state: OthelloState, ply: int) -> float:
        key, _ = canonical(*state.own_opp())
        if key in values:
            return values[key]
        if state.is_over():
            s = state.score()
            return float(s if state.to_move == 0 else -s)
        analysis = backend.analyse(state, depth)
        best = analysis[0][1]
        expand = ply < plies and len(values) < max_positions
        backed = []
        for rank, (m, v) in enumerate(analysis):
            child = state.play(m)
            known = values.get(canonical(*child.own_opp())[0])
            if expand and rank < branch and v >= best - width:
                v = -visit(child, ply + 1)
            elif known is not None:  # a transposition (or a symmetric twin) already in the book
                v = -known
            backed.append((m, v))
        analysis = sorted(backed, key=lambda mv: -mv[1])
        values[key] = analysis[0][1]
        book.add(state, analysis)
        if on_position:
            on_position(len(values))
        return values[key]

    visit(start or OthelloState.start(), 0)
    return book
