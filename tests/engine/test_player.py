"""The ``engine`` player kind: specs, legal play in a whole game, errors."""

from __future__ import annotations

import pytest

from plies.game import ParseError
from plies.games.othello import OthelloState
from plies.match.record import play_game
from plies.players import parse_player


@pytest.mark.parametrize("spec", ["engine", "engine:level=7", "engine:time=1", "engine:depth=8,eval=doc001"])
def test_specs_build_players(spec: str) -> None:
    p = parse_player(spec, "othello")
    assert p.name.startswith("engine")


@pytest.mark.parametrize("spec", ["engine:level=99", "engine:speed=3", "engine:depth=x", "engine:eval=nope"])
def test_bad_specs(spec: str) -> None:
    with pytest.raises(ParseError):
        parse_player(spec, "othello")


def test_engine_only_plays_othello() -> None:
    with pytest.raises(ParseError):
        parse_player("engine", "tictactoe")


def test_full_game_level_2_against_random() -> None:
    record = play_game(OthelloState.start(), (parse_player("engine:level=2"), parse_player("random:seed=3")))
    assert record.termination == "normal"
    assert OthelloState.from_text(record.final).is_over()


def test_level_1_is_greedy_by_its_evaluation() -> None:
    """Level 1 searches one ply: its move is the textbook's one-ply best by the same evaluation."""
    p = parse_player("engine:level=1,eval=discs")
    s = OthelloState.start().play(19)

    def margin(move: int) -> int:
        c = s.play(move)
        mine, theirs = (c.black, c.white) if s.to_move == 0 else (c.white, c.black)
        return mine.bit_count() - theirs.bit_count()

    move = p.choose(s)
    assert margin(move) == max(margin(m) for m in s.legal_moves())
    assert p.last_result is not None and p.last_result.stats.depth == 1
