"""What the terminal game says: a square off the board is refused in one form whatever its letter, the help says
that "row col" counts from 0, and the start menu lists each difficulty once, with the browser's default."""

from __future__ import annotations

from plies import Othello, TicTacToe
from plies.cli.play import PlaySession, help_text, setup_interactively
from plies.players import HumanPlayer
from plies.web.info import info

from .people import scripted


def refusals(start, lines: list[str]) -> list[str]:
    out: list[str] = []
    PlaySession(start, (HumanPlayer(), HumanPlayer()), scripted(lines + ["quit"]), out.append).play()
    return [line for line in out if line.startswith("Illegal")]


def test_every_square_off_the_board_is_refused_the_same_way() -> None:
    said = refusals(Othello.start(), ["z9", "a9", "z1", "i3", "8 0"])
    assert said == [f"Illegal: {sq} is off the board. Try again." for sq in ("z9", "a9", "z1", "i3", "8 0")]
    said = refusals(TicTacToe.start(), ["z9", "a9"])
    assert said == [f"Illegal: {sq} is off the board. Try again." for sq in ("z9", "a9")]


def test_the_help_and_the_refusals_say_that_row_col_counts_from_0() -> None:
    for start in (Othello.start(), TicTacToe.start()):
        assert "counted from 0" in help_text(start)
        said = refusals(start, ["zz"])
        assert len(said) == 1 and "not a move" in said[0] and "counted from 0" in said[0]


def test_the_difficulty_menu_names_each_level_once_with_the_browsers_default() -> None:
    out: list[str] = []
    first, second = setup_interactively(Othello.start(), scripted(["1", "", "1", ""]), out.append)
    default = info()["levels"]["default"]
    assert first == "human" and second.startswith(f"alphabeta:depth={default},")
    assert "  1) search depth 1" in out and "  3) search depth 3" in out
    assert not any(line.startswith("  1) 1 ") for line in out)
