"""Random but reproducible Othello games for the format round trips."""

from __future__ import annotations

import random

import pytest

from plies.formats.model import OthelloGame
from plies.game import PASS
from plies.games.othello import OthelloState

PASS_PREFIX = "d3c3e6d2d1e1b2c1"
"""After these eight moves Black has no move and must pass; White then has a3, b4, d6."""


def random_game(seed: int, max_moves: int | None = None, start: OthelloState | None = None) -> OthelloGame:
    rng = random.Random(seed)
    s = start or OthelloState.start()
    g = OthelloGame(start=s)
    while not s.is_over() and (max_moves is None or len(g.moves) < max_moves):
        m = rng.choice(s.legal_moves())
        g.moves.append(m)
        s = s.play(m)
    g.evals = [None] * len(g.moves)
    g.times = [None] * len(g.moves)
    return g


def games_with_a_pass(count: int) -> list[OthelloGame]:
    """The first ``count`` random complete games (by seed) that contain a pass before the end."""
    out = []
    seed = 0
    while len(out) < count:
        g = random_game(seed)
        if PASS in g.moves:
            out.append(g)
        seed += 1
    return out


@pytest.fixture(scope="session")
def some_games() -> list[OthelloGame]:
    games = [random_game(s) for s in range(12)] + games_with_a_pass(3) + [random_game(99, 10)]
    assert any(PASS in g.moves for g in games)
    return games
