"""Engine levels: 1-5 are document 001's difficulty (the search depth); higher levels search deeper and
solve the endgame exactly from more empty squares.  ``LEVELS`` is the table the docs and ``--help`` show."""

from __future__ import annotations

from dataclasses import dataclass

from plies.game import ParseError


@dataclass(frozen=True)
class Level:
    """One level: midgame search ``depth`` (plies) and the number of empties from which it solves exactly."""

    level: int
    depth: int
    exact_empties: int
    note: str = ""


LEVELS: dict[int, Level] = {
    lv.level: lv
    for lv in (
        Level(1, 1, 1, "document 001's difficulty 1: one ply"),
        Level(2, 2, 2, "document 001's difficulty 2"),
        Level(3, 3, 3, "document 001's difficulty 3"),
        Level(4, 4, 4, "document 001's difficulty 4"),
        Level(5, 5, 5, "document 001's difficulty 5 (its hardest)"),
        Level(6, 6, 10, "instant"),
        Level(7, 8, 12, "under 0.1 s a move"),
        Level(8, 10, 14, "0.1-0.5 s a move (the default)"),
        Level(9, 11, 16, "under a second a move"),
        Level(10, 12, 18, "about a second a move"),
        Level(11, 13, 20, "a few seconds a move"),
        Level(12, 14, 22, "about 10 s a move"),
        Level(13, 16, 24, "analysis: 1-2 minutes a move"),
        Level(14, 18, 26, "deep analysis: many minutes a move"),
    )
}
DEFAULT_LEVEL = 8
MAX_LEVEL = max(LEVELS)


def get_level(level: int) -> Level:
    """The level's row; ParseError for a level outside the table."""
    if level not in LEVELS:
        raise ParseError(f"engine level must be 1 to {MAX_LEVEL}, not {level}")
    return LEVELS[level]


def table_markdown() -> str:
    """The level table in Markdown (for docs and ``plies engine levels``)."""
    rows = ["| level | midgame depth | exact solve from | note |", "|---|---|---|---|"]
    for lv in LEVELS.values():
        rows.append(f"| {lv.level} | {lv.depth} | {lv.exact_empties} empties | {lv.note} |")
    return "\n".join(rows)
