"""Transcripts: every spelling reads, writing then reading gives the same game, errors point at the move."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plies.formats.errors import FormatError
from plies.formats.transcript import read_transcript, tokens, write_transcript
from plies.game import PASS, ParseError
from plies.games.othello import OthelloState, transcript_tokens

from .conftest import PASS_PREFIX, random_game


def test_compact_spaced_upper_and_playok_read_the_same_game():
    a = read_transcript("f5d6c3d3c4")
    for text in ("F5 D6 C3 D3 C4", "f5 d6\nc3, d3; c4", "1. F5 d6 2. C3 d3 3. C4", "1.f5 d6 2.c3 d3 3.c4"):
        assert read_transcript(text).moves == a.moves
    assert a.final == OthelloState.from_transcript("f5d6c3d3c4")


def test_round_trips_in_every_style(some_games):
    for g in some_games:
        for style in ("compact", "spaced", "playok"):
            for passes in (False, True):
                text = write_transcript(g, passes=passes, style=style)
                back = read_transcript(text)
                assert back.same_game(g), (style, passes, text)


def test_implicit_and_explicit_passes_give_the_same_game():
    implicit = read_transcript(PASS_PREFIX + "a3")
    explicit = read_transcript(PASS_PREFIX + " pass a3")
    for spelled in ("PA", "--", "ps", "@@", "PASS"):
        assert read_transcript(PASS_PREFIX + spelled + "a3").moves == implicit.moves
    assert implicit.moves == explicit.moves
    assert implicit.moves[8] == PASS and len(implicit.moves) == 10
    assert write_transcript(implicit) == PASS_PREFIX + "a3"
    assert write_transcript(implicit, passes=True) == PASS_PREFIX + "--a3"
    assert "3. D1 e1 4. B2 c1 5. -- a3" in write_transcript(implicit, style="playok")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), style=st.sampled_from(["compact", "spaced", "playok"]),
       upper=st.booleans(), passes=st.booleans())
def test_tokens_agree_with_the_core_tokenizer(seed, style, upper, passes):
    """formats.transcript supersedes plies.games.othello.transcript_tokens: same tokens on what both read."""
    g = random_game(seed)
    text = write_transcript(g, passes=passes, style=style, upper=upper)
    assert [t.text for t in tokens(text)] == transcript_tokens(text)
    assert read_transcript(text).final == OthelloState.from_transcript(text)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("f5d6c3 z9", 1, 8, "not a move"),
        ("f5 d6\nc3 d3 c9", 2, 7, "off the 8x8 board"),
        ("f5f5", 1, 3, "occupied"),
        ("f5 d6 a1", 1, 7, "flips nothing"),
        ("f5 pass", 1, 4, "cannot pass"),
    ],
)
def test_errors_name_line_and_column(text, line, column, words):
    with pytest.raises(FormatError) as info:
        read_transcript(text)
    err = info.value
    assert isinstance(err, ParseError)
    assert (err.line, err.column) == (line, column)
    assert words in str(err) and f"line {line}, column {column}" in str(err)


def test_other_board_sizes():
    first = OthelloState.start(6).legal_moves()[0]
    g = read_transcript(OthelloState.start(6).move_str(first), n=6)
    assert g.start.n == 6 and g.moves == [first]
    with pytest.raises(FormatError, match="off the 6x6 board"):
        read_transcript("h8", n=6)
