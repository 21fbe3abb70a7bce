"""The server's record of everything that happens: matches, games, moves, results, in SQLite through
SQLAlchemy 2.x.  Each event is committed at once, so a killed server loses nothing that had happened.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import ForeignKey, String, create_engine, event, func, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship
from sqlalchemy.pool import StaticPool

from plies.game import PliesError
from plies.net.hexthello.schema import StoredGame
from plies.storage import check_tables, connect_readonly, storage_error


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Base(DeclarativeBase):
    pass


P = ParamSpec("P")
R = TypeVar("R")


def _locked(fn: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """One call at a time per store: an in-memory database is one connection shared by every thread.  A call the
    database refuses (full disk, read-only file, lock) raises StorageError: one line, what was committed stays."""
    doing = "read" if fn.__name__ in ("games", "last_match") else "store the games in"

    @functools.wraps(fn)
    def wrapper(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self._lock:
            try:
                return fn(self, *args, **kwargs)
            except (SQLAlchemyError, sqlite3.Error, OSError) as e:
                raise storage_error(e, f"{doing} {self.path}") from None

    return wrapper


class GameRow(Base):
    """One game: who had which colour, how it ended, the disc counts and the reason."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(primary_key=True)
    match_no: Mapped[int] = mapped_column(default=0)
    game_no: Mapped[int] = mapped_column(default=0)
    black: Mapped[str] = mapped_column(String(64))
    white: Mapped[str] = mapped_column(String(64))
    started_at: Mapped[str] = mapped_column(String(40), default=now)
    ended_at: Mapped[str | None] = mapped_column(String(40), default=None)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing / finished / interrupted
    winner: Mapped[str | None] = mapped_column(String(8), default=None)  # black / white / draw
    black_discs: Mapped[int] = mapped_column(default=3)
    white_discs: Mapped[int] = mapped_column(default=4)
    reason: Mapped[str] = mapped_column(String(200), default="")
    moves: Mapped[list[MoveRow]] = relationship(back_populates="game", order_by="MoveRow.ply")


class MoveRow(Base):
    """One move as it was played: ply number, colour, cell (row, col; pass = row -50), think time."""

    __tablename__ = "moves"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    ply: Mapped[int]
    colour: Mapped[str] = mapped_column(String(8))
    row: Mapped[int]
    col: Mapped[int]
    seconds: Mapped[float] = mapped_column(default=0.0)
    at: Mapped[str] = mapped_column(String(40), default=now)
    game: Mapped[GameRow] = relationship(back_populates="moves")


def check_schema(path: str | Path, complete: bool = False) -> dict[str, set[str]]:
    """The tables (name -> columns) of the existing file ``path``, read without changing it; a PliesError when
    it is a folder, not SQLite, or holds tables other than a HexThello server's ``games`` and ``moves``."""
    return check_tables(path, Base.metadata, "a HexThello games database", complete)


