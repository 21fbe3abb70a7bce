"""Engine levels: 1-5 search as deep as document 001's difficulty (the level is the depth) and play like
learners (seeded random slips, fewer and smaller as the level grows); from 6 up the full engine searches
deeper and solves the endgame exactly from more empty squares, and plays the opening book.  The table stops
at 12, the deepest level measured stronger than the one below it; deeper play is asked for by its settings
(``engine:depth=14,exact=22``, ``engine:time=30``), not by a level number.
``LEVELS`` is the one table that ``plies levels``, the README, the start screens of ``plies play`` and the
browser show; its times are measured by ``benchmarks/engine_levels.py`` (self-play from the ladder's random
openings, the mean and the 95th percentile of the wall time a move)."""

from __future__ import annotations

from dataclasses import dataclass

from plies.game import ParseError
from plies.i18n import _


@dataclass(frozen=True)
class Level:
    """One level: midgame search ``depth`` (plies), the number of empties from which it solves exactly, and
    ``temperature`` (in discs): above 0 the level plays like a learner, picking each move at random with
    weight exp(-(best value - move value) / temperature), so near-best moves are common and real blunders
    rare; 0 is the full engine, which also plays from the opening book."""

    level: int
    depth: int
    exact_empties: int
    note: str = ""
    temperature: float = 0.0
    seconds: float = 0.0
    """Mean wall time a move, measured (``benchmarks/engine_levels.py``)."""
    p95: float = 0.0
    """95th percentile of the wall time a move (the slow moves: the middle game, the first exact solve)."""

    @property
    def book(self) -> bool:
        """Whether the level plays the opening book's moves (the full-strength levels do)."""
        return self.temperature == 0.0

    @property
    def time_text(self) -> str:
        """``40 ms a move (95% under 0.12 s)``: the measured times, as every front-end shows them."""
        return _("{time} a move (95% under {slow})").format(time=seconds_text(self.seconds),
                                                            slow=seconds_text(self.p95))

    @property
    def summary(self) -> str:
        """One line for menus: ``depth 10, exact from 14 empties, 40 ms a move (95% under 0.12 s)``."""
        return _("depth {depth}, exact from {empties} empties, {time}").format(
            depth=self.depth, empties=self.exact_empties, time=self.time_text)


def seconds_text(seconds: float) -> str:
    """A measured time as people read it: ``0.2 ms``, ``52 ms``, ``0.15 s``, ``1 s``."""
    if seconds < 0.001:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2g} s"


LEVELS: dict[int, Level] = {
    lv.level: lv
    for lv in (
        Level(1, 1, 1, "beginner: often a weaker move", 6.0, 0.00022, 0.00029),
        Level(2, 2, 2, "novice: a weaker move now and then", 4.0, 0.000335, 0.000555),
        Level(3, 3, 3, "club player: small slips", 2.5, 0.00063, 0.00135),
        Level(4, 4, 4, "strong club player: rare slips", 1.5, 0.001, 0.0023),
        Level(5, 5, 5, "slips between near-equal moves", 0.75, 0.0018, 0.0036),
        Level(6, 6, 10, "full engine from here on", 0.0, 0.00105, 0.00215),
        Level(7, 8, 12, "", 0.0, 0.00255, 0.00595),
        Level(8, 10, 14, "the default", 0.0, 0.0063, 0.0158),
        Level(9, 11, 16, "", 0.0, 0.0087, 0.0239),
        Level(10, 12, 18, "", 0.0, 0.01895, 0.06095),
        Level(11, 13, 20, "", 0.0, 0.03085, 0.09235),
        Level(12, 16, 22, "the strongest level", 0.0, 0.1131, 0.4163),
    )
}
"""Times: ``python benchmarks/engine_levels.py --cpu`` (4 games; levels 10 and up: 2), CPU seconds a move on one
thread, the mean of two runs on the 2-core AMD EPYC VM (AVX2)."""
DEFAULT_LEVEL = 8
MAX_LEVEL = max(LEVELS)


def get_level(level: int) -> Level:
    """The level's row; ParseError for a level outside the table."""
    if level not in LEVELS:
        deeper = " (for deeper play name it: engine:depth=14,exact=22 or engine:time=30)" if level > MAX_LEVEL else ""
        raise ParseError(f"engine level must be 1 to {MAX_LEVEL}, not {level}{deeper}")
    return LEVELS[level]
