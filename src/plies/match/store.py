"""SQLite storage of events and their games through SQLAlchemy: each game is committed the moment it ends,
so a killed run loses nothing finished and ``--resume`` plays only what is missing.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    JSON,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    select,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from plies.game import PliesError
from plies.games.record import GameRecord
from plies.match.openings import Opening
from plies.match.plan import Entrant, EventConfig, PlannedGame
from plies.match.runner import Finished
from plies.storage import check_tables, connect_readonly, storage_error


class Base(DeclarativeBase):
    pass


class EventRow(Base):
    """One match or tournament: its configuration and the fingerprint of its plan."""

    __tablename__ = "events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(200))
    game: Mapped[str] = mapped_column(String(40))
    plan_hash: Mapped[str] = mapped_column(String(32), index=True)
    planned: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[str] = mapped_column(String(40))


class GameRow(Base):
    """One finished game of an event (the GameRecord plus where it sits in the plan)."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("event_id", "idx"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    pair: Mapped[int] = mapped_column(Integer)
    slot: Mapped[int] = mapped_column(Integer)
    black: Mapped[str] = mapped_column(String(200))
    white: Mapped[str] = mapped_column(String(200))
    black_spec: Mapped[str] = mapped_column(Text)
    white_spec: Mapped[str] = mapped_column(Text)
    opening: Mapped[str] = mapped_column(Text)
    opening_moves: Mapped[str] = mapped_column(Text, default="")
    seed: Mapped[str] = mapped_column(String(24))
    game: Mapped[str] = mapped_column(String(40))
    start: Mapped[str] = mapped_column(Text)
    moves: Mapped[str] = mapped_column(Text)
    times: Mapped[list] = mapped_column(JSON)
    move_values: Mapped[list] = mapped_column(JSON)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[float] = mapped_column(Float)
    termination: Mapped[str] = mapped_column(String(40))
    detail: Mapped[str] = mapped_column(Text, default="")
    final: Mapped[str] = mapped_column(Text)
    started_at: Mapped[str] = mapped_column(String(40))
    finished_at: Mapped[str] = mapped_column(String(40))
    seconds: Mapped[float] = mapped_column(Float)
    worker: Mapped[str] = mapped_column(String(100), default="")


@dataclass
class StoredEvent:
    id: int
    kind: str
    name: str
    planned: int
    config: EventConfig
    created_at: str


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def check_schema(path: Path, complete: bool = False) -> dict[str, set[str]]:
    """The tables (name -> columns) of the SQLite file ``path``, read without changing it; a PliesError when the
    file is not SQLite or holds tables that are not plies' ``events`` and ``games`` (another program's file)."""
    return check_tables(path, Base.metadata, "a plies match database", complete)


P = ParamSpec("P")
R = TypeVar("R")


