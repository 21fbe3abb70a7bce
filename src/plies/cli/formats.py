"""``plies show`` and ``plies convert``: read any standard Othello format (detected automatically), print it
or write it in another one."""

from __future__ import annotations

import io
import json
import shutil
import sys
import tempfile
from itertools import islice
from pathlib import Path
from typing import IO, Any

import click
from rich.table import Table
from rich.text import Text

from plies.formats import board as board_fmt
from plies.formats import csvgames, ggf, obf, transcript, wthor
from plies.formats.detect import FORMATS, Loaded
from plies.formats.model import OthelloGame
from plies.formats.stream import Stream, open_source
from plies.game import PASS, PliesError
from plies.outfiles import write_whole

from ._common import console, json_option
from .schema import GameJson, PositionJson

TARGETS = ("ggf", "transcript", "obf", "csv", "board", "wtb")
EXTENSIONS = {".ggf": "ggf", ".txt": "transcript", ".obf": "obf", ".csv": "csv", ".wtb": "wtb", ".board": "board"}


def _open(source: str, fmt: str | None) -> Stream:
    return open_source(source, fmt)


def game_json(g: OthelloGame) -> GameJson:
    score = g.score()
    final = g.final
    return {
        "black": g.black, "white": g.white, "date": g.date, "place": g.place,
        "result": score, "finished": final.is_over(),
        "moves": g.move_names(), "evals": g.evals, "times": g.times,
        "transcript": transcript.write_transcript(g),
        "start": board_fmt.write_board(g.start), "final": board_fmt.write_board(final),
        "props": g.props,
    }


def position_json(p: obf.ObfPosition) -> PositionJson:
    s = p.state
    return {
        "board": board_fmt.write_board(s), "to_move": "black" if s.to_move == 0 else "white",
        "empties": s.empties(), "legal": [s.move_str(m) for m in s.legal_moves()],
        "scores": {("pass" if m == PASS else s.move_str(m)): v for m, v in p.scores.items()},
        "best_score": p.best_score, "best_moves": [s.move_str(m) for m in p.best_moves],
        "id": p.id, "comment": p.comment,
    }


def _result_text(g: OthelloGame) -> str:
    score = g.score()
    if score is None:
        return "?"
    return f"{score:+g}" + ("" if g.final.is_over() else " (stated)")


@click.command("show")
@click.argument("source")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None, help="Skip detection.")
@click.option("--limit", type=click.IntRange(1), default=None,
              help="Show at most this many games/positions (a large file is read no further).")
@json_option
def show(source: str, fmt: str | None, limit: int | None, as_json: bool) -> None:
    """Print the game(s) or position(s) in SOURCE: a file (transcript, board, OBF, GGF, WTHOR .wtb/.JOU/.TRN),
    '-' for stdin, or the text itself (e.g. 'f5d6c3').  The format is detected automatically."""
    data = _open(source, fmt)
    if as_json:
        _show_json(data, limit)
        return
    limit = limit or 20
    items = list(islice(data.items, limit + 1))
    more = len(items) > limit
    items = items[:limit]
    head = Text(data.format, style="bold")
    if data.source:
        head.append(f" from {data.source}")  # a file name is text, never markup
    console.print(head)
    if data.kind == "names":
        for i, name in enumerate(items):
            click.echo(f"{i:5d}  {name}")
    elif data.kind == "games" and len(items) == 1 and not more:
        g = items[0]
        if g.black or g.white:
            click.echo(f"Black: {g.black or '?'}   White: {g.white or '?'}" + (f"   ({g.date})" if g.date else ""))
        click.echo(f"Result (Black's view): {_result_text(g)}   moves: {sum(1 for m in g.moves if m != PASS)}")
        click.echo(transcript.write_transcript(g, style="playok"))
        if any(v is not None for v in g.evals) or any(t is not None for t in g.times):
            names = g.move_names()
            click.echo("  ".join(f"{n}({'' if e is None else f'{e:g}'}/{'' if t is None else f'{t:g}s'})"
                                 for n, e, t in zip(names, g.evals, g.times, strict=False)))
        click.echo(g.final.board_str())
    elif data.kind == "games" and items:
        table = Table("#", "Black", "White", "Result", "Moves", "Transcript")
        for i, g in enumerate(items, 1):
            t = transcript.write_transcript(g)
            table.add_row(str(i), Text(g.black), Text(g.white), _result_text(g),
                          str(sum(1 for m in g.moves if m != PASS)), t if len(t) <= 40 else t[:38] + "..")
        console.print(table)
    elif data.kind == "positions":
        for p in items:
            s = p.state
            side = "Black (X)" if s.to_move == 0 else "White (O)"
            click.echo(s.board_str())
            extra = f"   % {p.comment}" if p.comment else f"   (#{p.id})" if p.best_given and p.id is not None else ""
            click.echo(f"{side} to move, {s.empties()} empties{extra}")
            if p.scores:
                click.echo("scores: " + ", ".join(f"{'pass' if m == PASS else s.move_str(m)} {v:+d}"
                                                  for m, v in sorted(p.scores.items(), key=lambda kv: -kv[1])))
            elif p.best is not None:
                best = ", ".join(s.move_str(m) for m in p.best_moves)
                click.echo(f"score: {p.best:+d}" + (f"   best: {best}" if best else ""))
    if more:
        _more(data.total, limit, data.kind)


