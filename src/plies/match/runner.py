"""Playing planned games: one at a time, in worker processes, or as Ray tasks; results come back as they finish.

``play_planned`` is the unit of work: a top-level function of picklable data, so it runs the same under
``spawn``, ``fork`` or on a Ray node, and it never raises for anything a player does.
"""

from __future__ import annotations

import importlib
import logging
import os
import random
import signal
import socket
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from multiprocessing.process import BaseProcess
from pathlib import Path

from plies.game import PliesError, State
from plies.games.record import Game
from plies.match.openings import derive_seed
from plies.match.plan import Entrant, PlannedGame
from plies.match.record import (
    CRASH,
    GameRecord,
    NotStarted,
    is_startup_failure,
    play_game,
    startup_message,
    where,
)
from plies.players import Player, parse_params, parse_player

log = logging.getLogger("plies.match")


@dataclass
class Finished:
    """A played game of a plan: the plan entry, its record, how long it took and where it was played.

    ``fatal`` (not stored) says a player could not even be started: the game was not played and the event stops
    with that one-line message (``is_startup_failure``)."""

    planned: PlannedGame
    record: GameRecord
    seconds: float
    finished_at: str = ""
    worker: str = ""
    fatal: str = ""

    @property
    def black(self) -> str:
        return self.planned.black.name

    @property
    def white(self) -> str:
        return self.planned.white.name


def load_modules(modules: Iterable[str]) -> None:
    """Import plug-in modules (they may register player kinds or heuristics) in this process: a module name
    (``my_players``, found on ``sys.path``) or a Python file (``agents/alice.py``, imported once per process,
    its folder put first on ``sys.path`` so its own helper modules import as when it runs as a script).
    A module that fails to import is one line (PliesError), whatever it raised."""
    for name in modules:
        try:
            if name.endswith(".py") or "/" in name or os.sep in name:
                _load_file(name)
            else:
                importlib.import_module(name)
        except PliesError:
            raise
        except ImportError as e:
            raise PliesError(f"cannot import module {name!r}: {e}") from None
        except BaseException as e:  # a student's module may raise anything, exit included: say what, in a line
            if isinstance(e, KeyboardInterrupt):
                raise
            raise PliesError(f"cannot import module {name!r}: {type(e).__name__}: {e}{where(e)}") from None


_FILES: dict[Path, str] = {}
"""Python files already imported in this process (path -> module name)."""


def _load_file(name: str) -> None:
    """Import the Python file ``name`` as the module named by its stem (another name if that one is taken)."""
    import importlib.util
    import sys

    path = Path(name).expanduser().resolve()
    if path in _FILES:
        return
    if not path.is_file():
        raise PliesError(f"cannot import module {name!r}: no such file")
    module_name = path.stem if path.stem.isidentifier() else "plies_module"
    taken = sys.modules.get(module_name)
    if taken is not None and getattr(taken, "__file__", None) != str(path):
        module_name = f"{module_name}_{len(_FILES) + 1}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PliesError(f"cannot import module {name!r}: not a Python file")
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    _FILES[path] = module_name



