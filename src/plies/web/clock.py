"""The clock of a timed browser game: both sides' time, the increment, and a timer that calls back when the side
to move's time runs out."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from plies.game import State
from plies.games import type_of


@dataclass
class Clock:
    """Both players' time: ``remaining`` seconds each, ``increment`` added after each move; the side to move's
    clock runs from ``since`` (``time.monotonic``).  ``flagged`` is the side whose time ran out."""

    initial: float
    increment: float = 0.0
    remaining: list[float] = field(default_factory=list)
    running: int | None = None
    since: float = 0.0
    flagged: int | None = None
    _timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.remaining:
            self.remaining = [self.initial, self.initial]

    def left(self, side: int, now: float | None = None) -> float:
        """Seconds ``side`` has now."""
        t = self.remaining[side]
        if self.running == side:
            t -= (time.monotonic() if now is None else now) - self.since
        return max(0.0, t)

    def stop(self, increment: bool = True) -> None:
        """Stop the running clock (after its side moved): its time spent is taken off, the increment added."""
        if self.running is None:
            return
        side = self.running
        self.remaining[side] = self.left(side) + (self.increment if increment else 0.0)
        self.running = None

    def budget(self, side: int, state: State) -> float:
        """Seconds the computer gives this move: an even share of what is left over the moves it still has to
        make (about half the empty squares), plus most of the increment, never more than a third of the
        time left."""
        left = self.left(side)
        t = type_of(state)
        empties = t.empties(state) if t is not None else -1
        moves_left = max(4, (empties if empties >= 0 else 20) // 2 + 2)
        share = left / moves_left + 0.8 * self.increment
        return max(0.02, min(share, left / 3))

    def run(self, side: int, on_flag: Callable[[int], None]) -> None:
        """Run ``side``'s clock (the other one stops without its increment) and call ``on_flag(side)`` when its
        time runs out."""
        if self.flagged is not None:
            return
        if self.running != side:
            self.stop(increment=False)
            self.running, self.since = side, time.monotonic()
        self._watch(on_flag)

    def _watch(self, on_flag: Callable[[int], None]) -> None:
        self.halt(stop=False)
        if self.running is not None:
            self._timer = asyncio.get_running_loop().call_later(self.left(self.running) + 0.01, self._check, on_flag)

    def _check(self, on_flag: Callable[[int], None]) -> None:
        self._timer = None
        side = self.running
        if side is None or self.flagged is not None:
            return
        if self.left(side) > 0:
            self._watch(on_flag)  # woken early (the clock moved on): sleep again
            return
        self.remaining[side], self.running, self.flagged = 0.0, None, side
        on_flag(side)

    def halt(self, stop: bool = True) -> None:
        """Stop the timer, and (``stop``) the running clock without its increment: the game ended or stopped."""
        if stop:
            self.stop(increment=False)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def view(self) -> dict[str, float | int | list[float] | None]:
        now = time.monotonic()
        return {"initial": self.initial, "increment": self.increment,
                "remaining": [round(self.left(p, now), 2) for p in (0, 1)], "running": self.running,
                "flagged": self.flagged}
