"""Connect Four's rules against an independent, naive implementation (a 2-D grid, every line tested cell by cell),
and short forced wins the textbook search must find."""

from __future__ import annotations

import random

import pytest

from plies.game import IllegalMoveError, ParseError
from plies.games.connect4 import COLUMNS, ROWS, ConnectFourState

# --- the naive rules: grid[row][col], row 0 at the bottom, 0 empty, 1 Red, 2 Yellow -------------------------


def naive_winner(grid: list[list[int]]) -> int:
    for r in range(ROWS):
        for c in range(COLUMNS):
            p = grid[r][c]
            if not p:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + k * dr < ROWS and 0 <= c + k * dc < COLUMNS and grid[r + k * dr][c + k * dc] == p
                       for k in range(4)):
                    return p
    return 0


def naive_moves(grid: list[list[int]]) -> list[int]:
    if naive_winner(grid):
        return []
    return [c for c in range(COLUMNS) if grid[ROWS - 1][c] == 0]


def naive_drop(grid: list[list[int]], col: int, p: int) -> list[list[int]]:
    g = [row[:] for row in grid]
    for r in range(ROWS):
        if g[r][col] == 0:
            g[r][col] = p
            return g
    raise AssertionError("full column")


def naive_perft(grid: list[list[int]], p: int, depth: int) -> int:
    moves = naive_moves(grid)
    if depth == 0 or not moves:
        return 1
    return sum(naive_perft(naive_drop(grid, c, p), 3 - p, depth - 1) for c in moves)


def perft(s: ConnectFourState, depth: int) -> int:
    moves = s.legal_moves()
    if depth == 0 or not moves:
        return 1
    return sum(perft(s.play(m), depth - 1) for m in moves)


def test_perft_agrees_with_the_naive_rules() -> None:
    empty = [[0] * COLUMNS for _ in range(ROWS)]
    for depth in range(6):
        assert perft(ConnectFourState.start(), depth) == naive_perft(empty, 1, depth) == 7 ** depth
    # deeper, from positions where wins cut lines short
    rng = random.Random(4)
    for _ in range(12):
        s = ConnectFourState.start()
        grid = [[0] * COLUMNS for _ in range(ROWS)]
        for _ in range(rng.randint(6, 20)):
            if not s.legal_moves():
                break
            m = rng.choice(s.legal_moves())
            grid = naive_drop(grid, m, 1 + s.to_move)
            s = s.play(m)
        assert perft(s, 4) == naive_perft(grid, 1 + s.to_move, 4)


def test_random_games_agree_move_by_move() -> None:
    rng = random.Random(5)
    for _ in range(200):
        s = ConnectFourState.start()
        grid = [[0] * COLUMNS for _ in range(ROWS)]
        while True:
            assert s.legal_moves() == naive_moves(grid)
            w = naive_winner(grid)
            assert s.winner() == (None if w == 0 else w - 1)
            assert s.to_text() and ConnectFourState.from_text(s.to_text()) == s
            if not s.legal_moves():
                assert s.is_over() and s.score() == {0: 0, 1: 1, 2: -1}[w]
                break
            m = rng.choice(s.legal_moves())
            grid = naive_drop(grid, m, 1 + s.to_move)
            s = s.play(m)


def test_notation_and_errors() -> None:
    s = ConnectFourState.from_transcript("d d 4 c")
    assert s.move_str(3) == "d" and s.parse_move("D") == 3 and s.parse_move("7") == 6
    assert s.heights() == [0, 0, 1, 3, 0, 0, 0]
    full = ConnectFourState.from_transcript("aaaaaa")
    with pytest.raises(IllegalMoveError, match="column a is full"):
        full.parse_move("a")
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.parse_move("h")
    with pytest.raises(ParseError, match="not a move"):
        s.parse_move("d4x")
    with pytest.raises(ParseError, match="floats"):
        ConnectFourState.from_text("R" + "-" * 41 + "Y")
    with pytest.raises(ParseError, match="42 cells"):
        ConnectFourState.from_text("R-Y")
    won = ConnectFourState.from_transcript("abababa")
    assert won.winner() == 0 and won.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        won.play(3)


def test_short_forced_wins_and_a_draw() -> None:
    """The textbook search finds a win in one, a win in two against any defence (two open threats), and plays
    a full board to the draw it is."""
    from plies.search import alphabeta, minimax

    def h(state, player):  # only finished games count
        return 0.0

    # Red has three in a row at the bottom, both ends open: any win-in-one search takes it
    s = ConnectFourState.from_transcript("dbeb")  # Red d1 e1, Yellow b1 b2
    s = s.play(s.parse_move("f"))  # Red d1 e1 f1: threats at c1 and g1
    s = s.play(s.parse_move("a"))  # Yellow elsewhere
    r = alphabeta(s, 1, h)
    assert r.value > 0 and s.move_str(r.move) in ("c", "g")
    # Red to move makes two threats at once: a win in three plies whatever Yellow does
    s = ConnectFourState.from_transcript("dded")  # Red d1 e1, Yellow d2 e2: c1 or f1 opens both ends
    r3 = alphabeta(s, 3, h)
    assert r3.value > 0 and s.move_str(r3.move) in ("c", "f")
    assert minimax(s, 3, h).value == r3.value
    # a position one move from a full board with no four: a draw
    drawn = ConnectFourState.from_text(
        "RRYYRR-"
        "YYRRYYR"
        "RRYYRRY"
        "YYRRYYR"
        "RRYYRRY"
        "YYRRYYR" "Y")
    assert drawn.legal_moves() == [6]
    assert drawn.play(6).is_over() and drawn.play(6).score() == 0