class Store:
    """Opens (and creates) the database; every method commits before it returns.

    ``readonly`` (``plies hexthello games``) opens an existing file with SQLite's ``mode=ro``, so it stays exactly
    as it was.  Before anything is written, an existing file must be a HexThello server's database (or empty):
    another program's file is refused with a PliesError instead of gaining tables."""

    def __init__(self, path: str | Path = ":memory:", readonly: bool = False) -> None:
        self._lock = threading.RLock()
        self.path = str(path)
        self._empty = False  # a read-only file without tables: no games
        if str(path) == ":memory:":  # one shared connection, so every thread sees the same tables
            if readonly:
                raise PliesError("a read-only database needs a file")
            self.engine = create_engine("sqlite://", poolclass=StaticPool,
                                        connect_args={"check_same_thread": False})
        elif readonly:
            if not Path(path).exists():
                raise PliesError(f"no database {path}")
            self._empty = not check_schema(path, complete=True)
            resolved = Path(path).resolve()
            self.engine = create_engine("sqlite://", creator=lambda: connect_readonly(resolved))
            return
        else:
            where = Path(path)
            if where.is_dir():
                raise PliesError(f"cannot open {path}: it is a folder")
            if not where.parent.exists():
                raise PliesError(f"cannot create {path}: folder {where.parent} does not exist")
            if where.exists() and where.stat().st_size > 0:
                check_schema(where)  # through a read-only connection: nothing changes when it fails
            self.engine = create_engine(f"sqlite:///{where.resolve()}", connect_args={"check_same_thread": False})

        @event.listens_for(self.engine, "connect")
        def _pragmas(conn: sqlite3.Connection, _record: object) -> None:  # durable; readable while the server writes
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

        try:
            Base.metadata.create_all(self.engine)
        except (SQLAlchemyError, sqlite3.Error, OSError) as e:  # an unwritable file or folder, a locked file
            self.engine.dispose()
            reason = str(getattr(e, "orig", None) or e).splitlines() or [type(e).__name__]
            raise PliesError(f"cannot open database {path}: {reason[0]}") from None

    @_locked
    def close_interrupted(self, reason: str = "interrupted: the server stopped during the game") -> int:
        """Mark every game still ``playing`` as ``interrupted`` (a server that starts owns no game yet, so such
        rows were left by a server that was killed); returns how many."""
        with Session(self.engine) as s:  # a Core UPDATE on the session's connection: its result counts the rows
            result = s.connection().execute(update(GameRow).where(GameRow.status == "playing")
                                            .values(status="interrupted", reason=reason, ended_at=now()))
            s.commit()
            return int(result.rowcount or 0)

    @_locked
    def last_match(self) -> int:
        """The highest match number stored (0 for a new database): a restarted server goes on from there."""
        with Session(self.engine) as s:
            return int(s.scalar(select(func.max(GameRow.match_no))) or 0)

    @_locked
    def start_game(self, match_no: int, game_no: int, black: str, white: str) -> int:
        with Session(self.engine) as s:
            row = GameRow(match_no=match_no, game_no=game_no, black=black, white=white)
            s.add(row)
            s.commit()
            return row.id

    @_locked
    def add_move(self, game_id: int, ply: int, colour: str, row: int, col: int, seconds: float) -> None:
        with Session(self.engine) as s:
            s.add(MoveRow(game_id=game_id, ply=ply, colour=colour, row=row, col=col, seconds=round(seconds, 4)))
            s.commit()

    @_locked
    def finish_game(self, game_id: int, winner: str | None, black_discs: int, white_discs: int, reason: str,
                    status: str = "finished") -> None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return
            row.winner, row.black_discs, row.white_discs = winner, black_discs, white_discs
            row.reason, row.status, row.ended_at = reason, status, now()
            s.commit()

    @_locked
    def games(self, limit: int | None = None) -> list[StoredGame]:
        """Every game with its moves, oldest first, as plain dicts (for listing and export); ``limit`` keeps
        the newest ``limit`` games only."""
        if self._empty:
            return []
        with Session(self.engine) as s:
            out: list[StoredGame] = []
            query = select(GameRow).order_by(GameRow.id)
            if limit is not None:
                query = select(GameRow).where(GameRow.id.in_(
                    select(GameRow.id).order_by(GameRow.id.desc()).limit(limit).scalar_subquery())).order_by(GameRow.id)
            for g in s.scalars(query):
                out.append({
                    "id": g.id, "match": g.match_no, "game": g.game_no, "black": g.black, "white": g.white,
                    "started_at": g.started_at, "ended_at": g.ended_at, "status": g.status, "winner": g.winner,
                    "black_discs": g.black_discs, "white_discs": g.white_discs, "reason": g.reason,
                    "moves": [{"ply": m.ply, "colour": m.colour, "row": m.row, "col": m.col,
                               "seconds": m.seconds} for m in g.moves],
                })
            return out

    @_locked
    def close(self) -> None:
        self.engine.dispose()


__all__ = ["GameRow", "MoveRow", "Store", "check_schema"]
