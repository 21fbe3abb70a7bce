"""The library resource (``plies web --games PATH``): the games of a WTHOR or GGF file (or a folder of them)
listed a page at a time, searched by player, opening and position reached, and opened for replay and review; and
a WTHOR file sent from the start screen, its games listed and the one picked given back as GGF."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from plies.formats.model import OthelloGame
from plies.game import PASS, State
from plies.games.record import Game
from plies.web import boards, views
from plies.web.files import transcript_file
from plies.web.library import MAX_LIMIT, Library
from plies.web.routes import Route
from plies.web.routes.history import frames
from plies.web.uploads import MAX_WTHOR, list_wthor, wthor_game
from plies.web.views import FileGames, LibraryGame, StoredGame, WthorGame

router = APIRouter(prefix="/api", tags=["library"], route_class=Route)


def library_of(request: Request) -> Library:
    """The server's library (404 when it was started without ``--games``)."""
    library: Library | None = getattr(request.app.state, "library", None)
    if library is None:
        raise HTTPException(404, "this server has no game library (start it with plies web --games PATH)")
    return library


@router.get("/library", summary="The library: games indexed so far, games skipped, indexing progress")
async def get_library(request: Request) -> dict[str, object]:
    return library_of(request).status()


@router.get("/library/games", summary="The library's games, a page at a time: all, or those of a player, an "
            "opening (moves such as f5d6c3) or a position reached (64 squares X/O/-, then the side to move)")
async def get_library_games(request: Request, player: str = Query("", max_length=100),
                            opening: str = Query("", max_length=200), position: str = Query("", max_length=100),
                            offset: int = Query(0, ge=0, le=10**9),
                            limit: int = Query(50, ge=1, le=MAX_LIMIT)) -> dict[str, object]:
    library = library_of(request)

    def answer() -> dict[str, object]:
        found = library.search(player, opening, position)
        return {"total": len(found.games), "offset": offset, "games": library.page(found, offset, limit),
                **library.status()}

    return await asyncio.to_thread(answer)


def library_record(game: OthelloGame, n: int, where: str) -> LibraryGame:
    """Game ``n`` of the library in the shape of a stored game of the history (``/api/history/{id}``), with the
    position (board and side) of every frame."""
    names = game.move_names()
    played: Game[State] = Game(game.start, list(game.moves))
    score = game.score()
    if score is None:
        result = "result not given"
    elif score == 0:
        result = "draw"
    else:
        result = f"{'Black' if score > 0 else 'White'} wins by {abs(score):g}"
    black, white = game.black.strip() or "Black", game.white.strip() or "White"
    record: StoredGame = {
        "id": f"library-{n}", "game": "othello", "start": game.start.to_text(), "players": [black, white],
        "moves": names, "values": [], "winner": None if not score else 0 if score > 0 else 1, "score": score or 0.0,
        "result": result, "final": played.state.to_text(), "started_at": game.date, "finished_at": game.date,
    }
    replay = frames(record)
    for frame, state in zip(replay, played.states, strict=True):
        frame["position"] = state.to_text()
    from plies.formats.ggf import write_ggf

    return {**record, "library": n, "source": where, "frames": replay, "openings": views.named(played.states),
            "file": transcript_file(played), "ggf": write_ggf(game) + "\n", "layout": boards.layout(game.start),
            "side_names": list(game.start.player_names), "passes": sum(1 for m in game.moves if m == PASS)}


@router.get("/library/games/{n}", summary="One game of the library with every position, for replay")
async def get_library_game(n: int, request: Request) -> LibraryGame:
    library = library_of(request)
    game, where = await asyncio.to_thread(library.open, n)
    return library_record(game, n, where)


class WthorIn(BaseModel):
    """A .wtb file's bytes (base64), a WTHOR.JOU's for the players' names, and the game wanted (none: the list)."""

    data: str = Field(..., min_length=1, max_length=MAX_WTHOR * 4 // 3 + 4)
    players: str | None = Field(None, max_length=MAX_WTHOR * 4 // 3 + 4)
    name: str = Field("the file", max_length=200)
    index: int | None = Field(None, ge=1, le=10**6)


@router.post("/files/wthor", summary="A WTHOR file's games (base64 bytes), or the one picked as a GGF game")
async def post_wthor(body: WthorIn) -> FileGames | WthorGame:
    if body.index is None:
        return await asyncio.to_thread(list_wthor, body.data, body.players, body.name)
    ggf = await asyncio.to_thread(wthor_game, body.data, body.index, body.players, body.name)
    return {"format": "wthor", "index": body.index, "ggf": ggf}
