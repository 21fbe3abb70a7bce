"""Tic-tac-toe: the whole tree by minimax, alpha-beta's savings, the only non-losing replies, rules and parsing."""

from __future__ import annotations

from functools import cache

import pytest

from plies import heuristics
from plies.game import IllegalMoveError, ParseError, PliesError
from plies.games import TicTacToeState, parse_position
from plies.search import alphabeta, minimax, perft

WIN_LOSS = heuristics.get("tictactoe", "win-loss")

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


# --- an independent solver on 9-tuples ("X", "O", " "), sharing nothing with plies ---------------------------

def _winner(cells: tuple[str, ...]) -> str | None:
    for a, b, c in LINES:
        if cells[a] != " " and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


@cache
def solve(cells: tuple[str, ...], mover: str) -> int:
    """Game value for X (+1 / 0 / -1) with perfect play."""
    w = _winner(cells)
    if w is not None:
        return 1 if w == "X" else -1
    if " " not in cells:
        return 0
    other = "O" if mover == "X" else "X"
    vals = [solve(cells[:i] + (mover,) + cells[i + 1:], other) for i in range(9) if cells[i] == " "]
    return max(vals) if mover == "X" else min(vals)


def tree_size(cells: tuple[str, ...], mover: str) -> tuple[int, int]:
    """(nodes including the root, finished games) of the full game tree below ``cells``."""
    if _winner(cells) is not None or " " not in cells:
        return 1, 1
    other = "O" if mover == "X" else "X"
    nodes, games = 1, 0
    for i in range(9):
        if cells[i] == " ":
            n, g = tree_size(cells[:i] + (mover,) + cells[i + 1:], other)
            nodes += n
            games += g
    return nodes, games


def best_moves(text: str) -> set[int]:
    """Moves of the side to move that keep the best value it can get, by the independent solver."""
    cells = tuple(" " if ch == "-" else ch for ch in text[:9])
    mover = text[9]
    other = "O" if mover == "X" else "X"
    vals = {i: solve(cells[:i] + (mover,) + cells[i + 1:], other) for i in range(9) if cells[i] == " "}
    target = max(vals.values()) if mover == "X" else min(vals.values())
    return {i for i, v in vals.items() if v == target}


# --- the whole tree ------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_minimax_walks_the_whole_tree() -> None:
    r = minimax(TicTacToeState(), 9, WIN_LOSS)
    assert r.value == 0
    assert r.stats.nodes == 549_946
    assert r.stats.leaves == 255_168
    assert r.stats.alpha_cutoffs == r.stats.beta_cutoffs == 0
    assert r.move in range(9) and len(r.pv) == 9
    # the independent walk gives the same counts (and PROTOCOLS.md's published ones)
    assert tree_size(tuple(" " * 9), "X") == (549_946, 255_168)
    assert perft(TicTacToeState(), 9) == 255_168


def test_alphabeta_same_value_far_fewer_nodes() -> None:
    full = 549_946
    r = alphabeta(TicTacToeState(), 9, WIN_LOSS)
    assert r.value == 0
    assert r.stats.nodes < full // 10
    assert r.stats.alpha_cutoffs > 0 and r.stats.beta_cutoffs > 0


@pytest.mark.slow
def test_alphabeta_without_pruning_walks_the_whole_tree() -> None:
    full = 549_946
    off = alphabeta(TicTacToeState(), 9, WIN_LOSS, pruning=False)
    assert off.value == 0 and off.stats.nodes == full and off.stats.cutoffs == 0


# positions with the only non-losing (or only best) replies, each explained; the solver double-checks them
POSITIONS = [
    # X took a corner: O must take the centre, every other reply loses
    ("X--------O", {4}),
    # X took the centre: O must take a corner, an edge loses
    ("----X----O", {0, 2, 6, 8}),
    # X on a1 b1 threatens c1; O (on b2) must block at c1
    ("XX--O----O", {2}),
    # X on opposite corners a1 c3 around O's centre: O must play an edge, a corner lets X fork
    ("X---O---XO", {1, 3, 5, 7}),
    # X (a1 b1) to move wins at once on c1; any other move lets O (a2 b2) threaten or win, and at best draws
    ("XX-OO----X", {2}),
    # O to move against three X threats (a3, c2, c3): every move loses, so every move is "best"
    ("X-OXX--O-O", {1, 5, 6, 8}),
]


