"""The NBoard client: plies plays plies over the protocol; broken engines lose cleanly; processes end."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from plies.game import ParseError, PliesError
from plies.games.othello import OthelloState
from plies.match.record import CRASH, ILLEGAL, NORMAL, TIMEOUT, play_game
from plies.net.nboard_client import NBoardPlayer, parse_answer, parse_spec
from plies.players import RandomPlayer, parse_player

PY = shlex.quote(sys.executable)
PLIES = f"{PY} -m plies nboard --engine textbook"
FAKE = f"{PY} {shlex.quote(str(Path(__file__).with_name('fake_engine.py')))}"


def test_plies_plays_plies_over_the_protocol():
    black = parse_player(f"nboard:depth=2 {PLIES}")
    white = parse_player(f"nboard:depth=1 timeout=60 {PLIES} --name plies-white")
    try:
        rec = play_game(OthelloState.start(), [black, white])
        procs = [black.proc, white.proc]
    finally:
        black.close()
        white.close()
    assert rec.termination == NORMAL, rec.detail
    assert len([m for m in rec.moves if m != "pass"]) + 4 + OthelloState.from_text(rec.final).empties() == 64
    assert OthelloState.from_text(rec.final).is_over()
    assert all(v is not None for v in rec.values)
    assert (black.engine_name, white.engine_name) == ("plies", "plies-white")
    assert all(p is not None and p.poll() is not None for p in procs)        # both processes ended
    assert black.proc is None and white.proc is None


def test_the_engine_is_followed_through_the_opponents_moves():
    """Against a random player the client sends 'move' for each opponent move (and a whole game if lost)."""
    engine = parse_player(f"nboard:depth=1 {PLIES}")
    try:
        rec = play_game(OthelloState.start(), [RandomPlayer(3), engine])
        assert rec.termination == NORMAL, rec.detail
        assert engine._game is not None and engine._game.final == OthelloState.from_text(rec.final)
        # a position the engine cannot reach by one move: the client sends the whole game again
        s = OthelloState.from_transcript("f5d6c3d3c4f4f6")
        move = engine.choose(s)
        assert move in s.legal_moves()
    finally:
        engine.close()


@pytest.mark.parametrize("mode", ["edax", "latin1"])
def test_edax_style_answers_and_stray_bytes_are_understood(mode):
    """Edax's old ``=== d3 -1.00 0.0`` answer; a line in Latin-1 (not UTF-8) is not the end of the output."""
    p = parse_spec(f"timeout=30 {FAKE} {mode}")
    try:
        s = OthelloState.from_transcript("f5d6")
        p.new_game(s)
        assert p.choose(s) == s.legal_moves()[0]
        if mode == "edax":
            assert p.last_result is not None and p.last_result.value == -1.0
    finally:
        p.close()


@pytest.mark.parametrize(("mode", "words", "termination"), [
    ("silent", "no move ('=== MOVE') within the time-out", TIMEOUT),
    ("noping", "no 'pong 1' within the time-out", TIMEOUT),
    ("junk", "played 'Z9'", ILLEGAL),
    ("occupied", "played 'D4'", ILLEGAL),
    ("die", "closed", CRASH),
])
def test_a_broken_engine_loses_the_game_for_its_reason(mode, words, termination):
    """The terminations docs/tournament.md lists: silent to go or to ping loses on time, a move the rules refuse
    is an illegal move, an engine that dies crashes."""
    startup = "startup=1.5 " if mode == "noping" else ""  # the others answer the first ping however slow to start
    p = parse_spec(f"timeout=1.5 {startup}{FAKE} {mode}")
    try:
        with pytest.raises(PliesError, match=re.escape(words)):
            p.new_game(OthelloState.start())
            p.choose(OthelloState.start())
        rec = play_game(OthelloState.start(), [p, RandomPlayer(1)])
        assert rec.termination == termination and rec.winner == 1 and words.split()[0] in rec.detail, rec
    finally:
        p.close()


def test_close_kills_an_engine_that_ignores_quit_and_terminate():
    p = parse_spec(f"timeout=0.5 {FAKE} stubborn")
    p.new_game(OthelloState.start())
    proc = p.proc
    assert proc is not None and proc.poll() is None
    done = threading.Event()

    def close() -> None:
        p._stop_process(grace=0.3)
        done.set()

    threading.Thread(target=close, daemon=True).start()
    assert done.wait(20)
    assert proc.poll() is not None


def test_specs_and_answers():
    p = parse_spec("depth=9 timeout=2.5 name=ed '/opt/my engine/edax' -q --level 3")
    assert p.command == ["/opt/my engine/edax", "-q", "--level", "3"]
    assert (p.depth, p.timeout, p.name) == (9, 2.5, "ed")
    with pytest.raises(ParseError):
        parse_spec("depth=3")
    with pytest.raises(ParseError):
        parse_spec("depth=x prog")
    with pytest.raises(PliesError, match="cannot start"):
        NBoardPlayer(["/nonexistent/engine"]).new_game(OthelloState.start())
    s = OthelloState.start()
    assert parse_answer("=== F5/1.50/0.20", s) == (s.parse_move("f5"), 1.5, 0.2)
    assert parse_answer("=== d3 -1.00 0.0", s) == (s.parse_move("d3"), -1.0, 0.0)
    assert parse_answer("=== c4", s) == (s.parse_move("c4"), None, None)
    with pytest.raises(PliesError):
        parse_answer("=== PA", s)


def test_plies_nboard_command_line_session():
    """The real command on pipes: every answer arrives while the GUI waits for it (lines are flushed)."""
    proc = subprocess.Popen([sys.executable, "-m", "plies", "nboard", "--engine", "textbook", "--depth", "2"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(line: str, until: str) -> list[str]:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        out = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            got = proc.stdout.readline().rstrip("\n")
            out.append(got)
            if got.startswith(until):
                return out
        raise AssertionError(out)

    try:
        assert ask("nboard 2", "set myname") == ["set myname plies"]
        proc.stdin.write("set game (;GM[Othello]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]B[F5];)\n")
        proc.stdin.write("gibberish\n")
        assert ask("ping 1", "pong") == ["pong 1"]
        answer = ask("go", "===")[-1]
        assert answer.split()[1].split("/")[0] in ("D6", "F6", "F4")
        assert proc.stdout.readline().rstrip("\n") == "status plies is waiting"
        hint = ask("hint 2", "status")
        assert hint == ["status plies is thinking"]
        lines = []
        while not lines or lines[-1] != "status":
            lines.append(proc.stdout.readline().rstrip("\n"))
        assert [x.split()[4] for x in lines if x.startswith("search")] == ["1", "1", "2", "2"]
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
