"""Compiled evaluations: the seeds' heuristics give exactly the numbers of plies.heuristics.othello."""

from __future__ import annotations

import pytest

from plies.engine.bitboard import position
from plies.engine.eval import evaluate_state, evaluation_id, stable_discs
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
