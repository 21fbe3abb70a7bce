"""The cli-othello adapter (``clio`` player kind): positions reach cli-othello intact and its answers come
back as legal plies moves, passes included."""

from __future__ import annotations

from plies.game import PASS
from plies.games import parse_position
from plies.match.record import play_game
from plies.players import parse_player


def test_start_position_answer_is_a_legal_plies_move() -> None:
    state = parse_position("othello")
    player = parse_player("clio:level=5,seed=1", "othello")
    assert state.move_str(player.choose(state)) in ("d3", "c4", "f5", "e6")


def test_a_whole_game_against_random_stays_legal_and_is_reproducible() -> None:
    def game() -> list:
        clio = parse_player("clio:level=2,seed=7", "othello")
        rnd = parse_player("random:seed=3", "othello")
        record = play_game(parse_position("othello"), (clio, rnd))
        return record.moves

    first = game()
    assert len(first) >= 58 and first == game()


def _a_pass_position():  # type: ignore[no-untyped-def]
    """The first position of seeded random games where the side to move must pass."""
    import random

    rng = random.Random(5)
    for _ in range(500):
        state = parse_position("othello")
        while not state.is_over():
            moves = state.legal_moves()
            if moves == [PASS]:
                return state
            state = state.play(rng.choice(moves))
    raise AssertionError("no pass in 500 random games")


def test_pass_is_answered_by_plies() -> None:
    assert parse_player("clio:level=1", "othello").choose(_a_pass_position()) == PASS


def test_bad_options_are_reported() -> None:
    import pytest

    from plies.game import ParseError

    for spec in ("clio:level=9", "clio:depth=3", "clio:level=x"):
        with pytest.raises(ParseError):
            parse_player(spec, "othello")
