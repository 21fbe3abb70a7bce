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


def test_the_end_of_input_finishes_a_running_search_and_quit_cancels_it() -> None:
    """A scripted session (printf 'nboard 2\\nset depth 4\\ngo\\n' | plies nboard) gets its move; 'quit' does not."""
    from plies.net.nboard import TextbookAnalyser

    lines: list[str] = []
    NBoardEngine(lines.append, analyser=TextbookAnalyser()).serve(io.StringIO("nboard 2\nset depth 4\ngo\n"))
    assert any(line.startswith("=== ") for line in lines), lines
    assert lines[-1] == "status plies is waiting"
    proc = subprocess.run([sys.executable, "-m", "plies", "nboard"], input=b"nboard 2\nset depth 6\ngo\n",
                          capture_output=True, timeout=120)
    assert proc.returncode == 0 and b"\n=== " in proc.stdout, proc.stderr.decode()
    quit_lines: list[str] = []
    engine = NBoardEngine(quit_lines.append, analyser=TextbookAnalyser())
    engine.serve(io.StringIO("nboard 2\nset depth 30\ngo\nquit\n"))
    assert not any(line.startswith("=== ") for line in quit_lines) and not engine.busy()
