"""The one play loop (``play_on``): notes from the players' searches, forced passes asked or played, forfeits in
matches and exceptions to the caller in the terminal, a person's undo while choosing."""

from __future__ import annotations

from typing import Any

import pytest

from plies.game import PASS, State
from plies.games.othello import OthelloState
from plies.games.record import CRASH, ILLEGAL, Game
from plies.games.tictactoe import TicTacToeState
from plies.match.record import play_on
from plies.players import HumanPlayer, Player, RandomPlayer, parse_player


class Counting(Player):
    """Plays its first legal move and counts the positions it was asked about."""

    def __init__(self) -> None:
        self.asked: list[State] = []

    def choose(self, state: State) -> Any:
        self.asked.append(state)
        return state.legal_moves()[0]


def test_moves_carry_the_searchs_value_depth_and_time() -> None:
    game = play_on(Game(TicTacToeState()), [parse_player("alphabeta:depth=9", "tictactoe"), RandomPlayer(1)])
    assert game.over and game.termination == "normal"
    searched, random = game.notes[0::2], game.notes[1::2]
    assert all(n.value is not None and n.depth and n.unit and n.seconds is not None for n in searched)
    assert all(n.value is None and n.seconds is not None for n in random)


def test_forced_passes_are_asked_in_matches_and_played_in_the_terminal() -> None:
    start = OthelloState(1 << 1, 1 << 0, 0, 8)  # Black must pass, then White's c1 ends the game
    asked, answered = Counting(), Counting()
    game = play_on(Game(start), [asked, answered])
    assert game.moves[0] == PASS and asked.asked == [start]
    quiet = Counting()
    seen: list[int] = []
    game = play_on(Game(start), [quiet, Counting()], ask_passes=False, on_move=lambda g: seen.append(len(g.moves)))
    assert game.moves[0] == PASS and quiet.asked == [] and seen == [1, 2]


def test_a_crash_or_an_illegal_answer_loses_a_match_game_but_reaches_the_terminal() -> None:
    class Crasher(Player):
        def choose(self, state: State) -> Any:
            raise ValueError("boom")

    class Cheater(Player):
        def choose(self, state: State) -> Any:
            return 0  # a1: never legal at the start

    game = play_on(Game(OthelloState.start()), [Crasher(), RandomPlayer(1)])
    assert (game.termination, game.detail, game.outcome().winner) == (CRASH, "ValueError: boom", 1)
    game = play_on(Game(OthelloState.start()), [RandomPlayer(1), Cheater()])
    assert game.termination == ILLEGAL and game.outcome().winner == 0 and len(game.moves) == 1
    with pytest.raises(ValueError, match="boom"):
        play_on(Game(OthelloState.start()), [Crasher(), RandomPlayer(1)], forfeits=False)


def test_a_person_who_takes_moves_back_while_choosing_plays_in_the_position_now() -> None:
    game = Game(TicTacToeState())
    answers = iter(["b2", "a1", "undo", "c3", "b1", "a1", "b3"])  # O takes a1 back and plays c3

    def ask(state: State) -> Any:
        text = next(answers)
        if text == "undo":
            game.undo(game.turn_before({0, 1}))
            text = next(answers)
        return game.state.parse_move(text)

    play_on(game, [HumanPlayer(ask), HumanPlayer(ask)])
    assert game.names() == ["b2", "c3", "b1", "a1", "b3"] and not game.undone  # a new move forgets the undone
    assert game.termination == "normal" and game.outcome().winner == 0
