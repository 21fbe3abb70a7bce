"""The FastAPI application: static page, JSON API (OpenAPI at /docs) and a WebSocket per game.

Every browser gets a token issued by this server (cookie ``plies_token``; API clients may send
``X-Plies-Token``); a game remembers the token that created it and only that token may move in it.  Anyone
holding a game's id can watch.  ``plies.web.guard`` checks every request first (Host, Origin, tokens, body
size and depth) and limits the live games of each client.  Errors come back as ``{"error": "..."}`` with a
4xx status (503 when the server is full) and never stop the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from plies.analysis import levels
from plies.analysis.position import hints
from plies.game import PASS, PliesError
from plies.games import parse_position
from plies.games.record import Game
from plies.storage import storage_reason
from plies.teach.web import router as learn_router
from plies.web import boards
from plies.web.guard import (
    PER_ADDRESS,
    PER_TOKEN,
    Busy,
    ClientSessions,
    Guard,
    JsonHostError,
    Tokens,
    allowed_hosts,
    parse_json,
)
from plies.web.history import History, now
from plies.web.info import info
from plies.web.player import router as player_router
from plies.web.player import start_game
from plies.web.schemas import MOVE_MAX_LENGTH, HintIn, MoveIn, StartGame
from plies.web.sessions import GameSession
from plies.web.workers import Workers

log = logging.getLogger("plies.web")
COOKIE = "plies_token"
HEADER = "x-plies-token"
STATIC = Path(str(resources.files("plies.web") / "static"))


class ApiError(Exception):
    """An error the client caused, with its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def token_of(request: Request | WebSocket) -> str | None:
    return request.headers.get(HEADER) or request.cookies.get(COOKIE) or request.query_params.get("token")


