"""HexThello rules: geometry, start, two independent move generators agree, each direction, passes, end,
notation and the course's array form."""

from __future__ import annotations

import random

import pytest

from plies.game import PASS, IllegalMoveError, ParseError
from plies.games import parse_position, start_position
from plies.games.hexthello import (
    ON_BOARD,
    HexThelloState,
    compact,
    index,
    on_board,
    perft_hex,
    read_move,
)

from . import naive_hex


def grid_of(state: HexThelloState) -> list[list[str | None]]:
    grid = naive_hex.start()
    for i, j in ON_BOARD:
        bit = 1 << index(i, j)
        grid[i][j] = "B" if state.black & bit else "W" if state.white & bit else "."
    return grid


def test_board_has_169_cells_in_rows_of_8_to_15() -> None:
    assert len(ON_BOARD) == 169
    lengths = [sum(1 for j in range(15) if on_board(i, j)) for i in range(15)]
    assert lengths == [8, 9, 10, 11, 12, 13, 14, 15, 14, 13, 12, 11, 10, 9, 8]
    assert not on_board(0, 6) and on_board(0, 7) and on_board(14, 7) and not on_board(14, 8)


def test_start_position_matches_the_framework() -> None:
    s = HexThelloState.start()
    assert s.to_move == 0 and s.counts() == (3, 4)
    grid = grid_of(s)
    assert grid == naive_hex.start()
    assert sorted(s.legal_moves()) == sorted(index(i, j) for i, j in naive_hex.moves(naive_hex.start(), "B"))


def test_registered_as_a_game() -> None:
    assert start_position("hexthello") == HexThelloState.start()
    assert parse_position("hexthello") == HexThelloState.start()
    s = HexThelloState.start().play(index(6, 6))
    assert parse_position(s.to_text(), game="hexthello") == s


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_bitboards_agree_with_the_naive_grid(depth: int) -> None:
    s = HexThelloState.start()
    assert perft_hex(*s.own_opp(), depth) == naive_hex.perft(naive_hex.start(), "B", depth)


def test_perft_known_small_counts_and_state_api() -> None:
    from plies.search import perft

    s = HexThelloState.start()
    counts = [perft_hex(*s.own_opp(), d) for d in range(1, 6)]
    assert counts[0] == 9
    assert [perft(s, d) for d in range(1, 4)] == counts[:3]


def test_random_games_agree_move_by_move_with_the_naive_grid() -> None:
    rng = random.Random(7)
    for _ in range(6):
        s = HexThelloState.start()
        grid = naive_hex.start()
        while not s.is_over():
            me = "B" if s.to_move == 0 else "W"
            naive = sorted(index(i, j) for i, j in naive_hex.moves(grid, me))
            moves = s.legal_moves()
            if moves == [PASS]:
                assert naive == []
                s = s.play(PASS)
                continue
            assert moves == naive
            m = rng.choice(moves)
            s = s.play(m)
            grid = naive_hex.play(grid, *divmod(m, 15), me)
            assert grid_of(s) == grid
        assert not naive_hex.moves(grid, "B") and not naive_hex.moves(grid, "W")
        b, w = s.counts()
        assert s.score() == b - w
        assert s.outcome() is not None and s.outcome().winner == (0 if b > w else 1 if w > b else None)


def _place(black: list[tuple[int, int]], white: list[tuple[int, int]], to_move: int = 0) -> HexThelloState:
    return HexThelloState(sum(1 << index(*c) for c in black), sum(1 << index(*c) for c in white), to_move)


@pytest.mark.parametrize("d", [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)])
def test_each_direction_flips_a_line(d: tuple[int, int]) -> None:
    di, dj = d
    target = (7, 7)
    line = [(7 + di * k, 7 + dj * k) for k in (1, 2)]
    anchor = (7 + di * 3, 7 + dj * 3)
    s = _place([anchor], line)
    assert s.legal_moves() == [index(*target)]
    after = s.play(index(*target))
    assert after.white == 0 and after.counts() == (4, 0)
    assert after.is_over() and after.score() == 4


