"""Export of stored games: a CSV table (one row per game) and a transcript file (PGN-like tags + moves)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from plies.games.record import join_moves, move_separator
from plies.match.runner import Finished

CSV_COLUMNS = [
    "index", "pair", "slot", "black", "white", "black_spec", "white_spec", "opening", "opening_moves", "seed",
    "winner", "result", "score", "termination", "detail", "plies", "black_seconds", "white_seconds", "seconds",
    "moves", "final", "started_at", "finished_at", "worker",
]


def result_tag(f: Finished) -> str:
    """``1-0`` (Black won), ``0-1`` or ``1/2-1/2``."""
    w = f.record.winner
    return "1/2-1/2" if w is None else "1-0" if w == 0 else "0-1"


def _side_seconds(f: Finished) -> tuple[float, float]:
    """Thinking time of the side that moved at each ply (passes included), summed per colour."""
    from plies.match.openings import parse_opening

    first = parse_opening(f.planned.opening.position, f.planned.game).to_move
    totals = [0.0, 0.0]
    side = first
    for t in f.record.times:
        totals[side] += t
        side = 1 - side
    return round(totals[0], 3), round(totals[1], 3)


def csv_text(games: Iterable[Finished]) -> str:
    """All games as CSV with a header row (``CSV_COLUMNS``)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for f in games:
        g, r = f.planned, f.record
        bs, ws = _side_seconds(f)
        w.writerow([
            g.index, g.pair, g.slot, g.black.name, g.white.name, g.black.spec, g.white.spec, g.opening.position,
            g.opening.moves, g.seed, "" if r.winner is None else (g.black.name, g.white.name)[r.winner],
            result_tag(f), f"{r.score:g}", r.termination, r.detail, len(r.moves), bs, ws, f.seconds,
            join_moves(r.moves), r.final, r.started_at, f.finished_at, f.worker,
        ])
    return out.getvalue()


def transcript_text(games: Iterable[Finished], event: str = "") -> str:
    """Every game as tags in brackets, a blank line, the moves (numbered per ply pair) and the result; a game whose
    moves hold a space (HexThello ``7 3``) has them separated by commas (``1. 6 9, 6 10, 2. 7 3, pass``)."""
    parts = []
    for f in games:
        g, r = f.planned, f.record
        tags = {
            "Event": event, "Game": str(g.index + 1), "Round": f"{g.slot + 1}.{g.pair + 1}", "Black": g.black.name,
            "White": g.white.name, "Variant": g.game, "Opening": g.opening.moves or g.opening.position,
            "Position": r.start, "Result": result_tag(f), "Score": f"{r.score:g}",
            "Termination": r.termination if not r.detail else f"{r.termination}: {r.detail}",
            "Date": r.started_at, "Seed": str(g.seed),
        }
        lines = [f'[{k} "{_esc(v)}"]' for k, v in tags.items() if v != ""]
        sep = move_separator(r.moves)
        moves = [f"{i // 2 + 1}. {sep.join(r.moves[i:i + 2])}" for i in range(0, len(r.moves), 2)]
        items = [m + sep.rstrip() for m in moves[:-1]] + moves[-1:]  # no comma between the last move and the result
        body = _wrap([*items, result_tag(f)])
        parts.append("\n".join(lines) + "\n\n" + body + "\n")
    return "\n".join(parts)


def _esc(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(items: list[str], width: int = 100) -> str:
    """The items separated by spaces, in lines of at most ``width`` characters; an item is never split."""
    out, line = [], ""
    for word in items:
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)


__all__ = ["CSV_COLUMNS", "csv_text", "result_tag", "transcript_text"]
