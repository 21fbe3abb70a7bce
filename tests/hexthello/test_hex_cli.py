"""``plies hexthello`` commands: show, server + clients end to end, games listing and export, and a
kill -9 of the server process that loses no move."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from plies.cli import main
from plies.net.hexthello import protocol as P
from plies.net.hexthello.store import Store

from .netutil import TIMEOUT, RawAgent

pytestmark = pytest.mark.timeout(180)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, deadline: float = TIMEOUT) -> None:
    end = time.time() + deadline
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


def test_show_draws_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hexthello", "show", "66 56"]) == 0
    out = capsys.readouterr().out
    assert "legal moves: 6 5, 6 9, 8 5, 8 8, 9 5" in out and "0..14" in out
    assert main(["hexthello", "show", "zz"]) == 2
    assert "not a HexThello move" in capsys.readouterr().err


def test_server_and_clients_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port, db = free_port(), tmp_path / "hex.sqlite"
    codes: dict[str, int] = {}
    server = threading.Thread(target=lambda: codes.setdefault("server", main(
        ["hexthello", "server", "-p", str(port), "-g", "2", "-s", "--db", str(db), "--move-time", "30", "-q"])))
    server.start()
    wait_for_port(port)
    time.sleep(0.2)  # the probe connection above is a lobby member that leaves: let the server notice
    one = threading.Thread(target=lambda: codes.setdefault("one", main(
        ["hexthello", "client", "-p", str(port), "-n", "rand", "-r", "--seed", "4", "-q"])))
    one.start()
    time.sleep(0.3)
    two = threading.Thread(target=lambda: codes.setdefault("two", main(
        ["hexthello", "client", "-p", str(port), "-n", "student", "-t", "--depth", "2", "-q"])))
    two.start()
    for t in (one, two, server):
        t.join(TIMEOUT * 3)
    assert codes == {"server": 0, "one": 0, "two": 0}
    out = capsys.readouterr().out
    assert "HexThello match summary" in out and "student" in out
    assert main(["hexthello", "games", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "rand" in listing and "student" in listing
    assert main(["hexthello", "games", "--db", str(db), "--export", str(tmp_path / "g.json")]) == 0
    games = json.loads((tmp_path / "g.json").read_text())
    assert [g["black"] for g in games] == ["student", "rand"] and all(g["moves"] for g in games)
    assert main(["hexthello", "games", "--db", str(db), "--export", str(tmp_path / "g.txt")]) == 0
    lines = (tmp_path / "g.txt").read_text().splitlines()
    assert len(lines) == 2 and lines[0].split("\t")[1] == "student"
    assert main(["hexthello", "games", "--db", str(tmp_path / "none.sqlite")]) == 2


def test_client_reports_a_missing_server(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hexthello", "client", "-p", str(free_port()), "-r", "--wait", "0"]) == 2
    assert "cannot connect" in capsys.readouterr().err


def test_kill_9_loses_no_move(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "hex.sqlite"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "plies", "hexthello", "server", "-p", str(port), "--db", str(db),
                             "-q"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.time() + TIMEOUT * 2
        while not db.exists() and time.time() < end:
            time.sleep(0.05)
        time.sleep(0.3)
        a = RawAgent(port, b"white")
        time.sleep(0.2)
        b = RawAgent(port, b"black")
        assert a.msg() == P.COLOR_W and b.msg() == P.COLOR_B
        a.me, b.me = 1, 0
        a.msg()
        a.send_name()
        b.msg()
        b.send_name()
        for agent in (a, b):
            assert agent.msg() == P.NEW_POSITION
            agent.read(228)
        mover, other = b, a
        for _ in range(10):
            assert mover.msg() == P.REQUEST_MOVE
            mover.send(mover.first_legal())
            assert other.msg() == P.PREPARE_TO_RECEIVE_MOVE
            other.apply_opponent(other.read(2))
            mover, other = other, mover
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    store = Store(str(db))
    rows = store.games()
    store.close()
    assert len(rows) == 1 and rows[0]["status"] == "playing" and len(rows[0]["moves"]) == 10
    assert [m["colour"] for m in rows[0]["moves"][:2]] == ["black", "white"]


@pytest.mark.parametrize("option", ["--move-time", "--name-time", "--person-time"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_server_refuses_times_that_are_not_finite(option: str, value: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """nan compares false with every bound (and inf is no clock): one line, no server started."""
    assert main(["hexthello", "server", "-p", str(free_port()), "--db", ":memory:", option, value]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    expected = "is not a finite number" if value == "nan" else "is not in the range"
    assert len(err.splitlines()) == 1 and option in err and expected in err, err


def test_server_that_cannot_listen_prints_only_the_error(capsys: pytest.CaptureFixture[str]) -> None:
    """No address of this machine, or a port in use: the error line alone, no empty summary table."""
    assert main(["hexthello", "server", "--db", ":memory:", "--host", "999.9.9.9"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot listen on 999.9.9.9:6002" in captured.err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["hexthello", "server", "--db", ":memory:", "-p", str(port)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"cannot listen on 127.0.0.1:{port}" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