def test_no_wrap_from_column_14_to_column_0() -> None:
    # Black on (6,13)... a line that would "continue" from (6,14) into (7,0) in the flat array must not count.
    s = _place([(7, 1)], [(7, 0)], to_move=0)
    assert index(6, 14) not in s.legal_moves()
    s2 = _place([(6, 13)], [(6, 14)], to_move=0)
    assert index(7, 0) not in s2.legal_moves()


def test_flips_stop_at_the_first_own_disc_and_need_an_anchor() -> None:
    s = _place([(7, 10)], [(7, 8), (7, 9), (7, 11)])
    after = s.play(index(7, 7))
    assert after.black >> index(7, 8) & 1 and after.black >> index(7, 9) & 1
    assert after.white >> index(7, 11) & 1
    with pytest.raises(IllegalMoveError, match="flips nothing"):
        _place([(3, 10)], [(7, 8)]).play(index(7, 7))


def test_pass_only_when_no_move_and_end_when_neither_can_move() -> None:
    # White (to move) has no move (Black's pair leans on the rim), Black has one: White must pass.
    s = _place([(7, 0), (7, 1)], [(7, 2)], to_move=1)
    assert s.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        s.play(index(7, 3))
    after = s.play(PASS)
    assert after.to_move == 0 and after.legal_moves() == [index(7, 3)]
    with pytest.raises(IllegalMoveError, match="cannot pass while a move exists"):
        after.play(PASS)
    end = after.play(index(7, 3))
    assert end.legal_moves() == [] and end.is_over() and end.score() == 4
    with pytest.raises(IllegalMoveError, match="game is over"):
        end.play(PASS)


def test_empty_cells_count_for_nobody() -> None:
    s = _place([(7, 7), (7, 8)], [(0, 7)])
    assert s.is_over() and s.score() == 1 and s.outcome().winner == 0


def test_move_notation() -> None:
    s = HexThelloState.start()
    m = index(5, 7)
    assert s.move_str(m) == "5 7" and compact(m) == "57" and compact(index(7, 14)) == "7e"
    for text in ("5 7", "(5,7)", "5,7", "57", " 5  7 "):
        assert s.parse_move(text) == m
    assert read_move("e0") == index(14, 0) and read_move("pass") == PASS and read_move("-50 0") == PASS
    with pytest.raises(ParseError):
        s.parse_move("hello")
    with pytest.raises(IllegalMoveError, match="not on the board"):
        s.parse_move("0 0")
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.parse_move("7 7")
    with pytest.raises(IllegalMoveError, match="pass"):
        s.parse_move("pass")


def test_text_forms_round_trip() -> None:
    rng = random.Random(3)
    s = HexThelloState.start()
    played = []
    for _ in range(30):
        if s.is_over():
            break
        m = rng.choice(s.legal_moves())
        played.append(m)
        s = s.play(m)
    assert HexThelloState.from_text(s.to_text()) == s
    assert HexThelloState.from_text(" ".join(compact(m) for m in played)) == s
    assert HexThelloState.from_text("".join(compact(m) for m in played)) == s
    two = HexThelloState.start().play(played[0]).play(played[1])
    assert HexThelloState.from_text(f"{two.move_str(played[0])}, {two.move_str(played[1])}") == two
    assert HexThelloState.from_text(HexThelloState.start().move_str(played[0])) \
        == HexThelloState.start().play(played[0])
    assert HexThelloState.from_array(s.to_array(), 1 if s.to_move == 0 else 0) == s
    arr = s.to_array()
    assert len(arr) == 225 and arr[0] == 4 and arr[index(7, 7)] in (0, 1)
    with pytest.raises(ParseError):
        HexThelloState.from_text("X" * 100)
    assert HexThelloState.from_text("X" * 170).counts() == (169, 0)


def test_board_drawing_has_coordinates_and_marks() -> None:
    s = HexThelloState.start()
    text = s.board_str(last=index(7, 6))
    lines = text.splitlines()
    assert len(lines) == 17
    assert lines[8].split()[0] == "7" and lines[8].rstrip().endswith("0..14")
    assert "x" in lines[8] and text.count("+") == 9
    assert "Score X(Black)=3 O(White)=4" in text
