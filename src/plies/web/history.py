"""Finished games of the browser app, kept in SQLite through SQLAlchemy 2.x so they survive restarts.

One row per game: id, game, start position, both players, the moves in notation, the result.  Replaying a
game re-plays its moves from the start position through the rules (``plies.games``), so rows stay small.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import NotRequired, TypedDict

from sqlalchemy import Float, Integer, String, Text, create_engine, func, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from plies.web.views import HistoryEntry, Stored, StoredGame


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A finished game."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    start: Mapped[str] = mapped_column(Text)
    player0: Mapped[str] = mapped_column(String(200))
    player1: Mapped[str] = mapped_column(String(200))
    moves: Mapped[str] = mapped_column(Text)  # JSON list of moves in the game's notation ("pass" included)
    values: Mapped[str] = mapped_column(Text, default="[]")  # JSON list: graph value after each move
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[float] = mapped_column(Float, default=0.0)
    result: Mapped[str] = mapped_column(String(200))
    final: Mapped[str] = mapped_column(Text)
    started_at: Mapped[str] = mapped_column(String(40))
    finished_at: Mapped[str] = mapped_column(String(40), index=True)

    def listed(self) -> Stored:
        """The game without its moves and values."""
        return {"id": self.id, "game": self.game, "start": self.start, "players": [self.player0, self.player1],
                "winner": self.winner, "score": self.score, "result": self.result, "final": self.final,
                "started_at": self.started_at, "finished_at": self.finished_at}

    def to_dict(self) -> StoredGame:
        return {**self.listed(), "moves": json.loads(self.moves or "[]"), "values": json.loads(self.values or "[]")}


class Row(TypedDict):
    """A finished game to store: GameRow's columns, its moves and values as lists (``finished_at``: default now)."""

    id: str
    game: str
    start: str
    player0: str
    player1: str
    moves: list[str]
    values: list[float | None]
    winner: int | None
    score: float
    result: str
    final: str
    started_at: str
    finished_at: NotRequired[str]


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/plies/web.sqlite`` (``~/.local/share/plies/web.sqlite`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "plies" / "web.sqlite"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class History:
    """The game store.  Thread-safe: each call opens its own short session (the app calls it from a thread)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        p = Path(path) if path is not None else default_db_path()
        if str(p) != ":memory:":
            p.parent.mkdir(parents=True, exist_ok=True)
        self.path = p
        url = "sqlite://" if str(p) == ":memory:" else f"sqlite:///{p}"
        self.engine = create_engine(url, connect_args={"check_same_thread": False})
        Base.metadata.create_all(self.engine)

    def save(self, row: Row) -> None:
        """Insert or replace a finished game (``row`` uses GameRow's column names; lists are encoded)."""
        data: dict[str, object] = {**row, "moves": json.dumps(row.get("moves", [])),
                                   "values": json.dumps(row.get("values", []))}
        data.setdefault("finished_at", now())
        with Session(self.engine) as s, s.begin():
            s.merge(GameRow(**data))

    def list(self, limit: int = 50, offset: int = 0) -> tuple[int, list[HistoryEntry]]:
        """(total number of games, the newest ``limit`` games after ``offset``) without their move lists."""
        with Session(self.engine) as s:
            total = s.scalar(select(func.count()).select_from(GameRow)) or 0
            rows = s.scalars(
                select(GameRow).order_by(GameRow.finished_at.desc(), GameRow.id).limit(limit).offset(offset)
            ).all()
            return int(total), [{**r.listed(), "plies": len(json.loads(r.moves or "[]"))} for r in rows]

    def get(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            return row.to_dict() if row is not None else None

    def close(self) -> None:
        self.engine.dispose()
