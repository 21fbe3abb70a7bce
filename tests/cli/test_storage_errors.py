"""Databases that cannot be written, for the commands that write them as they go: the HexThello server on a full
disk stops with one line that says what to do, and every game and move it stored before is still there."""

from __future__ import annotations

import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from plies.cli import main
from plies.net.hexthello.store import Store
from plies.storage import StorageError

pytestmark = pytest.mark.timeout(180)
WAIT = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def full(tmp_path: Path, disk_limit: dict[str, Path | None]) -> Path:
    """A HexThello database whose file may not grow any more on later connections (as on a full disk)."""
    db = tmp_path / "hex.sqlite"
    Store(str(db)).close()
    disk_limit["path"] = db
    return db


def test_the_store_says_the_disk_is_full(full: Path) -> None:
    store = Store(str(full))
    try:
        game = store.start_game(1, 1, "a", "b")
        with pytest.raises(StorageError) as e:
            for ply in range(1, 2000):
                store.add_move(game, ply, "black", 7, 3, 0.01)
        assert str(e.value) == f"cannot store the games in {full}: the disk is full (free some space)"
    finally:
        store.close()


def test_a_hexthello_server_on_a_full_disk_stops_with_one_line(full: Path, capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    port = free_port()
    codes: dict[str, int] = {}
    server = threading.Thread(target=lambda: codes.setdefault("server", main(
        ["hexthello", "server", "-p", str(port), "-g", "50", "--db", str(full), "--move-time", "30", "-q"])))
    server.start()
    deadline = time.monotonic() + WAIT
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "the server did not listen"
            time.sleep(0.05)
    time.sleep(0.2)  # the probe above was a lobby member that left: let the server notice
    clients = [threading.Thread(target=lambda n=n: codes.setdefault(n, main(
        ["hexthello", "client", "-p", str(port), "-n", n, "-r", "--seed", "3", "-q"]))) for n in ("one", "two")]
    for c in clients:
        c.start()
        time.sleep(0.2)
    for t in (*clients, server):
        t.join(WAIT)
    assert not server.is_alive(), "the server went on without a database"
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("plies: ")]
    assert codes["server"] == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"plies: error: cannot store the games in {full}: the disk is full (free some space)")
    assert "start it again" in lines[0] and "internal error" not in err and "Traceback" not in err
    with sqlite3.connect(full) as conn:  # what was stored before the disk filled is all there
        moves = conn.execute("SELECT count(*) FROM moves").fetchone()[0]
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    assert games >= 1 and moves >= 1
