"""Perft: the known 8x8 counts, and 6x6 / 4x4 counts computed two independent ways."""

from __future__ import annotations

import random

import pytest

from plies.games import OthelloState
from plies.search import divide, fast_perft, perft

from . import naive_othello as naive

# PROTOCOLS.md: leaves at depth 1, 2, ... from the standard 8x8 start (a pass is a ply; an ended game one leaf)
KNOWN_8X8 = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636]


@pytest.mark.parametrize("depth", range(1, 8))
def test_fast_perft_8x8_known_counts(depth: int) -> None:
    assert fast_perft(OthelloState.start(), depth) == KNOWN_8X8[depth - 1]


def test_fast_perft_8x8_depth_8() -> None:
    assert fast_perft(OthelloState.start(), 8) == KNOWN_8X8[7]


@pytest.mark.slow
def test_fast_perft_8x8_depth_9() -> None:
    assert fast_perft(OthelloState.start(), 9) == KNOWN_8X8[8]


@pytest.mark.parametrize("depth", range(0, 6))
def test_state_api_perft_8x8_known_counts(depth: int) -> None:
    """The game-agnostic perft through legal_moves/play agrees with the known counts as well."""
    expected = 1 if depth == 0 else KNOWN_8X8[depth - 1]
    assert perft(OthelloState.start(), depth) == expected


def test_divide_sums_to_perft() -> None:
    s = OthelloState.start()
    parts = divide(s, 5)
    assert sorted(s.move_str(m) for m, _ in parts) == ["c4", "d3", "e6", "f5"]
    # the start is symmetric: each of the four first moves has the same subtree size
    assert {count for _, count in parts} == {KNOWN_8X8[4] // 4}
    assert sum(count for _, count in parts) == KNOWN_8X8[4]
    assert divide(s, 0) == []


def test_6x6_perft_to_depth_6_three_ways() -> None:
    """Naive 2-D rules written in the test, State-API perft and bitboard fast_perft agree on 6x6."""
    s = OthelloState.start(6)
    board = naive.start_board(6)
    counts = []
    for depth in range(1, 7):
        expected = naive.perft(board, 0, depth)
        assert perft(s, depth) == expected, depth
        assert fast_perft(s, depth) == expected, depth
        counts.append(expected)
    # the first plies are forced to match 8x8's by symmetry; 6x6 diverges at depth 5 (edges come sooner)
    assert counts[:4] == KNOWN_8X8[:4]
    assert counts[4] != KNOWN_8X8[4]


def test_4x4_perft_to_the_end_of_every_game() -> None:
    """4x4 Othello ends within 12 plies plus passes: at depth 20 every finished game is one leaf."""
    s = OthelloState.start(4)
    board = naive.start_board(4)
    for depth in (3, 6, 8):
        expected = naive.perft(board, 0, depth)
        assert fast_perft(s, depth) == expected, depth
        assert perft(s, depth) == expected, depth
        assert naive.perft_memo(board, 0, depth) == expected  # sharing transpositions changes nothing
    assert fast_perft(s, 20) == naive.perft_memo(board, 0, 20)


def test_perft_agrees_on_random_positions_with_passes() -> None:
    """Random mid- and end-game positions (where passes and game ends occur) on 6x6 and 8x8."""
    rng = random.Random(11)
    checked_pass = checked_end = 0
    for n, plies, depth in [(6, p, 3) for p in range(8, 32, 2)] + [(8, p, 2) for p in range(40, 62)]:
        board, player, _ = naive.random_playout(n, plies, rng)
        black, white = naive.to_bitboards(board)
        s = OthelloState(black, white, player, n)
        expected = naive.perft(board, player, depth)
        assert perft(s, depth) == expected
        assert fast_perft(s, depth) == expected
        if not naive.moves(board, player):
            checked_pass += bool(naive.moves(board, 1 - player))
            checked_end += not naive.moves(board, 1 - player)
    # constructed: side to move must pass, then the other side has exactly one move
    board = [[naive.EMPTY] * 8 for _ in range(8)]
    board[0][0], board[0][1] = naive.WHITE, naive.BLACK
    s = OthelloState(*naive.to_bitboards(board), 0, 8)
    assert [perft(s, d) for d in range(4)] == [naive.perft(board, 0, d) for d in range(4)] == [1, 1, 1, 1]
    assert [fast_perft(s, d) for d in range(4)] == [1, 1, 1, 1]
    # finished game: one leaf at every depth
    over = OthelloState(1, 1 << 63, 0, 8)
    assert perft(over, 3) == fast_perft(over, 3) == 1
