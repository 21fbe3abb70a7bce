"""A match or tournament database that cannot be written (full disk, read-only file): one line that says what to
do, every game stored before it kept, and ``--resume`` finishing the run once the disk has room again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from plies.cli import main
from plies.storage import StorageError, storage_error


def count_games(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("select count(*) from games").fetchone()[0])


MATCH = ["match", "random", "random", "--game", "tictactoe", "--random-openings", "1", "--no-progress"]


def test_a_full_disk_stops_a_match_with_one_line_and_resume_finishes_it(
        tmp_path: Path, disk_limit: dict[str, Path | None], capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.sqlite"
    assert main([*MATCH, "--games", "2", "--seed", "1", "--db", str(db)]) == 0
    capsys.readouterr()
    disk_limit["path"] = db
    args = [*MATCH, "--games", "100", "--seed", "2", "--db", str(db)]  # the file's pages fill after a dozen
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("plies: error: cannot save game "), err
    assert "the disk is full (free some space)" in lines[0] and "--resume" in lines[0], err
    assert "INSERT" not in err and "internal error" not in err and "Traceback" not in err
    kept = count_games(db)
    assert 2 < kept < 102  # the first match, and the games of the second one stored before the disk filled
    disk_limit["path"] = None
    assert main([*args, "--resume"]) == 0
    assert count_games(db) == 102


def test_a_read_only_database_is_one_line() -> None:
    error = sqlite3.OperationalError("attempt to write a readonly database")
    e = storage_error(error, "save game 3 in m.sqlite", "run again with --resume")
    assert isinstance(e, StorageError)
    assert str(e) == ("cannot save game 3 in m.sqlite: the file is read-only (check its permissions and its "
                      "folder's); run again with --resume")
    locked = storage_error(sqlite3.OperationalError("database is locked"), "open m.sqlite")
    assert "another program holds a lock" in str(locked)


def test_a_database_locked_by_another_program_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """Another program holds an exclusive lock longer than plies waits (10 s): one line, the file as it was."""
    db = tmp_path / "m.sqlite"
    args = [*MATCH, "--games", "2", "--seed", "1", "--db", str(db)]
    assert main(args) == 0
    capsys.readouterr()
    before = db.read_bytes()
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        assert main([*args, "--resume"]) == 2
    finally:
        other.execute("ROLLBACK")
        other.close()
    err = capsys.readouterr().err
    lock = "another program holds a lock on it (let it finish or stop it)"
    assert err == f"plies: error: cannot read database {db}: {lock}\n"
    assert db.read_bytes() == before
