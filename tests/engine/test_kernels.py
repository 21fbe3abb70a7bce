"""The compiled kernels against the pure-Python rules: legal moves, flips, perft."""

from __future__ import annotations

from types import ModuleType

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


def _runnable_build(name: str) -> ModuleType:
    """The vector build ``plies.<name>`` of the compiled core; the test is skipped where it is not built or this
    CPU cannot run it."""
    import importlib

    from plies import _core

    try:
        build = importlib.import_module(f"plies.{name}")
    except ImportError:
        pytest.skip(f"no {name} build on this platform")
    if not {"_core_avx2": _core.cpu_has_avx2(), "_core_avx512": _core.cpu_has_avx512()}[name]:
        pytest.skip(f"this CPU cannot run {name}")
    return build


@pytest.mark.parametrize("name", ["_core_avx2", "_core_avx512"])
def test_the_portable_and_vector_builds_agree(name: str) -> None:
    """Each build of the compiled core (``plies._core`` for any CPU, the AVX2 and AVX-512 ones) gives the same
    moves, flips and perft counts; the one in use is the best this CPU runs."""
    from plies import _core
    from plies.core import lib

    best = "_core_avx512" if _core.cpu_has_avx512() else "_core_avx2" if _core.cpu_has_avx2() else "_core"
    assert lib.__name__ == f"plies.{best}"
    build = _runnable_build(name)
    rng = np.random.default_rng(9)
    for _ in range(500):
        cells = rng.choice(3, 64, p=[0.3, 0.35, 0.35])
        own = sum(1 << k for k in range(64) if cells[k] == 1)
        opp = sum(1 << k for k in range(64) if cells[k] == 2)
        assert _core.get_moves(own, opp) == build.get_moves(own, opp)
        for sq in np.flatnonzero(cells == 0):
            assert _core.flips(own, opp, int(sq)) == build.flips(own, opp, int(sq))
    own, opp = OthelloState.start().own_opp()
    assert _core.perft(own, opp, 7) == build.perft(own, opp, 7) == KNOWN[7]


@pytest.mark.parametrize("name", ["_core_avx2", "_core_avx512"])
def test_the_pattern_sums_of_every_build_are_the_same_number(name: str) -> None:
    """The learned evaluation gathers each pattern instance from a board image in the portable build and by one
    ``pext`` in the vector builds where that instruction is fast (PEXT_FAST): the same terms in the same order, so
    exactly the same value."""
    from plies import _core
    from plies.engine import patterns as pt

    build = _runnable_build(name)
    assert _core.PEXT_FAST == 0 and build.PEXT_FAST in (0, 1)
    rng = np.random.default_rng(11)
    w = pt.expand_weights(rng.normal(size=(12, pt.N_PARAMS)).astype(np.float32))
    for _ in range(2000):
        cells = rng.choice(3, 64, p=rng.dirichlet([1, 1, 1]))
        own = sum(1 << k for k in range(64) if cells[k] == 1)
        opp = sum(1 << k for k in range(64) if cells[k] == 2)
        assert build.patterns_evaluate(own, opp, w) == _core.patterns_evaluate(own, opp, w)


def test_bad_arguments_raise_instead_of_crashing() -> None:
    """The compiled core checks what Python hands it: a square off the board, a wrong array type or size."""
    from plies.core import lib
    from plies.engine.hashtable import HashTable

    with pytest.raises(ValueError):
        lib.flips(1, 2, 64)
    with pytest.raises(TypeError):
        lib.get_moves("a", 2)
    with pytest.raises(ValueError):
        lib.perft(1, 2, -1)
    tt = HashTable(1).arrays()
    root = np.array([19], dtype=np.int64)
    good = (np.zeros(1), np.zeros(1, np.int64), np.zeros((1, 130), np.int8), np.zeros(1, np.int64))
    own, opp = OthelloState.start().own_opp()
    ctl = np.zeros(4, np.int64)
    w = np.zeros((1, 1), np.float32)
    assert lib.mid_search_root(own, opp, 2, -1e9, 1e9, root, 1, *good, tt, 5, w, ctl) == 1
    with pytest.raises(TypeError):  # values as int64
        lib.mid_search_root(own, opp, 2, -1e9, 1e9, root, 1, np.zeros(1, np.int64), *good[1:], tt, 5, w, ctl)
    with pytest.raises(ValueError):  # a root move off the board
        lib.mid_search_root(own, opp, 2, -1e9, 1e9, np.array([99]), 1, *good, tt, 5, w, ctl)
    with pytest.raises(ValueError):  # the learned evaluation without weights
        lib.mid_search_root(own, opp, 2, -1e9, 1e9, root, 1, *good, tt, 6, w, ctl)
    with pytest.raises((TypeError, ValueError)):  # not a table
        lib.mid_search_root(own, opp, 2, -1e9, 1e9, root, 1, *good, (np.zeros(3), 1, 1), 5, w, ctl)
    with pytest.raises(ValueError, match="overlap"):  # a square of both sides (pattern indices past the weights)
        lib.mid_search_root(own, opp | own, 2, -1e9, 1e9, root, 1, *good, tt, 5, w, ctl)
    with pytest.raises(ValueError, match="occupied"):  # a root move on a disc
        lib.mid_search_root(own, opp, 2, -1e9, 1e9, np.array([27]), 1, *good, tt, 5, w, ctl)
    with pytest.raises(ValueError, match="overlap"):
        lib.evaluate(own, opp | own, 0, w)
