"""The compiled 8x8 move generation agrees with the pure-Python reference rules, square by square."""

from __future__ import annotations

import os
import random
from functools import partial

from plies.game import PASS
from plies.games import othello
from plies.games.othello import OthelloState, Rules, bits, flips, legal_mask, play_move, rules_for
from plies.games.othello_kernels import flips8, legal_mask8, play8


def test_8x8_states_use_the_compiled_kernels_unless_told_not_to():
    legal, flip, play = rules_for(8)
    if os.environ.get("PLIES_PURE_PYTHON"):
        assert legal.func is legal_mask and flip.func is flips and play.func is play_move
    else:
        assert legal is legal_mask8 and flip is flips8 and play is play8
    assert rules_for(6).legal is not legal_mask8


def python_play(own: int, opp: int, sq: int) -> tuple[int, int, int]:
    """What ``play8`` must return, by the pure-Python rules: (0, 0, 0) for an illegal move."""
    if not 0 <= sq < 64:
        return 0, 0, 0
    own_after, opp_after, _ = play_move(8, own, opp, sq)
    if not own_after:
        return 0, 0, 0
    return own_after, opp_after, legal_mask(opp_after, own_after, 8)


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
                assert play8(own, opp, sq) == python_play(own, opp, sq)
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
        assert play8(a, b, sq) == python_play(a, b, sq)
    for sq in (-1, -9, 64, 99):
        assert play8(a, b, sq) == (0, 0, 0)


def test_states_made_by_the_kernels_equal_the_python_rules_states():
    """A search's walk (play, then is_over and legal_moves of each child) gives the same states, game ends and
    moves with the kernels as with the pure-Python rules, passes included."""
    rng = random.Random(11)
    kernel_rules = rules_for(8)
    python_rules = Rules(partial(legal_mask, n=8), partial(flips, n=8), partial(play_move, 8))
    passes = 0
    try:
        for _ in range(40):
            s = OthelloState.start()
            while not s.is_over():
                moves = s.legal_moves()
                children = [s.play(m) for m in moves]
                seen = [(c.is_over(), c.legal_moves()) for c in children]
                othello._RULES[8] = python_rules
                reference = OthelloState(s.black, s.white, s.to_move)
                assert reference.legal_moves() == moves
                expected = [reference.play(m) for m in moves]
                assert [(c.is_over(), c.legal_moves()) for c in expected] == seen
                othello._RULES[8] = kernel_rules
                assert children == expected
                passes += moves == [PASS]
                s = rng.choice(children)
    finally:
        othello._RULES[8] = kernel_rules
    assert passes


def test_bits_lists_the_set_bits_in_order():
    rng = random.Random(3)
    for size in (16, 36, 64, 100, 128):
        for _ in range(300):
            b = rng.getrandbits(size) & rng.getrandbits(size)
            assert bits(b) == [i for i in range(size) if b >> i & 1]
    assert bits(0) == []
