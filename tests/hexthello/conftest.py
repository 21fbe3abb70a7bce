"""Shared helpers of the HexThello tests."""

from __future__ import annotations

import random

from plies.games.hexthello import HexThelloState


def near_end_positions(seed: int, count: int, back: int) -> list[HexThelloState]:
    """``count`` live positions ``back`` plies before the end of seeded random games."""
    rng = random.Random(seed)
    out: list[HexThelloState] = []
    while len(out) < count:
        s = HexThelloState.start()
        line = [s]
        while not s.is_over():
            s = s.play(rng.choice(s.legal_moves()))
            line.append(s)
        if len(line) > back and not line[-back].is_over():
            out.append(line[-back])
    return out
