"""The compiled kernels against the pure-Python rules: legal moves, flips, perft."""

from __future__ import annotations

import numpy as np
import pytest

from plies.engine.bitboard import flips, flips_by_lines, get_moves, get_moves_by_shifts, position, potential_moves
from plies.engine.perft import perft
from plies.game import PliesError
from plies.games.othello import OthelloState, legal_mask
from plies.games.othello import flips as py_flips
from plies.search.perft import perft_othello

from .conftest import random_positions

KNOWN = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216]  # perft(0..8) from the start (PROTOCOLS.md)


def test_moves_and_flips_match_python_rules() -> None:
    checked = 0
    for s in random_positions(11, 1500, live=False):
        own, opp = s.own_opp()
        pp, oo = position(s)
        assert int(get_moves(pp, oo)) == legal_mask(own, opp, 8)
        assert int(get_moves(oo, pp)) == legal_mask(opp, own, 8)
        empty = ~(own | opp) & (2**64 - 1)
        for sq in range(64):
            if empty >> sq & 1:
                assert int(flips(pp, oo, sq)) == py_flips(own, opp, sq, 8), (s.to_text(), sq)
                checked += 1
    assert checked > 20000


def test_vector_kernels_equal_the_scalar_references_on_random_boards() -> None:
    """The vector flips and moves (simd) against the table and shift versions, on random (not only reachable)
    boards: runs that touch every edge and every length."""
    rng = np.random.default_rng(5)
    for _ in range(3000):
        empty = rng.uniform(0.05, 0.7)  # 0 empty, 1 own, 2 opponent; the share of empties drawn too
        cells = rng.choice(3, 64, p=[empty, (1 - empty) / 2, (1 - empty) / 2])
        own = np.uint64(sum(1 << k for k in range(64) if cells[k] == 1))
        opp = np.uint64(sum(1 << k for k in range(64) if cells[k] == 2))
        assert get_moves(own, opp) == get_moves_by_shifts(own, opp)
        for sq in np.flatnonzero(cells == 0):
            assert flips(own, opp, int(sq)) == flips_by_lines(own, opp, int(sq)), (hex(own), hex(opp), sq)


def test_potential_mobility_is_empty_squares_next_to_opponent() -> None:
    for s in random_positions(12, 200):
        own, opp = s.own_opp()
        pp, oo = position(s)
        expected = 0
        for sq in range(64):
            if (own | opp) >> sq & 1:
                continue
            r, c = divmod(sq, 8)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < 8 and 0 <= cc < 8 and opp >> (rr * 8 + cc) & 1:
                        expected |= 1 << sq
        assert int(potential_moves(pp, oo)) == expected


@pytest.mark.parametrize("depth", range(9))
def test_perft_known_counts(depth: int) -> None:
    assert perft(OthelloState.start(), depth) == KNOWN[depth]


def test_perft_matches_python_on_random_positions() -> None:
    for s in random_positions(13, 40, lo=10, hi=56):
        own, opp = s.own_opp()
        assert perft(s, 3) == perft_othello(own, opp, 8, 3)


def test_perft_rejects_other_sizes() -> None:
    with pytest.raises(PliesError):
        perft(OthelloState.start(6), 2)


def test_last_flip_count_equals_the_flips_of_the_move() -> None:
    """The last-empty flip counter (four line look-ups) agrees with the general ray walk on random full boards."""
    import random

    from plies.engine.endgame import last_flip_count

    rng = random.Random(7)
    for _ in range(3000):
        sq = rng.randrange(64)
        density = rng.choice([0.1, 0.5, 0.9])
        p = sum(1 << i for i in range(64) if i != sq and rng.random() < density)
        o = ((1 << 64) - 1) & ~p & ~(1 << sq)
        expected = bin(int(flips(np.uint64(p), np.uint64(o), np.int64(sq)))).count("1")
        assert int(last_flip_count(np.uint64(p), np.int64(sq))) == expected


def test_raw_slots_read_and_write_the_array_at_the_address() -> None:
    """``rawmem``: stores, loads and counter adds through an array's address land in that array's slots."""
    from numba import njit

    from plies.engine.rawmem import add_at, load_at, store_at

    @njit
    def work(a):  # type: ignore[no-untyped-def]
        address = a.ctypes.data
        for i in range(a.shape[0]):
            store_at(address, i, np.int64(i * i - 7))
        add_at(address, 3, np.int64(40))
        add_at(address, 3, np.int64(2))
        store_at(address, 5, np.int64(np.uint64(0xFFFFFFFFFFFFFFFF)))
        return load_at(address, 3) + load_at(address, 0)

    a = np.zeros(8, dtype=np.int64)
    assert work(a) == (9 - 7 + 42) + (-7)
    assert a.tolist() == [-7, -6, -3, 44, 9, -1, 29, 42]
