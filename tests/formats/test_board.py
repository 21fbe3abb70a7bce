"""The 64-character board + side to move."""

from __future__ import annotations

import pytest

from plies.formats.board import read_board, write_board
from plies.formats.errors import FormatError
from plies.games.othello import OthelloState

FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------"


def test_reads_the_usual_spellings():
    s = read_board(FFO40 + " X")
    assert s.to_move == 0 and s.counts() == (FFO40.count("X"), FFO40.count("O"))
    assert read_board(FFO40.replace("X", "*").replace("-", ".") + " *") == s
    assert read_board(FFO40 + "X") == s
    assert read_board(FFO40 + " black") == s
    assert read_board(FFO40 + " O").to_move == 1
    rows = "\n".join(FFO40[r * 8:(r + 1) * 8] for r in range(8)) + "\nX"
    assert read_board(rows) == s


def test_round_trip(some_games):
    for g in some_games:
        for s in g.states()[::7]:
            assert read_board(write_board(s)) == s
            assert read_board(write_board(s, rows=True)) == s
            assert read_board(write_board(s, black="*", white="O", empty=".")) == s
    assert read_board(write_board(OthelloState.start(6))).n == 6


def test_errors_are_located():
    with pytest.raises(FormatError) as info:
        read_board(FFO40[:10] + "Q" + FFO40[11:] + " X")
    assert (info.value.line, info.value.column) == (1, 11)
    rows = "\n".join(FFO40[r * 8:(r + 1) * 8] for r in range(8))
    bad = rows[:30] + "?" + rows[31:] + "\nX"
    with pytest.raises(FormatError) as info:
        read_board(bad)
    assert (info.value.line, info.value.column) == (4, 4)
    with pytest.raises(FormatError, match="64 squares"):
        read_board(FFO40[:60] + " X")
    with pytest.raises(FormatError, match="side to move"):
        read_board(FFO40 + " Z")
