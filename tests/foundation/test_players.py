"""Players and one game between two of them: reproducible random, document 000's greedy, document 004's check."""

from __future__ import annotations

import pytest

from plies.game import PASS, ParseError, PliesError
from plies.games import OthelloState, TicTacToeState, parse_position
from plies.games.record import Game
from plies.match.record import CRASH, ILLEGAL, NORMAL, play_game
from plies.players import GreedyPlayer, HumanPlayer, Player, RandomPlayer, SearchPlayer, parse_player

from . import naive_othello as naive


def test_seeded_random_player_is_reproducible() -> None:
    games = [play_game(OthelloState.start(), [RandomPlayer(7), RandomPlayer(8)]) for _ in range(2)]
    assert games[0].moves == games[1].moves and games[0].final == games[1].final
    other = play_game(OthelloState.start(), [RandomPlayer(1), RandomPlayer(2)])
    assert other.moves != games[0].moves  # a different seed gives another game (overwhelmingly likely)
    spec = play_game(OthelloState.start(), [parse_player("random:seed=7"), parse_player("random:seed=8")])
    assert spec.moves == games[0].moves
    # the moves really are legal: the transcript replays
    final = OthelloState.from_transcript(Game.from_record(games[0]).transcript())
    assert final.to_text() == games[0].final


def test_random_player_covers_the_moves() -> None:
    s = OthelloState.start()
    p = RandomPlayer(0)
    seen = {p.choose(s) for _ in range(200)}
    assert seen == set(s.legal_moves())


def test_greedy_takes_the_most_discs_document_000() -> None:
    rng_positions = []
    import random

    rng = random.Random(5)
    for _ in range(60):
        board, player, _ = naive.random_playout(8, rng.randrange(2, 50), rng)
        if naive.moves(board, player):
            rng_positions.append((board, player))
    g = GreedyPlayer()
    for board, player in rng_positions:
        s = OthelloState(*naive.to_bitboards(board), player, 8)
        gains = {}
        for r, c in naive.moves(board, player):
            after = naive.apply(board, player, r, c)
            gains[r * 8 + c] = naive.count(after)[player]
        best = max(gains.values())
        first_best = min(sq for sq, v in gains.items() if v == best)  # first in square order on ties
        assert g.choose(s) == first_best
        assert dict(g.values(s)) == pytest.approx(gains)


def test_greedy_candidate_list_like_document_000() -> None:
    """The verbose hook gets every candidate with its disc count, as document 000 prints ``(r c)->value``."""
    calls: list[tuple[OthelloState, list]] = []
    g = GreedyPlayer(verbose=lambda state, values: calls.append((state, values)))
    s = OthelloState.start(layout="doc000").play(20)  # X e3 = document 000's "2 4"; O to move
    move = g.choose(s)
    assert len(calls) == 1 and calls[0][0] == s
    values = dict(calls[0][1])
    assert set(values) == set(s.legal_moves())
    for m, v in values.items():
        assert v == s.play(m).white.bit_count()
    assert values[move] == max(values.values())


def test_greedy_passes_when_it_must() -> None:
    board = [[naive.EMPTY] * 8 for _ in range(8)]
    board[0][0], board[0][1] = naive.WHITE, naive.BLACK
    s = OthelloState(*naive.to_bitboards(board), 0, 8)
    assert GreedyPlayer().choose(s) == PASS
    assert RandomPlayer(1).choose(s) == PASS
    assert parse_player("alphabeta:depth=2,eval=discs").choose(s) == PASS


@pytest.mark.parametrize("spec", ["random:seed=3", "greedy", "minimax:depth=2,eval=discs", "alphabeta:depth=2"])
def test_any_player_on_either_side(spec: str) -> None:
    for side in (0, 1):
        players = [RandomPlayer(11), RandomPlayer(11)]
        players[side] = parse_player(spec, "othello")
        rec = play_game(OthelloState.start(6), players)
        assert rec.termination == NORMAL
        final = parse_position(rec.final)
        assert final.is_over() and rec.score == final.score()
        assert rec.winner == final.outcome().winner
        assert len(rec.moves) == len(rec.times) == len(rec.values)


def test_tictactoe_players() -> None:
    perfect = parse_player("alphabeta:depth=9,eval=win-loss", "tictactoe")
    for side in (0, 1):
        players = [RandomPlayer(4), RandomPlayer(4)]
        players[side] = perfect
        rec = play_game(TicTacToeState(), players)
        assert rec.winner in (side, None)  # perfect play never loses
    both = play_game(TicTacToeState(), [perfect, parse_player("minimax:depth=9,eval=doc003", "tictactoe")])
    assert both.winner is None and both.score == 0


