"""Games as Ray tasks (``--ray ADDRESS`` or ``--ray local``): the same ``play_planned`` unit of work, results
gathered back into the caller's database.  Ray is an optional extra: ``pip install 'plies[ray]'``.
"""

from __future__ import annotations

from typing import Any

from plies.extras import optional_import
from plies.game import PliesError
from plies.match.plan import PlannedGame
from plies.match.runner import OnDone, play_planned


def import_ray() -> Any:
    """The ``ray`` module; MissingExtraError (one line naming the ``ray`` extra) when it is not installed."""
    return optional_import("ray", "ray", "--ray")


def run_ray(games: list[PlannedGame], on_done: OnDone, address: str, workers: int = 1) -> None:
    """Submit every game as a task to the Ray cluster at ``address`` (``local``: start one on this machine).

    Every node needs plies (and any plug-in module) installed; an already initialised Ray is used as it is.
    """
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        try:
            if address == "local":
                ray.init(num_cpus=workers if workers > 1 else None, **options)
            else:
                ray.init(address=address, **options)
        except Exception as e:  # Ray's ConnectionError, ValueError, RuntimeError...: one line naming the address
            raise PliesError(f"cannot start or reach Ray at {address!r}: {type(e).__name__}: {e}") from None
        started = True
    task = ray.remote(num_cpus=1, max_retries=0)(play_planned)
    pending = [task.remote(g) for g in games]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                on_done(ray.get(ref))
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


__all__ = ["import_ray", "run_ray"]