def replay(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of a stored game (board cells, last move, counts) for move-by-move replay."""
    game = Game(parse_position(record["start"], game=record["game"]), record["moves"])
    frames: list[dict[str, Any]] = []
    for ply, state in enumerate(game.states):
        cells = boards.cells(state)
        frames.append({"ply": ply, "cells": cells, "last_move": None, "move": None, "counts": boards.counts(cells),
                       "to_move": None if ply and state.is_over() else state.to_move,
                       "highlight": boards.highlight(state)})
        if ply:
            before, move = game.states[ply - 1], game.moves[ply - 1]
            frames[-1].update(move=record["moves"][ply - 1], side=before.to_move,
                              last_move=None if move == PASS else boards.cell_of(before, move))
    return frames


def create_app(db: str | Path | None = None, workers: int = 4, processes: int = 0, warm: bool = False,
               allow_hosts: Sequence[str] = (), listen: str | None = None, per_token: int = PER_TOKEN,
               per_address: int = PER_ADDRESS) -> FastAPI:
    """The app: ``db`` is the SQLite file for finished games (default under the user's data dir); searches
    run on ``workers`` threads, and on ``processes`` worker processes when that is above 0 (more cores);
    ``warm`` imports the engine and its weights in the background at start-up.  The app answers the Host
    names ``localhost``, ``127.0.0.1``, ``::1``, ``listen`` (the address served) and ``allow_hosts`` (``*``:
    any); each client keeps at most ``per_token`` live games per browser and ``per_address`` per address."""
    history = History(db)
    tokens = Tokens()
    pool = Workers(workers, processes)
    background: set[asyncio.Task[Any]] = set()

    def on_finish(session: GameSession) -> asyncio.Task[None]:
        result = session.result() or {}
        players = [session.sides[p].describe(session.state.player_names[p]) for p in (0, 1)]
        row = {
            "id": session.id, "game": session.state.game, "start": session.game.states[0].to_text(),
            "player0": _player_text(players[0]), "player1": _player_text(players[1]),
            "moves": session.game.names(),
            "values": [e["value"] if e else None for e in session.evals],
            "winner": result.get("winner"), "score": float(result.get("score") or 0),
            "result": result.get("text", ""), "final": session.state.to_text(),
            "started_at": _iso(session.started_at), "finished_at": now(),
        }
        task = asyncio.get_running_loop().create_task(_store(history, session, row))
        background.add(task)
        task.add_done_callback(background.discard)
        return task  # every answer that shows the end waits for it (``GameSession.settled``)

    sessions = ClientSessions(pool, on_finish, per_token=per_token, per_address=per_address)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.warm_up()
        warming = asyncio.get_running_loop().create_task(_quietly(pool.run(levels.warm_engine))) if warm else None
        yield
        if warming is not None:
            warming.cancel()  # never wait for it at shut-down
        sessions.close()
        if background:
            await asyncio.gather(*background, return_exceptions=True)
        pool.shutdown()
        history.close()

    app = FastAPI(
        title="plies web",
        version="1",
        description="Play Othello and tic-tac-toe in the browser, against the computer or a friend. "
        "Moves go over the WebSocket /ws/games/{id} or the REST calls below; a game can be moved in only "
        "with the token of the browser that created it (cookie plies_token or header X-Plies-Token).",
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    app.state.history = history
    app.state.pool = pool
    app.state.tokens = tokens
    app.add_middleware(Guard, tokens=tokens)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(listen, allow_hosts))
    app.add_middleware(JsonHostError)  # outermost: the Host check's refusal as JSON

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "60"})

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(PliesError)
    async def _plies_error(request: Request, exc: PliesError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            if not where and err.get("type") == "missing":  # no body at all
                parts.append("the request needs a JSON body ({} for every default)")
                continue
            parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        details = [{"loc": [str(x) for x in err.get("loc", ())], "msg": str(err.get("msg", "")),
                    "type": str(err.get("type", ""))} for err in exc.errors()]  # never the input: it may not be JSON
        return JSONResponse({"error": _printable("bad request: " + "; ".join(parts)), "details": details},
                            status_code=422)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:  # a bug: one line, server keeps going
        log.exception("internal error on %s", request.url.path)
        return JSONResponse({"error": _printable(f"internal error: {type(exc).__name__}: {exc}")}, status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    def owned(gid: str, request: Request) -> GameSession:
        session = found(gid)
        if token_of(request) != session.owner:
            raise ApiError(403, "this game belongs to another browser: you can watch it but not play in it")
        return session

    def found(gid: str) -> GameSession:
        session = sessions.get(gid)
        if session is None:
            raise ApiError(404, f"no game {gid!r} on this server (finished games are under /api/history)")
        return session

    async def hint(session: GameSession, count: int) -> dict[str, Any]:
        """The best ``count`` moves of the game's position (searched off the event loop) and the ply they are
        for (None when the game moved on meanwhile)."""
        state = session.state
        data = await pool.run(hints, state, count, levels.engine_applies(state), heavy=True)
        return {**data, "ply": len(session.game.states) - 1 if session.state is state else None}

    api = APIRouter(prefix="/api")

    @api.get("/info", summary="What the start screen offers: games, levels, heuristics, engine")
    def get_info() -> dict[str, Any]:
        data = info()
        data["learn"] = True  # the teaching pages are mounted at /learn
        return data

    @api.post("/games", summary="Start a game; returns the game and this browser's token")
    async def new_game(spec: StartGame, request: Request) -> JSONResponse:
        token = token_of(request) or tokens.issue()  # the guard gave this request a server-issued token
        session = start_game(sessions, token, spec)  # a pasted transcript's moves become the game's history
        response = JSONResponse({"token": token, "game": await session.answer(owner=True)})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=365 * 86400)
        return response

    @api.get("/games/{gid}", summary="A game as the page draws it")
    async def get_game(gid: str, request: Request, wait: bool = False) -> dict[str, Any]:
        session = found(gid)
        if wait:
            await _wait(session)
        return await session.answer(owner=token_of(request) == session.owner)

    @api.post("/games/{gid}/moves", summary="Play a move; with wait=true, answer after the computer replied")
    async def post_move(gid: str, body: MoveIn, request: Request, wait: bool = False) -> dict[str, Any]:
        session = owned(gid, request)
        session.move(body.move)
        if wait:
            await _wait(session)
        return await session.answer(owner=True)

    @api.post("/games/{gid}/undo", summary="Take back to your previous turn")
    async def post_undo(gid: str, request: Request) -> dict[str, Any]:
        session = owned(gid, request)
        session.undo()
        return await session.answer(owner=True)

    @api.post("/games/{gid}/redo", summary="Play again what undo took back")
    async def post_redo(gid: str, request: Request, wait: bool = False) -> dict[str, Any]:
        session = owned(gid, request)
        session.redo()
        if wait:
            await _wait(session)
        return await session.answer(owner=True)

    @api.post("/games/{gid}/hint", summary="The best moves of the side to move, with values")
    async def post_hint(gid: str, request: Request, body: HintIn | None = None) -> dict[str, Any]:
        return await hint(owned(gid, request), body.count if body is not None else 3)

    @api.post("/games/{gid}/abandon", summary="Stop a game (its computer stops searching)")
    async def post_abandon(gid: str, request: Request) -> dict[str, Any]:
        session = owned(gid, request)
        session.abandon()
        return {"ok": True}

    @api.get("/games/{gid}/transcript", summary="The moves so far, and the start position")
    async def get_transcript(gid: str) -> dict[str, Any]:
        session = found(gid)
        return {"game": session.state.game, "start": session.game.states[0].to_text(),
                "transcript": session.game.transcript(), "moves": session.game.names(),
                "position": session.state.to_text()}

    @api.get("/history", summary="Finished games, newest first")
    async def get_history(limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0, le=10**9)
                          ) -> dict[str, Any]:
        total, games = await asyncio.to_thread(history.list, limit, offset)
        return {"total": total, "games": games}

    @api.get("/history/{gid}", summary="One finished game with every position, for replay")
    async def get_history_game(gid: str) -> dict[str, Any]:
        record = await asyncio.to_thread(history.get, gid)
        if record is None:
            raise ApiError(404, f"no finished game {gid!r} in the history")
        try:
            record["frames"] = replay(record)
        except PliesError as e:
            raise ApiError(500, f"stored game cannot be replayed: {e}") from None
        start = parse_position(record["start"], game=record["game"])
        record["layout"] = boards.layout(start)
        record["side_names"] = list(start.player_names)
        return record

    app.include_router(api)
    app.include_router(player_router)

    @app.websocket("/ws/games/{gid}")
    async def ws_game(websocket: WebSocket, gid: str) -> None:
        """Live game: the server sends ``state``/``eval``/``hint``/``error`` messages; the client sends
        ``{"type": "move", "move": "d3"}``, ``undo``, ``redo``, ``hint`` (``count``), ``abandon``, ``ping``."""
        await websocket.accept()
        session = sessions.get(gid)
        if session is None:
            await websocket.send_json({"type": "error", "message": f"no game {gid!r} on this server"})
            await websocket.close(code=4404)
            return
        owner = token_of(websocket) == session.owner
        queue = Outbox()
        session.watchers.add(queue)
        queue.put_nowait({"type": "state"})
        sender = asyncio.create_task(_pump(websocket, session, queue, owner))
        try:
            while True:
                try:
                    message = await websocket.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                raw: str | bytes = text if isinstance(text, str) else message.get("bytes") or b""
                try:
                    msg = parse_json(raw)
                except PliesError as e:
                    queue.put_nowait({"type": "error", "message": str(e)})
                else:
                    await _handle(session, msg, owner, queue)
                if queue.overflowed:  # a client that sends without reading: its socket ends, the game goes on
                    sender.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await sender
                    with contextlib.suppress(Exception):
                        await websocket.close(code=1008, reason=f"more than {OUTBOX} messages left unread")
                    break
        finally:
            session.watchers.discard(queue)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _handle(session: GameSession, msg: Any, owner: bool, queue: Outbox) -> None:
        kind = msg.get("type") if isinstance(msg, dict) else None
        try:
            if kind == "ping":
                queue.put_nowait({"type": "pong"})
                return
            if kind == "state":
                queue.put_nowait({"type": "state"})
                return
            if kind not in ("move", "undo", "redo", "hint", "abandon"):
                raise PliesError(f"unknown message type {kind!r}")
            if not owner:
                raise PliesError("this game belongs to another browser: you can watch it but not play in it")
            if kind == "move":
                move = msg.get("move")
                if not isinstance(move, str):
                    raise PliesError("a move message needs 'move', e.g. {\"type\": \"move\", \"move\": \"d3\"}")
                if not 1 <= len(move) <= MOVE_MAX_LENGTH:  # as POST .../moves: no move is longer
                    raise PliesError(f"a move is 1 to {MOVE_MAX_LENGTH} characters long, not {len(move)}")
                session.move(move)
            elif kind == "undo":
                session.undo()
            elif kind == "redo":
                session.redo()
            elif kind == "abandon":
                session.abandon()
            elif kind == "hint":
                count = msg.get("count", 3)
                count = count if isinstance(count, int) and 1 <= count <= 20 else 3
                queue.put_nowait({"type": "hint", **await hint(session, count)})
        except PliesError as e:
            queue.put_nowait({"type": "error", "message": str(e)})

    app.include_router(learn_router)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> FileResponse:
        response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
        if not request.cookies.get(COOKIE):  # the guard dropped any cookie this server did not issue
            response.set_cookie(COOKIE, tokens.issue(), httponly=True, samesite="strict", max_age=365 * 86400)
        return response

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    log.info("plies web: %s; history in %s", levels.engine_status()[1], history.path)
    return app


async def _wait(session: GameSession, timeout: float = 120.0) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(session.idle.wait(), timeout)


async def _pump(websocket: WebSocket, session: GameSession, queue: asyncio.Queue[dict[str, Any]], owner: bool) -> None:
    """Send queued messages; several pending state changes go out as one ``state`` message."""
    while True:
        msg = await queue.get()
        batch = [msg]
        while not queue.empty():
            batch.append(queue.get_nowait())
        sent_state = False
        for m in batch:
            if m.get("type") == "closed":  # the server dropped the game: say why, then end the socket
                await websocket.send_json({"type": "error", "message": m["message"]})
                await websocket.close(code=4404)
                return
            if m.get("type") == "state":
                if not sent_state:
                    sent_state = True
                    await websocket.send_json({"type": "state", "game": await session.answer(owner=owner)})
            elif m.get("type") == "eval" and sent_state:
                continue  # the state just sent already holds it
            else:
                await websocket.send_json(m)


OUTBOX = 512
"""Messages a WebSocket may leave unread; one more and the server closes it (1008)."""


class Outbox(asyncio.Queue[dict[str, Any]]):
    """The messages waiting to go out on one WebSocket, at most ``OUTBOX``: ``put_nowait`` never raises; a
    message that finds it full is dropped and ``overflowed`` set, and the socket is then closed with code 1008
    (the page reconnects and is sent the game afresh).  A flood costs the flooder its socket, never the game."""

    def __init__(self) -> None:
        super().__init__(maxsize=OUTBOX)
        self.overflowed = False

    def put_nowait(self, item: dict[str, Any]) -> None:
        if self.full():
            self.overflowed = True
            return
        super().put_nowait(item)


def _printable(text: str) -> str:
    """``text`` without lone surrogates (an error message may quote what a client sent)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _player_text(p: dict[str, Any]) -> str:
    if p["kind"] == "human":
        return str(p["name"])
    return f"computer {p.get('label', '')}"


def _iso(t: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


async def _quietly(job: Any) -> None:
    try:
        await job
    except Exception as e:  # warming up is an optimisation; the first engine game pays instead
        log.warning("engine warm-up failed: %s", e)


async def _store(history: History, session: GameSession, row: dict[str, Any]) -> None:
    """Commit a finished game to the history; when that fails (full disk, read-only file, lock) the players are
    told (``saved`` false, ``error`` the reason) and the log has one line, never the SQL or its parameters.  The
    games stored before are untouched: each is its own transaction."""
    try:
        await asyncio.to_thread(history.save, row)
    except (SQLAlchemyError, sqlite3.Error, OSError) as e:
        reason = storage_reason(e)
        log.error("could not save game %s in %s: %s", row.get("id"), history.path, reason)
        if _same_game(session, row):
            session.saved = False
            session.error = f"this game could not be saved in the history: {reason}"
    except Exception as e:  # a bug: the game goes on, the players are told, the log has the traceback
        log.exception("could not save game %s", row.get("id"))
        if _same_game(session, row):
            session.saved = False
            session.error = f"this game could not be saved in the history: {type(e).__name__}: {e}"
    else:
        if _same_game(session, row):
            session.saved = True


def _same_game(session: GameSession, row: dict[str, Any]) -> bool:
    """Whether ``session`` still shows the game ``row`` stored (an undo may have taken its end back meanwhile)."""
    return session.finished and session.game.names() == row["moves"]
