"""The reviews resource: a game (live, finished or a transcript) reviewed in the background, its progress, then
the review (each move against the best move, the discs lost, a sum per player)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict

from fastapi import APIRouter, HTTPException, Request

from plies.analysis.position import Analysis, clamp_level
from plies.analysis.review import Review, fill_passes, review_game, to_analyse
from plies.game import PASS, Move, PliesError, State
from plies.games.record import Game
from plies.web.analyst import REVIEW, Analyst
from plies.web.routes import Route, live, token_of
from plies.web.routes.history import stored_game
from plies.web.schemas import ReviewIn
from plies.web.setup import read_setup
from plies.web.views import ReviewView

log = logging.getLogger("plies.web")
router = APIRouter(prefix="/api", tags=["reviews"], route_class=Route)
MAX_REVIEWS = 200          # kept on the server (the oldest finished ones go first)
REVIEWS_PER_TOKEN = 2      # running at once for one browser: a third stops its oldest
REVIEWS_PER_ADDRESS = 8    # and for one client address, whatever its tokens


class ReviewJob:
    """A review running in the background: progress, then the review (or the error)."""

    def __init__(self, rid: str, start: State, moves: list[Move], level: int, token: str | None = None,
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
        self.task: asyncio.Task[None] | None = None

    def view(self) -> ReviewView:
        out: ReviewView = {"id": self.id, "status": self.status, "done": self.done, "total": len(self.todo),
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


async def _game_of(body: ReviewIn, request: Request) -> tuple[State, list[Move], int]:
    if body.game_id:
        session = live(request, body.game_id)
        return session.game.start, list(session.game.moves), body.level or session.analysis_level
    if body.history_id:
        record = await asyncio.to_thread(request.app.state.history.get, body.history_id)
        if record is None:
            raise HTTPException(404, f"no finished game {body.history_id!r} in the history")
        game = stored_game(record)
        return game.start, game.moves, clamp_level(body.level)
    if body.library_id is not None:
        from plies.web.routes.library import library_of

        game_of_library, _ = await asyncio.to_thread(library_of(request).open, body.library_id)
        return game_of_library.start, list(game_of_library.moves), clamp_level(body.level)
    if body.transcript:
        start, moves = read_setup(body.game, body.size, body.transcript)
        return start, moves, clamp_level(body.level)
    raise PliesError("say which game to review: game_id, history_id, library_id or a transcript")


@router.post("/reviews", summary="Review a game: every move against the best move, the discs lost, per player")
async def post_review(body: ReviewIn, request: Request) -> ReviewView:
    start, moves, level = await _game_of(body, request)
    if not any(m != PASS for m in moves):
        raise PliesError("no moves to review")
    rid = secrets.token_urlsafe(12)
    token, address = token_of(request), request.client.host if request.client else None
    _make_room(token, address)
    job = ReviewJob(rid, start, moves, level, token, address)
    _REVIEWS[rid] = job
    job.task = asyncio.get_running_loop().create_task(job.run(request.app.state.analyst))
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
async def get_review(rid: str) -> ReviewView:
    job = _REVIEWS.get(rid)
    if job is None:
        raise HTTPException(404, f"no review {rid!r} on this server")
    return job.view()