def _show_json(data: Stream, limit: int | None) -> None:
    """One JSON object, written a game at a time (a large file never sits in memory as a whole) to a spool file
    (in memory up to ``SPOOL`` bytes, then on disk) that goes to stdout once it is complete: a file that turns
    out bad half-way leaves nothing on stdout, only the error line on stderr."""
    with tempfile.SpooledTemporaryFile(SPOOL, mode="w+", encoding="utf-8") as spool:
        _write_json(data, limit, spool)
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout)
    sys.stdout.flush()


SPOOL = 8 << 20
"""Bytes of ``show --json`` output kept in memory before the spool moves to a temporary file."""


def _write_json(data: Stream, limit: int | None, out: IO[str]) -> None:
    out.write('{"format": ' + json.dumps(data.format) + ', "source": ' + json.dumps(data.source))
    shown = 0
    more = False
    for kind in ("games", "positions", "names"):
        out.write(f', "{kind}": [')
        if kind == data.kind:
            for item in data.items:
                out.write((", " if shown else "") + json.dumps(
                    game_json(item) if kind == "games" else position_json(item) if kind == "positions" else item,
                    default=str))
                shown += 1
                if limit is not None and shown >= limit:
                    more = _more_after(data)
                    break
        out.write("]")
    count = data.total if data.total is not None else (None if more else shown)
    out.write(', "count": ' + json.dumps(count) + ', "more": ' + json.dumps(more or (
        data.total is not None and data.total > shown)) + "}\n")


def _more_after(data: Stream) -> bool:
    """Whether ``data`` holds more items than were taken: from its known total, else by reading one more (an item
    past the limit that cannot be read still counts as more, as the limit asked not to show it)."""
    if data.total is not None:
        return False  # the caller compares the total with what was shown
    try:
        next(data.items)
    except StopIteration:
        return False
    except PliesError:
        return True
    return True


def _more(total: int | None, limit: int, what: str) -> None:
    if total is not None:
        click.echo(f"... {total - limit} more {what} ({total} in all; use --limit)")
    else:
        click.echo(f"... more {what} follow (use --limit N to see more)")


def convert_data(data: Loaded | Stream, to: str, passes: bool = False) -> str | bytes:
    """``data`` written in format ``to`` (see TARGETS), as one text or bytes."""
    buf = io.BytesIO() if to == "wtb" else io.StringIO()
    convert_stream(_as_stream(data), to, buf, passes)
    return buf.getvalue()


def _as_stream(data: Loaded | Stream) -> Stream:
    if isinstance(data, Stream):
        return data
    for kind in ("games", "positions", "names"):
        items = getattr(data, kind)
        if items:
            return Stream(data.format, kind, iter(items), len(items), data.source)
    return Stream(data.format, "games", iter(()), 0, data.source)


