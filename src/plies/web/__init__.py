"""The browser app (``plies web``): play Othello and tic-tac-toe against the computer or a friend.

``create_app(db)`` builds the FastAPI application: a static page (``static/``), a small JSON API documented at
``/docs``, a WebSocket per game for moves and live updates, and a SQLite history of finished games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.extras import require

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(db: Any = None, workers: int = 4, processes: int = 0, warm: bool = False, **limits: Any) -> FastAPI:
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
