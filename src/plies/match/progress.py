"""A live progress line for a running event: games done, elapsed, time left, current leaders."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from plies.match.runner import Finished


class EventProgress:
    """Context manager: ``advance(finished)`` after each game; shows points of the leaders as they change."""

    def __init__(self, console: Console, total: int, done: int, players: Sequence[str], enabled: bool = True,
                 title: str = "games") -> None:
        self.points = {p: 0.0 for p in players}
        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[leaders]}"),
            console=console, disable=not enabled, transient=False,
        )
        self.task = self.progress.add_task(escape(title), total=total, completed=done, leaders="")

    def add_known(self, finished: Finished) -> None:
        """Count a game finished in an earlier run (``--resume``) in the standings, not in the speed."""
        self._score(finished)
        self.progress.update(self.task, leaders=self.leaders())

    def advance(self, finished: Finished) -> None:
        self._score(finished)
        self.progress.update(self.task, advance=1, leaders=self.leaders())

    def _score(self, f: Finished) -> None:
        w = f.record.winner
        for side, name in enumerate((f.black, f.white)):
            self.points[name] = self.points.get(name, 0.0) + (0.5 if w is None else 1.0 if w == side else 0.0)

    def leaders(self, top: int = 4) -> str:
        ranked = sorted(self.points.items(), key=lambda kv: -kv[1])[:top]
        more = " …" if len(self.points) > top else ""
        return escape("  ".join(f"{_short(n)} {p:g}" for n, p in ranked) + more)

    def __enter__(self) -> EventProgress:
        self.progress.start()
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.progress.stop()


def _short(name: str, width: int = 28) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


__all__ = ["EventProgress"]
