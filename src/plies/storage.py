"""SQLite files that plies reads and writes (match and tournament databases, the HexThello server's games, the
browser app's history): a connection that cannot change a file, the check that a file is plies' own kind before
anything is written to it, so a wrong file is one readable line and stays exactly as it was, and one line for a
write that fails (a full disk, a read-only file, a locked database) instead of the driver's dump."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData

from plies.game import PliesError


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the file ``path`` (absolute): SQLite URI ``mode=ro``.  A WAL-mode file
    without a ``-wal`` beside it is opened ``immutable``, or the reader would leave ``-wal`` and ``-shm`` files."""
    uri = f"{path.as_uri()}?mode=ro"
    try:
        with path.open("rb") as f:
            header = f.read(20)
    except OSError:
        header = b""
    if header[:16] == b"SQLite format 3\0" and header[18:20] == b"\2\2" and not Path(f"{path}-wal").exists():
        uri += "&immutable=1"
    conn = sqlite3.connect(uri, uri=True, timeout=10, check_same_thread=False)
    conn.execute("PRAGMA query_only=1")
    return conn


def check_tables(path: str | Path, metadata: MetaData, what: str, complete: bool = False) -> dict[str, set[str]]:
    """The tables (name -> columns) of the existing file ``path``, read without changing it; a PliesError
    ("PATH is not WHAT (why)") when it is a folder, not SQLite, or holds tables other than ``metadata``'s or
    tables of those names with other columns (another program's file).  ``complete`` (a reader): a file with
    tables must have all of ``metadata``'s; a writer accepts some missing (another writer may be creating them)."""

    def not_ours(why: str) -> PliesError:
        return PliesError(f"{path} is not {what} ({why})")

    if Path(path).is_dir():
        raise not_ours("it is a folder")
    try:
        conn = connect_readonly(Path(path).resolve())
        try:
            names = [r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")]
            tables = {n: {r[0] for r in conn.execute("SELECT name FROM pragma_table_info(?)", (n,))} for n in names}
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        if getattr(e, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB or "not a database" in str(e):
            raise not_ours("it is not an SQLite file") from None
        raise storage_error(e, f"read database {path}") from None
    for table in metadata.sorted_tables:
        columns = tables.get(table.name)
        if columns is not None and not {c.name for c in table.columns} <= columns:
            raise not_ours(f"it has a {table.name} table of another kind")
    others = sorted(set(tables) - set(metadata.tables))
    if others:
        raise not_ours(f"it holds other tables: {', '.join(others)}")
    missing = sorted(set(metadata.tables) - set(tables))
    if complete and tables and missing:
        raise not_ours(f"it has no {missing[0]} table")
    return tables


class StorageError(PliesError):
    """A database that could not be written or read: full disk, read-only file, lock, I/O error.  Each write of
    plies commits on its own, so what was stored before the failure is still there."""


_REASONS = (  # (SQLite's primary result code, words in its message, what to tell the user)
    (sqlite3.SQLITE_FULL, "disk is full", "the disk is full (free some space)"),
    (sqlite3.SQLITE_READONLY, "readonly database", "the file is read-only (check its permissions and its folder's)"),
    (sqlite3.SQLITE_BUSY, "database is locked", "another program holds a lock on it (let it finish or stop it)"),
    (sqlite3.SQLITE_LOCKED, "table is locked", "another program holds a lock on it (let it finish or stop it)"),
    (sqlite3.SQLITE_IOERR, "disk I/O error", "the disk reported an I/O error (check the disk and free space)"),
    (sqlite3.SQLITE_CANTOPEN, "unable to open", "it cannot be opened (check the path and its permissions)"),
    (sqlite3.SQLITE_CORRUPT, "malformed", "the file is damaged"),
)


def storage_reason(error: BaseException) -> str:
    """Why a database call failed, in a few words that say what to do: ``error`` is sqlite3's exception, one of
    SQLAlchemy's (its driver's error inside) or an OSError; never the SQL statement or its parameters."""
    orig: Any = getattr(error, "orig", None) or error
    if isinstance(orig, OSError) and not isinstance(orig, sqlite3.Error):
        if orig.errno == 28:  # ENOSPC
            return _REASONS[0][2]
        return orig.strerror or str(orig)
    text = (str(orig).splitlines() or [""])[0].strip()
    code = getattr(orig, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    for number, words, reason in _REASONS:
        if primary == number or words in text:
            return reason
    return text or type(orig).__name__


def storage_error(error: BaseException, doing: str, after: str = "") -> StorageError:
    """One line for a failed database call: ``cannot DOING: REASON``, then ``after`` (what was kept, what to do
    next) when given."""
    message = f"cannot {doing}: {storage_reason(error)}"
    return StorageError(f"{message}; {after}" if after else message)


__all__ = ["StorageError", "check_tables", "connect_readonly", "storage_error", "storage_reason"]