@pytest.mark.parametrize(("text", "expected"), POSITIONS)
def test_searches_find_the_only_good_replies(text: str, expected: set[int]) -> None:
    assert best_moves(text) == expected  # our reasoning agrees with brute force
    s = parse_position(text)
    depth = 9
    full = minimax(s, depth, WIN_LOSS)
    ab = alphabeta(s, depth, WIN_LOSS)
    assert full.move in expected
    assert ab.move in expected
    assert full.value == ab.value
    assert full.move == ab.move and full.pv == ab.pv
    assert ab.stats.nodes < full.stats.nodes


def test_forced_loss_is_valued_as_a_loss() -> None:
    s = parse_position("X-OXX--O-O")  # O to move; X has two threats
    r = minimax(s, 9, WIN_LOSS)
    # the value is from the root player's (O's) view: negative means O loses
    assert r.value < 0
    # after any O move X wins on the next move: the PV is two plies long
    assert len(r.pv) == 2


def test_win_is_found_and_valued_as_a_win() -> None:
    s = parse_position("XX-OO----X")
    for r in (minimax(s, 9, WIN_LOSS), alphabeta(s, 9, WIN_LOSS)):
        assert r.value > 0 and r.pv == [2]
        assert s.play(2).is_over()


# --- rules, notation, parsing -------------------------------------------------------------------------------

def test_rules_and_end_of_game() -> None:
    s = TicTacToeState()
    assert s.to_move == 0 and s.legal_moves() == list(range(9))
    won = TicTacToeState.from_transcript("a1a2b1b2c1")  # X takes the top row
    assert won.winner() == 0 and won.is_over() and won.legal_moves() == []
    assert won.score() == 1 and won.outcome().winner == 0
    with pytest.raises(IllegalMoveError):
        won.play(8)
    draw = parse_position("XOXXOOOXOX")
    assert draw.is_over() and draw.score() == 0 and draw.outcome().winner is None
    o_wins = parse_position("XXOXO-O--X")
    assert o_wins.winner() == 1 and o_wins.score() == -1
    assert o_wins.utility(1) > 0 > o_wins.utility(0)


def test_notations() -> None:
    s = TicTacToeState()
    assert s.parse_move("b2") == 4
    assert s.parse_move("1 1") == 4  # row col, 0-based
    assert s.parse_move("5") == 4  # keypad-style 1-9 row by row
    assert s.parse_move("c3") == 8
    assert s.move_str(4) == "b2" and s.move_str(0) == "a1" and s.move_str(8) == "c3"
    t = TicTacToeState.from_transcript("b2a1")
    assert t.x == 1 << 4 and t.o == 1 << 0 and t.to_move == 0
    assert TicTacToeState.from_text(t.to_text()) == t
    assert parse_position(t.to_text()) == t
    assert parse_position("tictactoe") == TicTacToeState()


def test_illegal_and_malformed() -> None:
    s = TicTacToeState.from_transcript("b2")
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.play(4)
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.parse_move("b2")
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.play(9)
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.parse_move("d1")
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.parse_move("0")
    for junk in ("", "xyz", "b", "1 1 1"):
        with pytest.raises(ParseError):
            s.parse_move(junk)
    for bad in ("XO-------Z", "XO--------X", "XQ-------X"):
        with pytest.raises(PliesError):
            TicTacToeState.from_text(bad)


def test_states_hash_and_do_not_change() -> None:
    a = TicTacToeState.from_transcript("a1b2c3")
    b = TicTacToeState.from_transcript("c3b2a1")
    assert a == b and hash(a) == hash(b)
    before = (a.x, a.o, a.to_move)
    for m in a.legal_moves():
        a.play(m)
    assert (a.x, a.o, a.to_move) == before
    assert TicTacToeState.from_text("X--------O") != TicTacToeState.from_text("X--------X")


def test_open_lines_evaluation_document_002() -> None:
    h = heuristics.get("tictactoe", "open-lines")
    assert heuristics.get("tictactoe", "doc002") is h
    # X a1 b1, O b2: X2 = 1 (row 1), X1 = 1 (column a); the b2 O blocks a1-c3 and b1-b3.
    # O1 = 2 (row 2, diagonal c1-a3); O2 = 0.  3*1 + 1 - (0 + 2) = 2
    s = parse_position("XX--O----X")
    assert h(s, 0) == 2 and h(s, 1) == -2
    # X a1 b2, O c3: X1 = row 1, column a, row 2, column b, diagonal c1-a3 = 5; O1 = row 3, column c = 2 -> 3
    s = parse_position("X---X---OX")
    assert h(s, 0) == 3
    assert h(TicTacToeState(), 0) == 0
    win_loss = heuristics.get("tictactoe", "doc003")
    assert win_loss(parse_position("XXXOO----O"), 0) == 1
    assert win_loss(parse_position("XXXOO----O"), 1) == -1
    assert win_loss(TicTacToeState(), 0) == 0
