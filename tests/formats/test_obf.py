"""OBF test-suite lines: read, write, read again; bad fields located."""

from __future__ import annotations

import pytest

from plies.formats.errors import FormatError
from plies.formats.obf import ObfPosition, read_obf, write_obf
from plies.game import PASS

FFO43 = "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O"
TEXT = f"""% two FFO positions
{FFO43}; G3:-12; C7:-12; G2:-14; % FFO #43

O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; +38;
"""


def test_reads_scores_best_moves_and_comments():
    a, b = read_obf(TEXT)
    assert a.best_score == -12 and sorted(a.state.move_str(m) for m in a.best_moves) == ["c7", "g3"]
    assert a.comment == "FFO #43" and a.state.to_move == 1
    assert b.best_score == 38 and b.scores == {} and b.state.empties() == 20


def test_round_trip():
    first = read_obf(TEXT)
    again = read_obf(write_obf(first))
    assert [(p.state, p.scores, p.best, p.comment) for p in again] == \
        [(p.state, p.scores, p.best, p.comment) for p in first]


def test_ffo_list_form_reads_through_the_suite_reader():
    from pathlib import Path

    path = Path(__file__).parents[3] / "shared" / "data" / "ffo-endgame.txt"
    line40 = "40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X A2 +38\n"
    text = path.read_text() if path.exists() else line40
    positions = read_obf(text)
    first = positions[0]
    assert first.id == 40 and first.best_score == 38 and [first.state.move_str(m) for m in first.best_moves] == ["a2"]
    again = read_obf(write_obf(positions))                  # FFO -> OBF keeps the answers
    assert [(p.state, p.best_score, sorted(p.best_moves)) for p in again] == \
        [(p.state, p.best_score, sorted(p.best_moves)) for p in positions]
    with pytest.raises(FormatError) as info:
        read_obf("40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X A2,Q9 +38\n")
    assert info.value.line == 1 and "Q9" in str(info.value)


def test_pass_scores():
    from plies.formats.transcript import read_transcript

    s = read_transcript("d3c3e6d2d1e1b2c1").final
    assert s.legal_moves() == [PASS]
    text = write_obf([ObfPosition(s, {PASS: -20})])
    assert "PA:-20;" in text and read_obf(text)[0].scores == {PASS: -20}


@pytest.mark.parametrize(
    ("line", "column", "words"),
    [
        (f"{FFO43}; G3:-12; C7:x;", 77, "bad score"),
        (f"{FFO43}; G3:-12; C7:+99;", 77, "outside -64..64"),
        (f"{FFO43}; A1:-12;", 69, "not legal here"),
        (f"{FFO43}; G3:-12; A1:-20;", 77, "not a legal move here: a1 flips nothing"),
        (f"{FFO43[:20]}Q{FFO43[21:]}; G3:-12;", 21, "bad board character"),
    ],
)
def test_bad_lines_are_located(line, column, words):
    with pytest.raises(FormatError) as info:
        read_obf("% header\n" + line + "\n")
    assert (info.value.line, info.value.column) == (2, column)
    assert words in str(info.value)
