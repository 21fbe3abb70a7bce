"""Building the opening book from engine analysis (the book itself and its look-up: ``plies.engine.book``).

``build_book`` grows the opening tree from the start one ply at a time: every position of a ply is analysed by
the backend (all its moves valued at a fixed depth; the positions of a ply are independent, so ``workers``
processes share them), and its moves worth playing are expanded into the next ply: the best ``branch`` moves
among those within ``width`` discs of the best (deviation expansion: a move a strong player might choose is
in the book, a move that loses clearly is only valued), until ``plies`` moves deep.  Values are then backed up
by negamax from the deepest positions (a move's value is minus the value of the position it leads to whenever
that position is in the book, transpositions and symmetric twins included), so a book value is the value of
the best line through the book, in the search's unit.  Positions are stored once per symmetry class (see
``plies.engine.book``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from plies.engine.book import DEFAULT_BOOK, Book, canonical, load_book, transform
from plies.games import OthelloState
from plies.train.backends import Backend, get_backend

__all__ = ["DEFAULT_BOOK", "Book", "build_book", "canonical", "load_book", "transform"]

Key = tuple[int, int]

_WORKER: dict[str, Any] = {}


def _init_worker(backend: str, evaluation: str) -> None:
    _WORKER["backend"] = get_backend(backend, evaluation)


def _analyse(args: tuple[int, int, int, int]) -> list[tuple[int, float]]:
    black, white, to_move, depth = args
    backend: Backend = _WORKER["backend"]
    backend.new_game()  # empty tables: a position's values do not depend on which worker analysed what before
    return backend.analyse(OthelloState(black, white, to_move), depth)


def build_book(backend: Backend, depth: int, plies: int, branch: int = 2, width: float = float("inf"),
               start: OthelloState | None = None, max_positions: int = 100_000,
               on_position: Callable[[int], None] | None = None, workers: int = 1,
               evaluation: str = "default") -> Book:
    """Analyse the opening tree ply by ply, expand the moves worth playing, back the values up (see the module
    docstring); the book of every analysed position.  With ``workers`` > 1 the analyses run in that many
    processes, each with its own ``backend.name`` backend of ``evaluation`` (the same values: every analysis
    starts from empty tables)."""
    book = Book(meta={"depth": depth, "plies": plies, "branch": branch, "width": width, "backend": backend.name})
    root = start or OthelloState.start()
    analyses: dict[Key, list[tuple[int, float]]] = {}
    states: dict[Key, OthelloState] = {}
    frontier: dict[Key, OthelloState] = {canonical(*root.own_opp())[0]: root}
    pool = None
    if workers > 1:
        import multiprocessing as mp

        pool = mp.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(backend.name, evaluation))
    try:
        for ply in range(plies + 1):
            todo = [(k, s) for k, s in frontier.items() if k not in analyses and not s.is_over()]
            todo = todo[: max(0, max_positions - len(analyses))]
            if not todo:
                break
            jobs = [(s.black, s.white, s.to_move, depth) for _, s in todo]
            results: Iterable[list[tuple[int, float]]]
            if pool is not None:
                results = pool.imap(_analyse, jobs, chunksize=1)
            else:
                results = (_analyse_here(backend, s, depth) for _, s in todo)
            nxt: dict[Key, OthelloState] = {}
            for (key, state), moves in zip(todo, results, strict=True):
                analyses[key] = moves
                states[key] = state
                if on_position:
                    on_position(len(analyses))
                if ply == plies:
                    continue
                best = moves[0][1]
                for rank, (m, v) in enumerate(moves):
                    if rank >= branch or v < best - width:
                        break
                    child = state.play(m)
                    ck = canonical(*child.own_opp())[0]
                    if ck not in analyses and ck not in nxt and not child.is_over():
                        nxt[ck] = child
            frontier = nxt
    finally:
        if pool is not None:
            pool.terminate()
    values: dict[Key, float] = {}

    def value(key: Key) -> float:
        """The negamax value of a book position: each move's child value where the child is in the book."""
        if key in values:
            return values[key]
        state = states[key]
        backed = []
        for m, v in analyses[key]:
            child = state.play(m)
            ck = canonical(*child.own_opp())[0]
            if ck in analyses:  # (a game never comes back to a position: no cycles)
                v = -value(ck)
            elif child.is_over():
                s = child.score()
                v = float(-(s if child.to_move == 0 else -s))
            backed.append((m, v))
        backed.sort(key=lambda mv: -mv[1])
        values[key] = backed[0][1]
        book.add(state, backed)
        return values[key]

    for key in analyses:
        value(key)
    return book


def _analyse_here(backend: Backend, state: OthelloState, depth: int) -> list[tuple[int, float]]:
    backend.new_game()
    return backend.analyse(state, depth)
