"""Othello heuristics: zero-sum, symmetric, colour-blind, and documents 000/001 recomputed independently."""

from __future__ import annotations

import random

import pytest

from plies import heuristics
from plies.game import ParseError
from plies.games import OthelloState
from plies.heuristics.othello import tables

from . import naive_othello as naive

# The textbook's own Othello evaluations (static, any board size).  Other modules may register more (the learned
# evaluation of plies.train is 8x8-only and values the side to move; it has its own tests in tests/train).
BUILT_IN = ("discs", "parity-mobility-corners", "corner-edge-blocking", "disc-mobility-stability", "weighted-squares")
NAMES = [name for name in heuristics.names("othello") if name in BUILT_IN]


def positions(count: int, seed: int, n: int = 8) -> list[tuple[naive.Board, int]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 4 == 3:
            out.append((naive.random_board(n, rng, rng.uniform(0.1, 1.0)), rng.randrange(2)))
        else:
            board, player, _ = naive.random_playout(n, rng.randrange(n * n), rng)
            out.append((board, player))
    return out


def state(board: naive.Board, player: int) -> OthelloState:
    return OthelloState(*naive.to_bitboards(board), player, len(board))


def symmetries(board: naive.Board) -> list[naive.Board]:
    n = len(board)
    out = []
    b = board
    for _ in range(4):
        b = [[b[n - 1 - c][r] for c in range(n)] for r in range(n)]  # rotate 90 degrees
        out.append(b)
        out.append([row[::-1] for row in b])  # and its mirror
    return out


def swap_colours(board: naive.Board) -> naive.Board:
    other = {naive.EMPTY: naive.EMPTY, naive.BLACK: naive.WHITE, naive.WHITE: naive.BLACK}
    return [[other[x] for x in row] for row in board]


@pytest.mark.parametrize("n", (4, 6, 8, 10))
@pytest.mark.parametrize("name", NAMES)
def test_zero_sum_symmetric_and_colour_blind(name: str, n: int) -> None:
    h = heuristics.get("othello", name)
    for board, player in positions(40 if n == 8 else 15, seed=n, n=n):
        s = state(board, player)
        v0, v1 = h(s, 0), h(s, 1)
        assert v0 == -v1, (name, s.to_text())
        # the side to move does not enter any of these static evaluations
        assert h(state(board, 1 - player), 0) == v0
        # swapping the colours swaps the views
        assert h(state(swap_colours(board), player), 1) == v0
        # the board's 8 symmetries leave every value unchanged (tables and masks are symmetric)
        for sym in symmetries(board):
            assert h(state(sym, player), 0) == pytest.approx(v0), (name, s.to_text())


def ratio(a: int, b: int) -> float:
    return 100.0 * (a - b) / (a + b) if a + b else 0.0


def naive_doc000(board: naive.Board, player: int) -> float:
    """Document 000: parity, mobility and corners, each 100*(me-op)/(me+op), summed."""
    n = len(board)
    me, op = naive.colour(player), naive.colour(1 - player)
    flat = [x for row in board for x in row]
    corners = [board[0][0], board[0][n - 1], board[n - 1][0], board[n - 1][n - 1]]
    return (
        ratio(flat.count(me), flat.count(op))
        + ratio(len(naive.moves(board, player)), len(naive.moves(board, 1 - player)))
        + ratio(corners.count(me), corners.count(op))
    )


def naive_doc001_side(board: naive.Board, player: int) -> int:
    n = len(board)
    me = naive.colour(player)
    corners = {(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)}
    guarded = set()
    for r, c in corners:
        if board[r][c] == me:
            guarded |= {(r, 1 if c == 0 else n - 2), (1 if r == 0 else n - 2, c)}
    value = 0
    for r in range(n):
        for c in range(n):
            if board[r][c] != me:
                continue
            if (r, c) in corners:
                value += 1000
            elif (r, c) in guarded:
                value += 800
            elif r in (0, n - 1) or c in (0, n - 1):
                value += 500
            else:
                value += 50
    mine = naive.moves(board, player)
    theirs = naive.moves(board, 1 - player)
    value -= 100 * len(theirs)
    if mine and not theirs:
        value += 700  # blocking: the opponent has no move
    return value


def naive_doc001(board: naive.Board, player: int) -> int:
    return naive_doc001_side(board, player) - naive_doc001_side(board, 1 - player)


@pytest.mark.parametrize("n", (6, 8, 10))
def test_documents_000_and_001_recomputed(n: int) -> None:
    doc000 = heuristics.get("othello", "doc000")
    doc001 = heuristics.get("othello", "doc001")
    discs = heuristics.get("othello", "discs")
    for board, player in positions(60, seed=20 + n, n=n):
        s = state(board, player)
        b, w = naive.count(board)
        for p in (0, 1):
            assert doc000(s, p) == pytest.approx(naive_doc000(board, p))
            assert doc001(s, p) == naive_doc001(board, p)
            assert discs(s, p) == (b - w if p == 0 else w - b)


def test_document_000_start_values() -> None:
    doc000 = heuristics.get("othello", "doc000")
    s = OthelloState.start()
    assert doc000(s, 0) == 0  # 2 v 2 discs, 4 v 4 moves, no corners
    after = s.play(s.parse_move("d3"))  # black 4, white 1; black has 3 moves, white 3
    assert doc000(after, 0) == pytest.approx(100 * 3 / 5 + 0 + 0)


def test_weighted_squares_table_is_the_classic_one() -> None:
    t = tables(8)["weighted"]
    for corner in (0, 7, 56, 63):
        assert t[corner] == 100
    for xsq in (9, 14, 49, 54):
        assert t[xsq] == -50
    for csq in (1, 8, 6, 15, 48, 57, 55, 62):
        assert t[csq] == -20
    assert max(t) == 100 and min(t) == -50
    h = heuristics.get("othello", "weighted-squares")
    corner_only = OthelloState(1 << 0, 1 << 9, 0, 8)
    assert h(corner_only, 0) == 100 - (-50)


def test_document_004_weights() -> None:
    """10 * discs + 5 * mobility + 3 * stability table; the table puts 10 on corners and 5 on edges."""
    h = heuristics.get("othello", "doc004")
    stab = tables(8)["stability"]
    assert [stab[i] for i in (0, 7, 56, 63)] == [10] * 4
    assert all(stab[i] == 5 for i in (2, 3, 4, 5, 16, 24, 23, 31, 58, 59))
    for board, player in positions(40, seed=4):
        s = state(board, player)
        b, w = naive.count(board)
        mob = len(naive.moves(board, 0)) - len(naive.moves(board, 1))
        table = sum(stab[i] for i in range(64) if s.black >> i & 1)
        table -= sum(stab[i] for i in range(64) if s.white >> i & 1)
        assert h(s, 0) == 10 * (b - w) + 5 * mob + 3 * table


def test_unknown_heuristic_is_a_parse_error_listing_choices() -> None:
    with pytest.raises(ParseError, match="discs"):
        heuristics.get("othello", "nonsense")
    with pytest.raises(ParseError):
        heuristics.get("chess", None)
    assert heuristics.get("othello").name == "weighted-squares"  # the default
    with pytest.raises(ParseError, match="unknown heuristic ''"):  # an empty name is a mistake, not the default
        heuristics.get("othello", "")
    assert heuristics.get("tictactoe").name == "open-lines"
    for name in NAMES:
        assert heuristics.get("othello", name).description