def _reading(fn: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """A read that the database refuses (a lock held too long, an I/O error) is one line (StorageError)."""

    @functools.wraps(fn)
    def wrapper(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(self, *args, **kwargs)
        except (SQLAlchemyError, OSError) as e:
            raise storage_error(e, f"read {self.where}") from None

    return wrapper


class Store:
    """An SQLite file (or ``None`` for memory) holding events and games.

    ``readonly`` (``tournament show``/``export``) opens the file with SQLite's ``mode=ro``, so it is left exactly
    as it was.  Before anything is written, an existing file must be a plies match database (or empty): the
    file of another program is refused with a PliesError instead of gaining tables."""

    def __init__(self, path: str | Path | None = None, readonly: bool = False) -> None:
        self.path = None if path is None else Path(path)
        if self.path is None:
            if readonly:
                raise PliesError("a read-only database needs a file")
            self.engine = create_engine("sqlite://")
        else:
            resolved = self.path.resolve()
            if readonly:
                if not self.path.is_file():
                    raise PliesError(f"no database {path}")
                if not check_schema(self.path, complete=True):
                    raise PliesError(f"{path} holds no match or tournament")
                self.engine = create_engine(f"sqlite:///{resolved}", creator=lambda: connect_readonly(resolved))
            else:
                if not self.path.parent.exists():
                    raise PliesError(f"cannot create {path}: folder {self.path.parent} does not exist")
                if self.path.is_file() and self.path.stat().st_size > 0:
                    check_schema(self.path)  # through a read-only connection: nothing changes when it fails
                self.engine = create_engine(f"sqlite:///{resolved}")
        event.listen(self.engine, "connect", _sqlite_pragmas)
        if readonly:
            return
        for attempt in range(3):
            try:
                Base.metadata.create_all(self.engine)
                break
            except SQLAlchemyError as e:  # another process may be creating the same tables right now
                if attempt == 2 or "already exists" not in str(e):
                    raise storage_error(e, f"open database {path}") from None

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else "the database"

    def close(self) -> None:
        self.engine.dispose()

    # --- events -------------------------------------------------------------------------------------------
    @_reading
    def events(self) -> list[StoredEvent]:
        with Session(self.engine) as s:
            return [_event(r) for r in s.scalars(select(EventRow).order_by(EventRow.id))]

    @_reading
    def find_event(self, plan_hash: str) -> StoredEvent | None:
        with Session(self.engine) as s:
            query = select(EventRow).where(EventRow.plan_hash == plan_hash).order_by(EventRow.id)
            row = s.scalars(query).first()
            return _event(row) if row else None

    def event(self, event_id: int | None = None) -> StoredEvent:
        """The event with this id, or the latest one."""
        events = self.events()
        if not events:
            raise PliesError(f"{self.path or 'the database'} holds no match or tournament")
        if event_id is None:
            return events[-1]
        for e in events:
            if e.id == event_id:
                return e
        raise PliesError(f"no event {event_id} in {self.path}; events: {', '.join(str(e.id) for e in events)}")

    def add_event(self, config: EventConfig, plan_hash: str, planned: int) -> StoredEvent:
        """Store a new event, or give the one with this plan that another run stored at the same moment: both
        runs insert, then both keep the lowest id and the other row (with no games yet) is removed."""
        try:
            return self._add_event(config, plan_hash, planned)
        except (SQLAlchemyError, OSError) as e:
            raise storage_error(e, f"store the {config.kind} in {self.where}", "nothing was played") from None

    def _add_event(self, config: EventConfig, plan_hash: str, planned: int) -> StoredEvent:
        row = EventRow(
            kind=config.kind, name=config.name, game=config.game, plan_hash=plan_hash, planned=planned,
            config=json.loads(json.dumps(config.to_dict())), created_at=_now(),
        )
        with Session(self.engine) as s:
            s.add(row)
            s.commit()
            mine = row.id
            first = s.scalar(select(func.min(EventRow.id)).where(EventRow.plan_hash == plan_hash))
            if first is not None and first != mine:
                s.execute(delete(EventRow).where(EventRow.id == mine))
                s.commit()
                kept = s.get(EventRow, first)
                if kept is None:  # pragma: no cover - every run keeps the lowest id
                    raise PliesError(f"event {first} disappeared from the database")
                return _event(kept)
            return _event(row)

    # --- games --------------------------------------------------------------------------------------------
    @_reading
    def finished_indices(self, event_id: int) -> set[int]:
        with Session(self.engine) as s:
            return set(s.scalars(select(GameRow.idx).where(GameRow.event_id == event_id)))

    @_reading
    def has(self, event_id: int, index: int) -> bool:
        """Whether game ``index`` of the event is stored (another run may have played it meanwhile)."""
        with Session(self.engine) as s:
            return s.scalar(select(GameRow.id).where(GameRow.event_id == event_id, GameRow.idx == index)) is not None

    def save(self, event_id: int, f: Finished) -> bool:
        """Write one finished game and commit at once; False (and nothing written) when the event already
        holds that game: two runs resuming one database at the same time each keep the first result."""
        g, r = f.planned, f.record
        values = dict(
            event_id=event_id, idx=g.index, pair=g.pair, slot=g.slot, black=g.black.name, white=g.white.name,
            black_spec=g.black.spec, white_spec=g.white.spec, opening=g.opening.position,
            opening_moves=g.opening.moves, seed=str(g.seed), game=g.game, start=r.start,
            moves=json.dumps(list(r.moves)),  # a JSON list: a move may hold a space (HexThello ``7 3``)
            times=list(r.times), move_values=list(r.values), winner=r.winner, score=float(r.score),
            termination=r.termination, detail=r.detail, final=r.final, started_at=r.started_at,
            finished_at=f.finished_at or _now(), seconds=f.seconds, worker=f.worker,
        )
        statement = sqlite_insert(GameRow).values(**values).on_conflict_do_nothing(index_elements=["event_id", "idx"])
        try:
            with Session(self.engine) as s:  # a Core INSERT on the session's connection: its result counts the rows
                result = s.connection().execute(statement)
                s.commit()
                return bool(result.rowcount)
        except (SQLAlchemyError, OSError) as e:  # full disk, read-only file, lock: the games stored so far stay
            raise storage_error(e, f"save game {g.index + 1} in {self.where}",
                                "the games stored before it are kept; run again with --resume to play the rest"
                                ) from None

    @_reading
    def games(self, event_id: int) -> list[Finished]:
        """The finished games of an event in plan order."""
        with Session(self.engine) as s:
            rows = s.scalars(select(GameRow).where(GameRow.event_id == event_id).order_by(GameRow.idx))
            return [_finished(r) for r in rows]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_LEGACY_HEX_MOVE = re.compile(r"pass|\d+ \d+")


def read_moves(text: str, game: str) -> list[str]:
    """The stored moves: a JSON list, or (databases of earlier versions) one line split at spaces, where a
    HexThello move ``7 3`` had been split in two: its halves are put back together."""
    if not text:
        return []
    if text.startswith("["):
        return [str(m) for m in json.loads(text)]
    if game == "hexthello":
        return _LEGACY_HEX_MOVE.findall(text)
    return text.split()


def _event(row: EventRow) -> StoredEvent:
    return StoredEvent(row.id, row.kind, row.name, row.planned, EventConfig.from_dict(row.config), row.created_at)


def _finished(r: GameRow) -> Finished:
    planned = PlannedGame(
        index=r.idx, pair=r.pair, slot=r.slot, black=Entrant(r.black, r.black_spec),
        white=Entrant(r.white, r.white_spec), opening=Opening(r.opening, r.opening_moves), seed=int(r.seed),
        game=r.game,
    )
    record = GameRecord(
        game=r.game, start=r.start, players=(r.black, r.white), moves=read_moves(r.moves, r.game),
        times=list(r.times or []), values=list(r.move_values or []), winner=r.winner, score=r.score,
        termination=r.termination, detail=r.detail, started_at=r.started_at, final=r.final,
    )
    return Finished(planned, record, r.seconds, r.finished_at, r.worker)


__all__ = ["Finished", "Store", "StoredEvent", "check_schema", "read_moves"]
