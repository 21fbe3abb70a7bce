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


def _edge_turned(me: int, you: int, x: int) -> int:
    """Discs of ``you`` turned by ``me`` playing x on a line of 8 squares (bit k = square k)."""
    turned = 0
    for step in (-1, 1):
        run, y = 0, x + step
        while 0 <= y < 8 and you >> y & 1:
            run |= 1 << y
            y += step
        if 0 <= y < 8 and me >> y & 1:
            turned |= run
    return turned


def _edge_ever_flipped(p: int, o: int) -> int:
    """Discs of p that some sequence of moves on the edge turns over, by trying every sequence (either side
    plays any empty square: the move may be legal through another line)."""
    empties = [x for x in range(8) if not (p | o) >> x & 1]
    flipped = 0
    for x in empties:
        f = _edge_turned(o, p, x)  # the opponent's move turns discs of p
        flipped |= f | _edge_ever_flipped(p & ~f, o | f | 1 << x)
        g = _edge_turned(p, o, x)
        flipped |= _edge_ever_flipped(p | g | 1 << x, o & ~g) & p
    return flipped & p


def test_stable_edge_discs_are_exact() -> None:
    """On each of the four edges, the stable discs are exactly those that no sequence of moves on the edge turns
    over (whatever the rest of the board holds)."""
    rng = random.Random(11)
    spread_col = [sum(((b >> k) & 1) << (8 * k) for k in range(8)) for b in range(256)]
    checked = 0
    while checked < 300:
        cells = [rng.choice((0, 0, 1, 2)) if rng.random() < 0.6 else rng.choice((1, 2)) for _ in range(8)]
        if cells.count(0) > 5 or 1 not in cells:
            continue
        p = sum(1 << k for k in range(8) if cells[k] == 1)
        o = sum(1 << k for k in range(8) if cells[k] == 2)
        expected = p & ~_edge_ever_flipped(p, o)
        inner = rng.getrandbits(64) & 0x007E7E7E7E7E7E00
        inner_o = rng.getrandbits(64) & inner
        for put in (lambda b: b, lambda b: b << 56, lambda b: spread_col[b], lambda b: spread_col[b] << 7):
            pp, oo = put(p) | (inner & ~inner_o), put(o) | inner_o
            assert int(stable_discs(np.uint64(pp), np.uint64(oo))) & put(0xFF) == put(expected), (cells,)
        checked += 1


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
