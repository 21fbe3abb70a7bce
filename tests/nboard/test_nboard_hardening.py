"""Bytes and names as they come: a non-UTF-8 byte under strict decoding, an endless line, and an NBoard
player's ``name=`` naming it in match results."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

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



class _SlowAnalyser:
    """The textbook search after a pause (0.5 s, cut short by ``stop``): still searching when the input ends."""

    def __init__(self) -> None:
        from plies.net.nboard import TextbookAnalyser

        self.inner = TextbookAnalyser()
        self.stopped = threading.Event()

    def stop(self) -> None:
        self.stopped.set()
        self.inner.stop()

    def analyse(self, state: Any, **kw: Any) -> list[Any]:
        self.stopped.clear()
        if self.stopped.wait(0.5):
            return []
        return self.inner.analyse(state, **kw)


def test_the_end_of_input_finishes_the_search_under_way_and_says_its_move() -> None:
    """printf 'nboard 2\\nset depth 2\\ngo\\n' | plies nboard: the move comes before the engine exits."""
    lines: list[str] = []
    engine = NBoardEngine(lines.append, analyser=_SlowAnalyser(), depth=2)
    engine.serve(io.StringIO("nboard 2\nset depth 2\ngo\n"))
    assert any(line.startswith("=== ") for line in lines), lines
    assert lines[-1] == "status plies is waiting" and not engine.busy()


def test_the_end_of_input_with_no_search_ends_at_once_and_quit_still_cancels() -> None:
    from plies.net.nboard import TextbookAnalyser

    lines: list[str] = []
    assert ends(lambda: NBoardEngine(lines.append, analyser=TextbookAnalyser()).serve(
        io.StringIO("nboard 2\nping 1\n")))
    assert lines == ["set myname plies", "pong 1"]
    lines.clear()  # quit cancels a search that would take for ever; what follows it is not read
    engine = NBoardEngine(lines.append, analyser=TextbookAnalyser())
    assert ends(lambda: engine.serve(io.StringIO("nboard 2\nset depth 30\ngo\nquit\nping 2\n")))
    assert not engine.busy()
    assert not any(line.startswith("=== ") or line.startswith("pong") for line in lines)


def ends(work: Any, bound: float = 300.0) -> bool:
    """Whether ``work()`` returns at all: a depth-30 textbook search would take years, so a bound of minutes
    tells "cancelled" from "waited for" however loaded the machine is (no time is measured)."""
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(bound)
    return not thread.is_alive()


def test_a_gui_that_died_leaves_no_search_behind() -> None:
    """The input ended and the output is a broken pipe: the long search is cancelled, not waited for."""
    from plies.net.nboard import TextbookAnalyser

    lines: list[str] = []

    def write(line: str) -> None:
        if lines and lines[-1].startswith("status plies is thinking"):
            raise BrokenPipeError(32, "Broken pipe")
        lines.append(line)

    engine = NBoardEngine(write, analyser=TextbookAnalyser())
    assert ends(lambda: engine.serve(io.StringIO("nboard 2\nset depth 30\ngo\n")))
    assert not engine.busy() and engine.output_closed
    assert lines[-1] == "status plies is thinking"


def test_plies_nboard_prints_the_move_when_stdin_closes_during_the_search() -> None:
    """The exact input from the report, through the command (fast engine when built, else the textbook one)."""
    proc = subprocess.run([sys.executable, "-m", "plies", "nboard", "--threads", "1"],
                          input=b"nboard 2\nset depth 2\ngo\n", capture_output=True, timeout=120)
    out = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr.decode()
    assert any(line.startswith("=== ") for line in out), out
    assert out[-1] == "status plies is waiting"


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


def test_a_gui_that_dies_during_a_long_search_leaves_no_engine_behind() -> None:
    """Both pipes closed while a deep search runs (the GUI crashed): the engine sees its reader gone without
    having to write, cancels the search and exits instead of searching on for nobody."""
    proc = subprocess.Popen([sys.executable, "-m", "plies", "nboard", "--threads", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("nboard 2\nset depth 40\ngo\n")
    proc.stdin.flush()
    assert proc.stdout.readline().startswith("set myname")
    proc.stdout.close()
    proc.stdin.close()
    try:
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
