"""The browser app's JSON API, one router per resource: ``games`` (a live game, its moves and its WebSocket),
``analysis`` (positions valued, hints), ``reviews`` and ``history`` (finished games); the Learn page has its own
(``plies.teach.web``).  The helpers here find a request's token and game in the app's state (``app.state``:
``sessions``, ``tokens``, ``pool``, ``analyst``, ``history``).  Every route is a ``Route``."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from fastapi import HTTPException, Request, WebSocket
from fastapi.datastructures import DefaultPlaceholder
from fastapi.routing import APIRoute
from starlette.responses import Response

from plies.web.guard import COOKIE, HEADER
from plies.web.sessions import NOT_SEATED, GameSession

COOKIE_DAYS = 365


class Route(APIRoute):
    """A JSON route whose answer goes out as the handler built it: its return annotation (a TypedDict of
    ``plies.web.views``, which pydantic does not take on Python 3.11) types the code, and FastAPI sends the dict as
    a plain JSON object, unchecked.  A handler that returns a ``Response`` keeps FastAPI's handling."""

    def __init__(self, path: str, endpoint: Callable[..., object], **kwargs: Any) -> None:
        returns = inspect.signature(endpoint, eval_str=True).return_annotation
        if isinstance(kwargs.get("response_model"), DefaultPlaceholder) and not (
                isinstance(returns, type) and issubclass(returns, Response)):
            kwargs["response_model"] = dict[str, object]
        super().__init__(path, endpoint, **kwargs)


def token_of(request: Request | WebSocket) -> str | None:
    """The browser's token: the ``X-Plies-Token`` header, the cookie, or ``?token=`` (the guard checked it)."""
    return request.headers.get(HEADER) or request.cookies.get(COOKIE) or request.query_params.get("token")


def set_token(response: Response, token: str) -> None:
    """Give the browser its token as the cookie the app reads back."""
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=COOKIE_DAYS * 86400)


def found(request: Request | WebSocket, gid: str) -> GameSession | None:
    """The live game ``gid``, None when this server has none."""
    session: GameSession | None = request.app.state.sessions.get(gid)
    return session


def live(request: Request, gid: str) -> GameSession:
    """The live game ``gid`` (404 when there is none)."""
    session = found(request, gid)
    if session is None:
        raise HTTPException(404, f"no game {gid!r} on this server (finished games are under /api/history)")
    return session


def owned(request: Request, gid: str) -> GameSession:
    """The live game ``gid`` when this browser created it (403 for anyone else: they may watch, not play)."""
    session = live(request, gid)
    if token_of(request) != session.owner:
        raise HTTPException(403, NOT_YOURS)
    return session


def seated(request: Request, gid: str) -> GameSession:
    """The live game ``gid`` when this browser plays a side of it (403 for a watcher)."""
    session = live(request, gid)
    if not session.seats_of(token_of(request)):
        raise HTTPException(403, NOT_YOURS)
    return session


NOT_YOURS = NOT_SEATED
