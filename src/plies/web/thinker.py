"""Analysis on demand for the browser's 8x8 Othello board: "think for N seconds" (the engine's iterative
deepening with 1-5 lines, multi-PV) and "solve" (the exact endgame solver), each a job on its own worker thread
with its own engine, watched by polling while it runs, and the opening book's moves of a position.

One job per game at a time (a new one stops the old); at most ``MAX_RUNNING`` on the server at once; a job
nobody has polled for ``ABANDONED`` seconds (the page was closed) is stopped.  The engine's search is never
changed: a job reads its per-depth progress callback and its node counter, and ``Engine.stop`` ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, NotRequired, TypedDict

from plies.analysis.value import from_search
from plies.game import PASS, State
from plies.games.othello import OthelloState
from plies.games.record import move_names
from plies.i18n import _
from plies.web.guard import Busy

if TYPE_CHECKING:
    from plies.engine import Engine
    from plies.search.result import SearchResult

MAX_LINES = 5
"""Most lines (best moves, multi-PV) a think shows."""
MAX_SECONDS = 60.0
"""The longest think; a solve's hard limit is ``SOLVE_LIMIT``."""
MIN_SECONDS = 0.5
SOLVE_MAX_EMPTIES = 24
"""The most empty squares an exact solve takes on: a 2-core Xeon VM, busy, solved 24 empties in 2-11 s and 26 in
15-148 s (docs/web.md has the figures)."""
WLD_MAX_EMPTIES = 28
"""The most empty squares a win/draw/loss solve takes on (cheaper: 28 empties in 0.1-3.5 s, 30 in up to 61 s)."""
SOLVE_LIMIT = 120.0
"""Seconds after which a solve stops unfinished (it then says so)."""
MAX_RUNNING = 2
"""Jobs running at once on the server (each searches on the machine's cores)."""
ABANDONED = 15.0
"""Seconds without a poll after which a running job is stopped (its page went away)."""
MAX_KEPT = 1000
"""Finished jobs kept for their games' pages (the oldest go first)."""
HASH_MB = 64
FILL_ALL = 1e9
"""The engine's ``fill`` for a think: start every next depth (a plain timed search stops early when it foresees
that the next depth will not finish)."""


class Line(TypedDict):
    """One line of a job: the move, its value in discs from the side to move's view, proven or not, the line."""

    move: str
    value: float
    exact: bool
    pv: list[str]


class Step(TypedDict):
    """One completed iteration (a depth, or a pass of the solver): what the live line showed then."""

    depth: int
    value: float
    exact: bool
    selectivity: float | None
    nodes: int
    seconds: float
    move: str


class Solved(TypedDict):
    """A finished solve: the outcome for the side to move, the margin (None for win/draw/loss), the best line."""

    outcome: str
    margin: int | None
    best: str
    line: list[str]


class JobView(TypedDict):
    """A job as the page shows it (``Job.view``)."""

    id: str
    kind: str
    ply: int
    position: str
    status: str
    to_move: int
    empties: int
    limit: float
    lines_asked: int
    wld: bool
    elapsed: float
    nodes: int
    depth: int
    selectivity: float | None
    lines: list[Line]
    steps: list[Step]
    unit: str
    error: NotRequired[str]
    result: NotRequired[Solved]


def _line(state: State, r: SearchResult) -> Line:
    value, exact = from_search(r.value, bool(r.exact))
    move = r.move if r.move is not None else PASS
    return {"move": state.move_str(move), "value": round(float(value), 2) + 0.0, "exact": exact,
            "pv": move_names(state, r.pv or [move])}


