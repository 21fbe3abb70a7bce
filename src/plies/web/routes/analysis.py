"""The analysis resource: every legal move of a position (of a live game, or any) valued, best first, a live
game's hints, the opening book's moves of a position, and a think or an exact solve of a live game's position on
demand (``plies.web.thinker``), polled while it runs and stopped at will."""

from __future__ import annotations

import asyncio
import contextlib
from typing import cast

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from plies.analysis import levels
from plies.analysis.book import book_moves
from plies.analysis.position import Analysis, hints
from plies.game import PliesError, State
from plies.games import type_of
from plies.games.othello import OthelloState
from plies.games.record import Game
from plies.web import thinker
from plies.web.analyst import URGENT, Analyst
from plies.web.routes import Route, live, seated, token_of
from plies.web.schemas import AnalysisIn, HintIn
from plies.web.sessions import GameSession
from plies.web.setup import read_setup
from plies.web.views import AnalysisView, BookView, HintView
from plies.web.workers import Workers

router = APIRouter(prefix="/api", tags=["analysis"], route_class=Route)


async def hint(pool: Workers, session: GameSession, count: int) -> HintView:
    """The best ``count`` moves of the game's position (searched off the event loop) and the ply they are for
    (None when the game moved on meanwhile); none during a game between two browsers."""
    if session.with_friend and not session.game.over:
        raise PliesError("no hints during a game between two browsers (they come back once it is over)")
    state = session.state
    data = await pool.run(hints, state, count, levels.engine_applies(state), heavy=True)
    return {**data, "ply": len(session.game.moves) if session.state is state else None}


@router.post("/games/{gid}/hint", summary="The best moves of the side to move, with values")
async def post_hint(gid: str, request: Request, body: HintIn | None = None) -> HintView:
    session = live(request, gid)
    if token_of(request) != session.owner:
        session = seated(request, gid)  # a friend's browser asks for its own game
    return await hint(request.app.state.pool, session, body.count if body is not None else 3)


@router.get("/games/{gid}/analysis", summary="Every legal move of a position of the game, valued, best first")
async def get_analysis(gid: str, request: Request, ply: int | None = None,
                       level: int | None = Query(None, ge=1, le=levels.MAX_LEVEL)) -> AnalysisView:
    session = live(request, gid)
    k, state = _position(session, ply)
    data = await session.analyst.analyse(state, level or session.analysis_level, URGENT)
    return {**data, "ply": k, "version": session.version}


@router.post("/analysis", summary="Every legal move of any position, valued, best first")
async def post_analysis(body: AnalysisIn, request: Request) -> Analysis:
    start, moves = read_setup(body.game, body.size, body.position, body.moves)
    analyst: Analyst = request.app.state.analyst
    return {**await analyst.analyse(Game(start, moves).state, body.level, URGENT)}


# --- the opening book, thinking on demand and the exact solver (8x8 Othello) -------------------------------------


class ThinkIn(BaseModel):
    """Think about the position after ``ply`` moves (default: the latest) for ``seconds``, showing ``lines``
    best moves."""

    ply: int | None = Field(None, ge=0, le=1000)
    seconds: float = Field(5.0, ge=thinker.MIN_SECONDS, le=thinker.MAX_SECONDS,
                           description=f"seconds to think ({thinker.MIN_SECONDS:g}-{thinker.MAX_SECONDS:g})")
    lines: int = Field(1, ge=1, le=thinker.MAX_LINES, description=f"best moves shown (1-{thinker.MAX_LINES})")


class SolveIn(BaseModel):
    """Solve the position after ``ply`` moves exactly (or for win/draw/loss only, ``wld``)."""

    ply: int | None = Field(None, ge=0, le=1000)
    wld: bool = Field(False, description="win/draw/loss only (cheaper: from more empties)")


def _position(session: GameSession, ply: int | None) -> tuple[int, State]:
    """(ply, position) of a game: the latest without ``ply``; PliesError for a position the game has not."""
    k = len(session.game.moves) if ply is None else ply
    if not 0 <= k < len(session.game.states):
        raise PliesError(f"no position {k}: the game has {len(session.game.moves)} moves")
    return k, session.game.states[k]


