"""Games as Ray tasks (``--ray ADDRESS`` or ``--ray local``): the same ``play_planned`` unit of work, results
gathered back into the caller's database.  Ray is an optional extra: ``pip install 'plies[ray]'``.

A game whose worker process or node dies is played again (``RETRIES`` times) and stored once (the database keeps
one row per game of an event); past that the run stops with one line, the finished games stored.  ``--ray
local`` always starts a private Ray on this machine, never joining a cluster that runs there already
(``RAY_ADDRESS``, ``ray start``).  While Ray runs, whatever it or its processes print goes to
stderr: stdout stays for the results (``--json``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from plies.extras import optional_import
from plies.game import PliesError
from plies.match.plan import PlannedGame
from plies.match.runner import OnDone, play_planned

RETRIES = 3
"""Times a game is played again after its worker process or node died."""


def import_ray() -> ModuleType:
    """The ``ray`` module; MissingExtraError (one line naming the ``ray`` extra) when it is not installed."""
    return optional_import("ray", "ray", "--ray")


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """File descriptor 1 points at stderr meanwhile (Ray's processes, started now, inherit it); restored after."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError):  # no real stdout (captured, closed): nothing to keep clean
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def run_ray(games: list[PlannedGame], on_done: OnDone, address: str, workers: int = 1) -> None:
    """Submit every game as a task to the Ray cluster at ``address`` (``local``: start a private one here).

    Every node needs plies (and any plug-in module) installed; an already initialised Ray is used as it is.
    """
    ray = import_ray()
    with stdout_to_stderr():
        _run(ray, games, on_done, address, workers)


def _run(ray: ModuleType, games: list[PlannedGame], on_done: OnDone, address: str, workers: int) -> None:
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        try:
            if address == "local":  # a new Ray of our own, whatever runs on this machine already
                ray.init(address="local", num_cpus=workers if workers > 1 else None, **options)
            else:
                ray.init(address=address, **options)
        except Exception as e:  # Ray's ConnectionError, ValueError, RuntimeError...: one line naming the address
            raise PliesError(f"cannot start or reach Ray at {address!r}: {type(e).__name__}: {_first(e)}") from None
        started = True
    task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(play_planned)
    planned = {}
    for g in games:
        planned[task.remote(g)] = g
    pending = list(planned)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as e:  # play_planned itself failed: a bug, shown as one
                    raise e.as_instanceof_cause() from None
                except ray.exceptions.RayError as e:  # its worker or node died every time it was played
                    g = planned[ref]
                    raise PliesError(
                        f"game {g.index + 1} was lost {RETRIES + 1} times with its Ray worker or node "
                        f"({type(e).__name__}: {_first(e)}); the games finished before are stored: run again "
                        "with --resume") from None
                on_done(result)
    except BaseException:
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # best effort while the first error (re-raised below) ends the run
                pass
        raise
    finally:
        if started:
            ray.shutdown()


def _first(e: BaseException) -> str:
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    return lines[0] if lines else type(e).__name__


__all__ = ["RETRIES", "import_ray", "run_ray", "stdout_to_stderr"]
