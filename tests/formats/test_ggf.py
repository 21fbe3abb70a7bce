"""GGF games: NBoard's own example, evals and times per move, files of many games, located errors."""

from __future__ import annotations

import copy

import pytest

from plies.formats.errors import FormatError
from plies.formats.ggf import read_ggf, read_ggf_games, write_ggf, write_ggf_games
from plies.formats.model import OthelloGame
from plies.formats.transcript import read_transcript
from plies.game import PASS
from plies.games.othello import OthelloState

from .conftest import PASS_PREFIX

NBOARD = ("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]"
          "BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]"
          "W[F7]B[E7]W[F4];)")


def test_reads_nboards_example():
    g = read_ggf(NBOARD)
    assert g.move_names() == ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"]
    assert (g.black, g.white, g.date, g.place) == ("./mEdax", "chris", "2014-02-21 20:52:27 GMT", "NBoard")
    assert g.props["TI"] == "15:00" and g.result is None
    assert g.start == OthelloState.start()
    assert g.final == OthelloState.from_transcript("f5f6d3c5e6f7e7f4")


def test_evals_and_times_per_move():
    text = NBOARD.replace("B[F5]W[F6]", "B[F5//1.23]W[f6/0.50/2.1]").replace("B[D3]", "B[D3/-1/0:03]")
    g = read_ggf(text)
    assert g.evals[:3] == [None, 0.5, -1.0]
    assert g.times[:3] == [1.23, 2.1, 3.0]
    back = read_ggf(write_ggf(g))
    assert back.same_game(g) and back.evals == g.evals and back.times == g.times


def test_round_trip_complete_games_with_passes(some_games):
    some_games = copy.deepcopy(some_games)
    for i, g in enumerate(some_games):
        g.black, g.white, g.date = f"black{i}", "white]odd\\name", "2026-11-26"
        g.evals = [float(k % 5) - 2 if k % 3 else None for k in range(len(g.moves))]
        g.times = [k / 10 if k % 2 else None for k in range(len(g.moves))]
    text = write_ggf_games(some_games)
    assert "PA" in text  # the passes are written out
    back = read_ggf_games(text)
    assert len(back) == len(some_games)
    for a, b in zip(some_games, back, strict=True):
        assert b.same_game(a) and (b.black, b.white, b.date) == (a.black, a.white, a.date)
        assert b.evals == a.evals and b.times == a.times
        if a.final.is_over():
            assert b.result == a.final.score()
            assert b.to_record().score == a.final.score()


def test_set_up_position_and_white_to_move():
    start = read_transcript("f5d6c3").final
    g = OthelloGame(start=start, moves=[start.legal_moves()[0]])
    text = write_ggf(g)
    assert "BO[8 " in text and " O]W[" in text
    assert read_ggf(text).same_game(g)


def test_missing_forced_pass_is_implied():
    moves = "".join(f"{'BW'[i % 2]}[{m.upper()}]" for i, m in enumerate(
        [PASS_PREFIX[k:k + 2] for k in range(0, len(PASS_PREFIX), 2)]))
    g = read_ggf(f"(;GM[Othello]TY[8]{moves}W[A3];)")
    assert g.moves[8] == PASS and len(g.moves) == 10 and len(g.evals) == 10
    assert read_ggf(f"(;GM[Othello]TY[8]{moves}B[PA]W[A3];)").moves == g.moves


def test_record_conversion_keeps_the_game(some_games):
    for g in some_games:
        rec = g.to_record()
        again = OthelloGame.from_record(rec)
        assert again.same_game(g)
        assert rec.moves == g.move_names()


@pytest.mark.parametrize(
    ("broken", "words"),
    [
        (NBOARD.replace("W[F7]", "W[F8]"), "illegal move W[F8]"),
        (NBOARD.replace("W[C5]", "B[C5]"), "out of turn"),
        (NBOARD.replace("GM[Othello]", "GM[Chess]"), "not an Othello game"),
        (NBOARD.replace("---O*", "---Q*"), "bad board character 'Q'"),
        (NBOARD.replace("W[F6]", "W[Z9]"), "not a move"),
        (NBOARD.replace("B[E6]", "B[E6/x/1]"), "bad number"),
        (NBOARD.replace(";)", ""), "not closed"),
        (NBOARD.replace("PB[", "PB ("), "has no [value]"),
    ],
)
def test_malformed_games_are_rejected_with_a_location(broken, words):
    with pytest.raises(FormatError) as info:
        read_ggf(broken)
    err = info.value
    assert words in str(err)
    assert err.line == 1 and err.column is not None


def test_the_location_is_right_in_a_file_of_many():
    text = NBOARD + "\n" + NBOARD + "\n" + NBOARD.replace("W[F7]", "W[F8]") + "\n"
    with pytest.raises(FormatError) as info:
        read_ggf_games(text)
    assert info.value.line == 3
    assert info.value.column == NBOARD.index("W[F7]") + 3  # the value's first character
    assert len(read_ggf_games(NBOARD + "\n\n" + NBOARD)) == 2
    with pytest.raises(FormatError, match="line 2, column 1"):
        read_ggf_games(NBOARD + "\njunk")