def _analysing(request: Request, gid: str) -> GameSession:
    """The live game ``gid`` when this browser may analyse it: it created it or plays in it (403 for a watcher),
    never while two browsers play it."""
    session = live(request, gid)
    if token_of(request) != session.owner:
        session = seated(request, gid)
    if session.with_friend and not session.game.over:
        raise PliesError("no analysis during a game between two browsers (it comes back once the game is over)")
    return session


def _searchable(state: State) -> OthelloState:
    """``state`` when the engine can think about it: a position of the fast engine's game (its type says so: 8x8
    Othello), not over, the engine built here."""
    t = type_of(state)
    if t is None or t.engine(state) != "engine":
        raise PliesError("thinking and solving are for 8x8 Othello, the fast engine's game")
    if state.is_over():
        raise PliesError("the game is over in this position: nothing to think about")
    if not levels.engine_status()[0]:
        raise PliesError(f"the fast engine is not available here: {levels.engine_status()[1]}")
    return cast(OthelloState, state)


def _thinker(request: Request) -> thinker.Thinker:
    t: thinker.Thinker = request.app.state.thinker
    return t


@router.get("/games/{gid}/book", summary="The opening book's moves of a position of the game, with their values")
async def get_book(gid: str, request: Request, ply: int | None = Query(None, ge=0, le=1000)) -> BookView:
    session = live(request, gid)
    k, state = _position(session, ply)
    return {"ply": k, "unit": "discs", "to_move": None if state.is_over() else state.to_move,
            "moves": book_moves(state)}


@router.post("/book", summary="The opening book's moves of any position (8x8 Othello), with their values")
async def post_book(body: AnalysisIn) -> BookView:
    start, moves = read_setup(body.game, body.size, body.position, body.moves)
    state = Game(start, moves).state
    return {"unit": "discs", "to_move": None if state.is_over() else state.to_move, "moves": book_moves(state)}


@router.post("/games/{gid}/think", summary="Think about a position for some seconds (1-5 lines); poll GET .../job")
async def post_think(gid: str, body: ThinkIn, request: Request) -> thinker.JobView:
    session = _analysing(request, gid)
    k, state = _position(session, body.ply)
    job = thinker.Job(gid, k, _searchable(state), "think", body.seconds, body.lines)
    return (await _thinker(request).start(job)).view()


@router.post("/games/{gid}/solve", summary="Solve a position exactly (or win/draw/loss); poll GET .../job")
async def post_solve(gid: str, body: SolveIn, request: Request) -> thinker.JobView:
    session = _analysing(request, gid)
    k, state = _position(session, body.ply)
    othello = _searchable(state)
    bound = thinker.WLD_MAX_EMPTIES if body.wld else thinker.SOLVE_MAX_EMPTIES
    if othello.empties() > bound:
        what = "a win/draw/loss solve" if body.wld else "an exact solve"
        raise PliesError(f"this position has {othello.empties()} empty squares: {what} takes on at most {bound} "
                         "(more could run for many minutes); think about it instead, or solve a later position")
    job = thinker.Job(gid, k, othello, "solve", thinker.SOLVE_LIMIT, 1, wld=body.wld)
    return (await _thinker(request).start(job)).view()


def _job(request: Request, gid: str, stop: bool = False) -> thinker.Job:
    """The think or solve of game ``gid`` (told to stop with ``stop``); 404 when it has none."""
    _analysing(request, gid)
    job = _thinker(request).stop(gid) if stop else _thinker(request).get(gid)
    if job is None:
        raise HTTPException(404, f"no think or solve of game {gid!r}: start one with POST .../think or .../solve")
    return job


@router.get("/games/{gid}/job", summary="The game's think or solve: its live line while it runs, then its answer")
async def get_job(gid: str, request: Request) -> thinker.JobView:
    return _job(request, gid).view()


@router.post("/games/{gid}/job/stop", summary="Stop the game's think or solve (it keeps what it found)")
async def post_stop(gid: str, request: Request) -> thinker.JobView:
    job = _job(request, gid, stop=True)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job.future)), 5.0)
    return job.view()