def convert_stream(data: Stream, to: str, out: Any, passes: bool = False) -> int:
    """Write ``data`` to the open file ``out`` (binary for wtb, else text) in format ``to``, one game or position at
    a time; returns how many were written.  Games go to ggf, transcript, csv or wtb; positions to obf or board (a
    game gives its final position); positions to ggf become set-up games without moves."""
    if to not in TARGETS:
        raise PliesError(f"cannot convert to {to!r}; use one of {', '.join(TARGETS)}")
    kind = data.kind
    want = "positions" if to in ("obf", "board") else "games"
    if kind == "names" or (want == "games" and kind == "positions" and to != "ggf"):
        raise PliesError(f"nothing to write as {to}: the input holds no games")
    count = 0
    if to == "wtb":
        start = out.tell() if out.seekable() else None
        out.write(b"\0" * wthor.HEADER_SIZE)
    elif to == "csv":
        out.write(csvgames.header())
    for item in data.items:
        if to in ("obf", "board"):
            p = item if kind == "positions" else obf.ObfPosition(item.final)  # a game's final position
            out.write(obf.write_obf([p]) if to == "obf" else board_fmt.write_board(p.state) + "\n")
        elif to == "ggf":
            g = item if kind == "games" else OthelloGame(start=item.state)  # a set-up position, no moves yet
            out.write(ggf.write_ggf(g) + "\n")
        elif to == "transcript":
            if item.start.to_text() != OthelloGame().start.to_text() and item.start.n == 8:
                raise PliesError("a transcript cannot hold a game that starts from a set-up position; use ggf")
            out.write(transcript.write_transcript(item, passes=passes) + "\n")
        elif to == "csv":
            out.write(csvgames.row(count + 1, item))
        else:
            out.write(wthor.WthorGame.from_game(item).to_bytes())
        count += 1
    if not count:
        raise PliesError(f"nothing to write as {to}: the input holds no {want}")
    if to == "wtb":
        header = wthor.WthorHeader(n1=count).to_bytes()
        if start is None:
            raise PliesError("a .wtb file is written to a file, not a pipe")  # pragma: no cover
        end = out.tell()
        out.seek(start)
        out.write(header)
        out.seek(end)
    return count


@click.command("convert")
@click.argument("source")
@click.argument("target")
@click.option("--to", "to", type=click.Choice(TARGETS), default=None,
              help="Output format (default: from TARGET's extension).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None, help="Input format (default: detect).")
@click.option("--passes", is_flag=True, help="Write forced passes in transcripts.")
def convert(source: str, target: str, to: str | None, fmt: str | None, passes: bool) -> None:
    """Convert SOURCE (file, '-' or text; any format 'plies show' reads) to TARGET ('-' = stdout).

    Games go to ggf, transcript, csv or wtb (WTHOR); positions to obf or board (games give their final
    position); positions to ggf become set-up games without moves.
    """
    if to is None:
        to = EXTENSIONS.get(Path(target).suffix.lower())
        if to is None:
            raise PliesError(f"cannot tell the output format from {target!r}; add --to {'|'.join(TARGETS)}")
    data = _open(source, fmt)
    if target == "-":
        if to == "wtb":
            out_bytes = convert_data(data, to, passes)
            sys.stdout.buffer.write(out_bytes if isinstance(out_bytes, bytes) else out_bytes.encode("utf-8"))
            sys.stdout.buffer.flush()
        else:
            convert_stream(data, to, sys.stdout, passes)
            sys.stdout.flush()
        return
    kind = data.kind
    count = 0

    def write(path: str) -> None:
        nonlocal count
        with open(path, "wb") if to == "wtb" else open(path, "w", encoding="utf-8", newline="") as out:
            count = convert_stream(data, to, out, passes)

    try:
        write_whole(target, write)
    except OSError as e:
        raise PliesError(f"cannot write {target}: {e.strerror}") from None
    what = "games" if kind == "games" and to not in ("obf", "board") else "positions" if kind == "positions" else \
        "games"
    click.echo(f"wrote {count} {what} as {to} to {target}", err=True)


def register(main_group: click.Group) -> None:
    main_group.add_command(show)
    main_group.add_command(convert)
