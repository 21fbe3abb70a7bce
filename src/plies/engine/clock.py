"""A player's clock for a whole game, and how much of it one move may use.

Two ways to give the engine time, both through ``Clock``:

* ``time=T`` (``Clock.per_move(T)``): T seconds a move on average over the game.  Each move is credited T;
  what a move does not use (a book move, a forced one, an easy one) is kept for later moves, which may then
  take more, but never more than ``PER_MOVE_CAP`` times T.  The last moves, from the empties where the engine
  solves the endgame exactly in milliseconds (``time_exact_empties(T)``), are known to leave their credit
  unused: the moves before them share it out in advance.
* ``clock=M+I`` (``Clock.game(M * 60, I)``): a game clock of M minutes with I seconds added after each move
  (Fischer), as NBoard, GGS and Egaroucid players expect.  It is spread over the moves still to think about
  (about half the empties, less the last ones that are solved exactly in no time), a little is kept back for
  the time an answer takes to travel, and a move never takes the clock below zero.

``budget(empties)`` gives (aim, limit): the seconds to aim for and the hard limit, which
``Engine.search(time=aim, max_time=limit)`` takes: it goes past the aim only when the position needs it (the
best move changed at the last depth), never past the limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from plies.engine.api import time_exact_empties
from plies.game import PliesError

PER_MOVE_CAP = 2.0
"""``time=T``: no move takes longer than this many times T."""
SPREAD = 3.0
"""A move may take up to this many times its aim when the position needs it."""
SOLVED_EMPTIES = 12
"""Empties below which the engine's moves are exact solves that take next to nothing: not budgeted for."""
MIN_MOVES = 3.0
"""The clock is never spread over fewer moves than this."""
RESERVE = 0.05
"""Seconds of a game clock kept back for the answer's way to the clock (and the share ``RESERVE_SHARE``)."""
RESERVE_SHARE = 0.02


@dataclass
class Clock:
    """A player's time: ``remaining`` seconds it may spend now, ``increment`` credited after each move, and for
    ``time=T`` the cap of one move (``cap``)."""

    remaining: float
    increment: float = 0.0
    cap: float | None = None
    averaged: bool = False  # time=T: each move's own credit, no reserve kept back (no clock to travel to)

    def __post_init__(self) -> None:
        for name in ("remaining", "increment"):
            v = getattr(self, name)
            if not math.isfinite(v) or v < 0:
                raise PliesError(f"clock: {name} must be a finite number of seconds, 0 or more")

    @classmethod
    def per_move(cls, seconds: float) -> Clock:
        """``time=T``: T seconds a move on average, what a move leaves over kept for the next ones."""
        if not (math.isfinite(seconds) and seconds > 0):
            raise PliesError("time must be a positive, finite number of seconds")
        return cls(seconds, seconds, PER_MOVE_CAP * seconds, averaged=True)

    @classmethod
    def game(cls, seconds: float, increment: float = 0.0) -> Clock:
        """A game clock: ``seconds`` for the whole game, ``increment`` added after each move."""
        if not (math.isfinite(seconds) and seconds > 0):
            raise PliesError("clock: the game's time must be a positive, finite number of minutes")
        return cls(seconds, increment)

    def budget(self, empties: int) -> tuple[float, float]:
        """(aim, limit) in seconds for the next move, ``empties`` squares empty."""
        moves = max(MIN_MOVES, (empties - SOLVED_EMPTIES) / 2)
        if self.averaged:
            spare = self.remaining - self.increment  # what earlier moves left over (or took in advance)
            solved = time_exact_empties(self.increment)  # from here the moves are exact solves of no time
            thinking = max(MIN_MOVES, (empties - solved) / 2)
            ahead = self.increment * max(0, min(empties - 2, solved)) / 2  # the credit of those moves after this one
            aim = self.increment + (spare + ahead) / thinking
            limit = self.remaining + ahead
        else:
            usable = max(0.0, self.remaining - RESERVE - RESERVE_SHARE * self.remaining)
            aim = usable / moves + 0.9 * self.increment
            limit = usable
        limit = min(limit, SPREAD * aim)
        if self.cap is not None:
            limit = min(limit, self.cap)
        limit = max(limit, 0.01)
        aim = max(0.005, min(aim, limit))
        return aim, limit

    def spend(self, seconds: float) -> None:
        """A move took ``seconds``: off the clock, and the increment on."""
        left = self.remaining - max(0.0, seconds)
        # time=T keeps a debt (a move that took its share of the last moves' credit in advance); a clock cannot
        self.remaining = (left if self.averaged else max(0.0, left)) + self.increment


def parse_clock(text: str) -> Clock:
    """``5`` (minutes) or ``5+2`` (minutes, then seconds added a move) as a game clock; PliesError otherwise."""
    minutes, _, inc = text.partition("+")
    try:
        m = float(minutes)
        i = float(inc) if inc else 0.0
    except ValueError:
        raise PliesError(f"clock must be MINUTES or MINUTES+SECONDS (such as 5 or 3+2), not {text!r}") from None
    if not (math.isfinite(m) and m > 0 and math.isfinite(i) and i >= 0):
        raise PliesError(f"clock must be MINUTES or MINUTES+SECONDS (such as 5 or 3+2), not {text!r}")
    return Clock.game(60 * m, i)


__all__ = ["PER_MOVE_CAP", "Clock", "parse_clock"]
