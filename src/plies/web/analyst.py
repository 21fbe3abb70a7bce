"""The browser's analyses on background threads: a cache by position and level, newest request first within a
priority, so that the position on the screen is valued before older ones and the evaluation of a live game is
computed without delaying the computer's move (which runs on the app's own workers).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
from collections import OrderedDict
from concurrent.futures import Future

from plies.analysis import levels
from plies.analysis.position import Analysis, analyse_position, clamp_level, new_engine
from plies.game import PliesError, State

Key = tuple[str, State, int, bool]
"""(game, position, level (0: the textbook search, which has none), whether the engine values it)."""
MAX_QUEUE = 5000
"""Most positions waiting for analysis at once (all games together); more is refused until the queue drains."""
URGENT, LIVE, REVIEW = 0, 1, 2
"""Priorities: a person waiting (hint, values on the board), a live game's graph, a review (oldest first)."""


class _Job:
    __slots__ = ("key", "state", "level", "use_engine", "future", "priority", "started", "waiters")

    def __init__(self, key: Key, state: State, level: int, use_engine: bool) -> None:
        self.key = key
        self.state = state
        self.level = level
        self.use_engine = use_engine
        self.future: Future[Analysis] = Future()
        self.priority = REVIEW + 1
        self.started = False
        self.waiters = 0  # submits not withdrawn: the job is dropped when the last one withdraws before it starts


class Analyst:
    """Analyses on ``threads`` background threads (each with its own engine), cached by position and level;
    newest requests first within a priority, so the position on the screen is valued before older ones."""

    def __init__(self, threads: int = 2, cache_size: int = 20_000, max_queue: int = MAX_QUEUE) -> None:
        self.threads = max(1, threads)
        self.cache_size = cache_size
        self.max_queue = max_queue
        self._cache: OrderedDict[Key, Analysis] = OrderedDict()
        self._jobs: dict[Key, _Job] = {}
        self._heap: list[tuple[int, int, _Job]] = []
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._workers: list[threading.Thread] = []

    def key(self, state: State, level: int | None) -> Key:
        use_engine = levels.engine_applies(state)
        by_level = use_engine or levels.fallback_applies(state)  # the engine or its pure-Python stand-in
        return (state.game, state, clamp_level(level) if by_level else 0, use_engine)

    def cached(self, state: State, level: int | None) -> Analysis | None:
        with self._lock:
            return self._cache.get(self.key(state, level))

    def submit(self, state: State, level: int | None, priority: int = URGENT) -> Future[Analysis]:
        """A future of ``analyse_position(state, level)``: done at once when cached."""
        key = self.key(state, level)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                done: Future[Analysis] = Future()
                done.set_result(hit)
                return done
            job = self._jobs.get(key)
            if job is None:
                if len(self._jobs) >= self.max_queue:
                    raise PliesError(f"the server has {len(self._jobs)} positions waiting to be analysed: "
                                     "try again in a moment")
                job = _Job(key, state, key[2] or levels.DEFAULT_ANALYSIS_LEVEL, key[3])
                self._jobs[key] = job
            job.waiters += 1
            if priority < job.priority and not job.started:
                job.priority = priority
                seq = next(self._seq)
                heapq.heappush(self._heap, (priority, seq if priority == REVIEW else -seq, job))
                self._wake.notify()
            self._start_workers()
            return job.future

    def withdraw(self, state: State, level: int | None) -> None:
        """One submit of (state, level) no longer waits (a stopped review): the job leaves the queue when nobody
        else waits for it and it has not started."""
        key = self.key(state, level)
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.started:
                return
            job.waiters -= 1
            if job.waiters <= 0:
                del self._jobs[key]
                job.started = True  # its heap entries are skipped
                job.future.cancel()

    async def analyse(self, state: State, level: int | None, priority: int = URGENT) -> Analysis:
        # shielded: a waiter that goes away (a closed page) must not cancel the job others may wait for
        return await asyncio.shield(asyncio.wrap_future(self.submit(state, level, priority)))

    def _start_workers(self) -> None:
        while len(self._workers) < self.threads:
            t = threading.Thread(target=self._work, name=f"plies-analysis-{len(self._workers)}", daemon=True)
            self._workers.append(t)
            t.start()

    def _work(self) -> None:
        engine = None
        while True:
            with self._lock:
                while True:
                    while self._heap and (self._heap[0][2].started or self._heap[0][2].priority != self._heap[0][0]):
                        heapq.heappop(self._heap)  # already run, or queued again at a higher priority
                    if self._heap:
                        break
                    self._wake.wait()
                _, _, job = heapq.heappop(self._heap)
                job.started = True
            try:
                if job.use_engine and engine is None:
                    engine = new_engine()
                result = analyse_position(job.state, job.level, job.use_engine, engine if job.use_engine else None)
            except BaseException as e:  # handed to whoever waits; the thread goes on
                with self._lock:
                    self._jobs.pop(job.key, None)
                if not job.future.done():
                    job.future.set_exception(e)
                continue
            with self._lock:
                self._jobs.pop(job.key, None)
                self._cache[job.key] = result
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
            if not job.future.done():
                job.future.set_result(result)


_SHARED: list[Analyst] = []


def shared_analyst() -> Analyst:
    """The analyst of this process (one set of analysis threads whatever the number of games)."""
    if not _SHARED:
        _SHARED.append(Analyst())
    return _SHARED[0]
