"""The live viewer of a running HexThello server (the course's guiServer role), as a small FastAPI app.

``GET /`` serves the page (SVG hexagonal board, names, scores, last move, result, illegal-move notices, the
lobby and the running summary); ``/ws`` pushes every server event as JSON and takes a person's requests:
``{"type": "play", "colour": "black"|"white", "name": ...}`` (take a seat against the next waiting agent),
``{"type": "move", "row": r, "col": c}``, ``{"type": "pass"}``, ``{"type": "leave"}``.
``GET /api/state`` and ``GET /api/games`` give the same data as plain JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from plies.net.hexthello.protocol import NULL_MOVE
from plies.net.hexthello.server import HexServer, HumanSeat

STATIC = Path(__file__).with_name("static")


def create_app(server: HexServer) -> FastAPI:
    """The viewer app bound to ``server`` (which may run in this event loop or in another thread)."""
    app = FastAPI(title="plies HexThello viewer", docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/state")
    async def state() -> JSONResponse:
        return JSONResponse(server.snapshot)

    @app.get("/api/games")
    async def games() -> JSONResponse:
        rows = await asyncio.to_thread(server.store.games)
        return JSONResponse(rows)

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        await socket.accept()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def listen(event: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, event)

        server.listeners.append(listen)
        seat: HumanSeat | None = None

        async def pump() -> None:
            await socket.send_json(server.snapshot)
            while True:
                await socket.send_json(await queue.get())

        sender = asyncio.create_task(pump())
        try:
            while True:
                msg = await socket.receive_json()
                kind = msg.get("type") if isinstance(msg, dict) else None
                if kind == "play":
                    colour = 1 if msg.get("colour") == "white" else 0
                    seat = server.request_human_game(colour, str(msg.get("name") or "human"))
                    listen({"type": "notice", "text": f"you play {'white' if colour else 'black'}: waiting for "
                            "an agent in the lobby" if not server.lobby else
                            f"you play {'white' if colour else 'black'}"})
                elif kind in ("move", "pass") and seat is not None:
                    try:
                        row, col = (NULL_MOVE, 0) if kind == "pass" else (int(msg["row"]), int(msg["col"]))
                    except (KeyError, TypeError, ValueError):
                        listen({"type": "notice", "text": "a move needs whole numbers row and col"})
                        continue
                    server.offer_human_move(seat, row, col)
                elif kind == "leave" and seat is not None:
                    server.leave_human(seat)
                    seat = None
                else:
                    listen({"type": "notice", "text": f"unknown request {kind!r}" if seat or kind != "move"
                            else "take a seat first (Play as Black / White)"})
        except (WebSocketDisconnect, RuntimeError, ValueError):
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(ValueError):
                server.listeners.remove(listen)
            if seat is not None:
                server.leave_human(seat)

    return app


async def serve_viewer(server: HexServer, host: str, port: int) -> Any:
    """Run the viewer with uvicorn in the current event loop; returns the uvicorn server (``should_exit``)."""
    import uvicorn

    config = uvicorn.Config(create_app(server), host=host, port=port, log_level="warning", lifespan="off")
    web = uvicorn.Server(config)
    web.install_signal_handlers = lambda: None  # type: ignore[method-assign]
    return web


__all__ = ["create_app", "serve_viewer"]
