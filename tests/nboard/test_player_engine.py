"""``plies nboard --load MODULE --player SPEC``: a student's Othello player behind the NBoard protocol, as
``plies grade`` plays it: its moves go out as it chose them, and a player that raises ends the engine in one line,
which the match records as a crash; what it prints goes to stderr, never into the protocol."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from plies.games.othello import OthelloState
from plies.match.record import CRASH, ILLEGAL, NORMAL, play_game
from plies.players import parse_player

PY = shlex.quote(sys.executable)

MODULE = '''
from plies.players import Player, register


class Student(Player):
    name = "student"

    def __init__(self, fail):
        self.fail = fail

    def choose(self, state):
        if self.fail == "raise" and state.empties() < 56:
            raise RuntimeError("boom")
        if self.fail == "illegal" and state.empties() < 56:
            return 27  # d4: a start square, occupied
        if self.fail == "print":  # a student's debugging output, one line looking like an answer
            print("thinking...", state.legal_moves())
            print("=== d3")
        return state.legal_moves()[0]


print("student.py loaded")
register("student", lambda game, params, raw: Student(params.get("fail", "")))
'''


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "student.py"
    path.write_text(MODULE, encoding="utf-8")
    return path


@pytest.mark.parametrize(("fail", "termination", "words"), [
    ("", NORMAL, ""),
    ("raise", CRASH, "the player 'student' raised RuntimeError: boom (student.py:13)"),
    ("illegal", ILLEGAL, "NBoard engine played 'D4'"),
    ("print", NORMAL, ""),  # what it prints goes to stderr, not into the protocol
])
def test_a_students_player_plays_behind_the_protocol(module: Path, fail: str, termination: str,
                                                      words: str) -> None:
    spec = "student" + (f":fail={fail}" if fail else "")
    engine = parse_player(f"nboard:timeout=60 {PY} -m plies nboard --load {shlex.quote(str(module))} --player {spec}")
    try:
        record = play_game(OthelloState.start(), [engine, parse_player("random:seed=2")])
    finally:
        engine.close()
    assert record.termination == termination and words in record.detail, record
    assert engine.engine_name == "student"


def test_player_and_engine_options_do_not_mix(module: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "plies", "nboard", "--load", str(module), "--player", "student",
                        "--eval", "x"], input="quit\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "without --engine, --eval" in p.stderr and "Traceback" not in p.stderr
