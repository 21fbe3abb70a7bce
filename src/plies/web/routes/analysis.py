"""The analysis resource: every legal move of a position (of a live game, or any) valued, best first, and a live
game's hints."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request

from plies.analysis import levels
from plies.analysis.position import hints
from plies.game import PliesError
from plies.games.record import Game
from plies.web.analyst import URGENT, Analyst
from plies.web.routes import live, seated, token_of
from plies.web.schemas import AnalysisIn, HintIn
from plies.web.sessions import GameSession
from plies.web.setup import read_setup
from plies.web.workers import Workers

router = APIRouter(prefix="/api", tags=["analysis"])


async def hint(pool: Workers, session: GameSession, count: int) -> dict[str, Any]:
    """The best ``count`` moves of the game's position (searched off the event loop) and the ply they are for
    (None when the game moved on meanwhile); none during a game between two browsers."""
    if session.with_friend and not session.game.over:
        raise PliesError("no hints during a game between two browsers (they come back once it is over)")
    state = session.state
    data = await pool.run(hints, state, count, levels.engine_applies(state), heavy=True)
    return {**data, "ply": len(session.game.moves) if session.state is state else None}


@router.post("/games/{gid}/hint", summary="The best moves of the side to move, with values")
async def post_hint(gid: str, request: Request, body: HintIn | None = None) -> dict[str, Any]:
    session = live(request, gid)
    if token_of(request) != session.owner:
        session = seated(request, gid)  # a friend's browser asks for its own game
    return await hint(request.app.state.pool, session, body.count if body is not None else 3)


@router.get("/games/{gid}/analysis", summary="Every legal move of a position of the game, valued, best first")
async def get_analysis(gid: str, request: Request, ply: int | None = None,
                       level: int | None = Query(None, ge=1, le=levels.MAX_LEVEL)) -> dict[str, Any]:
    session = live(request, gid)
    k = len(session.game.moves) if ply is None else ply
    if not 0 <= k < len(session.game.states):
        raise PliesError(f"no position {k}: the game has {len(session.game.moves)} moves")
    data = await session.analyst.analyse(session.game.states[k], level or session.analysis_level, URGENT)
    return {**data, "ply": k, "version": session.version}


@router.post("/analysis", summary="Every legal move of any position, valued, best first")
async def post_analysis(body: AnalysisIn, request: Request) -> dict[str, Any]:
    start, moves = read_setup(body.game, body.size, body.position, body.moves)
    analyst: Analyst = request.app.state.analyst
    return {**await analyst.analyse(Game(start, moves).state, body.level, URGENT)}
