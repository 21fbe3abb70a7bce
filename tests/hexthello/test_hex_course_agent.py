"""Course agent programs as players (``course:PROGRAM``): plies is the server of each game, byte for byte as the
course's C server; an agent that answers an illegal or malformed move, crashes, sleeps past its time, stays silent
or never connects loses that game with the reason, and its program is gone afterwards."""

from __future__ import annotations

import os
import shlex
import sys
import threading
from pathlib import Path

import pytest

from plies.game import PliesError
from plies.games.hexthello import HexThelloState
from plies.match import play_game
from plies.match.record import StartupError
from plies.players import parse_player

from .cframework import CServer

pytestmark = pytest.mark.timeout(180)

CLIENT = Path(__file__).with_name("course_client.py")
PYTHON = shlex.quote(sys.executable)


def course(mode: str, options: str = "timeout=1 connect=3", **args: object) -> str:
    extra = " ".join(f"--{k} {v}" for k, v in args.items())
    return f"course:{options} {PYTHON} {shlex.quote(str(CLIENT))} --mode {mode} {extra}"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").exists() or Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def test_two_course_agents_play_through_plies_as_on_the_c_server() -> None:
    """The same two deterministic agents give the same game on the C server's double and through plies."""
    server = CServer(games=1)
    serving = threading.Thread(target=server.serve, daemon=True)
    serving.start()
    import subprocess

    procs = []
    for name in ("one", "two"):  # the first to connect is WHITE
        procs.append(subprocess.Popen([sys.executable, str(CLIENT), "-p", str(server.port), "-n", name]))
        while server.accepted < len(procs) and serving.is_alive():
            serving.join(0.02)
    serving.join(60)
    for p in procs:
        assert p.wait(30) == 0
    c_moves = [bytes(m) for m in server.log[0].moves]
    white, black = parse_player(course("first"), "hexthello"), parse_player(course("first"), "hexthello")
    record = play_game(HexThelloState.start(), [black, white])
    assert record.termination == "normal" and len(record.moves) == len(c_moves)
    state = HexThelloState.start()
    for text, raw in zip(record.moves, c_moves, strict=True):
        move = state.parse_move(text)
        assert (raw[0] == 0xCE) if text == "pass" else raw == bytes(divmod(move, 15))
        state = state.play(move)
    assert state.is_over() and state == server.log[0].final
    for agent in (black, white):
        agent.close()
    assert black.agent_name == "cclient" and black.proc is None  # closed: the program is gone


@pytest.mark.parametrize(("mode", "termination", "words"), [
    ("illegal", "illegal move", "7 7 (occupied)"),
    ("garbage", "illegal move", "(0, 0) is not a cell of the board"),
    ("crash", "crash", "closed the connection while plies waited for its move (exit code 139): segmentation fault"),
    ("sleep", "time", "no move within 1 s"),
    ("silent", "time", "no name within 3 s"),
    ("never", "crash", "did not connect within 3 s"),
])
def test_a_broken_agent_loses_for_its_reason_and_its_program_is_ended(mode: str, termination: str,
                                                                         words: str) -> None:
    agent = parse_player(course(mode, sleep=60), "hexthello")
    seen: list[int] = []
    original = agent.new_game

    def new_game(state: HexThelloState) -> None:
        try:
            original(state)
        finally:
            if agent.proc is not None:
                seen.append(agent.proc.pid)

    agent.new_game = new_game  # type: ignore[method-assign]
    record = play_game(HexThelloState.start(), [agent, parse_player("random:seed=1", "hexthello")])
    agent.close()
    assert record.termination == termination and record.winner == 1, record
    assert words in record.detail, record.detail
    assert seen and not alive(seen[0])  # the program (which sleeps 60 s) was killed with the game


def test_a_missing_program_cannot_be_started_and_other_games_are_refused(tmp_path: Path) -> None:
    agent = parse_player(f"course:cwd={tmp_path} ./nothing-here", "hexthello")
    with pytest.raises(StartupError, match="no such program"):
        agent.new_game(HexThelloState.start())
    with pytest.raises(PliesError, match="HexThello only"):
        parse_player(course("first"), "othello")
    with pytest.raises(PliesError, match="needs a program"):
        parse_player("course:timeout=3", "hexthello")
    with pytest.raises(PliesError, match="not a folder"):
        parse_player(f"course:cwd={tmp_path / 'none'} ./x", "hexthello")


def test_host_and_port_go_where_the_command_line_says(tmp_path: Path) -> None:
    script = tmp_path / "agent.sh"  # a wrapper that takes them in its own order, as a student's Makefile might
    script.write_text(f"#!/bin/sh\nexec {PYTHON} {shlex.quote(str(CLIENT))} -p \"$2\" -i \"$1\" -n wrapped\n")
    script.chmod(0o755)
    agent = parse_player(f"course:name=wrapped cwd={tmp_path} ./agent.sh {{host}} {{port}}", "hexthello")
    assert agent.name == "wrapped"
    record = play_game(HexThelloState.start(), [parse_player("random:seed=3", "hexthello"), agent])
    assert record.termination == "normal" and agent.agent_name == "wrapped"
