"""The terminal game loop: scripted people, computer replies, in-game commands, passes and the end."""

from __future__ import annotations

import pytest

from plies import PASS, Othello, TicTacToe
from plies.cli import main
from plies.cli.play import PlaySession, setup_interactively
from plies.players import HumanPlayer, parse_player

from .people import scripted


def session(start, first, second, lines, rowcol=False):
    out: list[str] = []
    s = PlaySession(start, (first, second), scripted(lines), out.append, rowcol=rowcol)
    return s, out


def test_tictactoe_people_play_to_a_win():
    s, out = session(TicTacToe.start(), HumanPlayer(), HumanPlayer(), ["a1", "a2", "b1", "b2", "c1"])
    final = s.play()
    assert final.is_over() and final.outcome().winner == 0
    over = next(k for k, line in enumerate(out) if line.startswith("Game over"))
    assert out[over].startswith("Game over: X wins")
    assert out[over + 1:] == ["Moves: a1a2b1b2c1", "Next: plies review a1a2b1b2c1  (every move against "
                              "the best one: the mistakes and what they cost)"]  # (no more input: not saved)


def test_bad_input_is_asked_again_with_a_reason():
    s, out = session(Othello.start(), HumanPlayer(), HumanPlayer(), ["zz", "a1", "d4", "9 9", "d3", "quit"])
    s.play()
    text = "\n".join(out)
    assert "not a move" in text
    assert "a1 flips nothing" in text
    assert "d4 is occupied" in text
    assert "off the board" in text
    assert s.game.moves == [Othello.start().parse_move("d3")]
    assert out[-1] == "Game abandoned. Moves played: d3"  # the moves are not lost with the game


def test_a_game_quit_at_once_or_interrupted_shows_its_moves():
    s, out = session(Othello.start(), HumanPlayer(), HumanPlayer(), ["quit"])
    s.play()
    assert out[-1] == "Game abandoned."
    start = Othello.start().play(Othello.start().parse_move("f5"))
    lines = iter(["d6"])

    def read(prompt: str) -> str:
        for line in lines:
            return line
        raise KeyboardInterrupt  # Ctrl-C at the next prompt

    out = []
    s = PlaySession(start, (HumanPlayer(), HumanPlayer()), read, out.append)
    with pytest.raises(KeyboardInterrupt):
        s.play()
    assert out[-1] == f"Game abandoned. Moves played from {start.to_text()!r}: d6"


def test_undo_goes_back_to_the_humans_previous_turn():
    computer = parse_player("alphabeta:depth=2,eval=discs")
    s, out = session(Othello.start(), HumanPlayer(), computer, ["d3", "undo", "quit"])
    s.play()
    assert s.game.moves == [] and s.state == Othello.start()


def test_hint_show_and_save(tmp_path):
    computer = parse_player("alphabeta:depth=2,eval=discs")
    path = tmp_path / "game.txt"
    s, out = session(Othello.start(), HumanPlayer(), computer, ["hint", "show", "f5", f"save {path}", "quit"])
    s.play()
    text = "\n".join(out)
    assert "Hint: " in text and "discs for Black" in text  # the engine advises on 8x8 Othello, in discs
    assert "d3->" in text and "e6->" in text
    saved = path.read_text().strip()
    assert saved.startswith("f5") and len(saved) == 4  # the person's move and the computer's reply
    assert Othello.from_transcript(saved) == s.state


def test_document_000_row_col_view():
    s, out = session(Othello.start(layout="doc000"), HumanPlayer(), HumanPlayer(), ["2 4", "quit"], rowcol=True)
    s.play()
    assert "Player Black (X) turn, valid moves=(2 4)(3 5)(4 2)(5 3)" in out
    assert out[0].startswith("   0 1 2 3 4 5 6 7")
    assert "Score X=4 O=1" in "\n".join(out)


def test_a_forced_pass_is_announced_and_played():
    # White to move has no move but Black has: White must pass.
    board = "XO" + "-" * 62
    start = Othello.from_text(board + "O")
    assert start.legal_moves() == [PASS]
    s, out = session(start, HumanPlayer(), HumanPlayer(), ["quit"])
    s.play()
    assert any("has no valid move and passes" in line for line in out)


def test_computer_against_computer_reaches_the_summary():
    a = parse_player("greedy")
    b = parse_player("random:seed=3")
    s, out = session(Othello.start(6), a, b, [])
    final = s.play()
    assert final.is_over()
    over = next(line for line in out if line.startswith("Game over"))
    assert "final score" in over
    assert out[-2].startswith("Moves from '") and out[-1].startswith("Next: plies review FILE")  # a 6x6 board


def test_interactive_setup_like_document_001():
    lines = ["2", "4", "1", "1"]  # second, depth 4, alpha-beta, first heuristic
    out: list[str] = []
    black, white = setup_interactively(Othello.start(), scripted(lines), out.append)
    assert white == "human" and black.startswith("alphabeta:depth=4,eval=")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "nonsense-position"],
        ["play", "othello", "--black", "wizard"],
        ["play", "othello", "--white", "alphabeta:depth=x"],
        ["play", "othello", "--white", "alphabeta:depth=2,eval=nope"],
    ],
)
def test_play_rejects_bad_options_with_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_no_book_and_eval_reach_the_engine_only():
    from plies.cli.play import _engine_options

    assert _engine_options("engine:level=8", True, None) == "engine:level=8,book=off"
    assert _engine_options("engine", True, "handmade") == "engine:eval=handmade,book=off"
    assert _engine_options("engine:eval=doc001", False, "handmade") == "engine:eval=doc001"  # the spec wins
    assert _engine_options("alphabeta:depth=3", True, "handmade") == "alphabeta:depth=3"
