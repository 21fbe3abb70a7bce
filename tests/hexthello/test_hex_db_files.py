"""``plies hexthello games`` and ``server --db`` with files that are not (or not yet) a HexThello server's
database: one readable line and exit 2, the file left byte for byte as it was, no ``-wal``/``-shm``/``-journal``
left beside it; ``games`` reads a server's database without changing it."""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from plies.cli import main
from plies.game import PliesError
from plies.net.hexthello.store import Store

pytestmark = pytest.mark.timeout(120)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry of ``folder`` with its bytes (None for a folder)."""
    return {p.name: None if p.is_dir() else p.read_bytes() for p in sorted(folder.iterdir())}


def garbage(path: Path) -> Path:
    path.write_bytes(bytes(range(256)) * 8)
    return path


def text_file(path: Path) -> Path:
    path.write_text("(;GM[Othello]PB[a]PW[b];B[f5])\n")
    return path


def folder(path: Path) -> Path:
    path.mkdir()
    return path


def match_db(path: Path) -> Path:
    """A plies match database, as ``plies match`` leaves it (its own ``events`` and ``games`` tables)."""
    assert main(["match", "random", "greedy", "-n", "2", "-w", "1", "--db", str(path)]) == 0
    return path


def notes_db(path: Path, wal: bool = False) -> Path:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("create table notes (id integer primary key, body text)")
    conn.execute("insert into notes (body) values ('mine')")
    conn.commit()
    conn.close()
    return path


def other_games_db(path: Path) -> Path:
    """Another program's ``games`` table (no ``match_no`` column and the rest)."""
    with sqlite3.connect(path) as conn:
        conn.execute("create table games (id integer primary key, name text)")
    conn.close()
    return path


def hex_db(path: Path) -> Path:
    """A database as ``plies hexthello server`` leaves it (WAL mode, its games and moves)."""
    store = Store(str(path))
    gid = store.start_game(1, 1, "alice", "bob")
    store.add_move(gid, 1, "black", 6, 6, 0.5)
    store.finish_game(gid, "black", 10, 2, "bob left")
    store.close()
    return path


BAD: dict[str, tuple[Callable[[Path], Path], str]] = {
    "garbage": (garbage, "is not a HexThello games database (it is not an SQLite file)"),
    "text": (text_file, "is not a HexThello games database (it is not an SQLite file)"),
    "match": (match_db, "is not a HexThello games database (it has a games table of another kind)"),
    "notes": (notes_db, "is not a HexThello games database (it holds other tables: notes)"),
    "notes-wal": (lambda p: notes_db(p, wal=True), "(it holds other tables: notes)"),
    "other-games": (other_games_db, "(it has a games table of another kind)"),
}


def one_error_line(capsys: pytest.CaptureFixture[str], expected: str) -> None:
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("plies: error: ") and expected in lines[0], err
    assert "sqlalche.me" not in err and "SELECT" not in err and "Traceback" not in err


@pytest.mark.parametrize("kind", sorted(BAD))
@pytest.mark.parametrize("command", ["games", "server"])
def test_a_file_that_is_not_ours_is_refused_and_left_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str) -> None:
    make, expected = BAD[kind]
    db = make(tmp_path / "their.db")
    capsys.readouterr()
    before = snapshot(tmp_path)
    args = ["games", "--db", str(db)] if command == "games" else \
        ["server", "-p", str(free_port()), "--db", str(db), "-q"]
    assert main(["hexthello", *args]) == 2
    one_error_line(capsys, expected)
    assert snapshot(tmp_path) == before  # the same bytes, and no -wal, -shm or -journal beside it


def test_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = folder(tmp_path / "somedir")
    before = snapshot(tmp_path)
    assert main(["hexthello", "games", "--db", str(db)]) == 2
    one_error_line(capsys, "somedir is not a HexThello games database (it is a folder)")
    assert main(["hexthello", "server", "-p", str(free_port()), "--db", str(db), "-q"]) == 2
    one_error_line(capsys, "somedir: it is a folder")
    assert main(["hexthello", "server", "-p", str(free_port()), "--db", str(tmp_path / "no" / "x.db"), "-q"]) == 2
    one_error_line(capsys, "does not exist")
    assert main(["hexthello", "games", "--db", str(tmp_path / "missing.sqlite")]) == 2
    one_error_line(capsys, "no database")
    assert snapshot(tmp_path) == before and list(db.iterdir()) == []


def test_games_reads_a_server_database_without_changing_it(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = hex_db(tmp_path / "hex.sqlite")
    before = snapshot(tmp_path)
    assert sorted(before) == ["hex.sqlite"]  # a WAL-mode file whose server has stopped
    assert main(["hexthello", "games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1 game(s)" in out and "alice" in out and "bob left" in out
    assert snapshot(tmp_path) == before


def test_games_sees_what_a_running_server_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = hex_db(tmp_path / "hex.sqlite")
    writer = Store(str(db))  # a server still running: its -wal holds games not yet in the file
    try:
        writer.start_game(2, 1, "carol", "dave")
        assert main(["hexthello", "games", "--db", str(db)]) == 0
        out = capsys.readouterr().out
        assert "2 game(s)" in out and "carol" in out
    finally:
        writer.close()


def test_the_server_may_use_an_empty_or_its_own_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    assert main(["hexthello", "games", "--db", str(empty)]) == 0  # nothing in it yet: no games, nothing written
    assert "0 game(s)" in capsys.readouterr().out and empty.read_bytes() == b""
    assert not any(p.name.startswith("empty.sqlite-") for p in tmp_path.iterdir())
    blank = tmp_path / "blank.sqlite"
    sqlite3.connect(blank).close()
    for path in (empty, blank, tmp_path / "new.sqlite", hex_db(tmp_path / "hex.sqlite")):
        store = Store(str(path))
        try:
            store.start_game(store.last_match() + 1, 1, "x", "y")
        finally:
            store.close()
    with pytest.raises(PliesError, match="a read-only database needs a file"):
        Store(":memory:", readonly=True)
    reader = Store(str(tmp_path / "hex.sqlite"), readonly=True)
    rows = reader.games()
    reader.close()
    assert [(r["match"], r["black"]) for r in rows] == [(1, "alice"), (2, "x")]


def test_a_server_database_without_its_moves_table_is_not_listed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = hex_db(tmp_path / "hex.sqlite")
    with sqlite3.connect(db) as conn:
        conn.execute("drop table moves")
    conn.close()
    before = snapshot(tmp_path)
    assert main(["hexthello", "games", "--db", str(db)]) == 2
    one_error_line(capsys, "(it has no moves table)")
    assert snapshot(tmp_path) == before
