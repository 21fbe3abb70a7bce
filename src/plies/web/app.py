"""The FastAPI application: static page, JSON API (OpenAPI at /docs) and a WebSocket per game.

Every browser gets a token issued by this server (cookie ``plies_token``; API clients may send
``X-Plies-Token``); a game remembers the token that created it and only that token may move in it.  Anyone
holding a game's id can watch.  ``plies.web.guard`` checks every request first (Host, Origin, tokens, body
size and depth) and limits the live games of each client.  The routes, one module per resource, are in
``plies.web.routes``.  Errors come back as ``{"error": "..."}`` with a 4xx status (503 when the server is full)
and never stop the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Sequence
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from plies import i18n
from plies.analysis import levels
from plies.game import PliesError
from plies.teach import web as learn
from plies.teach.schema import Messages
from plies.web.analyst import shared_analyst
from plies.web.guard import (
    COOKIE,
    LOOPBACK,
    PER_ADDRESS,
    PER_TOKEN,
    Busy,
    ClientSessions,
    Guard,
    JsonHostError,
    Tokens,
    allowed_hosts,
)
from plies.web.history import History
from plies.web.info import info
from plies.web.library import Library
from plies.web.routes import Route, analysis, games, history, reviews, set_token
from plies.web.routes import library as library_routes
from plies.web.sessions import NotSeated
from plies.web.thinker import Thinker
from plies.web.views import AppInfo
from plies.web.workers import Workers

log = logging.getLogger("plies.web")
STATIC = Path(str(resources.files("plies.web") / "static"))


def create_app(db: str | Path | None = None, workers: int = 4, processes: int = 0, warm: bool = False,
               allow_hosts: Sequence[str] = (), listen: str | None = None, per_token: int = PER_TOKEN,
               per_address: int = PER_ADDRESS, library_path: str | Path | None = None) -> FastAPI:
    """The app: ``db`` is the SQLite file for finished games (default under the user's data dir); searches
    run on ``workers`` threads, and on ``processes`` worker processes when that is above 0 (more cores);
    ``warm`` imports the engine and its weights in the background at start-up.  The app answers the Host
    names ``localhost``, ``127.0.0.1``, ``::1``, ``listen`` (the address served) and ``allow_hosts`` (``*``:
    any); each client keeps at most ``per_token`` live games per browser and ``per_address`` per address.
    ``library_path``: a WTHOR or GGF file, or a folder of them, indexed in the background for the Library screen."""
    library = Library(library_path) if library_path is not None else None  # LibraryError: a path that cannot be read
    if library is not None:
        library.start()
    store = History(db)
    lan_hosts = [h for h in allowed_hosts(listen, allow_hosts) if h not in LOOPBACK and h != "*"]
    tokens = Tokens()
    pool = Workers(workers, processes)
    background: set[asyncio.Task[None]] = set()
    sessions = ClientSessions(pool, history.keeper(store, background), per_token=per_token, per_address=per_address)
    thinker = Thinker()  # thinks and solves on demand, one per game

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.warm_up()
        warming = asyncio.get_running_loop().create_task(_quietly(pool.run(levels.warm_engine))) if warm else None
        yield
        if warming is not None:
            warming.cancel()  # never wait for it at shut-down
        sessions.close()
        thinker.shutdown()
        if background:
            await asyncio.gather(*background, return_exceptions=True)
        pool.shutdown()
        store.close()
        if library is not None:
            library.close()

    app = FastAPI(
        title="plies web",
        version="1",
        description="Play Othello and tic-tac-toe in the browser, against the computer or a friend. "
        "Moves go over the WebSocket /ws/games/{id} or the REST calls below; a game can be moved in only "
        "with the token of the browser that created it (cookie plies_token or header X-Plies-Token).",
        lifespan=lifespan,
    )
    app.router.route_class = Route
    app.state.sessions, app.state.history, app.state.pool, app.state.tokens = sessions, store, pool, tokens
    app.state.analyst = shared_analyst()
    app.state.library = library
    app.state.thinker = thinker
    app.add_middleware(Language)
    app.add_middleware(Guard, tokens=tokens)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(listen, allow_hosts))
    app.add_middleware(JsonHostError)  # outermost: the Host check's refusal as JSON

    @app.exception_handler(Busy)
    async def _busy(request: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "60"})

    @app.exception_handler(NotSeated)
    async def _not_seated(request: Request, exc: NotSeated) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

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

    @app.get("/api/info", summary="What the start screen offers: games, levels, heuristics, engine")
    def get_info() -> AppInfo:  # the teaching pages are mounted at /learn; invites name the LAN hosts
        return {**info(), "learn": True, "hosts": lan_hosts, "library": library is not None}

    @app.get("/api/messages", summary="The page's words in a language: {English: translation}")
    def get_messages(lang: str = i18n.DEFAULT) -> Messages:  # one catalog: the terminal's and Learn's
        return learn.messages(lang)

    for router in (games.router, analysis.router, reviews.router, history.router, library_routes.router,
                   learn.router):
        app.include_router(router)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> FileResponse:
        response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
        if not request.cookies.get(COOKIE):  # the guard dropped any cookie this server did not issue
            set_token(response, tokens.issue())
        return response

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    log.info("plies web: %s; history in %s", levels.engine_status()[1], store.path)
    return app


class Language:
    """Answers a request in the language it asks for: the header ``X-Plies-Lang`` or the query's ``lang``
    (``el``, ``en``; the page sends its own, a WebSocket's address carries it), else English.  The refusals and
    reasons the server words (``_()``) are then in that language, for that request only (``i18n.using``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lang = None
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or [])
            lang = i18n.normalize(headers.get(b"x-plies-lang", b"").decode("latin-1"))
            if lang is None:
                query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
                lang = i18n.normalize(query.get("lang"))
        with i18n.using(lang or i18n.DEFAULT):
            await self.app(scope, receive, send)


def _printable(text: str) -> str:
    """``text`` without lone surrogates (an error message may quote what a client sent)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


async def _quietly(job: Awaitable[object]) -> None:
    try:
        await job
    except Exception as e:  # warming up is an optimisation; the first engine game pays instead
        log.warning("engine warm-up failed: %s", e)
