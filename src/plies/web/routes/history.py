"""The history resource: finished games, stored as they end, listed newest first and replayed position by
position."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Query, Request
from sqlalchemy.exc import SQLAlchemyError

from plies import i18n
from plies.game import PASS, PliesError, State
from plies.games import parse_position
from plies.games.record import Game
from plies.i18n import N_
from plies.storage import storage_reason
from plies.web import boards, views
from plies.web.files import ggf_file, transcript_file
from plies.web.history import History, Row, now
from plies.web.routes import Route
from plies.web.sessions import GameSession, OnFinish
from plies.web.views import HistoryPage, Replay, ReplayFrame, SideView, StoredGame

log = logging.getLogger("plies.web")
router = APIRouter(prefix="/api", tags=["history"], route_class=Route)


def stored_game(record: StoredGame) -> Game[State]:
    """The game of a stored row, replayed through the rules."""
    return Game(parse_position(record["start"], game=record["game"]), record["moves"])


def frames(record: StoredGame) -> list[ReplayFrame]:
    """Every position of a stored game (board cells, last move, counts) for move-by-move replay."""
    game = stored_game(record)
    out: list[ReplayFrame] = []
    for ply, state in enumerate(game.states):
        cells = boards.cells(state)
        out.append({"ply": ply, "cells": cells, "last_move": None, "move": None, "counts": boards.counts(cells),
                    "to_move": None if ply and state.is_over() else state.to_move,
                    "highlight": boards.highlight(state)})
        if ply:
            before, move = game.states[ply - 1], game.moves[ply - 1]
            out[-1].update({"move": record["moves"][ply - 1], "side": before.to_move,
                            "last_move": None if move == PASS else boards.cell_of(before, move)})
    return out


@router.get("/history", summary="Finished games, newest first")
async def get_history(request: Request, limit: int = Query(50, ge=1, le=500),
                      offset: int = Query(0, ge=0, le=10**9)) -> HistoryPage:
    total, games = await asyncio.to_thread(request.app.state.history.list, limit, offset)
    return {"total": total, "games": games}


@router.get("/history/{gid}", summary="One finished game with every position, for replay")
async def get_history_game(gid: str, request: Request) -> Replay:
    record: StoredGame | None = await asyncio.to_thread(request.app.state.history.get, gid)
    if record is None:
        raise HTTPException(404, f"no finished game {gid!r} in the history")
    try:
        replay = frames(record)
    except PliesError as e:
        raise HTTPException(500, f"stored game cannot be replayed: {e}") from None
    start = parse_position(record["start"], game=record["game"])
    game = stored_game(record)
    return {**record, "frames": replay, "openings": views.named(game.states), "file": transcript_file(game),
            "ggf": ggf_file(game, record["players"][0], record["players"][1], record["started_at"]),
            "layout": boards.layout(start), "side_names": list(start.player_names)}


UNFINISHED = N_("Unfinished (abandoned)")
"""The result of a game kept in the history that nobody finished: its browser left it, or a new game replaced it."""


def keeper(history: History, background: set[asyncio.Task[None]]) -> OnFinish:
    """What a live game calls when it ends: its row committed to ``history`` in the background (the task is kept
    in ``background`` until done; every answer that shows the end waits for it: ``GameSession.settled``)."""

    def on_finish(session: GameSession) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(_store(history, session, _row(session)))
        background.add(task)
        task.add_done_callback(background.discard)
        return task

    return on_finish


def _row(session: GameSession) -> Row:
    with i18n.using(i18n.DEFAULT):  # the record in English, whichever page's request ended the game
        result = views.result(session)
    names = session.state.player_names
    players = [views.side_view(session.sides[p], names[p]) for p in (0, 1)]
    return {
        "id": session.id, "game": session.state.game, "start": session.game.start.to_text(),
        "player0": _player_text(players[0]), "player1": _player_text(players[1]), "moves": session.game.names(),
        "values": [e["value"] if e else None for e in session.evals.line(session.game.states)],
        "winner": result["winner"] if result else None, "score": float(result["score"] if result else 0),
        "result": result["text"] if result else UNFINISHED,
        "final": session.state.to_text(),
        "started_at": datetime.fromtimestamp(session.started_at, UTC).isoformat(timespec="seconds"),
        "finished_at": now(),
    }


def _player_text(p: SideView) -> str:
    return p["name"] if p["kind"] == "human" else f"computer {p['label']}"


async def _store(history: History, session: GameSession, row: Row) -> None:
    """Commit a finished game to the history; when that fails (full disk, read-only file, lock) the players are
    told (``saved`` false, ``error`` the reason) and the log has one line, never the SQL or its parameters.  The
    games stored before are untouched: each is its own transaction."""
    try:
        await asyncio.to_thread(history.save, row)
    except (SQLAlchemyError, sqlite3.Error, OSError) as e:
        reason = storage_reason(e)
        log.error("could not save game %s in %s: %s", row.get("id"), history.path, reason)
        error = f"this game could not be saved in the history: {reason}"
    except Exception as e:  # a bug: the game goes on, the players are told, the log has the traceback
        log.exception("could not save game %s", row.get("id"))
        error = f"this game could not be saved in the history: {type(e).__name__}: {e}"
    else:
        error = ""
    if session.finished and session.game.names() == row["moves"]:  # (an undo may have taken its end back)
        session.saved = not error
        if error:
            session.error = error
