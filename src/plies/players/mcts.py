"""The ``mcts`` player: Monte Carlo tree search with UCT (``plies.search.mcts``), no evaluation needed.

``mcts:iterations=1000,c=1.41,seed=7`` runs 1,000 select-expand-simulate-backpropagate rounds a move from its
own seeded generator (the same seed, the same moves) and plays the most visited move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TypeVar

from plies.game import Move, ParseError, State
from plies.players import Player, register
from plies.search.mcts import C, mcts
from plies.search.result import SearchResult

MAX_ITERATIONS = 10_000_000


class MCTSPlayer(Player):
    """UCT with ``iterations`` playouts a move and exploration constant ``c``."""

    def __init__(self, iterations: int = 1000, c: float = C, seed: int | None = None) -> None:
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ParseError(f"iterations must be from 1 to {MAX_ITERATIONS:,}")
        if not 0 <= c < math.inf:
            raise ParseError("c (the exploration constant) must be a number of at least 0")
        self.iterations = iterations
        self.c = c
        self.seed = seed
        self.rng = random.Random(seed)
        extra = f",c={c:g}" if c != C else ""
        self.name = f"mcts:iterations={iterations}{extra}" + (f",seed={seed}" if seed is not None else "")

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)

    def search(self, state: State) -> SearchResult:
        return mcts(state, self.iterations, self.c, rng=self.rng)

    def choose(self, state: State) -> Move:
        self.last_result = self.search(state)
        return self.last_result.move


N = TypeVar("N", int, float)
D = TypeVar("D")


def _factory(game: str, params: dict[str, str], raw: str) -> Player:
    def number(key: str, kind: Callable[[str], N], default: D) -> N | D:
        if key not in params:
            return default
        text = params.pop(key)
        try:
            return kind(text)
        except ValueError:
            raise ParseError(f"mcts: {key} must be {'a whole number' if kind is int else 'a number'}, not {text!r}"
                             ) from None

    iterations = number("iterations", int, None)
    if iterations is None:
        iterations = number("n", int, 1000)
    c = number("c", float, C)
    seed = number("seed", int, None)
    if params:
        raise ParseError(f"unknown option(s) for mcts: {', '.join(params)} (it takes iterations, c, seed)")
    return MCTSPlayer(iterations, c, seed)


register("mcts", _factory)

__all__ = ["MCTSPlayer"]
