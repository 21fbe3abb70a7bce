"""Waiting in the web tests: poll until a condition holds, bounded by a deadline in seconds (or for a WebSocket's
message). The bound guards against a hang and is never a speed check: on a busy host everything is slow, so it is
generous."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.testclient import WebSocketTestSession

T = TypeVar("T")

LIMIT = 120.0
"""Seconds a test waits for something the server does in the background before it fails."""


def until(fetch: Callable[[], T], done: Callable[[T], bool], what: str, limit: float = LIMIT,
          pause: float = 0.02) -> T:
    """``fetch()`` again and again until ``done`` holds for its answer, which is returned; AssertionError naming
    ``what`` (and the last answer) once ``limit`` seconds have passed."""
    deadline = time.monotonic() + limit
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what} (last: {value!r})")
        time.sleep(pause)


def received(ws: WebSocketTestSession, pred: Callable[[dict[str, Any]], bool], limit: int = 200) -> dict[str, Any]:
    """The first of the next ``limit`` messages on ``ws`` for which ``pred`` holds; AssertionError if none does."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("expected message never came")
