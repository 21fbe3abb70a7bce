"""Bytes and names as they come: a non-UTF-8 byte under strict decoding, an endless line, and an NBoard
player's ``name=`` naming it in match results."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from plies.cli import main
from plies.game import PASS
from plies.match.plan import spec_name
from plies.net.nboard import MAX_LINE, NBoardEngine

PY = shlex.quote(sys.executable)
FAKE = f"{PY} {shlex.quote(str(Path(__file__).with_name('fake_engine.py')))}"


def test_a_non_utf8_byte_under_strict_decoding_is_an_error_line_not_the_end() -> None:
    """The exact input: printf 'nboard 2\\nmove \\xff\\n' | PYTHONIOENCODING=utf-8:strict plies nboard."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    proc = subprocess.run([sys.executable, "-m", "plies", "nboard", "--engine", "textbook"],
                          input=b"nboard 2\nmove \xff\nping 1\nquit\n", capture_output=True, env=env, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    assert out.splitlines()[0] == "set myname plies" and "status error: not a move" in out
    assert out.splitlines()[-1] == "pong 1" and b"Traceback" not in proc.stderr


def test_an_endless_line_is_skipped_in_bounded_pieces() -> None:
    lines: list[str] = []
    engine = NBoardEngine(lines.append, analyser=lambda: None)  # type: ignore[arg-type,return-value]
    engine.serve(io.StringIO("nboard 2\nset game " + "x" * (3 * MAX_LINE) + "\nping 7\n"))
    assert lines == ["set myname plies", f"status error: line longer than {MAX_LINE} characters ignored", "pong 7"]


def test_spec_names() -> None:
    assert spec_name("nboard:name=Edax depth=4 /usr/bin/edax -q") == "Edax"
    assert spec_name("nboard:depth=4 name='My Engine' prog") == "My Engine"
    assert spec_name("nboard:depth=4 prog name=notanoption") == "nboard:depth=4 prog name=notanoption"
    assert spec_name("alphabeta:depth=3") == "alphabeta:depth=3" and spec_name("nboard:'unclosed") == "nboard:'unclosed"


def test_nboard_name_names_the_player_in_match_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", f"nboard:name=Fakey timeout=30 {FAKE} edax", "random", "--games", "2", "--json",
                 "--db", str(tmp_path / "m.sqlite")])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [p["name"] for p in data["players"]] == ["Fakey", "random"]
    assert {g["black"] for g in data["games"]} == {"Fakey", "random"}
    assert all(g["termination"] == "normal" for g in data["games"])
    assert any(row.get("name") == "Fakey" for row in data.get("standings", data.get("table", [])))



def test_the_end_of_input_cancels_a_search_as_quit_does() -> None:
    """A GUI that dies (its pipe closed) leaves no search running; 'quit' the same."""
    from plies.net.nboard import TextbookAnalyser

    for tail in ("", "quit\n"):
        lines: list[str] = []
        engine = NBoardEngine(lines.append, analyser=TextbookAnalyser())
        engine.serve(io.StringIO(f"nboard 2\nset depth 30\ngo\n{tail}"))
        assert not any(line.startswith("=== ") for line in lines) and not engine.busy()



FORCED_PASS_GAME = ("e6 f4 e3 d2 d3 e7 f2 c5 d6 g1 b4 c2 f5 g4 d1 a3 b5 b6 g5 f6 c4 f3 e8 h6 h4 d7 b1 h5 f7 f8 c7 "
                    "b7 g2 c3 b3 b2 g8 c1 h3 e1 d8 a1 a4 g3 a2 c6 a6 a5 f1 a7 c8 h1 b8 h2 e2 g6 g7 a8").split()


def test_a_refused_move_leaves_the_game_as_it_was() -> None:
    """At a forced pass the GUI may leave the pass out; a refused move must not leave that pass behind."""
    from plies.net.nboard import TextbookAnalyser

    lines: list[str] = []
    engine = NBoardEngine(lines.append, analyser=TextbookAnalyser())
    for m in ["nboard 2", *(f"move {m}" for m in FORCED_PASS_GAME)]:
        engine.handle(m)
    assert engine.state.legal_moves() == [PASS] and not any("error" in line for line in lines)
    before, played = engine.state, list(engine.game.moves)
    engine.handle("move a1")  # taken: refused
    assert lines[-1].startswith("status error") and engine.state == before and engine.game.moves == played
    engine.handle("move h7")  # the pass implied, then h7
    assert engine.game.moves == [*played, PASS, before.play(PASS).parse_move("h7")]
    engine.handle("set depth 100")
    assert "bad depth '100' (1 to 60)" in lines[-2] and engine.depth == 4
    engine.handle("hint abc")
    assert lines[-1] == "status error: bad hint count 'abc' (1 to 64 moves)" and not engine.busy()
