"""Shared fixtures of the engine tests: seeded random positions and one warm engine per session."""

from __future__ import annotations

import random

import pytest

from plies.games.othello import OthelloState


def random_position(rng: random.Random, plies: int) -> OthelloState:
    """``plies`` random legal moves (passes included) from the start; may end early if the game ends."""
    s = OthelloState.start()
    for _ in range(plies):
        moves = s.legal_moves()
        if not moves:
            break
        s = s.play(rng.choice(moves))
    return s


def random_positions(seed: int, count: int, lo: int = 0, hi: int = 58, live: bool = True) -> list[OthelloState]:
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        s = random_position(rng, rng.randint(lo, hi))
        if live and s.is_over():
            continue
        out.append(s)
    return out


def positions_with_empties(seed: int, count: int, empties: int) -> list[OthelloState]:
    """Live positions with exactly ``empties`` empty squares (random games played until then)."""
    rng = random.Random(seed)
    out: list[OthelloState] = []
    while len(out) < count:
        s = OthelloState.start()
        while s.empties() > empties and not s.is_over():
            s = s.play(rng.choice(s.legal_moves()))
        if s.empties() == empties and not s.is_over():
            out.append(s)
    return out


@pytest.fixture(scope="session")
def engine():
    from plies.engine import Engine

    return Engine(hash_mb=16)
