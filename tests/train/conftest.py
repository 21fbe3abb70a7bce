"""Random positions shared by the training tests."""

from __future__ import annotations

import random

import pytest

from plies.games import OthelloState


def random_positions(count: int, seed: int = 0) -> list[OthelloState]:
    """Positions from random games, at every stage (a few per game), none finished."""
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        state = OthelloState.start()
        stop = rng.randint(0, 59)
        ply = 0
        while not state.is_over() and ply < stop:
            state = state.play(rng.choice(state.legal_moves()))
            ply += 1
        if not state.is_over():
            out.append(state)
    return out


@pytest.fixture(scope="session")
def positions() -> list[OthelloState]:
    return random_positions(300)
