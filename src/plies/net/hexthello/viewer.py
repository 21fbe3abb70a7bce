"""The live viewer of a running HexThello server (the course's guiServer role), as a small FastAPI app.

``GET /`` serves the page (SVG hexagonal board with its holes, names, scores, last move, result, illegal-move
notices, the lobby, the games in progress and the running summary); ``/ws`` pushes every server event as JSON
and takes a person's requests: ``{"type": "play", "colour": "black"|"white", "name": ...}`` (take a seat
against the next waiting agent), ``{"type": "move", "row": r, "col": c}``, ``{"type": "pass"}``,
``{"type": "leave"}``.  ``GET /api/state`` and ``GET /api/games`` give the same data as plain JSON.

The viewer answers only its own Host names (loopback, the address it listens on, ``--allow-host`` names) and
takes WebSocket connections only from its own page (an ``Origin`` other than the ``Host`` is refused): a page
of another site cannot seat itself or watch through DNS rebinding.

Every viewer has a bounded queue: one that stops reading loses the oldest events (the next state it gets is
complete anyway) and is closed when a send stays stuck; messages from the page are small JSON objects
(``MAX_MESSAGE`` bytes, nesting ``MAX_DEPTH``), anything else gets an error notice, never a dropped server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from plies.net.hexthello.protocol import NULL_MOVE
from plies.net.hexthello.schema import Event
from plies.net.hexthello.server import HexServer, HumanSeat
from plies.web.guard import JsonHostError, allowed_hosts, too_deep
from plies.web.guard import same_origin as web_same_origin

if TYPE_CHECKING:
    import uvicorn

STATIC = Path(__file__).with_name("static")
QUEUE = 64
"""Events waiting for one viewer; older ones are dropped beyond it (a state event is always complete)."""
SEND_TIME = 10.0
"""Seconds one send to a viewer may take before that viewer is closed."""
MAX_MESSAGE = 4096
MAX_DEPTH = 8
GAMES_LISTED = 500


def parse_message(text: str | bytes, max_bytes: int = MAX_MESSAGE, max_depth: int = MAX_DEPTH) -> object:
    """A page's JSON message, or ValueError with the reason (too long, too deep, not JSON, NaN)."""
    if len(text) > max_bytes:
        raise ValueError(f"messages are at most {max_bytes} bytes")
    deep = too_deep(text if isinstance(text, str) else text.decode("utf-8", "replace"), max_depth)
    if deep:
        raise ValueError(deep)

    def no_constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, parse_constant=no_constant)
    except (RecursionError, UnicodeDecodeError) as e:
        raise ValueError(f"not a JSON message: {type(e).__name__}") from None
    except ValueError as e:
        raise ValueError(f"not a JSON message: {e}") from None


def same_origin(origin: str | None, host: str | None) -> bool:
    """No Origin (not a browser), or an Origin whose host:port is the Host the request was sent to."""
    return origin is None or web_same_origin(origin, host)


def create_app(server: HexServer, allow_hosts: Sequence[str] = (), listen: str | None = None) -> FastAPI:
    """The viewer app bound to ``server`` (which may run in this event loop or in another thread)."""
    app = FastAPI(title="plies HexThello viewer", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(listen, allow_hosts))
    app.add_middleware(JsonHostError)  # outermost: the Host check's refusal as JSON
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/state")
    async def state() -> JSONResponse:
        return JSONResponse(server.snapshot)

    @app.get("/api/games")
    async def games() -> JSONResponse:
        rows = await asyncio.to_thread(server.store.games, GAMES_LISTED)
        return JSONResponse(rows)

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        if not same_origin(socket.headers.get("origin"), socket.headers.get("host")):
            await socket.close(code=1008, reason="only the viewer's own page may connect")
            return
        await socket.accept()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=QUEUE)

        def put(event: Event) -> None:
            while True:
                try:
                    queue.put_nowait(event)
                    return
                except asyncio.QueueFull:  # a slow viewer: drop the oldest
                    with contextlib.suppress(asyncio.QueueEmpty):
                        queue.get_nowait()

        def listen(event: Event) -> None:
            loop.call_soon_threadsafe(put, event)

        server.listeners.append(listen)
        seat: HumanSeat | None = None

        async def pump() -> None:
            await asyncio.wait_for(socket.send_json(server.snapshot), SEND_TIME)
            while True:
                await asyncio.wait_for(socket.send_json(await queue.get()), SEND_TIME)

        sender = asyncio.create_task(pump())
        receiver = asyncio.ensure_future(socket.receive())
        try:
            while True:
                done, _ = await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
                if sender in done:  # stuck or gone: this viewer is closed
                    break
                message = receiver.result()
                if message["type"] == "websocket.disconnect":
                    break
                receiver = asyncio.ensure_future(socket.receive())
                text = message.get("text")
                raw: str | bytes = text if isinstance(text, str) else message.get("bytes") or b""
                try:
                    msg = parse_message(raw)
                except ValueError as e:
                    listen({"type": "notice", "text": str(e)})
                    continue
                seat = _handle(server, msg, seat, listen)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            receiver.cancel()
            with contextlib.suppress(ValueError):
                server.listeners.remove(listen)
            if seat is not None:
                server.leave_human(seat)
            with contextlib.suppress(Exception):
                await socket.close()

    return app


def _handle(server: HexServer, msg: object, seat: HumanSeat | None,
            listen: Callable[[Event], None]) -> HumanSeat | None:
    """One request from the page (any JSON value); returns the viewer's seat."""
    fields = msg if isinstance(msg, dict) else {}
    kind = fields.get("type")
    if kind == "play":
        if seat is not None and seat.alive:
            listen({"type": "notice", "text": "you already have a seat (Leave first)"})
            return seat
        colour = 1 if fields.get("colour") == "white" else 0
        name = fields.get("name")
        seat = server.request_human_game(colour, name if isinstance(name, str) else "human", listen)
    elif kind in ("move", "pass") and seat is not None and seat.alive:
        if kind == "move":
            row, col = fields.get("row"), fields.get("col")
            if not (type(row) is int and type(col) is int and -128 <= row < 128 and -128 <= col < 128):
                listen({"type": "notice", "text": "a move needs whole numbers row and col"})
                return seat
        else:
            row, col = NULL_MOVE, 0
        server.offer_human_move(seat, row, col)
    elif kind == "leave" and seat is not None:
        server.leave_human(seat)
        seat = None
    else:
        listen({"type": "notice", "text": "take a seat first (Play as Black / White)" if kind in ("move", "pass")
                else f"unknown request {str(kind)[:40]!r}"})
    return seat


async def serve_viewer(server: HexServer, host: str, port: int, allow_hosts: Sequence[str] = ()) -> uvicorn.Server:
    """Run the viewer with uvicorn in the current event loop; returns the uvicorn server (``should_exit``).
    WebSocket frames are limited to ``MAX_MESSAGE`` bytes."""
    import uvicorn

    class ViewerServer(uvicorn.Server):
        """uvicorn without signal handlers of its own: the HexThello server owns Ctrl-C and SIGTERM and stops
        the viewer with it (``should_exit``)."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    config = uvicorn.Config(create_app(server, allow_hosts, host), host=host, port=port, log_level="warning",
                            lifespan="off",
                            ws_max_size=MAX_MESSAGE, ws_max_queue=8)
    return ViewerServer(config)


__all__ = ["create_app", "parse_message", "same_origin", "serve_viewer"]
