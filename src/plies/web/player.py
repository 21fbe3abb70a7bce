"""A player's routes of the JSON API: set-up that keeps a transcript's moves, clocks, positions of the move list,
going back and playing on, analysis in discs, and the review of a game.

``router`` is included by ``plies.web.app``; it reads the app's live games and history from ``app.state``.

| call | what it does |
|---|---|
| ``POST /api/games/new`` | start a game (``StartGame``): a transcript's moves kept, a board, a clock |
| ``GET /api/games/{id}/positions/{ply}`` | the position after ``ply`` moves (cells, legal moves, last move) |
| ``POST /api/games/{id}/branch`` | ``{"ply", "move"}``: play on from an earlier position (the rest is replaced) |
| ``POST /api/games/{id}/settings`` | ``{"analysis_level"}`` |
| ``GET /api/games/{id}/analysis?ply=&level=`` | every legal move valued (discs), best first |
| ``POST /api/analysis`` | the same for any position |
| ``POST /api/reviews``, ``GET /api/reviews/{id}`` | review a game; progress, then the review |
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse

from plies.analysis.levels import MAX_LEVEL
from plies.analysis.position import Analysis, clamp_level
from plies.analysis.review import Review, fill_passes, review_game, to_analyse
from plies.game import PASS, PliesError, State
from plies.games import parse_position, type_of
from plies.games.record import Game
from plies.web.analyst import REVIEW, URGENT, Analyst, shared_analyst
from plies.web.schemas import AnalysisIn, BranchIn, PlayerSpec, ReviewIn, SettingsIn, StartGame
from plies.web.sessions import Clock, GameSession, Sessions, Side, make_computer
from plies.web.setup import read_setup, start_for

log = logging.getLogger("plies.web")

COOKIE = "plies_token"
HEADER = "x-plies-token"
MAX_REVIEWS = 200          # kept on the server (the oldest finished ones go first)
REVIEWS_PER_TOKEN = 2      # running at once for one browser: a third stops its oldest
REVIEWS_PER_ADDRESS = 8    # and for one client address, whatever its tokens

router = APIRouter(prefix="/api", tags=["player"])


def _token(request: Request) -> str | None:
    return request.headers.get(HEADER) or request.cookies.get(COOKIE) or request.query_params.get("token")


def _sessions(request: Request) -> Sessions:
    return request.app.state.sessions


def _found(request: Request, gid: str) -> GameSession:
    session = _sessions(request).get(gid)
    if session is None:
        raise HTTPException(404, f"no game {gid!r} on this server (finished games are under /api/history)")
    return session


def _owned(request: Request, gid: str) -> GameSession:
    session = _found(request, gid)
    if _token(request) != session.owner:
        raise HTTPException(403, "this game belongs to another browser: you can watch it but not play in it")
    return session


def _side(state: State, spec: PlayerSpec) -> Side:
    if spec.kind == "human":
        return Side("human", name=spec.name or "")
    return Side("computer", make_computer(state, spec.level, spec.algorithm, spec.heuristic), name=spec.name or "")


def start_game(sessions: Sessions, token: str, spec: StartGame) -> GameSession:
    """A new game from ``spec`` for the browser with ``token``: a pasted transcript's moves become the game's
    history, a board starts without one; PliesError names what is wrong."""
    if spec.replaces:
        old = sessions.get(spec.replaces)
        if old is not None and old.owner == token:
            old.abandon()
    start, moves = read_setup(spec.game, spec.size, spec.position, spec.moves)
    if start.is_over():
        raise PliesError("that position is already finished: nothing to play")
    sides = [_side(start, p) for p in spec.players]
    clock = None
    if spec.clock is not None:
        clock = Clock(spec.clock.minutes * 60.0, spec.clock.increment)
    t = type_of(start)
    custom = start != start_for(spec.game, t.board_size(start) if t is not None else None)
    return sessions.create(token, start, sides, spec.delay, custom_start=custom, moves=moves, clock=clock,
                           analysis_level=spec.analysis_level)


@router.post("/games/new", summary="Start a game: a transcript's moves kept, a board, a clock, the analysis level")
async def new_game(spec: StartGame, request: Request) -> JSONResponse:
    tokens = getattr(request.app.state, "tokens", None)  # the app's guard issues every token
    token = _token(request) or (tokens.issue() if tokens is not None else secrets.token_urlsafe(24))
    session = start_game(_sessions(request), token, spec)
    response = JSONResponse({"token": token, "game": await session.answer(owner=True)})
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=365 * 86400)
    return response


@router.get("/games/{gid}/positions/{ply}", summary="The position after PLY moves, as the page draws it")
async def get_position(gid: str, ply: int, request: Request) -> dict[str, Any]:
    session = _found(request, gid)
    await session.settled()  # the last position says whether the game is over: only once it is stored
    frame = session.frame(ply)
    frame["version"] = session.version
    return frame


@router.post("/games/{gid}/branch", summary="Play on from an earlier position: the moves after it are replaced")
async def post_branch(gid: str, body: BranchIn, request: Request) -> dict[str, Any]:
    session = _owned(request, gid)
    session.branch(body.ply, body.move)
    return await session.answer(owner=True)


@router.post("/games/{gid}/settings", summary="The engine level of the game's analysis (graph, hints, review)")
async def post_settings(gid: str, body: SettingsIn, request: Request) -> dict[str, Any]:
    session = _owned(request, gid)
    session.set_analysis_level(body.analysis_level)
    return await session.answer(owner=True)


@router.get("/games/{gid}/analysis", summary="Every legal move of a position of the game, valued (discs), best first")
async def get_analysis(gid: str, request: Request, ply: int | None = None,
                       level: int | None = Query(None, ge=1, le=MAX_LEVEL)) -> dict[str, Any]:
    session = _found(request, gid)
    k = len(session.game.moves) if ply is None else ply
    if not 0 <= k < len(session.game.states):
        raise PliesError(f"no position {k}: the game has {len(session.game.moves)} moves")
    state = session.game.states[k]
    data = await session.analyst.analyse(state, level or session.analysis_level, URGENT)
    return {**data, "ply": k, "version": session.version}


@router.post("/analysis", summary="Every legal move of any position, valued (discs), best first")
async def post_analysis(body: AnalysisIn, request: Request) -> dict[str, Any]:
    start, moves = read_setup(body.game, body.size, body.position, body.moves)
    return {**await _analyst(request).analyse(Game(start, moves).state, body.level, URGENT)}


# --- reviews -------------------------------------------------------------------------------------------------
class ReviewJob:
    """A review running in the background: progress, then the review (or the error)."""

    def __init__(self, rid: str, start: State, moves: list[Any], level: int, token: str | None = None,
                 address: str | None = None) -> None:
        self.id = rid
        self.token = token
        self.address = address
        self.start = start
        self.moves = moves
        self.level = level
        self.todo = to_analyse(moves)
        self.done = 0
        self.status = "running"
        self.review: Review | None = None
        self.error = ""
        self.created = time.monotonic()
        self.task: asyncio.Task[Any] | None = None

    def view(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "status": self.status, "done": self.done, "total": len(self.todo),
                               "level": self.level}
        if self.review is not None:
            out["review"] = self.review
        if self.error:
            out["error"] = self.error
        return out

    async def run(self, analyst: Analyst) -> None:
        states = Game(self.start, self.moves).states
        analyses: list[Analysis | None] = [None] * len(states)

        async def one(i: int) -> None:
            analyses[i] = await analyst.analyse(states[i], self.level, REVIEW)
            self.done += 1

        try:
            await asyncio.gather(*(one(i) for i in self.todo))
            fill_passes(self.moves, analyses)
            self.review = review_game(self.start, self.moves, analyses)
            self.status = "done"
        except asyncio.CancelledError:  # stopped: its positions not analysed yet leave the queue
            for i in self.todo:
                if analyses[i] is None:
                    analyst.withdraw(states[i], self.level)
            raise
        except PliesError as e:  # the analysis queue is full: the page says so
            self.status = "failed"
            self.error = str(e)
        except Exception as e:  # a background job: the page shows why, the log keeps the traceback
            log.exception("review %s failed", self.id)
            self.status = "failed"
            self.error = f"{type(e).__name__}: {e}"


_REVIEWS: OrderedDict[str, ReviewJob] = OrderedDict()


def _analyst(request: Request) -> Analyst:
    return getattr(request.app.state, "analyst", None) or shared_analyst()


async def _game_of(body: ReviewIn, request: Request) -> tuple[State, list[Any], int]:
    if body.game_id:
        session = _found(request, body.game_id)
        return session.game.states[0], list(session.game.moves), body.level or session.analysis_level
    if body.history_id:
        history = request.app.state.history
        record = await asyncio.to_thread(history.get, body.history_id)
        if record is None:
            raise HTTPException(404, f"no finished game {body.history_id!r} in the history")
        game = Game(parse_position(record["start"], game=record["game"]), record["moves"])
        return game.start, game.moves, clamp_level(body.level)
    if body.transcript:
        start, moves = read_setup(body.game, body.size, body.transcript)
        return start, moves, clamp_level(body.level)
    raise PliesError("say which game to review: game_id, history_id or a transcript")


@router.post("/reviews", summary="Review a game: every move against the best move, the discs lost, per player")
async def post_review(body: ReviewIn, request: Request) -> dict[str, Any]:
    start, moves, level = await _game_of(body, request)
    if not any(m != PASS for m in moves):
        raise PliesError("no moves to review")
    rid = secrets.token_urlsafe(12)
    token, address = _token(request), request.client.host if request.client else None
    _make_room(token, address)
    job = ReviewJob(rid, start, moves, level, token, address)
    _REVIEWS[rid] = job
    job.task = asyncio.get_running_loop().create_task(job.run(_analyst(request)))
    return job.view()


def _stop(job: ReviewJob, why: str) -> None:
    if job.task is not None and not job.task.done():
        job.task.cancel()
    if job.status == "running":
        job.status, job.error = "failed", why


def _make_room(token: str | None, address: str | None) -> None:
    """Before a client's new review: its oldest running ones stop when it has its share running (per browser
    token and per address, so one client cannot fill the analysis queue), and the server keeps at most
    MAX_REVIEWS, dropping finished ones before it drops anyone's running review."""
    running = [j for j in _REVIEWS.values() if j.status == "running"]
    mine = [j for j in running if token is not None and j.token == token]
    for old in mine[: max(0, len(mine) - REVIEWS_PER_TOKEN + 1)]:
        _stop(old, "stopped: this browser started a newer review")
    here = [j for j in running if address is not None and j.address == address and j.status == "running"]
    for old in here[: max(0, len(here) - REVIEWS_PER_ADDRESS + 1)]:
        _stop(old, "stopped: this address started more reviews")
    while len(_REVIEWS) >= MAX_REVIEWS:
        rid = next((k for k, j in _REVIEWS.items() if j.status != "running"), next(iter(_REVIEWS)))
        _stop(_REVIEWS.pop(rid), "dropped: the server keeps a limited number of reviews")


@router.get("/reviews/{rid}", summary="A review's progress, then the review")
async def get_review(rid: str) -> dict[str, Any]:
    job = _REVIEWS.get(rid)
    if job is None:
        raise HTTPException(404, f"no review {rid!r} on this server")
    return job.view()


__all__ = ["router", "start_game"]
