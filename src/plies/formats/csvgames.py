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
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for i, g in enumerate(games, 1):
        score = g.score()
        winner = "" if score is None else "black" if score > 0 else "white" if score < 0 else "draw"
        w.writerow([
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


__all__ = ["COLUMNS", "read_csv", "write_csv"]