class Job:
    """A think or a solve of one position of a game, running on a worker thread; ``view`` is its JSON."""

    def __init__(self, gid: str, ply: int, state: OthelloState, kind: str, seconds: float, lines: int,
                 wld: bool = False) -> None:
        self.id = secrets.token_urlsafe(9)
        self.gid, self.ply, self.state, self.kind = gid, ply, state, kind
        self.seconds, self.lines, self.wld = seconds, lines, wld
        self.status = "running"
        self.error = ""
        self.results: list[Line] = []
        self.steps: list[Step] = []
        self.engine: Engine | None = None
        self.started = time.monotonic()
        self.ended: float | None = None
        self.polled = time.monotonic()
        self.stopped = False
        self.solved = False  # a solve that finished (exact, or win/draw/loss), not the presearch's estimate
        self.future: Future[None] = Future()
        self._lock = threading.Lock()

    # --- the worker thread ----------------------------------------------------------------------------------
    def run(self, engine: Engine) -> None:
        """Search on ``engine`` (this thread), recording each completed depth, until done, out of time or stopped."""
        self.engine = engine
        try:
            if self.stopped:
                return
            engine.clear()  # each job from scratch: its figures depend on nothing before
            if self.kind == "solve":
                found = engine.analyse(self.state, exact=not self.wld, wld=self.wld, on_progress=self._progress,
                                       time=SOLVE_LIMIT)
            else:  # the whole time, as asked: a new depth starts whatever its forecast, the clock stops it
                fill, engine.fill = engine.fill, FILL_ALL
                try:
                    found = engine.analyse(self.state, time=self.seconds, max_time=self.seconds,
                                           multipv=self.lines, on_progress=self._progress)
                finally:
                    engine.fill = fill
            with self._lock:
                self.results = [_line(self.state, r) for r in found]
                if found:
                    self._record(found[0])
                    self.solved = bool(found[0].exact) or found[0].algorithm == "engine-wld"
        except Exception as e:  # a worker's failure is the job's answer; the server goes on
            self.error = f"{type(e).__name__}: {e}"
            self.status = "failed"
        finally:
            self.engine = None
            self.ended = time.monotonic()
            if self.status == "running":
                self.status = "stopped" if self.stopped else self._finished()

    def _finished(self) -> str:
        if self.kind == "solve" and not self.solved:
            self.error = _("the solve did not finish within {seconds} s").format(seconds=int(SOLVE_LIMIT))
            return "stopped"
        return "done"

    def _progress(self, found: list[SearchResult]) -> None:
        if self.stopped and self.engine is not None:  # a stop that came as the search started (it clears the flag)
            self.engine.stop()
        with self._lock:
            self.results = [_line(self.state, r) for r in found]
            self._record(found[0])

    def _record(self, r: SearchResult) -> None:
        line = _line(self.state, r)
        step: Step = {"depth": int(r.stats.depth or 0), "value": line["value"], "exact": line["exact"],
                      "selectivity": r.selectivity, "nodes": int(r.stats.nodes), "seconds": round(r.stats.seconds, 2),
                      "move": line["move"]}
        if not self.steps or self.steps[-1] != step:
            self.steps.append(step)

    def stop(self) -> None:
        """Ask the search to stop now (it answers with its last completed depth)."""
        self.stopped = True
        engine = self.engine
        if engine is not None:
            engine.stop()

    # --- the JSON ---------------------------------------------------------------------------------------------
    def view(self) -> JobView:
        """The job as the page shows it: its status, the live figures and lines, and a solve's result."""
        with self._lock:
            results, steps = list(self.results), list(self.steps)
        engine = self.engine
        nodes = steps[-1]["nodes"] if steps else 0
        if engine is not None and self.status == "running":
            with contextlib.suppress(Exception):
                nodes = max(nodes, int(engine.ctl[0]))  # the node counter the search keeps (ctl[NODES])
        end = self.ended if self.ended is not None else time.monotonic()
        out: JobView = {
            "id": self.id, "kind": self.kind, "ply": self.ply, "position": self.state.to_text(),
            "status": self.status, "to_move": self.state.to_move, "empties": self.state.empties(),
            "limit": SOLVE_LIMIT if self.kind == "solve" else self.seconds, "lines_asked": self.lines,
            "wld": self.wld, "elapsed": round(end - self.started, 2), "nodes": nodes,
            "depth": steps[-1]["depth"] if steps else 0,
            "selectivity": steps[-1]["selectivity"] if steps else None,
            "lines": results, "steps": steps, "unit": "discs",
        }
        if self.error:
            out["error"] = self.error
        if self.kind == "solve" and self.status == "done" and results:
            v = results[0]["value"]
            out["result"] = {"outcome": "win" if v > 0 else "loss" if v < 0 else "draw",
                             "margin": None if self.wld else int(v), "best": results[0]["move"],
                             "line": results[0]["pv"]}
        return out


class Thinker:
    """The server's analysis jobs: at most one per game, ``MAX_RUNNING`` at once, on their own threads."""

    def __init__(self, max_running: int = MAX_RUNNING, engine_factory: Callable[[], Engine] | None = None) -> None:
        self.max_running = max_running
        self.jobs: dict[str, Job] = {}  # game id -> its latest job
        self._pool = ThreadPoolExecutor(max_workers=max_running, thread_name_prefix="plies-think")
        self._engines: list[Engine] = []
        self._lock = threading.Lock()
        self._factory = engine_factory
        self._watching: set[asyncio.Task[None]] = set()

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.status == "running")

    async def start(self, job: Job) -> Job:
        """Stop the game's job (and wait a moment for it to let go), then run ``job``; PliesError when the server
        already runs its most jobs."""
        old = self.jobs.get(job.gid)
        if old is not None and old.status == "running":
            old.stop()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(old.future)), 5.0)
        if self.running() >= self.max_running:
            raise Busy(_("the server is already analysing {n} positions: try again in a moment").format(
                n=self.running()))
        self.jobs.pop(job.gid, None)
        self.jobs[job.gid] = job  # (the newest last: the oldest finished ones go first)
        for gid in [g for g, j in self.jobs.items() if j.status != "running"][: max(0, len(self.jobs) - MAX_KEPT)]:
            del self.jobs[gid]
        self._pool.submit(self._run, job)
        watch = asyncio.get_running_loop().create_task(self._watch(job))
        self._watching.add(watch)
        watch.add_done_callback(self._watching.discard)
        return job

    def _run(self, job: Job) -> None:
        engine = self._engine()
        try:
            job.run(engine)
        finally:
            with self._lock:
                self._engines.append(engine)
            job.future.set_result(None)

    def _engine(self) -> Engine:
        with self._lock:
            if self._engines:
                return self._engines.pop()
        if self._factory is not None:
            return self._factory()
        from plies.engine import Engine
        from plies.engine.api import default_threads

        return Engine(hash_mb=HASH_MB, threads=default_threads())

    async def _watch(self, job: Job) -> None:
        """Stop ``job`` when nobody polls it any more (the page was closed or went elsewhere), and say stop again
        to a stopped job still running (a stop that came just as its search started, which clears the flag)."""
        while job.status == "running":
            await asyncio.sleep(0.2)
            if job.stopped or time.monotonic() - job.polled > ABANDONED:
                job.stop()

    def get(self, gid: str) -> Job | None:
        job = self.jobs.get(gid)
        if job is not None:
            job.polled = time.monotonic()
        return job

    def stop(self, gid: str) -> Job | None:
        job = self.jobs.get(gid)
        if job is not None and job.status == "running":
            job.stop()
        return job

    def shutdown(self) -> None:
        for job in self.jobs.values():
            job.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["MAX_LINES", "MAX_SECONDS", "SOLVE_MAX_EMPTIES", "WLD_MAX_EMPTIES", "Job", "Thinker"]
