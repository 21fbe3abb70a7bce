"""The terminal game's end and its thinking line: the moves printed, an offer to save, ``plies review`` named as the
next step (and that command then works); while the computer searches, a live line says who thinks, for how long,
and with the engine its depth, value, nodes and line."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import pytest

from plies import Othello, TicTacToe
from plies.cli import main
from plies.cli.play import PlaySession, read_game
from plies.players import HumanPlayer, parse_player

from .people import scripted

WIN = ["a1", "a2", "b1", "b2", "c1"]  # X wins on the top row




def test_the_end_prints_the_moves_and_the_review_command_that_works(capsys: pytest.CaptureFixture[str]) -> None:
    out: list[str] = []
    PlaySession(TicTacToe.start(), (HumanPlayer(), HumanPlayer()), scripted([*WIN, ""]), out.append).play()
    over = next(k for k, line in enumerate(out) if line.startswith("Game over"))
    assert out[over + 1] == "Moves: a1a2b1b2c1"
    command = shlex.split(out[over + 2].partition("Next: ")[2].partition("  (")[0])
    assert command[:2] == ["plies", "review"]
    assert main(command[1:]) == 0  # the named next step reviews this very game
    assert "Review of 5 moves" in capsys.readouterr().out


def test_the_finished_game_can_be_saved_and_reviewed_from_its_file(tmp_path: Path) -> None:
    saved = tmp_path / "my game.txt"
    out: list[str] = []
    session = PlaySession(TicTacToe.start(), (HumanPlayer(), HumanPlayer()),
                          scripted([*WIN, str(tmp_path / "no-such-dir" / "x.txt"), str(saved)]), out.append)
    session.play()
    assert any(line.startswith("Cannot save to") for line in out)  # a bad path: asked again
    assert out[-2] == f"Saved 5 moves to {saved}"
    assert out[-1].startswith(f"Next: plies review {shlex.quote(str(saved))}  (")
    start, moves = read_game(f"@{saved}")
    assert moves == session.game.moves


def test_a_game_from_a_set_up_board_names_a_saved_file() -> None:
    start = Othello.start().play(Othello.start().legal_moves()[0])
    out: list[str] = []
    PlaySession(start, (parse_player("greedy"), parse_player("random:seed=3")), scripted([]), out.append).play()
    assert out[-2].startswith(f"Moves from {start.to_text()!r}: ")
    assert out[-1].startswith("Next: plies review FILE, once the game is saved")  # a transcript alone would not do


def test_the_command_ends_with_the_moves_and_the_next_step(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(m + "\n" for m in WIN) + "\n"))
    assert main(["play", "tictactoe", "--first", "human", "--second", "human"]) == 0
    out = capsys.readouterr().out
    assert "Moves: a1a2b1b2c1\nSave the game? A file name, or Enter to skip: Next: plies review a1a2b1b2c1" in out


def thinking(players: tuple[object, object], start: object = None) -> str:
    """What a terminal showed while a computer-against-computer game was played."""
    screen = io.StringIO()
    from rich.console import Console

    console = Console(file=screen, force_terminal=True, width=300, highlight=False)
    out: list[str] = []
    PlaySession(start or Othello.start(), players, scripted([]), out.append, status=console).play()  # type: ignore[arg-type]
    assert out[-1].startswith("Next: plies review")
    return screen.getvalue()


def test_the_engine_shows_its_depth_value_and_nodes_while_it_thinks() -> None:
    from plies.analysis.levels import engine_status

    if not engine_status()[0]:
        pytest.skip("no compiled engine here")
    engine = parse_player("engine:level=7,book=off", "othello")
    seen = thinking((engine, parse_player("greedy")))
    assert "Black (X) is thinking… " in seen
    assert "depth " in seen and " nodes" in seen and "discs for Black" in seen and "; line " in seen
    assert engine.on_progress is None  # nobody watches once the game is over


def test_a_textbook_search_shows_who_thinks_and_for_how_long() -> None:
    seen = thinking((parse_player("alphabeta:depth=2", "othello"), parse_player("greedy")), Othello.start(6))
    assert "Black (X) is thinking… 0." in seen and "depth" not in seen  # no news from inside its search


def test_no_thinking_line_without_a_terminal() -> None:
    out: list[str] = []
    session = PlaySession(Othello.start(6), (parse_player("greedy"), parse_player("greedy")), scripted([]),
                          out.append)
    session.play()
    assert not any("thinking" in line for line in out)
