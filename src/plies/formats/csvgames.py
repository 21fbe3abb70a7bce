"""Games as CSV rows (one game a row) for spreadsheets and pandas: players, result, moves, transcript."""

from __future__ import annotations

import csv
import io

from .board import write_board
from .model import OthelloGame
from .transcript import write_transcript

COLUMNS = ("index", "black", "white", "result", "winner", "moves", "transcript", "start", "date", "event")


def write_csv(games: list[OthelloGame]) -> str:
    """A header row, then one row per game; ``result`` is Black's disc difference (empty if unknown)."""
    return header() + "".join(row(i, g) for i, g in enumerate(games, 1))


def header() -> str:
    """The header row (for writing games one at a time with ``row``)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(COLUMNS)
    return buf.getvalue()


def row(i: int, g: OthelloGame) -> str:
    """Game number ``i``'s row."""
    buf = io.StringIO()
    score = g.score()
    winner = "" if score is None else "black" if score > 0 else "white" if score < 0 else "draw"
    csv.writer(buf, lineterminator="\n").writerow([
        i, g.black, g.white, "" if score is None else f"{score:+g}", winner,
        sum(1 for m in g.moves if m >= 0), write_transcript(g), write_board(g.start), g.date,
        g.props.get("tournament", g.place),
    ])
    return buf.getvalue()


def read_csv(text: str) -> list[OthelloGame]:
    """Games back from ``write_csv`` output (start, transcript, players, date)."""
    from .board import read_board
    from .transcript import read_transcript

    games = []
    for row in csv.DictReader(io.StringIO(text)):
        g = read_transcript(row["transcript"], start=read_board(row["start"]))
        g.black, g.white, g.date = row["black"], row["white"], row["date"]
        if row.get("result"):
            g.result = float(row["result"])
        games.append(g)
    return games


__all__ = ["COLUMNS", "header", "read_csv", "row", "write_csv"]
