"""Running an event end to end: plan it, find what a database already holds, play the rest (serially, in
processes or on Ray), store each game as it ends, show progress, stop cleanly on Ctrl-C.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from plies.game import PliesError
from plies.match.plan import EventConfig, PlannedGame, make_plan, plan_hash
from plies.match.progress import EventProgress
from plies.match.runner import Finished, load_modules, run_games, startup_check
from plies.match.store import Store, StoredEvent


@dataclass
class EventResult:
    """What a run produced: the event, all its finished games (earlier runs included) and how the run ended."""

    event: StoredEvent
    plan: list[PlannedGame]
    games: list[Finished]
    played: int
    interrupted: bool
    stopped: bool = False  # ended early by the caller's ``stop`` test (a sequential test that has decided)

    @property
    def complete(self) -> bool:
        return len(self.games) == len(self.plan)


def open_event(store: Store, config: EventConfig, plan: list[PlannedGame], resume: bool,
               note: Callable[[str], None] | None = None) -> StoredEvent:
    """The stored event to fill: the matching one with ``resume``, else a new one (never mixing two plans).
    ``resume`` on a database that holds no event yet starts a new run and says so through ``note``."""
    h = plan_hash(plan)
    existing = store.find_event(h)
    where = store.path or "the database"
    if existing is not None:
        if not resume:
            done = len(store.finished_indices(existing.id))
            raise PliesError(
                f"{where} already holds this {config.kind} ({done}/{existing.planned} games); add --resume to "
                f"finish it, or use another --db"
            )
        return existing
    if resume:
        events = store.events()
        started = store.find_event(h)  # a run started at the same moment may have stored this plan since
        if started is not None:
            return started
        if events:
            names = ", ".join(f"{e.id}:{e.name}" for e in events)
            raise PliesError(
                f"nothing to resume: {where} holds other events ({names}); players, openings, seed or settings "
                "differ"
            )
        if note is not None:
            note(f"note: nothing to resume: {where} holds no {config.kind} yet; starting a new one")
    return store.add_event(config, h, len(plan))


def run_event(
    config: EventConfig,
    db: str | Path | None = None,
    resume: bool = False,
    workers: int = 1,
    ray: str | None = None,
    console: Console | None = None,
    progress: bool = True,
    stop: Callable[[list[Finished]], bool] | None = None,
) -> EventResult:
    """Play every planned game that ``db`` does not hold yet; Ctrl-C ends the run with what is finished saved.
    ``stop(finished games)``, asked after each game (and once before the first), ends the run early when it says
    True: the games still being played are dropped, the finished ones are kept."""
    if resume and db is None:
        raise PliesError("--resume needs --db FILE (the database of the interrupted run)")
    if workers < 1:
        raise PliesError("--workers must be at least 1")
    load_modules(config.modules)
    plan = make_plan(config)
    if not ray or ray == "local":  # a remote cluster may have programs this machine lacks: its games tell
        startup_check(plan)
    console = console or Console(stderr=True)
    out = console
    fresh = db is not None and not Path(db).exists()
    store = Store(db)
    try:
        new_file = f"note: nothing to resume: {db} does not exist yet; starting a new {config.kind}"
        event = open_event(store, config, plan, resume,
                           note=lambda text: out.print(new_file if fresh else text, markup=False, soft_wrap=True))
        known = store.games(event.id)
        done = {f.planned.index for f in known}
        todo = [g for g in plan if g.index not in done]
        names = [p.name for p in config.players]
        played = 0
        interrupted = stopped = False
        finished = list(known)
        with EventProgress(console, len(plan), len(done), names, enabled=progress and console.is_terminal,
                           title=config.name if len(config.name) <= 30 else config.kind) as bar:
            for f in known:
                bar.add_known(f)

            def on_done(f: Finished) -> None:
                nonlocal played
                if f.fatal:  # a player that cannot be started: stop now (the game was not played, nothing saved)
                    raise PliesError(f.fatal)
                if store.save(event.id, f):  # False: a concurrent run stored this game first
                    played += 1
                    bar.advance(f)
                    finished.append(f)
                if stop is not None and stop(finished):
                    raise _Stop

            try:
                if stop is not None and stop(finished):
                    raise _Stop
                with _sigterm_as_interrupt():
                    run_games(todo, on_done, workers=workers, ray_address=ray,
                              skip=lambda g: store.has(event.id, g.index))
            except KeyboardInterrupt:
                interrupted = True
            except _Stop:
                stopped = True
        games = store.games(event.id)
        return EventResult(event, plan, games, played, interrupted, stopped)
    finally:
        store.close()


class _Stop(Exception):
    """Raised through the runners to end a run that ``stop`` ended."""


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """A polite ``kill`` (SIGTERM) stops a run like Ctrl-C: finished games saved, workers ended."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


__all__ = ["EventResult", "open_event", "run_event"]
