"""The compiled 8x8 move generation agrees with the pure-Python reference rules, square by square."""

from __future__ import annotations

import random

from plies.games.othello import OthelloState, flips, legal_mask, rules_for
from plies.games.othello_kernels import flips8, legal_mask8


def test_8x8_states_use_the_compiled_kernels():
    legal, flip = rules_for(8)
    assert legal is legal_mask8 and flip is flips8
    assert rules_for(6)[0] is not legal_mask8


def test_compiled_kernels_equal_the_python_rules_on_random_games():
    rng = random.Random(2026)
    checked = 0
    for _ in range(60):
        s = OthelloState.start()
        while not s.is_over():
            own, opp = s.own_opp()
            assert legal_mask8(own, opp) == legal_mask(own, opp, 8)
            assert legal_mask8(opp, own) == legal_mask(opp, own, 8)
            empty = ~(own | opp) & (2**64 - 1)
            for sq in range(64):
                if empty >> sq & 1:
                    assert flips8(own, opp, sq) == flips(own, opp, sq, 8)
                    checked += 1
            s = s.play(rng.choice(s.legal_moves()))
    assert checked > 50_000


def test_compiled_kernels_on_random_bitboards():
    rng = random.Random(7)
    for _ in range(2000):
        a = rng.getrandbits(64)
        b = rng.getrandbits(64) & ~a
        assert legal_mask8(a, b) == legal_mask(a, b, 8)
        sq = rng.randrange(64)
        if not (a | b) >> sq & 1:
            assert flips8(a, b, sq) == flips(a, b, sq, 8)