def test_document_004_pruning_on_and_off_play_identical_games() -> None:
    """Two games, pruning vs no pruning, each side once: the same moves and the same final board."""
    on = "alphabeta:depth=3,eval=doc004"
    off = "alphabeta:depth=3,eval=doc004,pruning=off"
    g1 = play_game(OthelloState.start(), [parse_player(on), parse_player(off)])
    g2 = play_game(OthelloState.start(), [parse_player(off), parse_player(on)])
    assert g1.termination == g2.termination == NORMAL
    assert g1.moves == g2.moves
    assert g1.final == g2.final
    assert g1.values == g2.values
    assert parse_position(g1.final).is_over()


def test_parse_player_specs() -> None:
    p = parse_player("alphabeta:depth=5,eval=doc001,pruning=off")
    assert isinstance(p, SearchPlayer)
    assert (p.algorithm, p.depth, p.heuristic.name, p.pruning) == ("alphabeta", 5, "corner-edge-blocking", False)
    m = parse_player("minimax:depth=2,eval=discs")
    assert (m.algorithm, m.depth) == ("minimax", 2)
    assert isinstance(parse_player("greedy"), GreedyPlayer)
    assert isinstance(parse_player("human"), HumanPlayer)
    r = parse_player("random:seed=12")
    assert isinstance(r, RandomPlayer) and r.seed == 12
    assert parse_player("ALPHABETA:depth=1").depth == 1


@pytest.mark.parametrize(
    "spec",
    [
        "wizard",
        "alphabeta:depth=x",
        "alphabeta:depth=-1",
        "alphabeta:depth=0",
        "alphabeta:eval=nonsense",
        "alphabeta:colour=red",
        "random:seed=abc",
        "greedy:fast=yes",
        "minimax:depth",
    ],
)
def test_bad_player_specs_raise_parse_errors(spec: str) -> None:
    with pytest.raises(ParseError):
        parse_player(spec)


def test_human_players_with_injected_answers() -> None:
    answers = iter(["a1", "1 0", "b1", "b2", "3"])  # X a1, O a2, X b1, O b2, X c1 (keypad 3): top row
    ask = lambda state: state.parse_move(next(answers))  # noqa: E731
    rec = play_game(TicTacToeState(), [HumanPlayer(ask, "ann"), HumanPlayer(ask, "bob")])
    assert rec.moves == ["a1", "a2", "b1", "b2", "c1"]
    assert rec.players == ("ann", "bob") and rec.winner == 0 and rec.termination == NORMAL
    # a person who types an occupied square: the front-end re-asks; an injected ask that raises loses the game
    bad = iter(["b2", "b2"])
    rec = play_game(TicTacToeState(), [HumanPlayer(lambda s: s.parse_move(next(bad)))] * 2)
    assert rec.termination == CRASH and rec.winner == 0 and "occupied" in rec.detail


class _Cheater(Player):
    name = "cheater"

    def choose(self, state):  # noqa: ANN001, ANN201
        return 0  # a1: never legal from the start


class _Crasher(Player):
    name = "crasher"

    def choose(self, state):  # noqa: ANN001, ANN201
        raise RuntimeError("boom")


def test_illegal_or_crashing_player_loses() -> None:
    rec = play_game(OthelloState.start(), [_Cheater(), RandomPlayer(1)])
    assert rec.termination == ILLEGAL and rec.winner == 1 and rec.moves == []
    rec = play_game(OthelloState.start(), [RandomPlayer(1), _Crasher()])
    assert rec.termination == CRASH and rec.winner == 0 and "boom" in rec.detail
    assert len(rec.moves) == 1
    assert "crash" in rec.result_text()


def test_game_record_transcript_replays_with_passes() -> None:
    """Find a seeded random 6x6 game with a pass; its transcript (passes left out) must replay to the recorded final
    board."""
    for seed in range(200):
        rec = play_game(OthelloState.start(6), [RandomPlayer(seed), RandomPlayer(seed + 1000)])
        if "pass" in rec.moves:
            break
    else:  # pragma: no cover
        pytest.fail("no random 6x6 game with a pass in 200 seeds")
    final = OthelloState.from_transcript(Game.from_record(rec).transcript(), n=6)
    assert final.to_text() == rec.final
    assert rec.to_dict()["moves"] == rec.moves


def test_errors_are_plies_errors() -> None:
    with pytest.raises(PliesError):
        parse_player("nosuchkind:x=1")
