"""Where the computer's searches run, off the event loop: worker threads, and optionally worker processes.

Pure-Python searches hold the GIL, so with threads alone one server uses about one core and a long search
slows every other game's messages.  With ``processes > 0`` the heavy jobs (deeper textbook searches, hints)
run in a process pool instead and use the other cores, provided they pickle (a State and a heuristic do);
cheap jobs (shallow searches, the graph's evaluation) stay on threads, where they cost less than the trip to
another process, and so do the engine and test doubles.  A running search is never interrupted: its answer
is dropped.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Workers:
    """A thread pool, plus a process pool when ``processes > 0``."""

    def __init__(self, threads: int = 4, processes: int = 0) -> None:
        self.threads: Executor = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="plies-search")
        self.processes: Executor | None = None
        if processes > 0:
            ctx = multiprocessing.get_context("spawn")  # never fork a process that runs an event loop and threads
            self.processes = ProcessPoolExecutor(max_workers=processes, mp_context=ctx, initializer=_worker_init,
                                                 initargs=(os.getpid(),))

    def warm_up(self) -> None:
        """Start the worker processes, with the search modules imported, now rather than on the first move."""
        if self.processes is not None:
            for _ in range(getattr(self.processes, "_max_workers", 1)):
                self.processes.submit(_prepare_worker)

    async def run(self, fn: Callable[[*Ts], T], *args: *Ts, heavy: bool = False) -> T:
        """``fn(*args)`` in a worker process when ``heavy`` and everything pickles, else in a worker thread."""
        loop = asyncio.get_running_loop()
        use_process = heavy and self.processes is not None and _picklable(fn, args)
        pool = self.processes if use_process and self.processes is not None else self.threads
        return await loop.run_in_executor(pool, fn, *args)

    def shutdown(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown(wait=False, cancel_futures=True)


PARENT_CHECK = 0.5
"""Seconds between a worker's looks at its parent: a worker whose server is gone (killed, or stopped while it
started) ends itself instead of staying behind as an orphan."""


def _worker_init(parent: int) -> None:
    """Each worker process: Ctrl-C and SIGTERM are the server's to handle, and the worker dies with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="plies-parent-watch", daemon=True).start()


def _prepare_worker() -> None:
    """Import what the searches need (and linger a moment, so that each worker gets one of these)."""
    import time

    import plies.web.sessions  # noqa: F401

    time.sleep(0.2)


def _picklable(fn: object, args: tuple[object, ...]) -> bool:
    try:
        pickle.dumps((fn, args))
    except Exception:  # a probe: PicklingError, TypeError, AttributeError (a local object) ... all mean "no"
        return False
    return True
