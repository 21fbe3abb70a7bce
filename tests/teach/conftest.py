"""Fixtures for the teaching views: a minimal app mounting the Learn router, and a live server for Chromium."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from fastapi import FastAPI


def make_app() -> FastAPI:
    from plies.teach.web import router

    app = FastAPI()
    app.include_router(router)
    return app


@pytest.fixture(scope="session")
def learn_app() -> FastAPI:
    return make_app()


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The Learn router served by uvicorn on a free loopback port, in a thread."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(make_app(), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # a bound against hanging: a busy host starts slowly
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the Learn page's test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)
