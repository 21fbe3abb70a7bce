"""The terminal game's values and notation: discs from the chosen point of view, hints from the opponent's engine
level (or the one set), a heuristic's value named as such, HexThello's moves written one way, saved games that
read back with their moves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plies import Othello, TicTacToe
from plies.cli import main
from plies.cli.play import PlaySession, read_game
from plies.games.hexthello import HexThelloState
from plies.players import HumanPlayer, parse_player

from .people import scripted


def session(start, first, second, lines, **kw):
    out: list[str] = []
    s = PlaySession(start, (first, second), scripted(lines), out.append, **kw)
    return s, out


def number(text: str, after: str) -> float:
    m = re.search(re.escape(after) + r"\s*([+-]?\d+(?:\.\d)?)\b", text)
    assert m, text
    return float(m.group(1))


def test_hints_come_from_the_opponents_engine_level_in_discs() -> None:
    s, out = session(Othello.start(), HumanPlayer(), parse_player("engine:level=6"), ["hint", "view white", "hint",
                                                                                      "level 7", "hint", "quit"])
    s.play()
    hints = [line for line in out if line.startswith("Hint:")]
    assert "level 6" in hints[0] and "discs for Black" in hints[0]
    assert "discs for White" in hints[1] and number(hints[0], "Hint: d3,") == -number(hints[1], "Hint: d3,")
    assert "level 7" in hints[2]
    for h in hints:  # one decimal at most
        assert not re.search(r"\d\.\d\d", h), h


def test_the_computers_move_is_valued_in_discs_from_the_chosen_view() -> None:
    s, out = session(Othello.start(), HumanPlayer(), parse_player("engine:level=3,seed=1"), ["f5", "quit"], view=1)
    s.play()
    line = next(x for x in out if x.startswith("Computer"))
    assert "discs for White" in line and "depth 3" in line and not re.search(r"\d\.\d\d", line)


def test_a_textbook_opponent_shows_its_heuristic_by_name() -> None:
    s, out = session(Othello.start(6), HumanPlayer(), parse_player("alphabeta:depth=2"), ["c2", "hint", "quit"])
    s.play()
    line = next(x for x in out if x.startswith("Computer"))
    assert "weighted-squares heuristic" in line and "discs" not in line.split("[")[1].split("]")[1]
    hint = next(x for x in out if x.startswith("Hint:"))
    assert "weighted-squares heuristic" in hint


def test_tictactoe_hints_say_win_draw_or_loss() -> None:
    start = TicTacToe.from_transcript("a1b1a2b2")
    computer = parse_player("alphabeta:depth=9,eval=win-loss", "tictactoe")
    s, out = session(start, HumanPlayer(), computer, ["hint", "help", "quit"])
    s.play()
    assert "Hint: a3, win for X" in "\n".join(out)
    assert any("Type a move (b2, " in x and "counted from 0" in x for x in out)


def test_hexthello_moves_are_written_one_way(tmp_path: Path) -> None:
    start = HexThelloState.start()
    first = start.move_str(start.legal_moves()[0])
    path = tmp_path / "hex.txt"
    s, out = session(start, HumanPlayer(), HumanPlayer(), ["help", first, "hint", f"save {path}", "quit"])
    s.play()
    text = "\n".join(out)
    assert "row and column, like 7 3" in text
    turn = next(x for x in out if "valid moves=" in x)
    listed = turn.split("valid moves=")[1].split(", ")
    assert listed == [start.move_str(m) for m in start.legal_moves()]
    assert re.search(r"then \d+ \d+(, \d+ \d+)*", text) or "then" not in text
    saved = path.read_text().strip()
    assert saved.count(",") == 0 and saved == first  # one move
    assert HexThelloState.from_transcript(saved) == s.state
    back, moves = read_game(f"@{path}")
    assert back.game == "hexthello" and len(moves) == 1
    two = f"{first}, {s.state.move_str(s.state.legal_moves()[0])}"
    assert HexThelloState.from_transcript(two).empties() == start.empties() - 2
    assert len(read_game(two)[1]) == 2


def test_hexthello_errors_write_cells_one_way() -> None:
    s = HexThelloState.start()
    with pytest.raises(Exception, match="^0 0 is not on the board"):
        s.parse_move("0 0")
    with pytest.raises(Exception, match="^7 7 is occupied"):
        s.parse_move("7 7")


def test_saved_games_read_back_with_their_moves(tmp_path: Path) -> None:
    start = Othello.from_transcript("f5d6")
    path = tmp_path / "g.txt"
    s, out = session(start, HumanPlayer(), HumanPlayer(), ["c3", f"save {path}", "quit"])
    s.play()
    text = path.read_text()
    assert text.startswith("# start ") and text.strip().endswith("c3")
    back, moves = read_game(str(path))
    assert back == start and [back.move_str(moves[0])] == ["c3"]
    state, moves = read_game("f5d6c3")
    assert state == Othello.start() and len(moves) == 3
    ttt, moves = read_game("b2 a1")
    assert ttt.game == "tictactoe" and len(moves) == 2
    assert read_game("othello6")[0].n == 6 and read_game("othello6")[1] == []


def test_play_replays_a_transcript_and_undo_goes_back_into_it(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("undo\nundo\nquit\n"))
    assert main(["play", "f5d6c3", "--black", "human", "--white", "human"]) == 0
    out = capsys.readouterr().out
    assert "Replayed 3 moves: f5d6c3" in out
    assert out.count("valid moves=") >= 3  # after each undo the turn is announced again


@pytest.mark.parametrize("argv", [["play", "f5d6c3d9"], ["play", "@/nonexistent/file.txt"],
                                  ["play", "f5d6c3", "--hint-level", "12"]])
def test_bad_games_are_one_line_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies: error:") and err.count("\n") == 1


def test_the_level_menu_shows_the_measured_times() -> None:
    from plies.cli.play import setup_interactively
    from plies.engine.levels import LEVELS

    out: list[str] = []
    setup_interactively(Othello.start(), scripted(["1", "8"]), out.append)
    assert any(LEVELS[8].time_text in line for line in out)
