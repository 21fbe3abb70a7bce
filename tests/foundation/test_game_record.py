"""The Game every part of plies keeps a game in: undo and redo, notes, the end of a game, transcripts of every
registered game read back, and the match database's record written and read without a change."""

from __future__ import annotations

import random

import pytest

from plies.game import PASS, GameType, ParseError
from plies.games import TYPES, game_type
from plies.games.othello import OthelloState
from plies.games.record import ABORTED, CRASH, NORMAL, TIMEOUT, Game, GameRecord, Note, move_names
from plies.games.tictactoe import TicTacToeState

VARIANTS = [(t, size) for t in TYPES.values() for size in (None, *t.sizes)]


def random_game(t: GameType, size: int | None, seed: int) -> Game:
    """A seeded random game of ``t`` to its end, each move noted with a made-up value and time."""
    rng = random.Random(seed)
    game = Game(t.start(size, "standard"), players=("ann", "bob"))
    while not game.over:
        game.play(rng.choice(game.state.legal_moves()), Note(rng.randint(-9, 9), "discs", 3, rng.random()))
    return game


def test_undo_and_redo_walk_the_game_back_and_forth_with_its_notes() -> None:
    game = Game(OthelloState.start())
    for k, m in enumerate(("f5", "d6", "c3", "d3")):
        game.play(m, Note(value=k, seconds=0.5))
    moves, states = list(game.moves), list(game.states)
    assert game.undo(1) == moves[1]  # back to the position after one move: the first to redo is the second
    assert game.moves == moves[:1] and game.state == states[1]
    assert [game.redo(), game.redo()] == moves[1:3] and game.notes[2] == Note(value=2, seconds=0.5)
    assert game.undo(len(game.moves)) is None  # the present: nothing is taken back
    game.play(game.state.legal_moves()[0])  # a new move forgets what was taken back
    assert not game.undone
    with pytest.raises(IndexError):
        game.redo()
    with pytest.raises(IndexError):
        game.undo(9)


def test_a_forfeit_ends_the_game_and_an_undo_resumes_it() -> None:
    game = Game(TicTacToeState(), ["b2", "a1"], players=("ann", "bob"))
    assert not game.over and game.outcome() is None
    game.end(TIMEOUT, "3.20s > 1s", winner=0)
    assert game.over and game.outcome() is not None and game.outcome().winner == 0
    rec = game.record()
    assert (rec.winner, rec.score, rec.termination, rec.detail) == (0, 0.0, TIMEOUT, "3.20s > 1s")
    assert rec.result_text() == "ann wins (bob: time)"
    game.undo()
    assert not game.over and game.termination == NORMAL and game.detail == ""
    game.end(ABORTED, "left")
    assert game.record().result_text() == "no result (aborted)"


def test_the_last_turn_of_a_side_skips_forced_passes() -> None:
    game = Game(OthelloState(1 << 1, 1 << 0, 0, 8))  # Black must pass, then White plays c1
    game.play(PASS)
    game.play("c1")
    assert game.turn_before({1}) == 1 and game.turn_before({0}) is None


@pytest.mark.parametrize("variant", VARIANTS, ids=[t.name + str(size or "") for t, size in VARIANTS])
def test_transcripts_of_every_game_read_back_to_the_same_game(variant: tuple[GameType, int | None]) -> None:
    t, size = variant
    for seed in range(3):
        game = random_game(t, size, seed)
        for cut in (0, len(game.moves) // 2, len(game.moves)):
            part = Game(game.start, game.moves[:cut])
            text = part.transcript()
            again = Game.from_transcript(t, text, game.start)
            assert again.state == part.state or again.state == part.state.play(PASS), text  # a pass last
            assert again.moves == part.moves[:len(again.moves)]
            assert again.names() == part.names()[:len(again.moves)]
        assert PASS not in game.moves or t.passes


def test_a_transcript_names_its_bad_move_and_where_it_stands() -> None:
    t = game_type("othello")
    assert Game.from_transcript(t, "F5 d6").transcript() == "f5d6"
    with pytest.raises(ParseError, match=r"move 3 \(a1, character 5\)"):
        Game.from_transcript(t, "f5d6a1")
    with pytest.raises(ParseError, match="already over"):
        Game.from_transcript(game_type("tictactoe"), "a1 b1 a2 b2 a3 c3")


def test_a_line_is_named_until_it_stops_being_legal() -> None:
    start = OthelloState.start()
    f5, d6 = start.parse_move("f5"), OthelloState.from_transcript("f5").parse_move("d6")
    assert move_names(start, [f5, d6, f5]) == ["f5", "d6"]  # f5 again is taken: the line ends before it


@pytest.mark.parametrize("name", list(TYPES))
def test_the_match_record_round_trips(name: str) -> None:
    game = random_game(TYPES[name], None, 7)
    rec = game.record()
    assert rec.moves == game.names() and rec.final == game.state.to_text() and rec.players == ("ann", "bob")
    assert rec.times == [round(n.seconds or 0, 4) for n in game.notes] and rec.values == [n.value for n in game.notes]
    outcome = game.state.outcome()
    assert outcome is not None and (rec.winner, rec.score) == (outcome.winner, outcome.score)
    again = Game.from_record(rec)
    assert again.moves == game.moves and again.record() == rec
    lost = Game(game.start, game.moves[:3], players=("ann", "bob"))
    lost.end(CRASH, "ValueError: boom", winner=1)
    assert Game.from_record(lost.record()).record() == lost.record()


def test_the_match_database_keeps_the_record_as_it_was() -> None:
    """A game played, stored in a match database and read back is the same game (nothing stored changed form)."""
    from plies.match.openings import Opening
    from plies.match.plan import Entrant, EventConfig, PlannedGame
    from plies.match.runner import Finished
    from plies.match.store import Store

    game = random_game(TYPES["hexthello"], None, 3)  # moves that hold a space, passes
    rec = game.record()
    store = Store()
    entrants = [Entrant("ann", "random"), Entrant("bob", "random")]
    event = store.add_event(EventConfig(entrants, game="hexthello"), "hash", 1)
    planned = PlannedGame(0, 0, 0, entrants[0], entrants[1], Opening(rec.start), 1, "hexthello")
    assert store.save(event.id, Finished(planned, rec, 1.0))
    stored = store.games(event.id)[0].record
    assert stored == rec and Game.from_record(stored).moves == game.moves


def test_a_record_that_does_not_replay_is_refused_with_the_move() -> None:
    rec = GameRecord("othello", OthelloState.start().to_text(), ("a", "b"), moves=["f5", "a1"])
    with pytest.raises(ParseError, match=r"move 2 \(a1\)"):
        Game.from_record(rec)
