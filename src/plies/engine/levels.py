"""Engine levels: 1-5 search as deep as document 001's difficulty (the level is the depth) and play like
learners (seeded random slips, fewer and smaller as the level grows); from 6 up the full engine searches
deeper and solves the endgame exactly from more empty squares, and plays the opening book.  The table stops
at 11, the deepest level measured stronger than the one below it; deeper play is asked for by its settings
(``engine:depth=14,exact=22``, ``engine:time=30``), not by a level number.
``LEVELS`` is the table the docs and ``--help`` show."""

from __future__ import annotations

from dataclasses import dataclass

from plies.game import ParseError


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

    @property
    def book(self) -> bool:
        """Whether the level plays the opening book's moves (the full-strength levels do)."""
        return self.temperature == 0.0


LEVELS: dict[int, Level] = {
    lv.level: lv
    for lv in (
        Level(1, 1, 1, "beginner: one ply, often picks a weaker move", 6.0),
        Level(2, 2, 2, "novice: two plies, picks a weaker move now and then", 4.0),
        Level(3, 3, 3, "club player: three plies, small slips", 2.5),
        Level(4, 4, 4, "strong club player: four plies, rare slips", 1.5),
        Level(5, 5, 5, "five plies, slips only between near-equal moves", 0.75),
        Level(6, 6, 10, "full engine from here on: instant"),
        Level(7, 8, 12, "under 0.1 s a move"),
        Level(8, 10, 14, "about 0.25 s a move (the default)"),
        Level(9, 11, 16, "about a second a move"),
        Level(10, 12, 18, "about 2 s a move"),
        Level(11, 13, 20, "a few seconds a move (the strongest level)"),
    )
}
DEFAULT_LEVEL = 8
MAX_LEVEL = max(LEVELS)


def get_level(level: int) -> Level:
    """The level's row; ParseError for a level outside the table."""
    if level not in LEVELS:
        deeper = " (for deeper play name it: engine:depth=14,exact=22 or engine:time=30)" if level > MAX_LEVEL else ""
        raise ParseError(f"engine level must be 1 to {MAX_LEVEL}, not {level}{deeper}")
    return LEVELS[level]


def table_markdown() -> str:
    """The level table in Markdown (for docs and ``plies engine levels``)."""
    rows = ["| level | midgame depth | exact solve from | slips (temperature, discs) | book | note |",
            "|---|---|---|---|---|---|"]
    for lv in LEVELS.values():
        slips = f"{lv.temperature:g}" if lv.temperature else "none"
        rows.append(f"| {lv.level} | {lv.depth} | {lv.exact_empties} empties | {slips} | "
                    f"{'yes' if lv.book else 'no'} | {lv.note} |")
    return "\n".join(rows)
