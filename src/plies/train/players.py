"""Players that use what ``plies train`` makes: the opening book in front of any player, and the learned
evaluation in the engine's search (the shipped weights or a weights file of ``plies train fit``)."""

from __future__ import annotations

import random
from typing import Any

from plies.game import Move, State
from plies.players import Player
from plies.train.book import Book, load_book


class BookPlayer(Player):
    """Plays the book's move while the position is in the book (best, or a seeded pick among moves within
    ``margin`` of the best for variety), then lets ``fallback`` choose."""

    def __init__(self, fallback: Player, book: Book | None = None, margin: float = 0.0,
                 seed: int | None = None) -> None:
        self.fallback = fallback
        self.book = book if book is not None else load_book()
        self.margin = margin
        self.rng = random.Random(seed) if seed is not None else None
        self.name = f"book+{fallback.name}"
        self.in_book = 0

    def new_game(self, state: State) -> None:
        self.fallback.new_game(state)

    def choose(self, state: State) -> Move:
        move = self.book.choose(state, self.rng, self.margin)
        if move is not None and move in state.legal_moves():
            self.in_book += 1
            self.last_result = None
            return move
        move = self.fallback.choose(state)
        self.last_result = self.fallback.last_result
        return move

    def close(self) -> None:
        self.fallback.close()


class LearnedPlayer(Player):
    """The engine with the learned evaluation at a fixed depth (or time per move), without its book:
    the shipped weights, or those of ``weights_path``."""

    def __init__(self, depth: int = 6, time: float | None = None, weights_path: str | None = None) -> None:
        from plies.engine import Engine

        self.depth = depth
        self.time = time
        self.engine: Any = Engine(evaluation="learned", weights=weights_path)
        self.name = f"learned:depth={depth}" if time is None else f"learned:time={time}"

    def new_game(self, state: State) -> None:
        self.engine.clear()  # a game does not depend on the games before it

    def choose(self, state: State) -> Move:
        r = self.engine.search(state, depth=None if self.time else self.depth, time=self.time)
        self.last_result = r
        return r.move

    def close(self) -> None:
        self.engine.stop()


EVALS = {"learned": "learned", "default": "handmade", "handmade": "handmade"}
"""``learned:eval=`` values -> the engine's evaluation (``default`` is the hand-made one here, as it was
before the engine took the learned weights)."""


def _factory(game: str, params: dict[str, str], raw: str) -> Player:
    """``learned:depth=4,eval=learned|default,book=on|off,weights=FILE`` (8x8 Othello only): the engine at a
    fixed depth with that evaluation, behind the opening book or not."""
    from plies.game import ParseError
    from plies.players.engine import EnginePlayer
    from plies.train.fit import load_weights

    if game != "othello":
        raise ParseError("learned players play 8x8 Othello only")
    unknown = set(params) - {"depth", "eval", "book", "weights"}
    if unknown:
        raise ParseError(f"unknown learned player option {sorted(unknown)[0]!r} (use depth, eval, book, weights)")
    try:
        depth = int(params.get("depth", "4"))
    except ValueError:
        raise ParseError(f"depth must be a whole number, not {params['depth']!r}") from None
    if not 1 <= depth <= 12:
        raise ParseError("depth must be between 1 and 12")
    evaluation = params.get("eval", "learned")
    if evaluation not in EVALS:
        raise ParseError(f"unknown evaluation {evaluation!r}; choose from: {', '.join(EVALS)}")
    book = params.get("book", "off")
    if book not in ("on", "off"):
        raise ParseError("book must be on or off")
    weights = params.get("weights")
    if weights is not None:
        load_weights(weights)  # a clear error for a bad file, whatever the evaluation
    learned = EVALS[evaluation] == "learned"
    player: Player = EnginePlayer(depth=depth, evaluation=EVALS[evaluation], book=False,
                                  weights=weights if learned else None)
    player.name = f"learned:depth={depth},eval={evaluation}" + (f",weights={weights}" if weights and learned else "")
    return BookPlayer(player) if book == "on" else player


def register_kind() -> None:
    """Make ``learned:...`` player specs work (``plies match``/``tournament`` once the kind is listed lazily)."""
    from plies.players import register

    register("learned", _factory)


register_kind()
