"""Connect Four in the terminal, end to end, with no front-end code that names it: ``plies play connect4`` with its
help, hints, values in results, a game to its end, a saved game that reads back, ``plies review`` and
``plies search`` of its positions."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from plies.cli import main
from plies.cli.play import read_game
from plies.games.connect4 import ConnectFourState


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
         lines: list[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    assert main(["play", *args]) == 0
    return capsys.readouterr().out


def test_two_people_play_connect_four_to_a_win(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = play(monkeypatch, capsys, ["connect4", "--first", "human", "--second", "human"],
               ["help", "h", "d", "e", "4", "e", "d", "e", "d"])
    assert "Type a move (a column: a-g, or 1-7)" in out
    assert "Player Red (R) turn, valid moves=a b c d e f g" in out
    assert "Illegal: h is off the board (columns a-g or 1-7). Try again." in out
    assert "|. . . r . . .|\n a b c d e f g" in out  # the first disc dropped to the bottom of d (the last move)
    assert "Game over: Red (R) wins.\nMoves: dededed\n" in out  # four in a column; a result has no margin


def test_hints_values_and_a_saved_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    saved = tmp_path / "c4.txt"
    out = play(monkeypatch, capsys, ["connect4", "--first", "human", "--second", "alphabeta:depth=2"],
               ["d", "hint", "show", f"save {saved}", "quit"])
    assert "Computer Yellow (Y) [alphabeta:depth=2" in out and "open-lines heuristic" in out
    hint = next(line for line in out.splitlines() if "Hint: " in line)
    assert "for Red (alpha-beta depth 2, open-lines)" in hint  # the opponent's own search advises
    show = next(line for line in out.splitlines() if "->" in line)
    assert show.count("->") == 7 and "open-lines heuristic's value for Red" in show  # every column valued
    text = saved.read_text()
    start, moves = read_game(f"@{saved}")
    assert isinstance(start, ConnectFourState) and len(moves) == 2 and text.strip().startswith("d")
    # the moves read back as Connect Four's without a header: no other game reads them
    again = play(monkeypatch, capsys, [f"@{saved}", "--first", "human", "--second", "human"], ["quit"])
    assert f"Replayed 2 moves: {text.strip()}" in again


def test_a_finished_game_reviews_in_results_and_positions_search(capsys: pytest.CaptureFixture[str]) -> None:
    start, moves = read_game("dededed")
    assert isinstance(start, ConnectFourState) and len(moves) == 7
    assert main(["review", "dededed", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["game"] == "connect4" and r["over"] is True and r["score"] == 1.0 and len(r["moves"]) == 7
    assert main(["review", "dededed"]) == 0
    out = capsys.readouterr().out
    assert "Final result: Red wins" in out and "Red wins by" not in out
    assert main(["search", "connect4", "--depth", "3", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["depth"] == 3 and found["move"] in "abcdefg"
    board = ConnectFourState.from_transcript("dddc").to_text()
    assert main(["search", board, "--depth", "2", "--json"]) == 0  # a bare board says its game
    assert json.loads(capsys.readouterr().out)["position"] == board
    assert main(["review", "dede", "--level", "3"]) == 2
    assert "a Connect Four game is valued by the textbook search" in capsys.readouterr().err
