"""Compiled evaluations: the seeds' heuristics give exactly the numbers of plies.heuristics.othello."""

from __future__ import annotations

import random

import numpy as np
import pytest

from plies.engine.bitboard import position
from plies.engine.eval import (
    evaluate_state,
    evaluation_id,
    full_lines,
    full_lines_by_empties,
    full_lines_by_lines,
    stable_discs,
)
from plies.game import ParseError
from plies.heuristics import get

from .conftest import random_positions

SEEDS = ["discs", "parity-mobility-corners", "corner-edge-blocking", "disc-mobility-stability", "weighted-squares"]


@pytest.mark.parametrize("name", SEEDS)
def test_seed_heuristics_are_exact(name: str) -> None:
    h = get("othello", name)
    for s in random_positions(21, 400):
        assert evaluate_state(s, name) == h(s, s.to_move)
        assert -evaluate_state(s, name) == h(s, 1 - s.to_move)


def test_aliases_and_unknown_names() -> None:
    assert evaluation_id("doc001") == evaluation_id("corner-edge-blocking")
    assert evaluation_id(None) == evaluation_id("default")
    with pytest.raises(ParseError):
        evaluation_id("no-such-eval")


def test_stable_discs_are_never_flipped() -> None:
    """A disc called stable keeps its colour in every continuation (checked two plies deep)."""
    for s in random_positions(22, 150, lo=30, hi=58):
        for side in (0, 1):
            mine = s.black if side == 0 else s.white
            other = s.white if side == 0 else s.black
            pp, oo = position(s)
            st = int(stable_discs(pp, oo) if side == s.to_move else stable_discs(oo, pp))
            assert st & mine == st
            frontier = [s]
            for _ in range(2):
                nxt = []
                for t in frontier:
                    for m in t.legal_moves():
                        c = t.play(m)
                        own = c.black if side == 0 else c.white
                        assert own & st == st, (s.to_text(), side)
                        nxt.append(c)
                frontier = nxt[:40]
            assert other & st == 0


def test_full_lines_from_the_empties_equal_the_line_by_line_test() -> None:
    """The endgame's shortcut (lines through an empty square are the only ones not full) against testing
    every line, on random boards from nearly full to half empty."""
    rng = random.Random(7)
    for k in range(3000):
        occ = (1 << 64) - 1
        for _ in range(k % 14 + 1):
            occ &= ~(1 << rng.randrange(64))
        if k % 5 == 0:
            occ &= rng.getrandbits(64) | rng.getrandbits(64)
        o = np.uint64(occ)
        assert full_lines_by_empties(o) == full_lines_by_lines(o)
        assert full_lines(o) == full_lines_by_lines(o)
