"""The Python API a user reads first: a Game played and taken back, and the README's example running as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from plies.game import PASS, IllegalMoveError
from plies.games import OthelloState, TicTacToeState, TreeState, parse_position
from plies.games.record import Game

README = Path(__file__).resolve().parents[2] / "README.md"


def test_game_play_undo_transcript() -> None:
    game = Game(OthelloState.start())
    assert game.play("f5") == OthelloState.from_transcript("f5")
    game.play("5 3")  # document 000's row col: d6
    assert game.state == OthelloState.from_transcript("f5d6")
    game.play(18)  # c3 as a square index
    assert game.transcript() == "f5d6c3"
    assert game.undo() == 18
    assert game.state == OthelloState.from_transcript("f5d6")
    assert game.moves == [37, 43]
    with pytest.raises(IllegalMoveError):
        game.play("a1")
    assert game.moves == [37, 43]  # a refused move changes nothing
    game.undo()
    game.undo()
    assert game.state == OthelloState.start()
    with pytest.raises(IndexError):
        game.undo()


def test_game_transcript_leaves_passes_out() -> None:
    # Black b1 against White a1: Black cannot flank a1 and must pass; White's c1 then takes b1 (a wipe-out)
    game = Game(OthelloState(1 << 1, 1 << 0, 0, 8))
    assert game.state.legal_moves() == [PASS]
    game.play(PASS)
    game.play("c1")
    assert game.transcript() == "c1" and game.names() == ["pass", "c1"]
    assert game.over and game.state.score() == -64


def test_tictactoe_game() -> None:
    game = Game(TicTacToeState())
    for m in ("b2", "a1", "c3"):
        game.play(m)
    assert game.state == TicTacToeState.from_transcript("b2a1c3")


def test_tree_states_of_equal_trees_are_equal() -> None:
    """The contract: states compare and hash equal when the position is the same (here: same tree, same path)."""
    a = parse_position("[[3,12,8],[2,4,6],[14,5,2]]")
    b = parse_position("[[3,12,8],[2,4,6],[14,5,2]]")
    assert isinstance(a, TreeState)
    assert a.play(1) == a.play(1)  # same root object: equal already
    assert a == b and hash(a) == hash(b)
    assert a.play(1) == b.play(1) and a.play(1) != b.play(2)


def test_readme_python_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README shows the Python API"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {})  # noqa: S102
    printed = out.getvalue()
    assert "['d3', 'c4', 'f5', 'e6']" in printed
    assert "Score X=" in printed
