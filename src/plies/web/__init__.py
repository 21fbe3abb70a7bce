"""The browser app (``plies web``): play Othello and tic-tac-toe against the computer or a friend.

``create_app(db)`` builds the FastAPI application: a static page (``static/``), a small JSON API documented at
``/docs``, a WebSocket per game for moves and live updates, and a SQLite history of finished games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, Unpack

from plies.extras import require

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from fastapi import FastAPI


class Limits(TypedDict, total=False):
    """``create_app``'s keyword settings (their defaults are ``plies.web.app.create_app``'s)."""

    allow_hosts: Sequence[str]
    listen: str | None
    per_token: int
    per_address: int
    library_path: str | Path | None


def create_app(db: str | Path | None = None, workers: int = 4, processes: int = 0, warm: bool = False,
               **limits: Unpack[Limits]) -> FastAPI:
    """The web application; ``db`` is the SQLite file of the game history (default: user data dir);
    ``processes`` > 0 runs the textbook searches in that many worker processes (uses more cores); ``warm``
    imports the engine and its weights in the background at start-up.  ``limits``: ``allow_hosts`` (Host
    names answered besides loopback), ``listen`` (the address served), ``per_token``/``per_address`` (live
    games per browser / per client address); see ``plies.web.guard``.  Needs the ``web`` extra
    (MissingExtraError without it)."""
    require("web", "the browser app")
    from plies.web.app import create_app as _create

    return _create(db, workers, processes, warm, **limits)


__all__ = ["create_app"]