def seed_player(player: Player, spec: str, seed: int) -> None:
    """Give a player without an explicit ``seed=`` the game's derived seed (``reseed(seed)`` or its ``rng``)."""
    _, _, raw = spec.partition(":")
    try:
        if "seed" in parse_params(raw):
            return
    except PliesError:
        return
    reseed = getattr(player, "reseed", None)
    if callable(reseed):
        reseed(seed)
        return
    rng = getattr(player, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(seed)


def play_planned(g: PlannedGame) -> Finished:
    """Build both players from their specs, play the game, close the players; failures become forfeits, except a
    player that cannot be started at all: then the Finished carries ``fatal`` (the event stops)."""
    t0 = time.perf_counter()
    load_modules(g.modules)
    start = g.opening.state(g.game)
    players: list[Player] = []
    record: GameRecord | None = None
    fatal = ""
    try:
        for side, entrant in enumerate((g.black, g.white)):
            try:
                player = parse_player(entrant.spec, g.game)
                seed_player(player, entrant.spec, derive_seed(g.seed, "side", side))
            except Exception as e:  # any spec or plug-in may fail to build: that side loses, the record says why
                if is_startup_failure(e):
                    fatal = startup_message(e, entrant.name)
                record = _lost_at_start(g, start, side, f"cannot build player: {type(e).__name__}: {e}")
                break
            players.append(player)
        if record is None:
            try:
                record = play_game(start, players, time_limit=g.time_limit, fatal=is_startup_failure)
            except NotStarted as e:  # only what ``is_startup_failure`` lets through new_game
                loser = e.side
                fatal = startup_message(e.error, (g.black, g.white)[loser].name)
                record = _lost_at_start(g, start, loser, f"new_game: {fatal}")
    finally:
        for p in players:
            try:
                p.close()
            except Exception as e:  # the game is played and recorded: a failing clean-up is only logged
                log.warning("closing player %s failed: %s: %s", p.name, type(e).__name__, e)
    record.players = (g.black.name, g.white.name)
    return Finished(g, record, round(time.perf_counter() - t0, 4), _now(), f"{socket.gethostname()}:{os.getpid()}",
                    fatal)


def _lost_at_start(g: PlannedGame, start: State, loser: int, detail: str) -> GameRecord:
    """The record of a game ``loser``'s player lost before it began (a crash: it could not be built or started)."""
    game = Game(start, players=(g.black.name, g.white.name), started_at=_now())
    game.end(CRASH, detail, 1 - loser)
    return game.record()


def startup_check(games: list[PlannedGame]) -> None:
    """Build every player of ``games`` once and start it on the position of its first game (then close it):
    PliesError at once, before any game, for a player that cannot be started (``is_startup_failure``).  Any
    other failure is left to the games, which record it."""
    firsts: dict[Entrant, PlannedGame] = {}
    for g in games:
        firsts.setdefault(g.black, g)
        firsts.setdefault(g.white, g)
    for entrant, g in firsts.items():
        player: Player | None = None
        try:
            player = parse_player(entrant.spec, g.game)
            player.new_game(g.opening.state(g.game))
        except Exception as e:
            if is_startup_failure(e):
                raise PliesError(startup_message(e, entrant.name)) from None
        finally:
            if player is not None:
                try:
                    player.close()
                except Exception:  # only a probe: the games log a failing clean-up
                    pass


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


OnDone = Callable[[Finished], None]


Skip = Callable[[PlannedGame], bool]


def run_serial(games: list[PlannedGame], on_done: OnDone, skip: Skip | None = None) -> None:
    """Play the games one after another in this process (Ctrl-C stops after the last finished game); a game
    for which ``skip`` says True (another run finished it meanwhile) is left out."""
    for g in games:
        if skip is not None and skip(g):
            continue
        on_done(play_planned(g))


PARENT_CHECK = 0.5
"""Seconds between a worker's looks at its parent process."""


def watch_parent(parent: int, every: float = PARENT_CHECK) -> None:
    """In a worker process: end this process as soon as ``parent`` is gone (a ``kill -9`` of the parent leaves
    no orphan searching on).  A daemon thread compares the parent pid with ``parent`` every ``every``
    seconds; an orphan is re-parented (to init or a subreaper), so its parent pid changes."""
    import threading

    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="plies-parent-watch", daemon=True).start()


def worker_init(parent: int) -> None:
    """Initializer of every worker process: Ctrl-C is the parent's to handle, the worker dies with it, and its
    engine players search on one thread unless their spec says ``threads=`` (the games side by side share the
    cores)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
    os.environ.setdefault("PLIES_ENGINE_THREADS", "1")
    watch_parent(parent)


def run_processes(games: list[PlannedGame], on_done: OnDone, workers: int) -> None:
    """Play the games in ``workers`` spawned processes; results are handed to ``on_done`` in this process.
    The workers end with this process, even when it is killed (``worker_init``)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=worker_init,
                                   initargs=(os.getpid(),))
    pending = set()
    try:
        pending = {executor.submit(play_planned, g) for g in games}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                on_done(fut.result())
    except BrokenProcessPool:
        raise PliesError(
            f"a worker process died; {len(pending)} game(s) were not played (run again with --resume)"
        ) from None
    except BaseException:
        _stop_now(executor)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _stop_now(executor: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the games in progress (they would be lost anyway).  The worker
    processes are taken before the shutdown, which forgets them."""
    procs = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        try:
            proc.terminate()
        except (OSError, ValueError):  # already gone, or already closed
            pass
    for proc in procs:
        if not _reaped(proc, 5):  # it ignored SIGTERM this long (a loaded machine, a stuck import): SIGKILL
            try:
                proc.kill()
            except (OSError, ValueError):
                pass
            _reaped(proc, 30)


def _reaped(proc: BaseProcess, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for a worker to end: whether it has (a closed or foreign process counts as
    ended: it is not ours to wait for)."""
    try:
        proc.join(timeout)
        return not proc.is_alive()
    except (OSError, ValueError, AssertionError):  # closed, or not ours to join
        return True


def run_games(
    games: list[PlannedGame], on_done: OnDone, workers: int = 1, ray_address: str | None = None,
    skip: Skip | None = None,
) -> None:
    """Play ``games`` serially, in worker processes or on Ray; ``on_done`` gets each result as it finishes
    (serially, ``skip`` leaves out games another run finished meanwhile)."""
    if not games:
        return
    if ray_address:
        from plies.match.ray_runner import run_ray

        run_ray(games, on_done, ray_address, workers)
    elif workers > 1 and len(games) > 1:
        run_processes(games, on_done, min(workers, len(games)))
    else:
        run_serial(games, on_done, skip)


__all__ = ["Finished", "load_modules", "play_planned", "run_games", "run_processes", "run_serial", "seed_player",
           "startup_check", "watch_parent", "worker_init"]
