"""The browser app's JSON API, one router per resource: ``games`` (a live game, its moves and its WebSocket),
``analysis`` (positions valued, hints), ``reviews`` and ``history`` (finished games); the Learn page has its own
(``plies.teach.web``).  The helpers here find a request's token and game in the app's state (``app.state``:
``sessions``, ``tokens``, ``pool``, ``analyst``, ``history``)."""

from __future__ import annotations

from fastapi import HTTPException, Request, WebSocket
from starlette.responses import Response

from plies.web.guard import COOKIE, HEADER
from plies.web.sessions import NOT_SEATED, GameSession

COOKIE_DAYS = 365


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
